import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/** Provider-wide settings, one JSON value per key (e.g. `permissions`). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});
