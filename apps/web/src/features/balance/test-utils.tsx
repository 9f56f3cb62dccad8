/**
 * Test helpers of the balance page: the page signed in on a memory router (src/test/render's
 * renderSignedInPage), its API stubbed at the global fetch (src/test/fetch-stub), and fixtures.
 */
import type { Payment, PaymentMethodsResponse, PaymentStatus } from '@tradehost/contracts';
import { stubFetchKeepingRequests, type Handler } from '../../test/fetch-stub';
import { fundedUser, page } from '../../test/fixtures';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as BalanceOperationsPage } from './pages/balance-operations-page';

export {
  deferred,
  stubFetch,
  type Handler,
  type SentRequest,
  type StubCall,
} from '../../test/fetch-stub';
export { fundedUser as user, page } from '../../test/fixtures';
export { searchOf, type RenderPageOptions as RenderOptions } from '../../test/render';

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

/**
 * The API of a signed-in reader with $150.50 and the four methods; `routes` add or replace,
 * `raw` answers with a Response of its own (a CSV file). Every request is also kept with its
 * whole URL, for the query strings (`queries`: URLSearchParams).
 */
export function stubBalanceApi(
  routes: Record<string, Handler> = {},
  raw: Record<string, (request: Request) => Response> = {},
) {
  return stubFetchKeepingRequests(
    {
      'GET /user/auth': { body: fundedUser() },
      'GET /user/balance/methods': { body: METHODS },
      'GET /user/balance/history/payments': { body: page([]) },
      'GET /user/balance/history/transfers': { body: page([]) },
      'GET /user/balance/history/charges': { body: page([]) },
      'GET /user/balance/history/withdrawals': { body: page([]) },
      'GET /user/balance/crypto-requests': { body: { data: [] } },
      ...routes,
    },
    raw,
  );
}

/** The balance page at `path` (e.g. /balance-operations?tab=history), signed in. */
export function renderBalance(path = '/balance-operations', options: RenderPageOptions = {}) {
  return renderSignedInPage(
    [{ path: '/balance-operations', Component: BalanceOperationsPage }],
    path,
    TOKEN,
    options,
  );
}
