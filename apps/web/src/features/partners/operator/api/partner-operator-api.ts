import type {
  AdminPartnerNetworkResponse,
  AdminPartnerSummary,
  AdminWithdrawal,
  Page,
  PartnerSettings,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';
import { queryParams } from '../../../operator/lib/query-params';

/**
 * The operator's partner programme endpoints (/api/admin/partner/..., role admin): the
 * withdrawal queue and its decisions, the programme's settings, and one user's partner figures
 * and referrals.
 * Silent like the rest of the area: the screens show their own states.
 */

export const PARTNER_OPERATOR_TAGS = [
  'OperatorWithdrawals',
  'OperatorPartnerSettings',
  'OperatorPartnerUsers',
  'OperatorUsers',
  'OperatorLedger',
  'OperatorAudit',
  // the money waiting for a second operator (balance-operator-api's list): payouts among it
  'OperatorApprovals',
] as const;
type Tag = { type: (typeof PARTNER_OPERATOR_TAGS)[number]; id: string | number };

export const WITHDRAWALS_PER_PAGE = 20;
/** open: Received and Under review, oldest first; all: every request, newest first. */
export type WithdrawalFilter = 'open' | 'all';

export interface WithdrawalsArgs {
  status: WithdrawalFilter;
  page: number;
  per_page?: number;
}

export const REFERRALS_PER_PAGE = 20;

export interface PartnerNetworkArgs {
  userId: number;
  /** Part of an e-mail or a name: the matches on all three levels; empty, level 1. */
  search: string;
  page: number;
  per_page?: number;
}

export interface WithdrawalDecisionResponse {
  withdrawal: AdminWithdrawal;
  message: string;
  /** APPROVAL_REQUESTED: a payout above OPERATOR_APPROVAL_ABOVE waits for a second operator. */
  code?: string;
}

export interface PayoutDecisionArgs {
  /** The payout request's id (its approval), not the withdrawal's. */
  id: number;
}

const WITHDRAWALS: Tag = { type: 'OperatorWithdrawals', id: 'LIST' };
const SETTINGS: Tag = { type: 'OperatorPartnerSettings', id: 'LIST' };
const AUDIT: Tag = { type: 'OperatorAudit', id: 'LIST' };
const APPROVALS: Tag = { type: 'OperatorApprovals', id: 'LIST' };

const api = baseApi.enhanceEndpoints({ addTagTypes: PARTNER_OPERATOR_TAGS });

export const partnerOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminWithdrawals: build.query<Page<AdminWithdrawal>, WithdrawalsArgs>({
      query: ({ status, page, per_page = WITHDRAWALS_PER_PAGE }) => ({
        url: '/admin/partner/withdrawals',
        params: queryParams({ status, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [WITHDRAWALS],
    }),

    /** Received -> Under review: the operator has taken it. */
    reviewWithdrawal: build.mutation<WithdrawalDecisionResponse, { id: number }>({
      query: ({ id }) => ({
        url: `/admin/partner/withdrawals/${id}/review`,
        method: 'POST',
        body: {},
      }),
      extraOptions: SILENT,
      onQueryStarted: (_args, lifecycle) => settleRow(lifecycle),
      invalidatesTags: decisionTags,
    }),

    /** Paid out, with the payment's reference (the partner gets it by e-mail). */
    payWithdrawal: build.mutation<WithdrawalDecisionResponse, { id: number; reference: string }>({
      query: ({ id, reference }) => ({
        url: `/admin/partner/withdrawals/${id}/pay`,
        method: 'POST',
        body: { reference },
      }),
      extraOptions: SILENT,
      onQueryStarted: (_args, lifecycle) => settleRow(lifecycle),
      invalidatesTags: decisionTags,
    }),

    /** Approves a payout another operator asked for: the withdrawal is paid out. */
    approvePayout: build.mutation<WithdrawalDecisionResponse, PayoutDecisionArgs>({
      query: ({ id }) => ({
        url: `/admin/partner/payouts/${id}/approve`,
        method: 'POST',
        body: {},
      }),
      extraOptions: SILENT,
      onQueryStarted: (_args, lifecycle) => settleRow(lifecycle),
      invalidatesTags: decisionTags,
    }),

    /** Declines a payout waiting for approval (or withdraws one's own): the request stays open. */
    declinePayout: build.mutation<
      WithdrawalDecisionResponse,
      PayoutDecisionArgs & { reason: string }
    >({
      query: ({ id, reason }) => ({
        url: `/admin/partner/payouts/${id}/decline`,
        method: 'POST',
        body: { reason },
      }),
      extraOptions: SILENT,
      onQueryStarted: (_args, lifecycle) => settleRow(lifecycle),
      invalidatesTags: decisionTags,
    }),

    /** Cancelled with a reason the partner reads; the amount returns to the partner balance. */
    rejectWithdrawal: build.mutation<WithdrawalDecisionResponse, { id: number; reason: string }>({
      query: ({ id, reason }) => ({
        url: `/admin/partner/withdrawals/${id}/reject`,
        method: 'POST',
        body: { reason },
      }),
      extraOptions: SILENT,
      onQueryStarted: (_args, lifecycle) => settleRow(lifecycle),
      invalidatesTags: decisionTags,
    }),

    getPartnerSettings: build.query<PartnerSettings, void>({
      query: () => '/admin/partner/settings',
      extraOptions: SILENT,
      providesTags: [SETTINGS],
    }),

    savePartnerSettings: build.mutation<PartnerSettings, PartnerSettings>({
      query: (body) => ({ url: '/admin/partner/settings', method: 'PUT', body }),
      extraOptions: SILENT,
      // every partner's percentages (their levels tables) change with them
      invalidatesTags: (result) =>
        result ? [SETTINGS, AUDIT, { type: 'OperatorPartnerUsers', id: 'LIST' }] : [],
    }),

    getAdminPartnerSummary: build.query<AdminPartnerSummary, number>({
      query: (userId) => `/admin/partner/users/${userId}`,
      extraOptions: SILENT,
      providesTags: (_result, _error, userId) => [
        { type: 'OperatorPartnerUsers', id: userId },
        { type: 'OperatorPartnerUsers', id: 'LIST' },
      ],
    }),

    /** The user's referrals (level 1, or a search's matches on all levels), e-mails unmasked. */
    getAdminPartnerNetwork: build.query<AdminPartnerNetworkResponse, PartnerNetworkArgs>({
      query: ({ userId, search, page, per_page = REFERRALS_PER_PAGE }) => ({
        url: `/admin/partner/users/${userId}/network`,
        params: queryParams({ search, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: (_result, _error, { userId }) => [
        { type: 'OperatorPartnerUsers', id: userId },
        { type: 'OperatorPartnerUsers', id: 'LIST' },
      ],
    }),
  }),
});

/**
 * After a decision: the queue and the audit log; paid out or cancelled, the partner's balances,
 * ledger and partner figures too. A 409 (processed by someone else first) leaves the queue stale.
 */
function decisionTags(
  result: WithdrawalDecisionResponse | undefined,
  error: { status: unknown } | undefined,
): Tag[] {
  if (!result) return error?.status === 409 ? [WITHDRAWALS, APPROVALS] : [];
  const userId = result.withdrawal.user.id;
  return [
    WITHDRAWALS,
    APPROVALS,
    AUDIT,
    { type: 'OperatorUsers', id: userId },
    { type: 'OperatorUsers', id: 'LIST' },
    { type: 'OperatorLedger', id: userId },
    { type: 'OperatorPartnerUsers', id: userId },
  ];
}

/**
 * A decided request takes its new state in every cached page of the queue at once, or leaves
 * the open ones once it is no longer open, before the refetch comes back.
 */
async function settleRow({
  dispatch,
  getState,
  queryFulfilled,
}: {
  dispatch: (action: unknown) => unknown;
  getState: () => unknown;
  queryFulfilled: Promise<{ data: WithdrawalDecisionResponse }>;
}) {
  let withdrawal: AdminWithdrawal;
  try {
    ({ withdrawal } = (await queryFulfilled).data);
  } catch {
    return; // the dialog shows the failure
  }
  const open = withdrawal.status === 'received' || withdrawal.status === 'under_review';
  const state = getState() as Parameters<
    typeof partnerOperatorApi.util.selectCachedArgsForQuery
  >[0];
  for (const args of partnerOperatorApi.util.selectCachedArgsForQuery(
    state,
    'getAdminWithdrawals',
  )) {
    dispatch(
      partnerOperatorApi.util.updateQueryData('getAdminWithdrawals', args, (draft) => {
        const index = draft.data.findIndex((row) => row.id === withdrawal.id);
        if (index < 0) return;
        if (args.status === 'all' || open) {
          draft.data[index] = withdrawal;
        } else {
          draft.data.splice(index, 1);
          draft.meta.total = Math.max(0, draft.meta.total - 1);
        }
      }),
    );
  }
}

export const {
  useGetAdminWithdrawalsQuery,
  useReviewWithdrawalMutation,
  usePayWithdrawalMutation,
  useRejectWithdrawalMutation,
  useApprovePayoutMutation,
  useDeclinePayoutMutation,
  useGetPartnerSettingsQuery,
  useSavePartnerSettingsMutation,
  useGetAdminPartnerSummaryQuery,
  useGetAdminPartnerNetworkQuery,
} = partnerOperatorApi;
