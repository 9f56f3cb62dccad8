import type {
  ChartResponse,
  EnlargeRequest,
  ExcursionsResponse,
  ExtendRequest,
  MonitoringAccount,
  MonitoringPlans,
  MonitoringTrade,
  Page,
  PingPeriod,
  PingResponse,
  PositionsResponse,
  PublicAccountResponse,
  StatisticsResponse,
  SubscribeRequest,
  StrategyResponse,
  SubscribedResponse,
  Subscription,
  UpdateAccountRequest,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import type { Idempotent } from '../../../shared/api/idempotent';
import { refreshAfterOwnMoney } from '../../../shared/live/balance-refreshes';

export interface AddAccountBody {
  subscription_id: number;
  login: string;
  platform: 'MT4' | 'MT5';
  name: string;
  email: string;
}

export interface RangeArgs {
  id: number;
  from?: string;
  to?: string;
}

export const TRADES_PER_PAGE = 20;

/**
 * MonitoringAccounts: everything of the reader's accounts (a new answer of the account refreshes
 * it all); MonitoringStatistics and MonitoringTrades (by account id): the statistics and the trade
 * history alone, which a strategy's name changes (the name is joined as they are read).
 */
const TAGS = [
  'MonitoringPlans',
  'MonitoringSubscriptions',
  'MonitoringAccounts',
  'MonitoringStatistics',
  'MonitoringTrades',
] as const;
const api = baseApi.enhanceEndpoints({ addTagTypes: TAGS });
const CHARGES = { type: 'Charges', id: 'LIST' } as const;
const paid = ['MonitoringSubscriptions', 'MonitoringPlans'] as const;

/** What shows a strategy's name: the account's statistics (its breakdowns) and trades. */
const strategyShown = (id: number) => [
  { type: 'MonitoringStatistics' as const, id },
  { type: 'MonitoringTrades' as const, id },
];

/** Online monitoring: the reader's plans, subscriptions, accounts and figures, and public pages. */
export const monitoringApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMonitoringPlans: build.query<MonitoringPlans, void>({
      query: () => '/user/monitoring/plans',
      providesTags: ['MonitoringPlans'],
      extraOptions: SILENT,
    }),
    getSubscriptions: build.query<Subscription[], void>({
      query: () => '/user/monitoring/subscriptions',
      transformResponse: (r: { subscriptions: Subscription[] }) => r.subscriptions,
      providesTags: ['MonitoringSubscriptions'],
      extraOptions: SILENT,
    }),
    takeFreePlan: build.mutation<SubscribedResponse, void>({
      query: () => ({ url: '/user/monitoring/subscriptions/free', method: 'POST' }),
      invalidatesTags: (result) => (result ? ['MonitoringSubscriptions', 'MonitoringPlans'] : []),
      extraOptions: SILENT,
    }),
    subscribe: build.mutation<SubscribedResponse, Idempotent<SubscribeRequest>>({
      query: ({ body, idempotencyKey }) => ({
        url: '/user/monitoring/subscriptions',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // the balance and the charges are the live update's to refresh (balance-refreshes.ts)
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) =>
        refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES),
      invalidatesTags: (result) => (result ? [...paid] : []),
      extraOptions: SILENT,
    }),
    extendSubscription: build.mutation<
      SubscribedResponse,
      Idempotent<ExtendRequest & { id: number }>
    >({
      query: ({ body: { id, ...body }, idempotencyKey }) => ({
        url: `/user/monitoring/subscriptions/${id}/extend`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // the balance and the charges are the live update's to refresh (balance-refreshes.ts)
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) =>
        refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES),
      invalidatesTags: (result) => (result ? [...paid] : []),
      extraOptions: SILENT,
    }),
    enlargeSubscription: build.mutation<
      SubscribedResponse,
      Idempotent<EnlargeRequest & { id: number }>
    >({
      query: ({ body: { id, ...body }, idempotencyKey }) => ({
        url: `/user/monitoring/subscriptions/${id}/enlarge`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // the balance and the charges are the live update's to refresh (balance-refreshes.ts)
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) =>
        refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES),
      invalidatesTags: (result) => (result ? [...paid] : []),
      extraOptions: SILENT,
    }),
    /** The activation key, shown on request; never cached. */
    revealKey: build.mutation<string, number>({
      query: (id) => ({ url: `/user/monitoring/subscriptions/${id}/key`, method: 'POST' }),
      transformResponse: (r: { key: string }) => r.key,
      extraOptions: SILENT,
    }),
    regenerateKey: build.mutation<string, number>({
      query: (id) => ({
        url: `/user/monitoring/subscriptions/${id}/key/regenerate`,
        method: 'POST',
      }),
      transformResponse: (r: { key: string }) => r.key,
      extraOptions: SILENT,
    }),
    getMonitoringAccounts: build.query<MonitoringAccount[], void>({
      query: () => '/user/monitoring/accounts',
      transformResponse: (r: { accounts: MonitoringAccount[] }) => r.accounts,
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    /** The reader's account of a public id alone, for its page (null: not theirs). */
    getOwnMonitoringAccount: build.query<MonitoringAccount | null, string>({
      query: (monitoringId) => ({
        url: '/user/monitoring/accounts',
        params: { monitoring_id: monitoringId },
      }),
      transformResponse: (r: { accounts: MonitoringAccount[] }, _meta, monitoringId) =>
        r.accounts.find((a) => a.monitoring_id === monitoringId) ?? null,
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    addAccount: build.mutation<MonitoringAccount, AddAccountBody>({
      query: (body) => ({ url: '/user/monitoring/accounts', method: 'POST', body }),
      transformResponse: (r: { account: MonitoringAccount }) => r.account,
      invalidatesTags: (result) =>
        result ? ['MonitoringAccounts', 'MonitoringSubscriptions'] : [],
      extraOptions: SILENT,
    }),
    updateAccount: build.mutation<MonitoringAccount, UpdateAccountRequest & { id: number }>({
      query: ({ id, ...body }) => ({
        url: `/user/monitoring/accounts/${id}`,
        method: 'PATCH',
        body,
      }),
      transformResponse: (r: { account: MonitoringAccount }) => r.account,
      invalidatesTags: (result) => (result ? ['MonitoringAccounts'] : []),
      extraOptions: SILENT,
    }),
    deleteAccount: build.mutation<void, number>({
      query: (id) => ({ url: `/user/monitoring/accounts/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) =>
        error ? [] : ['MonitoringAccounts', 'MonitoringSubscriptions'],
      extraOptions: SILENT,
    }),
    getStatistics: build.query<StatisticsResponse, RangeArgs>({
      query: ({ id, from, to }) => ({
        url: `/user/monitoring/accounts/${id}/statistics`,
        params: { from, to },
      }),
      providesTags: (_result, _error, { id }) => [
        'MonitoringAccounts',
        { type: 'MonitoringStatistics', id },
      ],
      extraOptions: SILENT,
    }),
    getChart: build.query<ChartResponse, number>({
      query: (id) => `/user/monitoring/accounts/${id}/chart`,
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    /** The terminal's ping to its trade server over the day, week or month ending now. */
    getPing: build.query<PingResponse, { id: number; period: PingPeriod }>({
      query: ({ id, period }) => ({
        url: `/user/monitoring/accounts/${id}/ping`,
        params: { period },
      }),
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    getTrades: build.query<Page<MonitoringTrade>, { id: number; page: number }>({
      query: ({ id, page }) => ({
        url: `/user/monitoring/accounts/${id}/trades`,
        params: { page, per_page: TRADES_PER_PAGE },
      }),
      providesTags: (_result, _error, { id }) => [
        'MonitoringAccounts',
        { type: 'MonitoringTrades', id },
      ],
      extraOptions: SILENT,
    }),
    getPositions: build.query<PositionsResponse, number>({
      query: (id) => `/user/monitoring/accounts/${id}/positions`,
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    /** The closed trades with excursions (MAE, MFE) for the Risks scatter. */
    getExcursions: build.query<ExcursionsResponse, number>({
      query: (id) => `/user/monitoring/accounts/${id}/excursions`,
      providesTags: ['MonitoringAccounts'],
      extraOptions: SILENT,
    }),
    /** The trades' CSV file as text (the page saves it). */
    getTradesCsv: build.query<string, number>({
      query: (id) => ({
        url: `/user/monitoring/accounts/${id}/trades.csv`,
        responseHandler: 'text',
      }),
      keepUnusedDataFor: 0,
      extraOptions: SILENT,
    }),
    /** Names a strategy (a magic number the account has traded with; not '0', the manual trades). */
    renameStrategy: build.mutation<StrategyResponse, { id: number; magic: string; name: string }>({
      query: ({ id, magic, name }) => ({
        url: `/user/monitoring/accounts/${id}/strategies/${encodeURIComponent(magic)}`,
        method: 'PUT',
        body: { name },
      }),
      invalidatesTags: (result, _error, { id }) => (result ? strategyShown(id) : []),
      extraOptions: SILENT,
    }),
    /** Takes a strategy's name away: it is its magic number again. */
    clearStrategyName: build.mutation<StrategyResponse, { id: number; magic: string }>({
      query: ({ id, magic }) => ({
        url: `/user/monitoring/accounts/${id}/strategies/${encodeURIComponent(magic)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (result, _error, { id }) => (result ? strategyShown(id) : []),
      extraOptions: SILENT,
    }),
    getPublicAccount: build.query<PublicAccountResponse, string>({
      query: (monitoringId) => `/monitoring/${monitoringId}`,
      extraOptions: SILENT,
    }),
    getPublicChart: build.query<ChartResponse, string>({
      query: (monitoringId) => `/monitoring/${monitoringId}/chart`,
      extraOptions: SILENT,
    }),
    getPublicTrades: build.query<Page<MonitoringTrade>, { monitoringId: string; page: number }>({
      query: ({ monitoringId, page }) => ({
        url: `/monitoring/${monitoringId}/trades`,
        params: { page, per_page: TRADES_PER_PAGE },
      }),
      extraOptions: SILENT,
    }),
    /** A public account's scatter of result against MAE (404 when the owner hides the history). */
    getPublicExcursions: build.query<ExcursionsResponse, string>({
      query: (monitoringId) => `/monitoring/${monitoringId}/excursions`,
      extraOptions: SILENT,
    }),
    getPublicPositions: build.query<PositionsResponse, string>({
      query: (monitoringId) => `/monitoring/${monitoringId}/positions`,
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetMonitoringPlansQuery,
  useGetSubscriptionsQuery,
  useTakeFreePlanMutation,
  useSubscribeMutation,
  useExtendSubscriptionMutation,
  useEnlargeSubscriptionMutation,
  useRevealKeyMutation,
  useRegenerateKeyMutation,
  useGetMonitoringAccountsQuery,
  useGetOwnMonitoringAccountQuery,
  useAddAccountMutation,
  useUpdateAccountMutation,
  useDeleteAccountMutation,
  useGetStatisticsQuery,
  useGetChartQuery,
  useGetPingQuery,
  useGetTradesQuery,
  useGetPositionsQuery,
  useGetExcursionsQuery,
  useLazyGetTradesCsvQuery,
  useRenameStrategyMutation,
  useClearStrategyNameMutation,
  useGetPublicAccountQuery,
  useGetPublicChartQuery,
  useGetPublicTradesQuery,
  useGetPublicPositionsQuery,
  useGetPublicExcursionsQuery,
} = monitoringApi;
