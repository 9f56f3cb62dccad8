/**
 * Test helpers of the VPS page: the page signed in on a memory router (src/test/render's
 * renderSignedInPage), its API stubbed at the global fetch (src/test/fetch-stub) as the balance
 * tests do, and API fixtures built from the contracts.
 */
import type {
  GuardianIncident,
  GuardianResponse,
  MetricsPoint,
  OperationKind,
  OperationResponse,
  PeriodDiscount,
  Rate,
  RatesResponse,
  Server,
  ServerActivity,
  ServerMetrics,
  ServerOperation,
  Snapshot,
  SnapshotsResponse,
} from '@tradehost/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { applyLiveEvent } from '../../app/live-updates';
import { notify } from '../../shared/ui/toast/notify';
import { stubFetchKeepingRequests, type Handler } from '../../test/fetch-stub';
import { fundedUser, page } from '../../test/fixtures';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as ServerPage } from './pages/server-page';
import { Component as VpsPage } from './pages/vps-page';

export { deferred, type Handler, type SentRequest, type StubCall } from '../../test/fetch-stub';
export { fundedUser as user, page } from '../../test/fixtures';
export { searchOf, type RenderPageOptions as RenderOptions } from '../../test/render';

export const TOKEN = 'vps-test-token';
/** "Now" in the tests that fix the clock (fixClock). */
export const NOW = new Date('2026-11-10T12:00:00.000Z');

export const RATES: Rate[] = [
  {
    id: 1,
    name: 'Start',
    cpu_cores: 2,
    ram_gb: 4,
    disk_gb: 60,
    location: 'London (LD4)',
    monthly_price: 20,
  },
  {
    id: 2,
    name: 'Trader',
    cpu_cores: 4,
    ram_gb: 8,
    disk_gb: 120,
    location: 'London (LD4)',
    monthly_price: 40,
  },
  {
    id: 3,
    name: 'Pro',
    cpu_cores: 8,
    ram_gb: 16,
    disk_gb: 240,
    location: 'Frankfurt (FR2)',
    monthly_price: 80,
  },
];

export const PERIODS: PeriodDiscount[] = [
  { months: 1, discount_percent: 0 },
  { months: 3, discount_percent: 5 },
  { months: 6, discount_percent: 10 },
  { months: 12, discount_percent: 15 },
];

export function ratesResponse(overrides: Partial<RatesResponse> = {}): RatesResponse {
  return { rates: RATES, periods: PERIODS, trial_days: 3, test_request: null, ...overrides };
}

export function operation(overrides: Partial<ServerOperation> = {}): ServerOperation {
  return {
    id: 501,
    kind: 'reboot',
    status: 'queued',
    created_at: '2026-11-10T11:59:00.000Z',
    started_at: null,
    finished_at: null,
    error: null,
    ...overrides,
  };
}

/** An active, running server on Trader, paid until 1 December 2026. */
export function server(overrides: Partial<Server> = {}): Server {
  return {
    id: 12,
    rate: RATES[1]!,
    comment: '',
    status: 'active',
    power: 'running',
    issued_at: '2026-10-01T10:00:00.000Z',
    paid_until: '2026-12-01T10:00:00.000Z',
    auto_renew: false,
    renew_months: 1,
    is_trial: false,
    operation: null,
    last_operation: null,
    upgrade: null,
    has_credentials: true,
    failure: null,
    ping_ms: null,
    ping_terminals: 0,
    ...overrides,
  };
}

/** A line of a server's activity: the owner's reboot, done. */
export function activity(overrides: Partial<ServerActivity> = {}): ServerActivity {
  return {
    id: 'operation-501',
    at: '2026-11-10T11:59:00.000Z',
    kind: 'reboot',
    by: 'you',
    status: 'succeeded',
    finished_at: '2026-11-10T12:00:30.000Z',
    ...overrides,
  };
}

const GIB = 1024 ** 3;
/** A point's figures while the machine is off: no load (its memory's total stays). */
const OFF = {
  cpu: null,
  memory: null,
  net_in: null,
  net_out: null,
  disk_read: null,
  disk_write: null,
} as const;

/**
 * An hour of a server's load, a minute apart from 11:54 to 11:59 (NOW's hour): 8 GB of memory,
 * the CPU at 20-45 %, network and disk in KB/s; the machine off at 11:56 (every figure null but
 * the memory's total, as the hypervisor says it).
 */
export function metrics(overrides: Partial<ServerMetrics> = {}): ServerMetrics {
  const point = (minute: number, load: Partial<MetricsPoint> = {}): MetricsPoint => ({
    at: `2026-11-10T11:5${minute}:00.000Z`,
    cpu: 0.2 + (minute - 4) * 0.05,
    memory: 3 * GIB,
    memory_total: 8 * GIB,
    net_in: 30_720,
    net_out: 6_144,
    disk_read: 2_048,
    disk_write: 51_200,
    ...load,
  });
  return {
    timeframe: 'hour',
    step_seconds: 60,
    points: [point(4), point(5), point(6, OFF), point(7), point(8), point(9)],
    pressure: { cpu: false, memory: false },
    ...overrides,
  };
}

/** The same hour with the machine off all along: no load, its memory's total only. */
export function metricsOff(): ServerMetrics {
  return metrics({ points: metrics().points.map((point) => ({ ...point, ...OFF })) });
}

/** A ready snapshot the owner named, taken on 9 November 2026. */
export function snapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    id: 31,
    name: 'Before EA update',
    status: 'ready',
    automatic: false,
    created_at: '2026-11-09T08:00:00.000Z',
    taken_at: '2026-11-09T08:01:00.000Z',
    ...overrides,
  };
}

export function snapshots(data: Snapshot[] = [snapshot()], limit = 3): SnapshotsResponse {
  return { data, limit };
}

/** An incident the guardian closed: the terminal had closed, it started it again. */
export function incident(overrides: Partial<GuardianIncident> = {}): GuardianIncident {
  return {
    id: 7,
    opened_at: '2026-11-08T09:15:00.000Z',
    silent_since: '2026-11-08T09:05:00.000Z',
    cause: 'terminal_closed',
    action: 'terminal_restart',
    acted_at: '2026-11-08T09:16:00.000Z',
    status: 'resolved',
    closed_at: '2026-11-08T09:20:00.000Z',
    positions: 0,
    ...overrides,
  };
}

/** The guardian as a new server has it: it restarts, and has not needed to act. */
export function guardian(overrides: Partial<GuardianResponse> = {}): GuardianResponse {
  return {
    settings: { policy: 'restart', reboot_after_minutes: 10, reboot_with_positions: false },
    incidents: [],
    ...overrides,
  };
}

/** The answers of a server page's own sections (load, snapshots, guardian) for server `id`. */
export function machineRoutes(id = 12): Record<string, Handler> {
  return {
    [`GET /user/vps/servers/${id}/metrics`]: { body: metrics() },
    [`GET /user/vps/servers/${id}/snapshots`]: { body: snapshots() },
    [`GET /user/vps/servers/${id}/guardian`]: { body: guardian() },
  };
}

/**
 * The API of a signed-in reader with $150.50, the rates and no servers; `routes` add or replace,
 * `raw` answers with a Response of its own (an .rdp file). Every request is also kept with its
 * whole URL, for the query strings (`queries`: plain objects).
 */
export function stubVpsApi(
  routes: Record<string, Handler> = {},
  raw: Record<string, (request: Request) => Response> = {},
) {
  const api = stubFetchKeepingRequests(
    {
      'GET /user/auth': { body: fundedUser() },
      'GET /user/vps/rates': { body: ratesResponse() },
      'GET /user/vps/servers': { body: page([]) },
      ...routes,
    },
    raw,
  );
  return {
    ...api,
    queries: (method: string, path: string) =>
      api.queries(method, path).map((params) => Object.fromEntries(params)),
  };
}

/** The live update that operation `kind` on server `id` has ended well, as the stream brings it. */
export function liveOperationEnded(
  store: { dispatch: Parameters<typeof applyLiveEvent>[0] },
  kind: OperationKind,
  id = 12,
) {
  act(() =>
    applyLiveEvent(store.dispatch, {
      event: 'server',
      data: { id, status: 'active', power: 'running', operation: { kind, ok: true } },
    }),
  );
}

/** The API's 202 to an operation of the owner's on server 12: the server, busy with it. */
export function accepted(kind: OperationKind): OperationResponse {
  const busy = server({ operation: operation({ kind }) });
  return { server: busy, operation: busy.operation!, message: 'Started' };
}

/**
 * An operation the API accepted: the server's page shows it under way (`busy`, its status's
 * words) and a toast says so (the test file mocks shared/ui/toast/notify).
 */
export async function expectUnderWay(busy: string, toast: string) {
  expect(await screen.findByText(busy)).toBeInTheDocument();
  expect(notify).toHaveBeenCalledWith('success', toast);
}

/** Presses `button` in `dialog` and waits for it to close (the API accepted, or Cancel). */
export async function pressToClose(
  user: { click: (element: Element) => Promise<void> },
  dialog: HTMLElement,
  button: string,
) {
  await user.click(within(dialog).getByRole('button', { name: button }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/**
 * The API of server 12's page: the server as `changes` make it, no activity yet, and its
 * sections' answers (machineRoutes); `routes` add or replace.
 */
export function stubServerPage(
  changes: Partial<Server> = {},
  routes: Record<string, Handler> = {},
) {
  return stubVpsApi({
    'GET /user/vps/servers/12': { body: { server: server(changes) } },
    'GET /user/vps/servers/12/activity': { body: page([]) },
    ...machineRoutes(),
    ...routes,
  });
}

/** Date only (timers stay real): "now" is NOW. */
export function fixClock(now = NOW) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
}

/**
 * An IntersectionObserver that never sees anything come near: a server's charts (drawn as they
 * near the viewport, on canvases jsdom has not) keep their text summaries.
 */
class FarAway {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/**
 * The VPS page or a server's at `path` (e.g. /vps?tab=rates, /vps/servers/12), signed in. The
 * charts are not drawn unless the test has its own IntersectionObserver (server-resources.test).
 */
export function renderVps(path = '/vps', options: RenderPageOptions = {}) {
  if (typeof IntersectionObserver === 'undefined') vi.stubGlobal('IntersectionObserver', FarAway);
  return renderSignedInPage(
    [
      { path: '/vps', Component: VpsPage },
      { path: '/vps/servers/:serverId', Component: ServerPage },
      { path: '/balance-operations', element: <h1>Balance operations</h1> },
    ],
    path,
    TOKEN,
    options,
  );
}

/** Intl's spaces (no-break, narrow no-break) as plain ones, to compare. */
export const plain = (text: string | null | undefined) =>
  (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
