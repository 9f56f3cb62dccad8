/**
 * Test helpers of the VPS page: the real store (signed in, with a token), an i18next instance of
 * the test's own over the real locale resources, the page on a memory router under StrictMode,
 * and API fixtures built from the contracts. HTTP is stubbed at the global fetch
 * (src/test/fetch-stub), as the balance tests do.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  Page,
  PeriodDiscount,
  Rate,
  RatesResponse,
  Server,
  ServerOperation,
  User,
} from '@tradehost/contracts';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { makeStore } from '../../app/store';
import { tokenReceived } from '../../shared/model/session';
import { windowResized } from '../../shared/model/ui-slice';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { createTestI18n } from '../../test/i18n-resources';
import { Component as VpsPage } from './pages/vps-page';

export { deferred, type Handler, type StubCall } from '../../test/fetch-stub';

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

export function user(overrides: Partial<User> = {}): User {
  return { ...testUser, balance: 150.5, balance_partner: 0, ...overrides };
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

/** A page of a list with `total` rows in all. */
export function page<T>(
  data: T[],
  meta: { page?: number; per_page?: number; total?: number } = {},
): Page<T> {
  return { data, meta: { page: 1, per_page: 20, total: data.length, ...meta } };
}

export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * The API of a signed-in reader with $150.50, the rates and no servers; `routes` add or replace
 * (src/test/fetch-stub), `raw` answers with a Response of its own (an .rdp file). Every request
 * is also kept with its whole URL (the stub keeps the path only), for the query strings.
 */
export function stubVpsApi(
  routes: Record<string, Handler> = {},
  raw: Record<string, (request: Request) => Response> = {},
) {
  const api = stubFetch({
    'GET /user/auth': { body: user() },
    'GET /user/vps/rates': { body: ratesResponse() },
    'GET /user/vps/servers': { body: page([]) },
    ...routes,
  });
  const stubbed = globalThis.fetch;
  const requests: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    requests.push({ method: request.method, url, headers: request.headers });
    const answer = raw[`${request.method} ${url.pathname.replace(/^\/api/, '')}`];
    return answer ? answer(request) : stubbed(request);
  });
  return {
    ...api,
    requests,
    /** The query parameters of each request to `path` (under /api), in order. */
    queries: (method: string, path: string) =>
      requests
        .filter((r) => r.method === method && r.url.pathname === `/api${path}`)
        .map((r) => Object.fromEntries(r.url.searchParams)),
  };
}

/** Date only (timers stay real): "now" is NOW. */
export function fixClock(now = NOW) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
}

export interface RenderOptions {
  language?: 'en' | 'ru';
  /** The window width (mobile < 768). */
  width?: number;
}

/** The VPS page at `path` (e.g. /vps?tab=rates), signed in. */
export function renderVps(path = '/vps', options: RenderOptions = {}) {
  const store = makeStore();
  store.dispatch(
    tokenReceived({ token: TOKEN, expires: new Date(Date.now() + 3_600_000).toISOString() }),
  );
  store.dispatch(windowResized({ width: options.width ?? 1440, height: 900 }));
  const i18n = createTestI18n(options.language ?? 'en');
  const router = createMemoryRouter(
    [
      { path: '/vps', Component: VpsPage },
      { path: '/balance-operations', element: <h1>Balance operations</h1> },
    ],
    { initialEntries: [path] },
  );
  const events = userEvent.setup();
  const view = render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
  return { ...view, user: events, router, store, i18n };
}

/** The search parameters of the router's current address. */
export function searchOf(router: { state: { location: { search: string } } }): URLSearchParams {
  return new URLSearchParams(router.state.location.search);
}

/** Intl's spaces (no-break, narrow no-break) as plain ones, to compare. */
export const plain = (text: string | null | undefined) =>
  (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
