import type {
  AvailableDiscount,
  CreatePromocodeRequest,
  CreateWithdrawalRequest,
  CreateWithdrawalResponse,
  PartnerInfo,
  PartnerInfoData,
  PartnerLevelsResponse,
  PartnerNetworkQuery,
  PartnerNetworkResponse,
  PartnerPayments,
  PartnerPeriod,
  PartnerPromocode,
  PartnerPromocodes,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import { idempotentPost, type Idempotent } from '../../../shared/api/idempotent';
import { refreshAfterOwnMoney } from '../../../shared/live/balance-refreshes';

const TAGS = ['PartnerInfo', 'PartnerPayments', 'PartnerPromocodes'] as const;
const api = baseApi.enhanceEndpoints({ addTagTypes: TAGS });
const WITHDRAWALS = { type: 'Withdrawals', id: 'LIST' } as const;

/** The partner programme as its partner sees it: figures, network, promocodes, withdrawals. */
export const partnerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPartnerInfo: build.query<PartnerInfo, void>({
      query: () => '/user/partner_info',
      providesTags: ['PartnerInfo'],
      extraOptions: SILENT,
    }),
    getPartnerLevels: build.query<PartnerLevelsResponse['data'], void>({
      query: () => '/user/partner/levels',
      transformResponse: (response: PartnerLevelsResponse) => response.data,
      providesTags: ['PartnerInfo'],
      extraOptions: SILENT,
    }),
    /** Statistics over a period (a POST in SPEC 7, though it changes nothing). */
    getPartnerInfoData: build.query<PartnerInfoData, PartnerPeriod>({
      query: (period) => ({ url: '/user/partner/infodata', method: 'POST', body: period }),
      providesTags: ['PartnerInfo'],
      extraOptions: SILENT,
    }),
    getPartnerNetwork: build.query<PartnerNetworkResponse, PartnerNetworkQuery>({
      query: (params) => ({ url: '/user/partner_network/', params }),
      extraOptions: SILENT,
    }),
    getPartnerPayments: build.query<PartnerPayments, void>({
      query: () => '/user/partner/payments',
      providesTags: ['PartnerPayments'],
      extraOptions: SILENT,
    }),
    /** Reserves the amount from the partner balance; an operator pays it out. */
    createWithdrawal: build.mutation<CreateWithdrawalResponse, Idempotent<CreateWithdrawalRequest>>(
      {
        query: idempotentPost('/user/partner/createwithdrawal'),
        // the reserve leaves the partner balance: the live update refreshes it and the history
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          await refreshAfterOwnMoney(queryFulfilled, dispatch, WITHDRAWALS);
        },
        invalidatesTags: (result, error) =>
          result
            ? ['PartnerPayments', 'PartnerInfo']
            : // one open already (another tab's): this page has not seen it
              error?.code === 'WITHDRAWAL_OPEN'
              ? ['PartnerPayments', 'PartnerInfo', 'User', WITHDRAWALS]
              : [],
        extraOptions: SILENT,
      },
    ),
    getPartnerPromocodes: build.query<PartnerPromocode[], void>({
      query: () => '/user/balance/promocodes',
      transformResponse: (response: PartnerPromocodes) => response.data,
      providesTags: ['PartnerPromocodes'],
      extraOptions: SILENT,
    }),
    getAvailableDiscount: build.query<AvailableDiscount, void>({
      query: () => '/user/balance/available_discount',
      providesTags: ['PartnerPromocodes'],
      extraOptions: SILENT,
    }),
    createPromocode: build.mutation<{ promocode: PartnerPromocode }, CreatePromocodeRequest>({
      query: (body) => ({ url: '/user/balance/promocode', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['PartnerPromocodes'] : []),
      extraOptions: SILENT,
    }),
    deletePromocode: build.mutation<{ message: string }, number>({
      query: (id) => ({ url: `/user/balance/promocode/${id}`, method: 'DELETE' }),
      invalidatesTags: ['PartnerPromocodes'],
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetPartnerInfoQuery,
  useGetPartnerLevelsQuery,
  useGetPartnerInfoDataQuery,
  useGetPartnerNetworkQuery,
  useGetPartnerPaymentsQuery,
  useCreateWithdrawalMutation,
  useGetPartnerPromocodesQuery,
  useGetAvailableDiscountQuery,
  useCreatePromocodeMutation,
  useDeletePromocodeMutation,
} = partnerApi;
