/**
 * Test helpers of the balance page: the real store (signed in, with a token), an i18next
 * instance of the test's own over the real locale resources, the page on a memory router under
 * StrictMode, and API fixtures. HTTP is stubbed at the global fetch (src/test/fetch-stub).
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Payment, PaymentMethodsResponse, PaymentStatus, User } from '@tradehost/contracts';
import { StrictMode } from 'react';
import { vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { makeStore } from '../../app/store';
import { tokenReceived } from '../../shared/model/session';
import { windowResized } from '../../shared/model/ui-slice';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { createTestI18n } from '../../test/i18n-resources';
import { Component as BalanceOperationsPage } from './pages/balance-operations-page';

export { deferred, stubFetch, type Handler, type StubCall } from '../../test/fetch-stub';

export const TOKEN = 'balance-test-token';

export const METHODS: PaymentMethodsResponse = {
  currency: 'USD',
  methods: [
    { id: 'card', min: 10, max: 10000, available: true },
    { id: 'ewallet', min: 5, max: 5000, available: true },
    {
      id: 'crypto',
      min: 20,
      max: 50000,
      available: true,
      networks: [
        { id: 'USDT-TRC20', name: 'USDT (TRC-20)' },
        { id: 'BTC', name: 'Bitcoin' },
      ],
    },
    { id: 'balance', min: 1, max: 100000, available: true },
  ],
};

export function user(overrides: Partial<User> = {}): User {
  return { ...testUser, balance: 150.5, balance_partner: 0, ...overrides };
}

export function payment(overrides: Partial<Payment> & { status?: PaymentStatus } = {}): Payment {
  return {
    id: 41,
    created_at: '2026-11-20T09:15:00.000Z',
    method: 'card',
    amount: 25,
    currency: 'USD',
    status: 'processing',
    network: null,
    wallet: null,
    txid: null,
    reason: null,
    paid_at: null,
    ...overrides,
  };
}

/** A page of a history with `total` rows in all. */
export function page<T>(
  data: T[],
  meta: { page?: number; per_page?: number; total?: number } = {},
) {
  return {
    data,
    meta: { page: 1, per_page: 20, total: data.length, ...meta },
  };
}

export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * The API of a signed-in reader with $150.50 and the four methods; `routes` add or replace
 * (src/test/fetch-stub), `raw` answers with a Response of its own (a CSV file). Every request
 * is also kept with its whole URL (the stub keeps the path only), for the query strings.
 */
export function stubBalanceApi(
  routes: Record<string, Handler> = {},
  raw: Record<string, (request: Request) => Response> = {},
) {
  const api = stubFetch({
    'GET /user/auth': { body: user() },
    'GET /user/balance/methods': { body: METHODS },
    'GET /user/balance/history/payments': { body: page([]) },
    'GET /user/balance/history/transfers': { body: page([]) },
    'GET /user/balance/history/charges': { body: page([]) },
    'GET /user/balance/history/withdrawals': { body: page([]) },
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
        .map((r) => r.url.searchParams),
  };
}

export interface RenderOptions {
  language?: 'en' | 'ru';
  /** The window width (mobile < 768). */
  width?: number;
}

/** The balance page at `path` (e.g. /balance-operations?tab=history), signed in. */
export function renderBalance(path = '/balance-operations', options: RenderOptions = {}) {
  const store = makeStore();
  store.dispatch(
    tokenReceived({ token: TOKEN, expires: new Date(Date.now() + 3_600_000).toISOString() }),
  );
  store.dispatch(windowResized({ width: options.width ?? 1440, height: 900 }));
  const i18n = createTestI18n(options.language ?? 'en');
  const router = createMemoryRouter(
    [{ path: '/balance-operations', Component: BalanceOperationsPage }],
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
