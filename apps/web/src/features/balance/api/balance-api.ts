import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type {
  Charge,
  CryptoPaymentRequest,
  CryptoTopUpRequest,
  CryptoTopUpResponse,
  CryptoTopUpsResponse,
  DepositRequest,
  DepositResponse,
  HistoryKind,
  Page,
  Payment,
  PaymentMethodsResponse,
  PaymentResponse,
  Transfer,
  TransferPreviewResponse,
  TransferRequest,
  TransferResponse,
  Withdrawal,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import { idempotentPost, type Idempotent } from '../../../shared/api/idempotent';
import type { ApiRequestError } from '../../../shared/lib/api-error';
import { refreshAfterOwnMoney } from '../../../shared/live/balance-refreshes';
import { fileNameOf, saveFile } from '../../../shared/lib/save-file';
import { localDay } from '../../../shared/ui/period-picker/period';

/** The rows of each history. */
export interface HistoryRows {
  payments: Payment;
  transfers: Transfer;
  charges: Charge;
  withdrawals: Withdrawal;
}
export type HistoryRow = HistoryRows[HistoryKind];

export interface HistoryArgs {
  kind: HistoryKind;
  /** ISO-8601; open when missing. */
  from?: string;
  /** ISO-8601, exclusive; open when missing. */
  to?: string;
  page: number;
  perPage: number;
}

export interface ExportArgs {
  kind: HistoryKind;
  from?: string;
  to?: string;
}

const HISTORY_TAGS = {
  payments: 'Payments',
  transfers: 'Transfers',
  charges: 'Charges',
  withdrawals: 'Withdrawals',
} as const satisfies Record<HistoryKind, string>;

/** The CSV as a Blob; a failure's body as JSON (the API's error) or text. */
async function csvOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.blob();
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The balance endpoints. After a call that moves money, 'User' (the header's balance comes from
 * GET /user/auth) and the history it adds to are the live update's to refresh; they are
 * invalidated here only when it does not come (shared/live/balance-refreshes.ts). The forms and
 * panels show their own failures, so those calls are silent; the CSV export toasts its failure.
 */
export const balanceApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPaymentMethods: build.query<PaymentMethodsResponse, void>({
      query: () => '/user/balance/methods',
      providesTags: ['PaymentMethods'],
      extraOptions: SILENT,
    }),
    /** Card and e-wallet: a processing payment and its checkout; balance: the money moves. */
    deposit: build.mutation<DepositResponse, Idempotent<DepositRequest>>({
      query: idempotentPost('/user/balance/deposit'),
      // from the partner balance the money moves at once: the live update refreshes the purses
      async onQueryStarted({ body }, { dispatch, queryFulfilled }) {
        if (body.method !== 'balance') return;
        await refreshAfterOwnMoney(queryFulfilled, dispatch, 'Payments');
      },
      invalidatesTags: (result, error, { body }) => {
        if (result) return body.method === 'balance' ? [] : ['Payments'];
        // the method went away since the list was read: read it again (the card disables)
        return error?.code === 'METHOD_UNAVAILABLE' ? ['PaymentMethods'] : [];
      },
      extraOptions: SILENT,
    }),
    /** A crypto top-up request: the exact amount to send, the address and its QR code. */
    requestCryptoTopUp: build.mutation<CryptoTopUpResponse, Idempotent<CryptoTopUpRequest>>({
      query: idempotentPost('/user/balance/crypto-request'),
      invalidatesTags: (result) => (result ? ['Payments'] : []),
      extraOptions: SILENT,
    }),
    /** The reader's crypto requests still to be paid and reported. */
    getCryptoTopUps: build.query<CryptoTopUpsResponse, void>({
      query: () => '/user/balance/crypto-requests',
      providesTags: [{ type: 'Payments', id: 'OPEN_CRYPTO' }],
      extraOptions: SILENT,
    }),
    /**
     * A crypto request's payment reported: under review (an explorer or an operator checks it),
     * or credited at once when the explorer already shows it final.
     */
    submitCryptoPayment: build.mutation<PaymentResponse, Idempotent<CryptoPaymentRequest>>({
      query: idempotentPost('/user/balance/crypto'),
      invalidatesTags: (result) => (result ? ['Payments'] : []),
      extraOptions: SILENT,
    }),
    getPayment: build.query<Payment, number>({
      query: (id) => `/user/balance/payments/${id}`,
      transformResponse: (response: PaymentResponse) => response.payment,
      providesTags: (_result, _error, id) => [{ type: 'Payments', id }],
      extraOptions: SILENT,
    }),
    /** The confirmation step: names the recipient; nothing moves. */
    previewTransfer: build.mutation<TransferPreviewResponse, TransferRequest>({
      query: (body) => ({ url: '/user/balance/transfer/preview', method: 'POST', body }),
      extraOptions: SILENT,
    }),
    transfer: build.mutation<TransferResponse, Idempotent<TransferRequest>>({
      query: idempotentPost('/user/balance/transfer'),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await refreshAfterOwnMoney(queryFulfilled, dispatch, 'Transfers');
      },
      extraOptions: SILENT,
    }),
    getHistory: build.query<Page<HistoryRow>, HistoryArgs>({
      query: ({ kind, from, to, page, perPage }) => ({
        url: `/user/balance/history/${kind}`,
        params: { from, to, page, per_page: perPage },
      }),
      // an id of its own: the payment-status panel refreshes the lists without refetching itself
      providesTags: (_result, _error, { kind }) => [{ type: HISTORY_TAGS[kind], id: 'LIST' }],
      extraOptions: SILENT,
    }),
    /**
     * The history of a period as a CSV download, through the base query (bearer token, token
     * refresh, error toast). The file goes to the browser at once; the cache keeps only its name.
     */
    exportHistory: build.mutation<{ fileName: string }, ExportArgs>({
      async queryFn({ kind, from, to }, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({
          url: `/user/balance/history/${kind}.csv`,
          params: { from, to },
          responseHandler: csvOrError,
        });
        if (result.error) return { error: result.error as ApiRequestError };
        const meta = result.meta as FetchBaseQueryMeta | undefined;
        const fileName =
          fileNameOf(meta?.response?.headers.get('content-disposition')) ??
          `${kind}-${localDay(new Date())}.csv`;
        saveFile(result.data as Blob, fileName);
        return { data: { fileName } };
      },
    }),
  }),
});

export const {
  useGetPaymentMethodsQuery,
  useDepositMutation,
  useRequestCryptoTopUpMutation,
  useGetCryptoTopUpsQuery,
  useSubmitCryptoPaymentMutation,
  useGetPaymentQuery,
  usePreviewTransferMutation,
  useTransferMutation,
  useGetHistoryQuery,
  useExportHistoryMutation,
} = balanceApi;
