import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type {
  AutoRenewRequest,
  BrokersResponse,
  ConsoleTicket,
  Credentials,
  GuardianResponse,
  GuardianSettings,
  LatencyResponse,
  MetricsTimeframe,
  OrderRequest,
  OperationResponse,
  Page,
  PaidResponse,
  PromocodeResponse,
  RatesResponse,
  Server,
  ServerAction,
  ServerActivity,
  ServerMetrics,
  ServerResponse,
  ServerStatus,
  SnapshotsResponse,
  TestRequest,
  UpgradeRequest,
  UpgradeResponse,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import type { Idempotent } from '../../../shared/api/idempotent';
import type { ApiRequestError } from '../../../shared/lib/api-error';
import {
  balanceRefreshes,
  refreshAfterOwnMoney,
  refreshBalancesUnlessLive,
} from '../../../shared/live/balance-refreshes';
import { fileNameOf } from '../../../shared/lib/save-file';
import { isLiveOpen } from '../../../shared/live/live-state';

export interface ServersArgs {
  /** Digits: a prefix of the server's number. */
  search?: string;
  status?: ServerStatus;
  page: number;
  perPage: number;
}

export const SERVERS_PER_PAGE = 20;
/** The list as the page first asks for it (the same cache entry for the tab's default and the list). */
export const FIRST_SERVERS_PAGE: ServersArgs = { page: 1, perPage: SERVERS_PER_PAGE };

/** The .rdp file of a server: its text (host, port and user; never the password) and its name. */
export interface RdpFile {
  text: string;
  fileName: string;
}

/** A page of a server's activity. */
export interface ActivityArgs {
  id: number;
  page: number;
}

const ACTIVITY_PER_PAGE = 20;

/** A server's load over a timeframe. */
export interface MetricsArgs {
  id: number;
  timeframe: MetricsTimeframe;
}

/** A snapshot of server `id`. */
export interface SnapshotArgs {
  id: number;
  snapshotId: number;
}

export const VPS_TAGS = ['VpsRates', 'VpsServers', 'VpsServerActivity'] as const;
const SERVERS_LIST = { type: 'VpsServers', id: 'LIST' } as const;
/** The activity of server `id`: the owner's own actions on it add a line (their answers say so). */
const activityOf = (id: number) => [{ type: 'VpsServerActivity' as const, id }];
/** The balance history of charges (the balance feature's tag): an order, a renewal, an upgrade. */
const CHARGES = { type: 'Charges', id: 'LIST' } as const;

/** The text of a file; a failure's body as JSON (the API's error) or text. */
async function textOrError(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.ok) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const api = baseApi.enhanceEndpoints({ addTagTypes: VPS_TAGS });

/** A server followed while its operation runs -> balanceRefreshes() when the following began. */
const followedSince = new Map<number, number>();

/**
 * The VPS endpoints of the reader. Every call shows its own failure (silent). The servers list
 * and the single server share one truth: whatever answers with a server (a control, a comment,
 * a poll) writes it into every cached page of the list, so a row changes at once.
 */
export const vpsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getVpsRates: build.query<RatesResponse, void>({
      query: () => '/user/vps/rates',
      providesTags: ['VpsRates'],
      extraOptions: SILENT,
    }),
    /** Whether a promocode can be used, and its discount (422 PROMOCODE_NOT_FOUND when not). */
    checkVpsPromocode: build.query<PromocodeResponse, string>({
      query: (code) => ({ url: '/user/vps/promocode', params: { code } }),
      keepUnusedDataFor: 0,
      extraOptions: SILENT,
    }),
    /** Broker trade server names starting so, any case (the order form's autocomplete). */
    getVpsBrokers: build.query<BrokersResponse, string>({
      query: (query) => ({ url: '/user/vps/brokers', params: { query } }),
      extraOptions: SILENT,
    }),
    /** Each location's ping to a broker's trade server, as monitored terminals measured it. */
    getVpsLatency: build.query<LatencyResponse, string>({
      query: (broker) => ({ url: '/user/vps/latency', params: { broker } }),
      extraOptions: SILENT,
    }),
    orderVpsServer: build.mutation<PaidResponse, Idempotent<OrderRequest>>({
      query: ({ body, idempotencyKey }) => ({
        url: '/user/vps/order',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES);
      },
      invalidatesTags: (result) => (result ? [SERVERS_LIST] : []),
      extraOptions: SILENT,
    }),
    orderVpsTestServer: build.mutation<
      { test_request: TestRequest; message: string },
      Pick<OrderRequest, 'source' | 'source_other'>
    >({
      query: (body) => ({ url: '/user/vps/test-server', method: 'POST', body }),
      // taken already: the rates' test_request is stale, read it again
      invalidatesTags: (result, error) =>
        result || error?.code === 'TEST_SERVER_TAKEN' ? ['VpsRates'] : [],
      extraOptions: SILENT,
    }),
    getVpsServers: build.query<Page<Server>, ServersArgs>({
      query: ({ search, status, page, perPage }) => ({
        url: '/user/vps/servers',
        params: { search: search || undefined, status, page, per_page: perPage },
      }),
      providesTags: (result) => [
        SERVERS_LIST,
        ...(result?.data ?? []).map((server) => ({ type: 'VpsServers' as const, id: server.id })),
      ],
      extraOptions: SILENT,
    }),
    /** One server: polled while an operation runs on it; its answer updates the list's row. */
    getVpsServer: build.query<Server, number>({
      query: (id) => `/user/vps/servers/${id}`,
      transformResponse: (response: ServerResponse) => response.server,
      providesTags: (_result, _error, id) => [{ type: 'VpsServers', id }],
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const before = findCachedServer(getState(), id);
        if (before?.operation && !followedSince.has(id)) followedSince.set(id, balanceRefreshes());
        try {
          const { data } = await queryFulfilled;
          writeServer(getState(), data).forEach((patch) => dispatch(patch));
          // an operation began or ended: a line of the activity did too (the live update, when
          // the stream is open, reads the activity again itself: see providesTags below)
          if (before && operationsOf(before) !== operationsOf(data) && !isLiveOpen()) {
            dispatch(vpsApi.util.invalidateTags(activityOf(id)));
          }
          if (before?.operation && !data.operation) {
            const since = followedSince.get(id) ?? balanceRefreshes();
            followedSince.delete(id);
            // a failed creation or upgrade is refunded: the balance and the charges changed (the
            // live update of the refund came before the one of the server, when the stream is open)
            if (refunded(data)) refreshBalancesUnlessLive(since, dispatch, CHARGES);
          }
        } catch {
          // the poll's failure shows in the row that asked (it keeps the last known state)
        }
      },
      extraOptions: SILENT,
    }),
    /**
     * A page of a server's activity, newest first. It is read again with the server: the live
     * update of an operation's end (and whatever else makes the server stale) invalidates the
     * server's tag, which this provides too; the owner's own actions invalidate its own tag.
     */
    getVpsServerActivity: build.query<Page<ServerActivity>, ActivityArgs>({
      query: ({ id, page }) => ({
        url: `/user/vps/servers/${id}/activity`,
        params: { page, per_page: ACTIVITY_PER_PAGE },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'VpsServers', id }, ...activityOf(id)],
      extraOptions: SILENT,
    }),
    updateVpsComment: build.mutation<Server, { id: number; comment: string }>({
      query: ({ id, comment }) => ({
        url: `/user/vps/servers/${id}`,
        method: 'PATCH',
        body: { comment },
      }),
      transformResponse: (response: ServerResponse) => response.server,
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) writeServer(getState(), data).forEach((patch) => dispatch(patch));
      },
      extraOptions: SILENT,
    }),
    /** The password, opened on request (the API audits each reveal); never cached. */
    revealVpsCredentials: build.mutation<Credentials, number>({
      query: (id) => ({ url: `/user/vps/servers/${id}/credentials`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    /** The .rdp file (no password in it): the login details' host, port and user, and the download. */
    getVpsRdp: build.query<RdpFile, number>({
      async queryFn(id, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({
          url: `/user/vps/servers/${id}/rdp`,
          responseHandler: textOrError,
        });
        if (result.error) return { error: result.error as ApiRequestError };
        const meta = result.meta as FetchBaseQueryMeta | undefined;
        const fileName =
          fileNameOf(meta?.response?.headers.get('content-disposition')) ?? `vps-${id}.rdp`;
        return { data: { text: String(result.data), fileName } };
      },
      keepUnusedDataFor: 0,
      extraOptions: SILENT,
    }),
    renewVpsServer: build.mutation<PaidResponse, Idempotent<{ id: number; months: number }>>({
      query: ({ body: { id, months }, idempotencyKey }) => ({
        url: `/user/vps/servers/${id}/renew`,
        method: 'POST',
        body: { months },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const refreshed = refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES);
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) writeServer(getState(), data.server).forEach((patch) => dispatch(patch));
        await refreshed;
      },
      invalidatesTags: (result, _error, { body }) => (result ? activityOf(body.id) : []),
      extraOptions: SILENT,
    }),
    /** Optimistic: the switch turns at once and turns back when the API refuses. */
    setVpsAutoRenew: build.mutation<Server, AutoRenewRequest & { id: number }>({
      query: ({ id, ...body }) => ({
        url: `/user/vps/servers/${id}/auto-renew`,
        method: 'PUT',
        body,
      }),
      transformResponse: (response: ServerResponse) => response.server,
      async onQueryStarted({ id, enabled }, { dispatch, getState, queryFulfilled }) {
        const patches = patchServer(getState(), id, (server) => {
          server.auto_renew = enabled;
        }).map((patch) => dispatch(patch));
        try {
          const { data } = await queryFulfilled;
          writeServer(getState(), data).forEach((patch) => dispatch(patch));
        } catch {
          patches.forEach((patch) => patch.undo());
        }
      },
      invalidatesTags: (result, _error, { id }) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    /** Start, shut down, reboot: 202 with the operation; the row then polls until it ends. */
    runVpsAction: build.mutation<OperationResponse, { id: number; action: ServerAction }>({
      query: ({ id, action }) => ({
        url: `/user/vps/servers/${id}/actions/${action}`,
        method: 'POST',
      }),
      onQueryStarted: ({ id }, api) => followOperation(id, api),
      invalidatesTags: (result, _error, { id }) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    upgradeVpsServer: build.mutation<UpgradeResponse, Idempotent<UpgradeRequest & { id: number }>>({
      query: ({ body: { id, ...body }, idempotencyKey }) => ({
        url: `/user/vps/servers/${id}/upgrade`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        const refreshed = refreshAfterOwnMoney(queryFulfilled, dispatch, CHARGES);
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) writeServer(getState(), data.server).forEach((patch) => dispatch(patch));
        await refreshed;
      },
      invalidatesTags: (result, error, { body }) =>
        result
          ? activityOf(body.id)
          : error?.code === 'UPGRADE_PENDING'
            ? [{ type: 'VpsServers', id: body.id }]
            : [],
      extraOptions: SILENT,
    }),
    /**
     * A server's load as the hypervisor measured it (active or blocked servers: 409 otherwise, 503
     * when the hypervisor does not answer). Read when asked: a chart is not redrawn under the reader.
     */
    getVpsServerMetrics: build.query<ServerMetrics, MetricsArgs>({
      query: ({ id, timeframe }) => ({
        url: `/user/vps/servers/${id}/metrics`,
        params: { timeframe },
      }),
      extraOptions: SILENT,
    }),
    /**
     * A server's snapshots and how many it may keep. Each is taken, rolled back to or deleted by an
     * operation: read again with the server (the live update of the operation's end) and with its
     * activity (the owner's own operations, and their end seen by the poll while the live updates
     * are down).
     */
    getVpsSnapshots: build.query<SnapshotsResponse, number>({
      query: (id) => `/user/vps/servers/${id}/snapshots`,
      providesTags: (_result, _error, id) => [{ type: 'VpsServers', id }, ...activityOf(id)],
      extraOptions: SILENT,
    }),
    takeVpsSnapshot: build.mutation<OperationResponse, { id: number; name: string }>({
      query: ({ id, name }) => ({
        url: `/user/vps/servers/${id}/snapshots`,
        method: 'POST',
        body: { name },
      }),
      onQueryStarted: ({ id }, api) => followOperation(id, api),
      invalidatesTags: (result, error, { id }) => snapshotsChanged(id, result, error),
      extraOptions: SILENT,
    }),
    /** Returns the disk to the snapshot's moment (what was written since is lost); the server restarts. */
    rollbackVpsSnapshot: build.mutation<OperationResponse, SnapshotArgs>({
      query: ({ id, snapshotId }) => ({
        url: `/user/vps/servers/${id}/snapshots/${snapshotId}/rollback`,
        method: 'POST',
      }),
      onQueryStarted: ({ id }, api) => followOperation(id, api),
      invalidatesTags: (result, error, { id }) => snapshotsChanged(id, result, error),
      extraOptions: SILENT,
    }),
    deleteVpsSnapshot: build.mutation<OperationResponse, SnapshotArgs>({
      query: ({ id, snapshotId }) => ({
        url: `/user/vps/servers/${id}/snapshots/${snapshotId}`,
        method: 'DELETE',
      }),
      onQueryStarted: ({ id }, api) => followOperation(id, api),
      invalidatesTags: (result, error, { id }) => snapshotsChanged(id, result, error),
      extraOptions: SILENT,
    }),
    /** Windows from the template again (a snapshot "Before reinstall" first when there is room). */
    reinstallVpsServer: build.mutation<OperationResponse, number>({
      query: (id) => ({ url: `/user/vps/servers/${id}/reinstall`, method: 'POST' }),
      onQueryStarted: (id, api) => followOperation(id, api),
      invalidatesTags: (result, _error, id) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    /** A new generated Windows password (the server must be running); Login details show it. */
    resetVpsPassword: build.mutation<OperationResponse, number>({
      query: (id) => ({ url: `/user/vps/servers/${id}/password-reset`, method: 'POST' }),
      onQueryStarted: (id, api) => followOperation(id, api),
      invalidatesTags: (result, _error, id) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    /**
     * A ticket for the server's web console: one WebSocket to .../console/socket within
     * CONSOLE_TICKET_SECONDS. Opening the console is a line of the server's activity.
     */
    createVpsConsoleTicket: build.mutation<ConsoleTicket, number>({
      query: (id) => ({ url: `/user/vps/servers/${id}/console`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? activityOf(id) : []),
      extraOptions: SILENT,
    }),
    /**
     * The terminal guardian's policy for a server and its last incidents: read again with the
     * server (an action of the guardian is an operation of the server).
     */
    getVpsGuardian: build.query<GuardianResponse, number>({
      query: (id) => `/user/vps/servers/${id}/guardian`,
      providesTags: (_result, _error, id) => [{ type: 'VpsServers', id }],
      extraOptions: SILENT,
    }),
    /** Its answer is the guardian as saved: it replaces the cached one. */
    setVpsGuardian: build.mutation<GuardianResponse, GuardianSettings & { id: number }>({
      query: ({ id, ...body }) => ({
        url: `/user/vps/servers/${id}/guardian`,
        method: 'PUT',
        body,
      }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(vpsApi.util.upsertQueryData('getVpsGuardian', id, data));
      },
      extraOptions: SILENT,
    }),
  }),
});

// ---- operations (202) -------------------------------------------------------------------------

/** What an operation's onQueryStarted is given that followOperation uses. */
interface OperationStarted {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- RTK Query's own dispatch type
  dispatch: ThunkDispatch<any, any, UnknownAction>;
  getState: () => unknown;
  queryFulfilled: Promise<{ data: OperationResponse }>;
}

/**
 * An operation asked for (202): the server as the answer gives it, busy, wherever it shows (its
 * row, its page), which then follows it until it ends (use-follow). Refused because one runs
 * already: the server is read again, so that the one under way shows.
 */
async function followOperation(
  id: number,
  { dispatch, getState, queryFulfilled }: OperationStarted,
) {
  try {
    const { data } = await queryFulfilled;
    writeServer(getState(), data.server).forEach((patch) => dispatch(patch));
  } catch (failure) {
    const error = (failure as { error?: ApiRequestError }).error;
    if (error?.code === 'OPERATION_IN_PROGRESS') {
      dispatch(vpsApi.util.invalidateTags([{ type: 'VpsServers', id }]));
    }
  }
}

/** Refusals of a snapshot's operation that say the list on screen is stale. */
const STALE_SNAPSHOTS = ['SNAPSHOTS_FULL', 'SNAPSHOT_NOT_FOUND', 'SNAPSHOT_NOT_READY'];

/**
 * What a snapshot's operation makes stale: the list (a snapshot being taken or deleted) and the
 * activity when it is accepted, and when a refusal says the list was stale (full, a snapshot
 * gone or not ready).
 */
function snapshotsChanged(id: number, result: unknown, error: ApiRequestError | undefined) {
  return result || STALE_SNAPSHOTS.includes(error?.code ?? '') ? activityOf(id) : [];
}

// ---- the list's rows, kept in step -----------------------------------------------------------

type VpsState = Parameters<typeof vpsApi.util.selectCachedArgsForQuery>[0];

/** Server `id` as the cache has it: a row of the list, or its own entry (its page, opened directly). */
function findCachedServer(state: unknown, id: number): Server | undefined {
  const root = state as VpsState;
  for (const args of vpsApi.util.selectCachedArgsForQuery(root, 'getVpsServers')) {
    const page = vpsApi.endpoints.getVpsServers.select(args)(root).data;
    const server = page?.data.find((row) => row.id === id);
    if (server) return server;
  }
  return vpsApi.endpoints.getVpsServer.select(id)(root).data;
}

/** The operation under way and the last one, where they stand: a change is a line of the activity. */
function operationsOf({ operation, last_operation: last }: Server): string {
  return `${operation?.id}:${operation?.status}|${last?.id}:${last?.status}`;
}

/** Whether a server's last operation was refunded: a creation or an upgrade that failed. */
function refunded(server: Server): boolean {
  const last = server.last_operation;
  return (
    server.status === 'failed' ||
    (last?.status === 'failed' && (last.kind === 'create' || last.kind === 'upgrade'))
  );
}

/**
 * The updates that change server `id` in every cached page of the list and in its own entry
 * (each dispatched gives its undo).
 */
function patchServer(state: unknown, id: number, change: (server: Server) => void) {
  const root = state as VpsState;
  const updates = [];
  for (const args of vpsApi.util.selectCachedArgsForQuery(root, 'getVpsServers')) {
    const page = vpsApi.endpoints.getVpsServers.select(args)(root).data;
    if (!page?.data.some((row) => row.id === id)) continue;
    updates.push(
      vpsApi.util.updateQueryData('getVpsServers', args, (draft) => {
        const row = draft.data.find((server) => server.id === id);
        if (row) change(row);
      }),
    );
  }
  if (vpsApi.endpoints.getVpsServer.select(id)(root).data) {
    updates.push(vpsApi.util.updateQueryData('getVpsServer', id, change));
  }
  return updates;
}

/** The updates that put a server as an answer gave it in place of its row everywhere. */
function writeServer(state: unknown, server: Server) {
  return patchServer(state, server.id, (row) => {
    Object.assign(row, server);
  });
}

export const {
  useGetVpsRatesQuery,
  useLazyCheckVpsPromocodeQuery,
  useGetVpsBrokersQuery,
  useGetVpsLatencyQuery,
  useOrderVpsServerMutation,
  useOrderVpsTestServerMutation,
  useGetVpsServersQuery,
  useGetVpsServerQuery,
  useGetVpsServerActivityQuery,
  useUpdateVpsCommentMutation,
  useRevealVpsCredentialsMutation,
  useGetVpsRdpQuery,
  useRenewVpsServerMutation,
  useSetVpsAutoRenewMutation,
  useRunVpsActionMutation,
  useUpgradeVpsServerMutation,
  useGetVpsServerMetricsQuery,
  useGetVpsSnapshotsQuery,
  useTakeVpsSnapshotMutation,
  useRollbackVpsSnapshotMutation,
  useDeleteVpsSnapshotMutation,
  useReinstallVpsServerMutation,
  useResetVpsPasswordMutation,
  useCreateVpsConsoleTicketMutation,
  useGetVpsGuardianQuery,
  useSetVpsGuardianMutation,
} = vpsApi;
