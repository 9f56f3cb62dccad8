import type { AlertKind, Platform } from '@tradehost/contracts';
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
    /**
     * The latest snapshot's terminal (publisher 1.3.0 on; null before, and ping null while it had
     * none): its last ping to the trade server (ms), whether algorithmic trading is allowed in
     * the terminal and for the publisher.
     */
    pingMs: integer('ping_ms'),
    tradeAllowed: boolean('trade_allowed'),
    eaTradeAllowed: boolean('ea_trade_allowed'),
    balance: doublePrecision('balance'),
    equity: doublePrecision('equity'),
    margin: doublePrecision('margin'),
    credit: doublePrecision('credit'),
    positions: jsonb('positions').notNull().default([]),
    /** The address the publisher's latest requests came from (behind a proxy: with TRUST_PROXY). */
    publisherIp: text('publisher_ip'),
    /**
     * When the broker trades, as the publisher's hello last told (the union of its Market Watch
     * symbols' trade sessions): [start, end) minutes of the week from Sunday 00:00 UTC, merged and
     * sorted. Null: not told (an older publisher), and the Forex week is assumed.
     */
    tradeSessions: jsonb('trade_sessions').$type<[number, number][]>(),
    /**
     * How many cash flows (balance, credit, bonus deals) the publisher has sent: the equity
     * point a snapshot goes into is its minute's of this count, so no point holds values from
     * both sides of a flow.
     */
    flows: integer('flows').notNull().default(0),
    /** Alerts: the account's switch (the bot's /alerts) and where they go. */
    alertsEnabled: boolean('alerts_enabled').notNull().default(true),
    alertEmail: boolean('alert_email').notNull().default(true),
    alertTelegram: boolean('alert_telegram').notNull().default(true),
    /** Reports: which summaries, and where they go. */
    reportDaily: boolean('report_daily').notNull().default(false),
    reportWeekly: boolean('report_weekly').notNull().default(false),
    reportMonthly: boolean('report_monthly').notNull().default(false),
    reportEmail: boolean('report_email').notNull().default(true),
    reportTelegram: boolean('report_telegram').notNull().default(true),
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
    /**
     * On a closing deal, the position's excursions over its life as the publisher tracked them
     * (1.4 on; null before, and on other deals): its worst and best floating result in money
     * (mae at most 0, mfe at least 0) and in price points.
     */
    mae: doublePrecision('mae'),
    mfe: doublePrecision('mfe'),
    maePoints: doublePrecision('mae_points'),
    mfePoints: doublePrecision('mfe_points'),
    /**
     * When the deal reached the server (null: before this was kept). An `equity_before` that
     * came long after its deal is not the equity then (a publisher that was stopped sent it).
     */
    receivedAt: timestamptz('received_at'),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.ticket] }),
    // the statistics read an account's deals in this order: from the index, without a sort
    index('monitoring_deals_account_time_idx').on(t.accountId, t.time, t.ticket),
  ],
);

/**
 * Equity at most once a minute per account (and cash-flow count), with that minute's low and
 * high: the values of the minute's latest snapshot, taken at `lastAt`.
 */
export const monitoringEquity = pgTable(
  'monitoring_equity',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    /** The minute (older than 30 days: the hour) the point stands for. */
    at: timestamptz('at').notNull(),
    /**
     * The account's cash-flow count when its snapshots came (`monitoring_accounts.flows`): a
     * flow starts a new point even within the minute.
     */
    segment: integer('segment').notNull().default(0),
    /** When its values were taken: its latest snapshot's time (null: before this was kept). */
    lastAt: timestamptz('last_at'),
    balance: doublePrecision('balance').notNull(),
    equity: doublePrecision('equity').notNull(),
    equityLow: doublePrecision('equity_low').notNull(),
    equityHigh: doublePrecision('equity_high').notNull(),
    margin: doublePrecision('margin').notNull(),
    credit: doublePrecision('credit').notNull(),
    /**
     * Whether every snapshot of the point came from one of our VPS servers (by the publisher's
     * address): what "verified by the host" is made of. Null: before this was kept.
     */
    hosted: boolean('hosted'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.at, t.segment] })],
);

/**
 * A connected terminal's ping to its trade server at most once a minute per account (the
 * minute's first snapshot that told one): the account page's ping over time, and the latency
 * map's measurements, which is why each point keeps the trade server's name as the hello said it
 * and, when the publisher wrote from one of its owner's VPS servers, that server's location.
 */
export const monitoringPings = pgTable(
  'monitoring_pings',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    /** The minute (older than 30 days: the hour) of the snapshot's time. */
    at: timestamptz('at').notNull(),
    /** Whole milliseconds (older than 30 days: the hour's mean). */
    pingMs: integer('ping_ms').notNull(),
    /** The trade server (`monitoring_accounts.server` then). */
    server: text('server'),
    /** `vps_rates.location` of the owner's server at the publisher's address; null elsewhere. */
    location: text('location'),
    /**
     * The account's owner, kept with the point: the latency map counts owners (no figure stands
     * for fewer than three) without a join per measurement. No reference: the account's holds.
     */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.at] }),
    // the latency map (a broker's points of the window) and the broker names' prefix search,
    // any case: LIKE 'abc%' on lower(server) needs the pattern operator class whatever the
    // database's collation
    index('monitoring_pings_server_idx').on(sql`lower(${t.server}) text_pattern_ops`, t.at),
  ],
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
 * The names an owner gave an account's strategies (the magic numbers of its Expert Advisors),
 * shown wherever its trades are; a strategy without one is shown by its number.
 */
export const monitoringStrategies = pgTable(
  'monitoring_strategies',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    /** As MT5 sends it, 64-bit (as text in the API: a JavaScript number cannot hold it). */
    magic: bigint('magic', { mode: 'bigint' }).notNull(),
    name: text('name').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.magic] }),
    check('monitoring_strategies_name_check', sql`char_length(${t.name}) between 1 and 40`),
    check('monitoring_strategies_magic_check', sql`${t.magic} <> 0`),
  ],
);

/**
 * "Verified by the host": the account's current unbroken run on our servers, as the statistics
 * job last followed it through the equity points (from `checkedUntil` on, so the minute points
 * are read before they are thinned to hours), and why the run before it ended.
 */
export const monitoringVerification = pgTable(
  'monitoring_verification',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .primaryKey()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    /** The first hosted point of the current run; null: the latest point was not hosted. */
    runStartedAt: timestamptz('run_started_at'),
    /** The latest hosted point. */
    lastHostedAt: timestamptz('last_hosted_at'),
    /** The latest point followed so far. */
    checkedUntil: timestamptz('checked_until').notNull(),
    /** Why the last run ended: a silence during market hours, or points from elsewhere. */
    brokenReason: text('broken_reason'),
    /** When the break began and ended (the silence's span; the first point from elsewhere). */
    brokenFrom: timestamptz('broken_from'),
    brokenTo: timestamptz('broken_to'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    check(
      'monitoring_verification_reason_check',
      sql`${t.brokenReason} is null or ${t.brokenReason} in ('gap', 'elsewhere')`,
    ),
  ],
);

/**
 * A user's portfolio: several of their monitored accounts seen as one (the gain combined over
 * time, the equity summed where the currencies match), public like an account when its owner
 * shares it.
 */
export const monitoringPortfolios = pgTable(
  'monitoring_portfolios',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    /** The public id, as an account's: random, unguessable. */
    monitoringId: text('monitoring_id').notNull(),
    name: text('name').notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    hideMoney: boolean('hide_money').notNull().default(false),
    views: integer('views').notNull().default(0),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('monitoring_portfolios_monitoring_id_key').on(t.monitoringId),
    index('monitoring_portfolios_user_id_idx').on(t.userId, t.id),
    check('monitoring_portfolios_name_check', sql`char_length(${t.name}) between 1 and 60`),
  ],
);

/** The accounts of a portfolio (each the portfolio owner's: the service checks it). */
export const monitoringPortfolioAccounts = pgTable(
  'monitoring_portfolio_accounts',
  {
    portfolioId: bigint('portfolio_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringPortfolios.id, { onDelete: 'cascade' }),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.portfolioId, t.accountId] }),
    index('monitoring_portfolio_accounts_account_idx').on(t.accountId),
  ],
);

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

/**
 * An account's alert rules, one per kind the owner set up. `threshold`: percent (drawdown, margin
 * level), the account's currency (equity below, daily loss), minutes (no data), milliseconds (ping
 * above); none for positions.
 * A rule fires when its line is crossed (`firedAt` set) and is armed again (`firedAt` null) only
 * once the account has recovered, so a value hovering at the line does not storm.
 */
export const monitoringAlertRules = pgTable(
  'monitoring_alert_rules',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AlertKind>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    threshold: doublePrecision('threshold'),
    firedAt: timestamptz('fired_at'),
    /**
     * What the rule measures from, kept by the evaluation: drawdown, the peak of equity (without
     * credit), moved by deposits and withdrawals as the growth index is; daily loss, the equity
     * (without credit) the day began with, moved by the day's deposits and withdrawals.
     */
    base: doublePrecision('base'),
    /** Daily loss: the start of the day `base` belongs to (in the account's time zone). */
    baseAt: timestamptz('base_at'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.kind] }),
    check(
      'monitoring_alert_rules_kind_check',
      sql`${t.kind} in ('drawdown', 'equity_below', 'margin_level', 'daily_loss', 'no_data', 'positions', 'ping_above')`,
    ),
    check(
      'monitoring_alert_rules_threshold_check',
      sql`(${t.kind} = 'positions') = (${t.threshold} is null)`,
    ),
  ],
);

export type AlertDelivery = 'pending' | 'sent' | 'failed' | 'skipped';

/** The alert history: each firing (and each position opened or closed, when asked for). */
export const monitoringAlertEvents = pgTable(
  'monitoring_alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AlertKind>().notNull(),
    at: timestamptz('at').notNull(),
    /** The value that crossed the line, and the line. */
    value: doublePrecision('value'),
    threshold: doublePrecision('threshold'),
    /** What else the message names (the position; the server and its state for no data). */
    details: jsonb('details').notNull().default({}),
    emailStatus: text('email_status').$type<AlertDelivery>().notNull().default('pending'),
    telegramStatus: text('telegram_status').$type<AlertDelivery>().notNull().default('pending'),
  },
  (t) => [index('monitoring_alert_events_account_idx').on(t.accountId, t.id)],
);

export type ReportPeriod = 'daily' | 'weekly' | 'monthly';

/** Reports sent: one per account, period and its start (in the account's time zone), ever. */
export const monitoringReportsSent = pgTable(
  'monitoring_reports_sent',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => monitoringAccounts.id, { onDelete: 'cascade' }),
    period: text('period').$type<ReportPeriod>().notNull(),
    periodStart: timestamptz('period_start').notNull(),
    sentAt: timestamptz('sent_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.period, t.periodStart] }),
    check(
      'monitoring_reports_sent_period_check',
      sql`${t.period} in ('daily', 'weekly', 'monthly')`,
    ),
  ],
);
