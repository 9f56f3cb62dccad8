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

const referrer = (name: string) =>
  bigint(name, { mode: 'number' }).references((): AnyPgColumn => users.id, {
    onDelete: 'set null',
  });

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
    /**
     * 'admin' while the user holds any operator role (operator_roles), else 'user': kept by the
     * operator_roles trigger and refused to anything else (users_role_guard, 0020). What the
     * console's menu and the shorter operator sign-in read; permissions read operator_roles.
     */
    role: text('role').$type<'user' | 'admin'>().notNull().default('user'),
    /** 8 characters of REFERRAL_ALPHABET, upper-case. */
    referralCode: text('referral_code').notNull(),
    /** The partner who brought the user (level 1), fixed once set; and that partner's own (levels 2, 3). */
    referrerId: referrer('referrer_id'),
    referrer2Id: referrer('referrer2_id'),
    referrer3Id: referrer('referrer3_id'),
    photoPath: text('photo_path'),
    telegramLink: text('telegram_link'),
    telegramMonLink: text('telegram_mon_link'),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    balancePartnerCents: bigint('balance_partner_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    // each level's referrals of a partner, newest first, one index range each
    index('users_referrer_id_idx').on(t.referrerId, t.id),
    index('users_referrer2_id_idx').on(t.referrer2Id, t.id),
    index('users_referrer3_id_idx').on(t.referrer3Id, t.id),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('users_language_check', sql`${t.language} in ('en', 'ru')`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    check('users_balance_check', sql`${t.balanceCents} >= 0`),
    check('users_balance_partner_check', sql`${t.balancePartnerCents} >= 0`),
    // nobody refers themselves, on any level
    check(
      'users_referrer_not_self_check',
      sql`${t.referrerId} <> ${t.id} and ${t.referrer2Id} <> ${t.id} and ${t.referrer3Id} <> ${t.id}`,
    ),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** A column pointing at a user, removed with the user. */
export const userRef = (name: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
