import type {
  AdminPayment,
  AdminUser,
  LedgerAccount,
  LedgerEntry,
  MoneyApproval,
  MoneyApprovalResponse,
  Page,
  PaymentStatus,
} from '@tradehost/contracts';
import { IDEMPOTENCY_HEADER } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';
import { operatorApi } from '../../../operator/api/operator-api';
import { queryParams } from '../../../operator/lib/query-params';

/**
 * The operator's balance endpoints (/api/admin/payments, /api/admin/users/:id/adjustments,
 * /api/admin/approvals): the crypto review queue with its decisions, a user's manual adjustments,
 * and the money waiting for a second operator (four eyes) with the adjustments' decisions (the
 * payouts' are partner-operator-api's). Silent like the rest of the area: the screens show their
 * own loading, empty and error states.
 */

export const BALANCE_OPERATOR_TAGS = [
  'OperatorPayments',
  'OperatorUsers',
  'OperatorLedger',
  'OperatorAudit',
  'OperatorApprovals',
  // the partner section of the user page (partner-operator-api): its balances move with the ledger
  'OperatorPartnerUsers',
] as const;

export interface PaymentsArgs {
  status: PaymentStatus;
  /** Undefined: every method. */
  method?: string;
  page: number;
  per_page?: number;
}

export interface ReviewArgs {
  id: number;
  /** The intent's key (shared/lib/idempotency): the same for every retry of one decision. */
  idempotencyKey: string;
}

export interface RejectArgs extends ReviewArgs {
  reason: string;
}

export interface ReviewResponse {
  payment: AdminPayment;
  message: string;
  code?: string;
}

export interface AdjustmentArgs {
  userId: number;
  account: LedgerAccount;
  /** Signed dollars with two decimals: "25.00" credits, "-25.00" debits. */
  amount: string;
  reason: string;
  idempotencyKey: string;
}

export interface AdjustmentResponse {
  user: AdminUser;
  entry: LedgerEntry;
  /** The request a second operator approved, when the adjustment needed one. */
  approval?: MoneyApproval;
  message: string;
  code?: string;
}

/** An adjustment made (201), or one above OPERATOR_APPROVAL_ABOVE asked for (202). */
export type AdjustOutcome = AdjustmentResponse | MoneyApprovalResponse;
export const isAsked = (outcome: AdjustOutcome): outcome is MoneyApprovalResponse =>
  !('entry' in outcome);

/** pending: waiting, oldest first; all: every request, newest first. */
export type ApprovalFilter = 'pending' | 'all';
export const APPROVALS_PER_PAGE = 20;

export interface ApprovalsArgs {
  status: ApprovalFilter;
  page: number;
  per_page?: number;
}

export const PAYMENTS_PER_PAGE = 20;

const api = baseApi.enhanceEndpoints({ addTagTypes: BALANCE_OPERATOR_TAGS });

export const balanceOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminPayments: build.query<Page<AdminPayment>, PaymentsArgs>({
      query: ({ status, method, page, per_page = PAYMENTS_PER_PAGE }) => ({
        url: '/admin/payments',
        params: queryParams({ status, method, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [{ type: 'OperatorPayments', id: 'LIST' }],
    }),

    /** Credits a crypto payment under review; the row leaves every cached queue at once. */
    confirmPayment: build.mutation<ReviewResponse, ReviewArgs>({
      query: ({ id, idempotencyKey }) => ({
        url: `/admin/payments/${id}/confirm`,
        method: 'POST',
        body: {},
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      onQueryStarted: (args, lifecycle) => settleRow(args.id, lifecycle),
      invalidatesTags: reviewTags,
    }),

    /** Rejects a crypto payment under review with a reason the user will see. */
    rejectPayment: build.mutation<ReviewResponse, RejectArgs>({
      query: ({ id, reason, idempotencyKey }) => ({
        url: `/admin/payments/${id}/reject`,
        method: 'POST',
        body: { reason },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      onQueryStarted: (args, lifecycle) => settleRow(args.id, lifecycle),
      invalidatesTags: reviewTags,
    }),

    /**
     * A manual correction of a user's balance: 201 with the user's new balances, or 202 with the
     * request when it waits for a second operator.
     */
    adjustBalance: build.mutation<AdjustOutcome, AdjustmentArgs>({
      query: ({ userId, account, amount, reason, idempotencyKey }) => ({
        url: `/admin/users/${userId}/adjustments`,
        method: 'POST',
        body: { account, amount, reason },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      async onQueryStarted({ userId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (isAsked(data)) return;
          dispatch(operatorApi.util.upsertQueryData('getAdminUser', userId, { user: data.user }));
        } catch {
          // the form shows the failure
        }
      },
      invalidatesTags: (result, _error, { userId }) =>
        result
          ? [
              { type: 'OperatorLedger', id: userId },
              { type: 'OperatorUsers', id: 'LIST' },
              { type: 'OperatorAudit', id: 'LIST' },
              { type: 'OperatorPartnerUsers', id: userId },
              { type: 'OperatorApprovals', id: 'LIST' },
            ]
          : [],
    }),

    getApprovals: build.query<Page<MoneyApproval>, ApprovalsArgs>({
      query: ({ status, page, per_page = APPROVALS_PER_PAGE }) => ({
        url: '/admin/approvals',
        params: queryParams({ status, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [{ type: 'OperatorApprovals', id: 'LIST' }],
    }),

    /** Approves another operator's adjustment: it takes effect now. */
    approveAdjustment: build.mutation<AdjustmentResponse, ReviewArgs>({
      query: ({ id, idempotencyKey }) => ({
        url: `/admin/adjustments/${id}/approve`,
        method: 'POST',
        body: {},
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      invalidatesTags: (result, error) => approvalTags(result?.user.id, error),
    }),

    /** Declines an adjustment waiting for approval (or withdraws one's own): nothing moves. */
    declineAdjustment: build.mutation<MoneyApprovalResponse, RejectArgs>({
      query: ({ id, reason, idempotencyKey }) => ({
        url: `/admin/adjustments/${id}/decline`,
        method: 'POST',
        body: { reason },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      extraOptions: SILENT,
      invalidatesTags: (result, error) => approvalTags(result?.approval.user.id, error),
    }),
  }),
});

/**
 * After an adjustment's decision: the approvals and the audit; approved, the user's ledger and
 * balances too. A 409 (decided by someone else first) leaves the approvals stale.
 */
function approvalTags(userId: number | undefined, error: unknown): BalanceTag[] {
  const approvals: BalanceTag = { type: 'OperatorApprovals', id: 'LIST' };
  if (userId === undefined)
    return (error as { status?: number })?.status === 409 ? [approvals] : [];
  return [
    approvals,
    { type: 'OperatorAudit', id: 'LIST' },
    { type: 'OperatorLedger', id: userId },
    { type: 'OperatorUsers', id: userId },
    { type: 'OperatorUsers', id: 'LIST' },
    { type: 'OperatorPartnerUsers', id: userId },
  ];
}

type BalanceTag = { type: (typeof BALANCE_OPERATOR_TAGS)[number]; id: string | number };

/**
 * After a decision: the queue, the user's ledger and balances, and the audit log are stale. A
 * 409 (someone else decided first) leaves the queue stale too; other failures change nothing.
 */
function reviewTags(
  result: ReviewResponse | undefined,
  error: { status: number } | undefined,
): BalanceTag[] {
  if (result) {
    const userId = result.payment.user.id;
    return [
      { type: 'OperatorPayments', id: 'LIST' },
      { type: 'OperatorAudit', id: 'LIST' },
      { type: 'OperatorLedger', id: userId },
      { type: 'OperatorUsers', id: userId },
      { type: 'OperatorUsers', id: 'LIST' },
    ];
  }
  return error?.status === 409 ? [{ type: 'OperatorPayments', id: 'LIST' }] : [];
}

/**
 * A decided payment leaves each cached page of the queue that lists another status, and takes
 * its new state in the pages that list its new one, before the refetch comes back.
 */
async function settleRow(
  id: number,
  {
    dispatch,
    getState,
    queryFulfilled,
  }: {
    dispatch: (action: unknown) => unknown;
    getState: () => unknown;
    queryFulfilled: Promise<{ data: ReviewResponse }>;
  },
) {
  let payment: AdminPayment;
  try {
    ({ payment } = (await queryFulfilled).data);
  } catch {
    return; // the dialog shows the failure
  }
  const state = getState() as Parameters<
    typeof balanceOperatorApi.util.selectCachedArgsForQuery
  >[0];
  for (const args of balanceOperatorApi.util.selectCachedArgsForQuery(state, 'getAdminPayments')) {
    dispatch(
      balanceOperatorApi.util.updateQueryData('getAdminPayments', args, (draft) => {
        const index = draft.data.findIndex((row) => row.id === id);
        if (index < 0) return;
        if (args.status === payment.status) {
          draft.data[index] = payment;
        } else {
          draft.data.splice(index, 1);
          draft.meta.total = Math.max(0, draft.meta.total - 1);
        }
      }),
    );
  }
}

export const {
  useGetAdminPaymentsQuery,
  useConfirmPaymentMutation,
  useRejectPaymentMutation,
  useAdjustBalanceMutation,
  useGetApprovalsQuery,
  useApproveAdjustmentMutation,
  useDeclineAdjustmentMutation,
} = balanceOperatorApi;
