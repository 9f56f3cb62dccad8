import type { Platform } from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { charges } from './money.ts';
import { userRef } from './users.ts';

/*
 * Online monitoring. A subscription (the free plan, or a paid one bought through the ledger) has
 * an activation key, the publisher's credential: kept as its SHA-256 (what a request is looked up
 * by) and sealed (lib/crypto-box.ts) to show its owner again. Its accounts are the trading
 * accounts the publisher may report, each with an unguessable public id.
 */

export type MonitoringPlan = 'free' | 'paid';

/** The price of an account-month is a setting (`settings`, MONITORING_PRICE_KEY); discounts here. */
export const monitoringPeriodDiscounts = pgTable(
  'monitoring_period_discounts',
  {
    months: integer('months').primaryKey(),
    discountPercent: integer('discount_percent').notNull().default(0),
  },
  (t) => [
    check('monitoring_period_discounts_months_check', sql`${t.months} between 1 and 12`),
    check('monitoring_period_discounts_percent_check', sql`${t.discountPercent} between 0 and 90`),
  ],
);

export const monitoringSubscriptions = pgTable(
  'monitoring_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    plan: text('plan').$type<MonitoringPlan>().notNull(),
    accounts: integer('accounts').notNull(),
    /** The free plan has no end. */
    endsAt: timestamptz('ends_at'),
    keyHash: text('key_hash').notNull(),
    keySealed: text('key_sealed').notNull(),
    /** The purchase's charge (paid plans). */
    chargeId: bigint('charge_id', { mode: 'number' }).references(() => charges.id),
    /** Expiry mails, cleared by an extension so the next end warns again. */
    warned3dAt: timestamptz('warned_3d_at'),
    warned1dAt: timestamptz('warned_1d_at'),
  },
  (t) => [
    index('monitoring_subscriptions_user_id_idx').on(t.userId, t.id),
    uniqueIndex('monitoring_subscriptions_key_hash_key').on(t.keyHash),
    // one free plan per user, under races too
    uniqueIndex('monitoring_subscriptions_one_free_key')
      .on(t.userId)
      .where(sql`${t.plan} = 'free'`),
    check('monitoring_subscriptions_plan_check', sql`${t.plan} in ('free', 'paid')`),
    check('monitoring_subscriptions_accounts_check', sql`${t.accounts} between 1 and 50`),
    check('monitoring_subscriptions_end_check', sql`(${t.plan} = 'free') = (${t.endsAt} is null)`),
  ],
);

export const monitoringAccounts = pgTable(
  'monitoring_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringSubscriptions.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    /** The public id (`:monitoringId`): random, unguessable. */
    monitoringId: text('monitoring_id').notNull(),
    login: bigint('login', { mode: 'number' }).notNull(),
    platform: text('platform').$type<Platform>().notNull(),
    name: text('name').notNull(),
    /** Where its reports and alerts go. */
    email: text('email').notNull(),
    /** The public page: off until the owner shares it; what it hides. */
    isPublic: boolean('is_public').notNull().default(false),
    hideLogin: boolean('hide_login').notNull().default(true),
    hideBroker: boolean('hide_broker').notNull().default(false),
    hideMoney: boolean('hide_money').notNull().default(false),
    hidePositions: boolean('hide_positions').notNull().default(false),
    hideHistory: boolean('hide_history').notNull().default(false),
    timeZone: text('time_zone').notNull().default('UTC'),
    views: integer('views').notNull().default(0),
    // what the publisher said in its hello, and the account as its latest snapshot showed it
    server: text('server'),
    company: text('company'),
    currency: text('currency'),
    leverage: integer('leverage'),
    tradeMode: text('trade_mode'),
    marginMode: text('margin_mode'),
    eaVersion: text('ea_version'),
    helloAt: timestamptz('hello_at'),
    lastDataAt: timestamptz('last_data_at'),
    terminalConnected: boolean('terminal_connected').notNull().default(false),
    balance: doublePrecision('balance'),
    equity: doublePrecision('equity'),
    margin: doublePrecision('margin'),
    credit: doublePrecision('credit'),
    positions: jsonb('positions').notNull().default([]),
  },
  (t) => [
    // one publisher per trading account: the same login on the same server in two places is refused
    uniqueIndex('monitoring_accounts_login_server_key')
      .on(t.login, t.server)
      .where(sql`${t.server} is not null`),
    uniqueIndex('monitoring_accounts_monitoring_id_key').on(t.monitoringId),
    uniqueIndex('monitoring_accounts_subscription_login_key').on(t.subscriptionId, t.login),
    index('monitoring_accounts_user_id_idx').on(t.userId, t.id),
    check('monitoring_accounts_platform_check', sql`${t.platform} in ('MT4', 'MT5')`),
    check('monitoring_accounts_name_check', sql`char_length(${t.name}) between 1 and 60`),
  ],
);

/** The deals a publisher sent: each ticket once per account (a resent batch changes nothing). */
export const monitoringDeals = pgTable(
  'monitoring_deals',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    ticket: bigint('ticket', { mode: 'number' }).notNull(),
    order: bigint('order', { mode: 'number' }).notNull(),
    positionId: bigint('position_id', { mode: 'number' }).notNull(),
    time: timestamptz('time').notNull(),
    type: text('type').notNull(),
    entry: text('entry').notNull(),
    symbol: text('symbol').notNull(),
    digits: integer('digits').notNull(),
    volume: doublePrecision('volume').notNull(),
    price: doublePrecision('price').notNull(),
    profit: doublePrecision('profit').notNull(),
    swap: doublePrecision('swap').notNull(),
    commission: doublePrecision('commission').notNull(),
    fee: doublePrecision('fee').notNull(),
    magic: bigint('magic', { mode: 'number' }).notNull(),
    comment: text('comment').notNull(),
    equityBefore: doublePrecision('equity_before'),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.ticket] }),
    // the statistics read an account's deals in this order: from the index, without a sort
    index('monitoring_deals_account_time_idx').on(t.accountId, t.time, t.ticket),
  ],
);

/** Equity at most once a minute per account, with that minute's low and high. */
export const monitoringEquity = pgTable(
  'monitoring_equity',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    /** The minute (older than 30 days: the hour) the point stands for. */
    at: timestamptz('at').notNull(),
    balance: doublePrecision('balance').notNull(),
    equity: doublePrecision('equity').notNull(),
    equityLow: doublePrecision('equity_low').notNull(),
    equityHigh: doublePrecision('equity_high').notNull(),
    margin: doublePrecision('margin').notNull(),
    credit: doublePrecision('credit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.at] })],
);

/**
 * An account's figures as the statistics job last computed them (whole history): the list's
 * summary columns and the statistics and chart responses, so reads do no statistics work.
 */
export const monitoringStatistics = pgTable('monitoring_statistics', {
  accountId: bigint('account_id', { mode: 'number' })
    .primaryKey()
    .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
  computedAt: timestamptz('computed_at').notNull(),
  gain: doublePrecision('gain').notNull(),
  maxDrawdown: doublePrecision('max_drawdown').notNull(),
  profit: doublePrecision('profit').notNull(),
  trades: integer('trades').notNull(),
  /** The StatisticsResponse of the whole history. */
  figures: jsonb('figures').notNull(),
  /** The ChartResponse's points. */
  chart: jsonb('chart').notNull(),
});

/**
 * The public page's visitors: a salted hash of address and browser, the salt changing daily, so
 * a visitor counts once a day and no address is kept; rows older than two days are deleted.
 */
export const monitoringViews = pgTable(
  'monitoring_views',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    visitor: text('visitor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.visitor] })],
);
