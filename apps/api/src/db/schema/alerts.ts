import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Notices shown to every signed-in user while active and within their window. */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    level: text('level').$type<'info' | 'warning' | 'danger'>().notNull().default('info'),
    textEn: text('text_en').notNull(),
    textRu: text('text_ru').notNull(),
    active: boolean('active').notNull().default(true),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('alerts_level_check', sql`${t.level} in ('info', 'warning', 'danger')`),
    index('alerts_active_idx').on(t.active, t.startsAt),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
