import type { Page, User } from '@tradehost/contracts';

export const testUser: User = {
  id: 1,
  created_at: '2024-01-01T00:00:00.000Z',
  email: 'alice@example.com',
  name: 'alice',
  language: 'en',
  role: 'user',
  email_verified_at: '2024-01-01T00:00:00.000Z',
  referral_code: 'ALICE',
  photo_path: null,
  telegram_link: null,
  telegram_mon_link: null,
  balance: 12345,
  balance_partner: 0,
};

/** The signed-in reader of the balance and VPS tests: $150.50, nothing on the partner balance. */
export function fundedUser(overrides: Partial<User> = {}): User {
  return { ...testUser, balance: 150.5, balance_partner: 0, ...overrides };
}

/** A page of a list with `total` rows in all. */
export function page<T>(
  data: T[],
  meta: { page?: number; per_page?: number; total?: number } = {},
): Page<T> {
  return { data, meta: { page: 1, per_page: 20, total: data.length, ...meta } };
}
