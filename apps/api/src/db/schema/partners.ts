import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { charges, ledgerTransactions } from './money.ts';
import { userRef } from './users.ts';

/*
 * The partner programme. A user's referrers on three levels are columns of `users` (referrer_id,
 * referrer2_id, referrer3_id), fixed when the referrer is: the fan-out of a reward, the levels
 * and the network are each one indexed query. A charge made final (a server created, an upgrade
 * applied, a renewal or subscription paid) gives each of its payer's referrers a reward: pending
 * for PARTNER_HOLD_DAYS, then a job moves it through the ledger (partner_rewards -> the partner
 * purse); a refund while it is pending cancels it (db/partner-rewards.ts). `partner_levels` keeps each partner's totals per level, changed in the same
 * transactions, so the levels table is three rows read by key.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });

/** The reward percentage of each level, in basis points (1000 = 10 %); operator-editable. */
export const partnerRewardLevels = pgTable(
  'partner_reward_levels',
  {
    level: smallint('level').primaryKey(),
    percentBp: integer('percent_bp').notNull(),
  },
  (t) => [
    check('partner_reward_levels_level_check', sql`${t.level} between 1 and 3`),
    check('partner_reward_levels_percent_check', sql`${t.percentBp} between 0 and 5000`),
  ],
);

/** The discounts a partner's promocodes may give, by their active first-level referrals. */
export const partnerDiscountTiers = pgTable(
  'partner_discount_tiers',
  {
    /** From this many active referrals on. */
    activeReferrals: integer('active_referrals').primaryKey(),
    discountPercent: integer('discount_percent').notNull(),
  },
  (t) => [
    check('partner_discount_tiers_from_check', sql`${t.activeReferrals} >= 0`),
    check('partner_discount_tiers_percent_check', sql`${t.discountPercent} between 1 and 90`),
  ],
);

export const partnerRewards = pgTable(
  'partner_rewards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull(),
    partnerId: userRef('partner_id'),
    /** The referral whose payment it is. */
    referralId: userRef('referral_id'),
    level: smallint('level').notNull(),
    chargeId: bigint('charge_id', { mode: 'number' })
      .notNull()
      .references(() => charges.id),
    /** What the referral paid (the charge), and the level's percentage then. */
    baseCents: cents('base_cents').notNull(),
    percentBp: integer('percent_bp').notNull(),
    amountCents: cents('amount_cents').notNull(),
    /** Pending for PARTNER_HOLD_DAYS after created_at, then available (or cancelled by a refund). */
    status: text('status').$type<'pending' | 'available' | 'cancelled'>().notNull(),
    /** Set when it reached the partner balance (its ledger transaction) or was cancelled. */
    settledAt: timestamptz('settled_at'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }).references(
      () => ledgerTransactions.id,
    ),
  },
  (t) => [
    // once per charge and level: a retried grant adds nothing
    uniqueIndex('partner_rewards_charge_level_key').on(t.chargeId, t.level),
    index('partner_rewards_partner_created_idx').on(t.partnerId, t.createdAt),
    index('partner_rewards_partner_referral_idx').on(t.partnerId, t.referralId),
    // the release job's oldest first, and a partner's pending sum
    index('partner_rewards_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('partner_rewards_partner_pending_idx')
      .on(t.partnerId)
      .where(sql`${t.status} = 'pending'`),
    check('partner_rewards_level_check', sql`${t.level} between 1 and 3`),
    check('partner_rewards_amount_check', sql`${t.amountCents} > 0`),
    check('partner_rewards_not_self_check', sql`${t.partnerId} <> ${t.referralId}`),
    check(
      'partner_rewards_status_check',
      sql`${t.status} in ('pending', 'available', 'cancelled')`,
    ),
    check(
      'partner_rewards_ledger_check',
      sql`(${t.status} = 'available') = (${t.ledgerTransactionId} is not null)`,
    ),
  ],
);

/**
 * A partner's totals per level: referrals, and the rewards not cancelled (their count, sum, and
 * the payments they were counted on).
 */
export const partnerLevels = pgTable(
  'partner_levels',
  {
    partnerId: userRef('partner_id'),
    level: smallint('level').notNull(),
    users: integer('users').notNull().default(0),
    rewards: integer('rewards').notNull().default(0),
    turnoverCents: cents('turnover_cents').notNull().default(0),
    rewardCents: cents('reward_cents').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.level] }),
    check('partner_levels_level_check', sql`${t.level} between 1 and 3`),
    check(
      'partner_levels_totals_check',
      sql`${t.users} >= 0 and ${t.rewards} >= 0 and ${t.turnoverCents} >= 0 and ${t.rewardCents} >= 0`,
    ),
  ],
);

/** Visits through a partner's link: one per code, visitor and day; no address is kept. */
export const partnerClicks = pgTable(
  'partner_clicks',
  {
    partnerId: userRef('partner_id'),
    day: date('day', { mode: 'string' }).notNull(),
    /** HMAC of the visitor's address and browser, keyed by a server secret: equal visits match. */
    visitor: text('visitor').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day, t.visitor] })],
);
