import type {
  AdminMonitoringAccount,
  AdminSubscription,
  MonitoringPrices,
  Page,
  PublisherState,
  SubscriptionState,
} from '@tradehost/contracts';
import { IDEMPOTENCY_HEADER } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';
import { queryParams } from '../../../operator/lib/query-params';

/**
 * The operator's monitoring endpoints (/api/admin/monitoring/..., role admin): the prices, every
 * subscription with the free extension of one, every account with its publisher's state. Silent
 * like the rest of the area: the screens show their own states.
 */

export const MONITORING_OPERATOR_TAGS = [
  'OperatorMonitoringPrices',
  'OperatorMonitoringSubscriptions',
  'OperatorMonitoringAccounts',
  'OperatorAudit',
] as const;
type Tag = { type: (typeof MONITORING_OPERATOR_TAGS)[number]; id: string };

export const MONITORING_SUBSCRIPTIONS_PER_PAGE = 20;
export const MONITORING_ACCOUNTS_PER_PAGE = 20;

const PRICES: Tag = { type: 'OperatorMonitoringPrices', id: 'LIST' };
const SUBSCRIPTIONS: Tag = { type: 'OperatorMonitoringSubscriptions', id: 'LIST' };
const ACCOUNTS: Tag = { type: 'OperatorMonitoringAccounts', id: 'LIST' };
const AUDIT: Tag = { type: 'OperatorAudit', id: 'LIST' };

/** The prices as the form sends them: the price in dollars as typed ("4.50"). */
export interface PricesBody {
  account_month_price: string;
  discounts: { months: number; discount_percent: number }[];
}

export interface SubscriptionsArgs {
  /** A subscription number or (part of) an e-mail; empty: every subscription. */
  search: string;
  state?: SubscriptionState;
  plan?: 'free' | 'paid';
  page: number;
  per_page?: number;
}

export interface MonitoringAccountsArgs {
  /** An account number, (part of) its name or of the owner's e-mail. */
  search: string;
  publisher?: PublisherState;
  page: number;
  per_page?: number;
}

const api = baseApi.enhanceEndpoints({ addTagTypes: MONITORING_OPERATOR_TAGS });

export const monitoringOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMonitoringPrices: build.query<MonitoringPrices, void>({
      query: () => '/admin/monitoring/prices',
      extraOptions: SILENT,
      providesTags: [PRICES],
    }),

    saveMonitoringPrices: build.mutation<MonitoringPrices, PricesBody>({
      query: (body) => ({ url: '/admin/monitoring/prices', method: 'PUT', body }),
      extraOptions: SILENT,
      invalidatesTags: (result) => (result ? [PRICES, AUDIT] : []),
    }),

    getAdminSubscriptions: build.query<Page<AdminSubscription>, SubscriptionsArgs>({
      query: ({ search, state, plan, page, per_page = MONITORING_SUBSCRIPTIONS_PER_PAGE }) => ({
        url: '/admin/monitoring/subscriptions',
        params: queryParams({ search: search.trim(), state, plan, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [SUBSCRIPTIONS],
    }),

    /** Months added free of charge, with the reason the audit log keeps (one intent, one key). */
    operatorExtendSubscription: build.mutation<
      { subscription: AdminSubscription; message: string },
      { id: number; months: number; reason: string; idempotencyKey: string }
    >({
      query: ({ id, months, reason, idempotencyKey }) => ({
        url: `/admin/monitoring/subscriptions/${id}/extend`,
        method: 'POST',
        body: { months, reason },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      // a 404 (gone) leaves the list stale too
      invalidatesTags: (result, error) =>
        result ? [SUBSCRIPTIONS, ACCOUNTS, AUDIT] : error?.status === 404 ? [SUBSCRIPTIONS] : [],
    }),

    getAdminMonitoringAccounts: build.query<Page<AdminMonitoringAccount>, MonitoringAccountsArgs>({
      query: ({ search, publisher, page, per_page = MONITORING_ACCOUNTS_PER_PAGE }) => ({
        url: '/admin/monitoring/accounts',
        params: queryParams({ search: search.trim(), publisher, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [ACCOUNTS],
    }),
  }),
});

export const {
  useGetMonitoringPricesQuery,
  useSaveMonitoringPricesMutation,
  useGetAdminSubscriptionsQuery,
  useOperatorExtendSubscriptionMutation,
  useGetAdminMonitoringAccountsQuery,
} = monitoringOperatorApi;
