import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef } from './users.ts';

/** One visit through a partner's link (`?ref=CODE`). */
export const referralClicks = pgTable(
  'referral_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerId: userRef('partner_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('referral_clicks_partner_id_created_at_idx').on(t.partnerId, t.createdAt)],
);
