import type {
  AdminLatencyPage,
  AdminLatencyRow,
  AdminOperation,
  AdminPromocode,
  AdminRate,
  AdminRatesResponse,
  AdminServer,
  AdminTestRequest,
  Page,
  PeriodDiscount,
  ServerStatus,
  TestRequestStatus,
} from '@tradehost/contracts';
import { IDEMPOTENCY_HEADER } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';
import { queryParams } from '../../../operator/lib/query-params';

/**
 * The operator's VPS endpoints (/api/admin/vps/..., role admin): the rates and the period
 * discounts, the promocodes, the test-server queue, every server and the operations log with
 * the manual retry or fail of a stuck operation. Silent like the rest of the area: the screens
 * show their own loading, empty and error states.
 */

export const VPS_OPERATOR_TAGS = [
  'OperatorVpsRates',
  'OperatorPromocodes',
  'OperatorTestRequests',
  'OperatorVpsServers',
  'OperatorVpsOperations',
  'OperatorAudit',
] as const;
type VpsTag = { type: (typeof VPS_OPERATOR_TAGS)[number]; id: string | number };

export const PROMOCODES_PER_PAGE = 50;
export const TEST_REQUESTS_PER_PAGE = 20;
export const VPS_SERVERS_PER_PAGE = 20;
export const OPERATIONS_PER_PAGE = 50;
export const LATENCY_PER_PAGE = 50;

/** A rate as the API takes it: the price in dollars with two decimals ("12.50"). */
export interface RateBody {
  name: string;
  cpu_cores: number;
  ram_gb: number;
  disk_gb: number;
  location: string;
  monthly_price: string;
  template_id: string;
  active: boolean;
}

export interface RateResponse {
  rate: AdminRate;
  message?: string;
}

export interface PromocodeResponse {
  promocode: AdminPromocode;
  message?: string;
}

export interface TestRequestsArgs {
  status: TestRequestStatus;
  page: number;
  per_page?: number;
}

export interface VpsServersArgs {
  /** A server number or (part of) an e-mail; empty: every server. */
  search: string;
  status?: ServerStatus;
  page: number;
  per_page?: number;
}

/** The log's filter: a status, or `stuck` (queued or running for too long). */
export type OperationFilter = AdminOperation['status'] | 'stuck';

export interface OperationsArgs {
  status?: OperationFilter;
  serverId?: number;
  page: number;
  per_page?: number;
}

export interface LatencyArgs {
  /** A location of the rates (as they name it); none: every location. */
  location?: string;
  /** The start of a broker trade server's name; empty: every server. */
  broker: string;
  page: number;
  per_page?: number;
}

/** A line of the latency map, numbered by its place in the whole list (the table's key). */
export type LatencyLine = AdminLatencyRow & { id: number };
export type LatencyLines = Omit<AdminLatencyPage, 'data'> & { data: LatencyLine[] };

export interface DecisionArgs {
  id: number;
  /** The intent's key (shared/lib/idempotency): the same for every retry of one decision. */
  idempotencyKey: string;
}

export interface ReasonArgs extends DecisionArgs {
  reason: string;
}

export interface ApproveResponse {
  test_request: AdminTestRequest;
  /** The trial server made for the request (being created). */
  server: Pick<AdminServer, 'id'> & Partial<AdminServer>;
  message?: string;
}

export interface RejectResponse {
  test_request: AdminTestRequest;
  message?: string;
}

export interface OperationDecisionResponse {
  operation?: AdminOperation;
  message?: string;
}

const decisionHeaders = (idempotencyKey: string) => ({ [IDEMPOTENCY_HEADER]: idempotencyKey });

/** After a change: these lists are stale; a refusal changes nothing. */
const onSuccess =
  (...tags: VpsTag[]) =>
  (result: unknown): VpsTag[] =>
    result ? tags : [];

/** After a change of a record: on success these lists are stale, and so is the list after a 404 (gone). */
const changed =
  (list: VpsTag, ...others: VpsTag[]) =>
  (result: unknown, error: { status: number } | undefined): VpsTag[] =>
    result ? [list, ...others] : error?.status === 404 ? [list] : [];

/**
 * After a decision: the lists are stale. A 409 (decided by someone else, or finished meanwhile)
 * leaves the list stale too; other failures change nothing.
 */
const decided =
  (list: VpsTag, ...others: VpsTag[]) =>
  (result: unknown, error: { status: number } | undefined): VpsTag[] =>
    result ? [list, ...others] : error?.status === 409 ? [list] : [];

const AUDIT: VpsTag = { type: 'OperatorAudit', id: 'LIST' };
const RATES: VpsTag = { type: 'OperatorVpsRates', id: 'LIST' };
const PROMOCODES: VpsTag = { type: 'OperatorPromocodes', id: 'LIST' };
const TEST_REQUESTS: VpsTag = { type: 'OperatorTestRequests', id: 'LIST' };
const SERVERS: VpsTag = { type: 'OperatorVpsServers', id: 'LIST' };
const OPERATIONS: VpsTag = { type: 'OperatorVpsOperations', id: 'LIST' };

const api = baseApi.enhanceEndpoints({ addTagTypes: VPS_OPERATOR_TAGS });

export const vpsOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminVpsRates: build.query<AdminRatesResponse, void>({
      query: () => '/admin/vps/rates',
      extraOptions: SILENT,
      providesTags: [RATES],
    }),

    createVpsRate: build.mutation<RateResponse, RateBody>({
      query: (body) => ({ url: '/admin/vps/rates', method: 'POST', body }),
      extraOptions: SILENT,
      invalidatesTags: onSuccess(RATES, AUDIT),
    }),

    /** Changes some of a rate's fields (activating or deactivating it is `{active}`). */
    updateVpsRate: build.mutation<RateResponse, { id: number; changes: Partial<RateBody> }>({
      query: ({ id, changes }) => ({
        url: `/admin/vps/rates/${id}`,
        method: 'PATCH',
        body: changes,
      }),
      extraOptions: SILENT,
      invalidatesTags: changed(RATES, AUDIT),
    }),

    /** The four period discounts, saved together. */
    saveVpsDiscounts: build.mutation<{ periods: PeriodDiscount[] }, PeriodDiscount[]>({
      query: (periods) => ({ url: '/admin/vps/discounts', method: 'PUT', body: { periods } }),
      extraOptions: SILENT,
      invalidatesTags: onSuccess(RATES, AUDIT),
    }),

    getAdminPromocodes: build.query<Page<AdminPromocode>, { page: number; per_page?: number }>({
      query: ({ page, per_page = PROMOCODES_PER_PAGE }) => ({
        url: '/admin/vps/promocodes',
        params: queryParams({ page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [PROMOCODES],
    }),

    createVpsPromocode: build.mutation<
      PromocodeResponse,
      { code: string; discount_percent: number }
    >({
      query: (body) => ({ url: '/admin/vps/promocodes', method: 'POST', body }),
      extraOptions: SILENT,
      invalidatesTags: onSuccess(PROMOCODES, AUDIT),
    }),

    updatePromocode: build.mutation<PromocodeResponse, { id: number; active: boolean }>({
      query: ({ id, active }) => ({
        url: `/admin/vps/promocodes/${id}`,
        method: 'PATCH',
        body: { active },
      }),
      extraOptions: SILENT,
      invalidatesTags: changed(PROMOCODES, AUDIT),
    }),

    getAdminTestRequests: build.query<Page<AdminTestRequest>, TestRequestsArgs>({
      query: ({ status, page, per_page = TEST_REQUESTS_PER_PAGE }) => ({
        url: '/admin/vps/test-requests',
        params: queryParams({ status, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [TEST_REQUESTS],
    }),

    /** Approves a test-server request: a trial server is made for the user (no charge). */
    approveTestRequest: build.mutation<ApproveResponse, DecisionArgs>({
      query: ({ id, idempotencyKey }) => ({
        url: `/admin/vps/test-requests/${id}/approve`,
        method: 'POST',
        body: {},
        headers: decisionHeaders(idempotencyKey),
      }),
      extraOptions: SILENT,
      invalidatesTags: decided(TEST_REQUESTS, SERVERS, OPERATIONS, AUDIT),
    }),

    /** Rejects a test-server request with a reason the user will see. */
    rejectTestRequest: build.mutation<RejectResponse, ReasonArgs>({
      query: ({ id, reason, idempotencyKey }) => ({
        url: `/admin/vps/test-requests/${id}/reject`,
        method: 'POST',
        body: { reason },
        headers: decisionHeaders(idempotencyKey),
      }),
      extraOptions: SILENT,
      invalidatesTags: decided(TEST_REQUESTS, AUDIT),
    }),

    getAdminVpsServers: build.query<Page<AdminServer>, VpsServersArgs>({
      query: ({ search, status, page, per_page = VPS_SERVERS_PER_PAGE }) => ({
        url: '/admin/vps/servers',
        params: queryParams({ search: search.trim(), status, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [SERVERS],
    }),

    getAdminVpsOperations: build.query<Page<AdminOperation>, OperationsArgs>({
      query: ({ status, serverId, page, per_page = OPERATIONS_PER_PAGE }) => ({
        url: '/admin/vps/operations',
        params: queryParams({ status, server_id: serverId, page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [OPERATIONS],
    }),

    /** The latency map: broker trade servers by location, with the ping measured from there. */
    getAdminVpsLatency: build.query<LatencyLines, LatencyArgs>({
      query: ({ location, broker, page, per_page = LATENCY_PER_PAGE }) => ({
        url: '/admin/vps/latency',
        params: queryParams({ location, broker: broker.trim(), page, per_page }),
      }),
      transformResponse: (response: AdminLatencyPage) => ({
        ...response,
        data: response.data.map((row, index) => ({
          ...row,
          id: (response.meta.page - 1) * response.meta.per_page + index + 1,
        })),
      }),
      extraOptions: SILENT,
    }),

    /** Puts a stuck operation back in the queue and runs it again. */
    retryOperation: build.mutation<OperationDecisionResponse, DecisionArgs>({
      query: ({ id, idempotencyKey }) => ({
        url: `/admin/vps/operations/${id}/retry`,
        method: 'POST',
        body: {},
        headers: decisionHeaders(idempotencyKey),
      }),
      extraOptions: SILENT,
      invalidatesTags: decided(OPERATIONS, SERVERS, AUDIT),
    }),

    /** Ends a stuck operation as failed, with the operator's reason. */
    failOperation: build.mutation<OperationDecisionResponse, ReasonArgs>({
      query: ({ id, reason, idempotencyKey }) => ({
        url: `/admin/vps/operations/${id}/fail`,
        method: 'POST',
        body: { reason },
        headers: decisionHeaders(idempotencyKey),
      }),
      extraOptions: SILENT,
      invalidatesTags: decided(OPERATIONS, SERVERS, AUDIT),
    }),
  }),
});

export const {
  useGetAdminVpsRatesQuery,
  useCreateVpsRateMutation,
  useUpdateVpsRateMutation,
  useSaveVpsDiscountsMutation,
  useGetAdminPromocodesQuery,
  useCreateVpsPromocodeMutation,
  useUpdatePromocodeMutation,
  useGetAdminTestRequestsQuery,
  useApproveTestRequestMutation,
  useRejectTestRequestMutation,
  useGetAdminVpsServersQuery,
  useGetAdminVpsOperationsQuery,
  useGetAdminVpsLatencyQuery,
  useRetryOperationMutation,
  useFailOperationMutation,
} = vpsOperatorApi;
