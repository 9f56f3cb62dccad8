/**
 * Test helpers of the operator area: an admin session over the real signed-in routes (the
 * RequireAdmin guard and the lazy pages included) with the API stubbed at fetch.
 */
import type { AdminPayment, AdminUser, AuditEntry, LedgerEntry, User } from '@tradehost/contracts';
import { vi } from 'vitest';
import { signedInRoutes } from '../../app/router';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { renderApp } from '../../test/render';

export const adminUser: User = {
  ...testUser,
  id: 99,
  email: 'olga@tradehost.test',
  name: 'Olga',
  role: 'admin',
};

/** The signed-in shell's calls, an admin as the user, and the given routes. */
export function stubOperatorApi(routes: Record<string, Handler> = {}, user: User = adminUser) {
  return stubFetch({
    'GET /user/auth': { body: user },
    'GET /front/permissions': { body: { partner: true, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    ...routes,
  });
}

export function openOperator(
  path: string,
  options: { width?: number; language?: 'en' | 'ru' } = {},
) {
  return renderApp({ routes: signedInRoutes, path, signedIn: true, ...options });
}

/**
 * The query strings of the calls to `path` (the fetch stub keys its routes by the path alone).
 * RTK Query hands fetch a Request.
 */
export function queriesTo(path: string): Record<string, string>[] {
  return vi
    .mocked(globalThis.fetch)
    .mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)))
    .filter((url) => url.pathname === `/api${path}`)
    .map((url) => Object.fromEntries(url.searchParams));
}

export const page = <T,>(
  data: T[],
  meta: { page?: number; per_page?: number; total?: number } = {},
) => ({
  data,
  meta: { page: 1, per_page: 20, total: data.length, ...meta },
});

const bob = { id: 5, email: 'bob@example.com', name: 'Bob' };

export function cryptoPayment(overrides: Partial<AdminPayment> = {}): AdminPayment {
  return {
    id: 7,
    created_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    method: 'crypto',
    amount: 50,
    currency: 'USD',
    status: 'under_review',
    network: 'USDT-TRC20',
    wallet: 'TXYZpayerWallet1234567890abcdef',
    txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
    reason: null,
    paid_at: null,
    user: bob,
    reviewed_by: null,
    reviewed_at: null,
    ...overrides,
  };
}

export function adminUserRecord(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 5,
    created_at: '2024-03-01T10:00:00.000Z',
    email: 'bob@example.com',
    name: 'Bob',
    role: 'user',
    balance: 120,
    balance_partner: 15.5,
    ...overrides,
  };
}

export function ledgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: 1,
    transaction_id: 1,
    created_at: '2025-01-10T12:00:00.000Z',
    kind: 'topup',
    account: 'balance',
    amount: 25,
    balance_after: 125,
    memo: null,
    ...overrides,
  };
}

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    created_at: '2025-01-10T12:00:00.000Z',
    actor: { id: 99, email: 'olga@tradehost.test', name: 'Olga' },
    action: 'payment.confirm',
    subject_type: 'payment',
    subject_id: '7',
    target_user: bob,
    details: { amount: 50, network: 'USDT-TRC20', txid: 'abc123' },
    ...overrides,
  };
}
