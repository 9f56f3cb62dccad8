import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Stored lower-cased; unique regardless of case. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id, PHC string. */
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamptz('email_verified_at'),
    language: text('language').$type<'en' | 'ru'>().notNull().default('en'),
    role: text('role').$type<'user' | 'admin'>().notNull().default('user'),
    /** 8 characters of REFERRAL_ALPHABET, upper-case. */
    referralCode: text('referral_code').notNull(),
    referrerId: bigint('referrer_id', { mode: 'number' }).references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    photoPath: text('photo_path'),
    telegramLink: text('telegram_link'),
    telegramMonLink: text('telegram_mon_link'),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    balancePartnerCents: bigint('balance_partner_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    index('users_referrer_id_idx').on(t.referrerId),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_language_check', sql`${t.language} in ('en', 'ru')`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    check('users_balance_check', sql`${t.balanceCents} >= 0`),
    check('users_balance_partner_check', sql`${t.balancePartnerCents} >= 0`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** A column pointing at a user, removed with the user. */
export const userRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
