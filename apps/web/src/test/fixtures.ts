import type { User } from '@tradehost/contracts';

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
