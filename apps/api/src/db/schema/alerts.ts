import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/** Notices shown to every signed-in user while active and within their window. */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    level: text('level').$type<'info' | 'warning' | 'danger'>().notNull().default('info'),
    textEn: text('text_en').notNull(),
    textRu: text('text_ru').notNull(),
    active: boolean('active').notNull().default(true),
    startsAt: timestamptz('starts_at').notNull().defaultNow(),
    endsAt: timestamptz('ends_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('alerts_level_check', sql`${t.level} in ('info', 'warning', 'danger')`),
    index('alerts_active_idx').on(t.active, t.startsAt),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
