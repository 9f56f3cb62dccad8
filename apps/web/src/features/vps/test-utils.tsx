/**
 * Test helpers of the VPS page: the page signed in on a memory router (src/test/render's
 * renderSignedInPage), its API stubbed at the global fetch (src/test/fetch-stub) as the balance
 * tests do, and API fixtures built from the contracts.
 */
import type {
  PeriodDiscount,
  Rate,
  RatesResponse,
  Server,
  ServerActivity,
  ServerOperation,
} from '@tradehost/contracts';
import { vi } from 'vitest';
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

/** Date only (timers stay real): "now" is NOW. */
export function fixClock(now = NOW) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
}

/** The VPS page or a server's at `path` (e.g. /vps?tab=rates, /vps/servers/12), signed in. */
export function renderVps(path = '/vps', options: RenderPageOptions = {}) {
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
