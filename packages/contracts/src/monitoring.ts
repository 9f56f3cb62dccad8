import * as z from 'zod/mini';
import { emailSchema } from './auth.ts';
import { pageOf, pagingFields } from './balance.ts';
import {
  discountPercentField,
  idSchema,
  personSchema,
  noWebAddress,
  priceCentsField,
  reasonField,
  singleLine,
} from './input.ts';
import { daysBetween } from './vps.ts';

/**
 * Online monitoring contracts: the plans and their one price function (the console's "price
 * before paying" and the API's charge), the accounts and what the console reads of them. The
 * ingestion protocol the publisher in the trader's terminal speaks is monitoring-ingest.ts.
 */

// ---- plans -------------------------------------------------------------------------------

export const PLATFORMS = ['MT4', 'MT5'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A paid subscription's accounts and months (SPEC 5). */
export const MONITORING_ACCOUNTS_MIN = 1;
export const MONITORING_ACCOUNTS_MAX = 50;
export const MONITORING_MONTHS_MIN = 1;
export const MONITORING_MONTHS_MAX = 12;
/** The free plan: this many accounts, no end date, one per user. */
export const FREE_PLAN_ACCOUNTS = 1;
/** Seeds of the operator-editable prices. */
export const MONITORING_SEED_ACCOUNT_MONTH_CENTS = 300;
export const MONITORING_SEED_DISCOUNTS = [
  { months: 1, percent: 0 },
  { months: 3, percent: 5 },
  { months: 6, percent: 10 },
  { months: 12, percent: 15 },
] as const;
/** A month of a subscription, for prices of part of one. */
const DAYS_PER_MONTH = 30;

export interface MonitoringPriceInput {
  accounts: number;
  months: number;
  accountMonthCents: number;
  /** The operator's discounts: the largest whose `months` the order reaches applies. */
  discounts: ReadonlyArray<{ months: number; percent: number }>;
}

export interface MonitoringPrice {
  baseCents: number;
  discountPercent: number;
  discountCents: number;
  totalCents: number;
}

/**
 * A paid subscription's price: accounts x months x the account-month price, less the discount of
 * the longest discounted period the months reach (4 months get the 3-month discount), rounded to
 * a cent.
 */
export function monitoringPrice(input: MonitoringPriceInput): MonitoringPrice {
  const baseCents = input.accounts * input.months * input.accountMonthCents;
  let discountPercent = 0;
  let reached = 0;
  for (const { months, percent } of input.discounts) {
    if (months <= input.months && months >= reached) {
      reached = months;
      discountPercent = percent;
    }
  }
  const discountCents = Math.round((baseCents * discountPercent) / 100);
  return { baseCents, discountPercent, discountCents, totalCents: baseCents - discountCents };
}

/**
 * Enlarging a running subscription: the added accounts at the account-month price for the days
 * left until its end, a month counting as 30 days, rounded up to a cent.
 */
export function enlargementPriceCents(
  addedAccounts: number,
  accountMonthCents: number,
  from: Date,
  endsAt: Date,
): number {
  return Math.ceil(
    (Math.max(0, addedAccounts) * accountMonthCents * daysBetween(from, endsAt)) / DAYS_PER_MONTH,
  );
}

// ---- the subscriber's calls (/api/user/monitoring/*) --------------------------------------

export const MONITORING_NAME_MAX = 60;

const rangeInt = (
  min: number,
  max: number,
  error: 'MONITORING_ACCOUNTS_RANGE' | 'MONITORING_MONTHS_RANGE',
) => z.int({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }));

/** GET /api/user/monitoring/plans */
export const monitoringPlansSchema = z.object({
  /** Dollars per account and month. */
  account_month_price: z.number(),
  discounts: z.array(z.object({ months: z.int(), discount_percent: z.int() })),
  free_accounts: z.int(),
  /** Whether the reader may still take the free plan. */
  free_available: z.boolean(),
});
export type MonitoringPlans = z.infer<typeof monitoringPlansSchema>;

/** POST /api/user/monitoring/subscriptions (Idempotency-Key): a paid plan from the balance. */
export const subscribeRequestSchema = z.object({
  accounts: rangeInt(MONITORING_ACCOUNTS_MIN, MONITORING_ACCOUNTS_MAX, 'MONITORING_ACCOUNTS_RANGE'),
  months: rangeInt(MONITORING_MONTHS_MIN, MONITORING_MONTHS_MAX, 'MONITORING_MONTHS_RANGE'),
});
export type SubscribeRequest = z.infer<typeof subscribeRequestSchema>;

/**
 * POST /api/user/monitoring/subscriptions/:id/extend (Idempotency-Key): more months at the plan
 * price for its accounts; an ended subscription starts again from the moment it is paid.
 */
export const extendRequestSchema = z.object({
  months: rangeInt(MONITORING_MONTHS_MIN, MONITORING_MONTHS_MAX, 'MONITORING_MONTHS_RANGE'),
});
export type ExtendRequest = z.infer<typeof extendRequestSchema>;

/**
 * POST /api/user/monitoring/subscriptions/:id/enlarge (Idempotency-Key): the new account count
 * of a running paid subscription, the added ones priced for the days left
 * (enlargementPriceCents).
 */
export const enlargeRequestSchema = z.object({
  accounts: rangeInt(MONITORING_ACCOUNTS_MIN, MONITORING_ACCOUNTS_MAX, 'MONITORING_ACCOUNTS_RANGE'),
});
export type EnlargeRequest = z.infer<typeof enlargeRequestSchema>;

export const subscriptionSchema = z.object({
  id: z.int(),
  plan: z.enum(['free', 'paid']),
  accounts: z.int(),
  /** How many of them are taken. */
  used_accounts: z.int(),
  created_at: z.string(),
  /** Null for the free plan. */
  ends_at: z.nullable(z.string()),
  active: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionsResponseSchema = z.object({ subscriptions: z.array(subscriptionSchema) });

export const subscribedResponseSchema = z.object({
  subscription: subscriptionSchema,
  /** Dollars charged (0 for the free plan). */
  charged: z.number(),
  /** Dollars left on the balance. */
  balance: z.number(),
  message: z.string(),
});
export type SubscribedResponse = z.infer<typeof subscribedResponseSchema>;

/** POST /api/user/monitoring/subscriptions/:id/key (and .../key/regenerate) */
export const activationKeyResponseSchema = z.object({ key: z.string() });

const nameSchema = z
  .string({ error: 'MONITORING_NAME_REQUIRED' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'MONITORING_NAME_REQUIRED' }),
    z.maxLength(MONITORING_NAME_MAX, { error: 'MONITORING_NAME_TOO_LONG' }),
    singleLine(),
    noWebAddress(),
  );

/** POST /api/user/monitoring/accounts */
export const addAccountRequestSchema = z.object({
  subscription_id: idSchema('bigserial', 'MONITORING_SUBSCRIPTION_NOT_FOUND'),
  login: z.coerce
    .number({ error: 'MONITORING_LOGIN_INVALID' })
    .check(
      z.int({ error: 'MONITORING_LOGIN_INVALID' }),
      z.minimum(1, { error: 'MONITORING_LOGIN_INVALID' }),
      z.maximum(Number.MAX_SAFE_INTEGER, { error: 'MONITORING_LOGIN_INVALID' }),
    ),
  platform: z.enum(PLATFORMS, { error: 'MONITORING_PLATFORM_INVALID' }),
  name: nameSchema,
  email: emailSchema,
});
export type AddAccountRequest = z.input<typeof addAccountRequestSchema>;

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Moscow", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const flag = z.boolean({ error: 'VALIDATION' });

/**
 * PATCH /api/user/monitoring/accounts/:id: the name, the e-mail its reports and alerts go to,
 * and the settings: the public page and what it hides, the time zone of days and months.
 */
export const updateAccountRequestSchema = z.object({
  name: z.optional(nameSchema),
  email: z.optional(emailSchema),
  is_public: z.optional(flag),
  hide_login: z.optional(flag),
  hide_broker: z.optional(flag),
  hide_money: z.optional(flag),
  hide_positions: z.optional(flag),
  hide_history: z.optional(flag),
  time_zone: z.optional(
    z
      .string({ error: 'MONITORING_TIME_ZONE_INVALID' })
      .check(z.refine(isTimeZone, { error: 'MONITORING_TIME_ZONE_INVALID' })),
  ),
});
export type UpdateAccountRequest = z.infer<typeof updateAccountRequestSchema>;

export const monitoringAccountSchema = z.object({
  id: z.int(),
  monitoring_id: z.string(),
  subscription_id: z.int(),
  login: z.int(),
  platform: z.enum(PLATFORMS),
  name: z.string(),
  email: z.string(),
  created_at: z.string(),
  is_public: z.boolean(),
  hide_login: z.boolean(),
  hide_broker: z.boolean(),
  hide_money: z.boolean(),
  hide_positions: z.boolean(),
  hide_history: z.boolean(),
  time_zone: z.string(),
  views: z.int(),
  /** What the publisher said in its hello (null until it has). */
  server: z.nullable(z.string()),
  company: z.nullable(z.string()),
  currency: z.nullable(z.string()),
  leverage: z.nullable(z.int()),
  ea_version: z.nullable(z.string()),
  /** The latest snapshot. */
  last_data_at: z.nullable(z.string()),
  terminal_connected: z.boolean(),
  /**
   * What the latest snapshot told of the terminal (publisher 1.3.0 on; null before it, or when
   * it had no ping): its last ping to the trade server in whole milliseconds, and whether
   * algorithmic trading is allowed in the terminal and for the publisher. Always sent; optional
   * in the type only so that a reader built before them still reads the account.
   */
  ping_ms: z.optional(z.nullable(z.int())),
  trade_allowed: z.optional(z.nullable(z.boolean())),
  ea_trade_allowed: z.optional(z.nullable(z.boolean())),
  balance: z.nullable(z.number()),
  equity: z.nullable(z.number()),
  /** The stored figures (null until the first computation): the list's summary. */
  summary: z.nullable(
    z.object({
      gain: z.number(),
      max_drawdown: z.number(),
      profit: z.number(),
      trades: z.int(),
      computed_at: z.string(),
    }),
  ),
});
export type MonitoringAccount = z.infer<typeof monitoringAccountSchema>;

export const monitoringAccountsResponseSchema = z.object({
  accounts: z.array(monitoringAccountSchema),
});

/** The public id of an account (random base64url), `:monitoringId` in the paths. */
export const MONITORING_ID_PATTERN = /^[A-Za-z0-9_-]{16}$/;

/**
 * GET /api/user/monitoring/accounts: `monitoring_id` narrows the list to the reader's account of
 * that public id (none when another's or unknown), which the account's page asks for alone.
 */
export const monitoringAccountsQuerySchema = z.object({
  monitoring_id: z.optional(
    z.string().check(z.regex(MONITORING_ID_PATTERN, { error: 'MONITORING_ACCOUNT_NOT_FOUND' })),
  ),
});

/** DELETE /api/user/monitoring/accounts/:id */
export const accountDeletedResponseSchema = z.object({ message: z.string() });

export const monitoringAccountResponseSchema = z.object({
  account: monitoringAccountSchema,
  message: z.optional(z.string()),
});

/** A row of the daily or monthly table. */
/** Money the public page may hide: null there when the owner hides money figures. */
const hideable = z.nullable(z.number());

const periodRowSchema = z.object({
  period: z.string(),
  gain: z.number(),
  profit: hideable,
  trades: z.int(),
});

/**
 * GET /api/user/monitoring/accounts/:id/statistics: every figure of monitoring-statistics.ts
 * (fractions for percentages, the account's currency for money), and the daily and monthly
 * tables in the account's time zone within `from`..`to` when given.
 */
export const statisticsQuerySchema = z.object({
  from: z.optional(z.iso.datetime({ error: 'PERIOD_INVALID' })),
  to: z.optional(z.iso.datetime({ error: 'PERIOD_INVALID' })),
});

const nullableNumber = z.nullable(z.number());

/** A group of closed trades (monitoring-analysis.ts): money null where the public page hides it. */
const breakdownRowSchema = z.object({
  key: z.string(),
  trades: z.int(),
  wins: z.int(),
  win_rate: nullableNumber,
  lots: z.number(),
  profit: hideable,
  gross_profit: hideable,
  gross_loss: hideable,
  profit_factor: nullableNumber,
  pips: nullableNumber,
});
export type BreakdownRowResponse = z.infer<typeof breakdownRowSchema>;

/**
 * The closed trades of the period (`from`..`to`, by close time) by symbol, by the hour and ISO
 * weekday of their opening in the account's time zone, by direction and by strategy: the magic
 * number ('0': placed by hand) with the name its owner gave it (null: none).
 */
const breakdownsSchema = z.object({
  symbols: z.array(breakdownRowSchema),
  hours: z.array(breakdownRowSchema),
  weekdays: z.array(breakdownRowSchema),
  directions: z.array(breakdownRowSchema),
  strategies: z.array(z.extend(breakdownRowSchema, { name: z.nullable(z.string()) })),
});
export type BreakdownsResponse = z.infer<typeof breakdownsSchema>;

/**
 * The risk of ruin (monitoring-analysis.ts riskOfRuin) from the whole history: null with the
 * reason when there are too few trades or no loss to estimate from.
 */
const riskOfRuinSchema = z.object({
  reason: z.nullable(z.enum(['too_few_trades', 'no_losses'])),
  estimate: z.nullable(
    z.object({
      trades: z.int(),
      win_rate: z.number(),
      average_win: z.number(),
      average_loss: z.number(),
      levels: z.array(z.object({ loss: z.number(), probability: z.number() })),
    }),
  ),
});
export type RiskOfRuinResponse = z.infer<typeof riskOfRuinSchema>;

/** Why an account does not carry "verified by the host" (VerificationResponse['reason']). */
export const VERIFICATION_REASONS = [
  'not_hosted',
  'gap',
  'elsewhere',
  'silent_now',
  'history_incomplete',
] as const;
export type VerificationReason = (typeof VERIFICATION_REASONS)[number];

/**
 * "Verified by the host" (the API's monitoring.verification.ts says how it is reckoned): the
 * account is verified when one unbroken run of its publisher on our servers (snapshots from the
 * address of one of our VPS servers, none from elsewhere, no silence longer than
 * VERIFICATION_GAP_MINUTES of market time) began with the account's first equity point and still
 * goes on, and its deals add up to its balance. The deals before the first equity point (the
 * history the publisher sent from the terminal) add up, but nobody watched them happen: `covered`
 * says how much of the displayed period (`period_from`, the first deal or equity point, to now,
 * in market time) the run covers. It proves where the publisher ran, not who holds the trading
 * password. Nothing in it is private: no address, no server.
 */
const verificationSchema = z.object({
  verified: z.boolean(),
  /**
   * Null when verified; else why not, the first that applies: `not_hosted` (no run on our
   * servers, or it began after the first equity point with no break seen: the points before it
   * are from before this was kept), `gap` or `elsewhere` (the last run was broken: a silence in
   * market hours, or snapshots from another address; `broken_from`..`broken_to` its span),
   * `silent_now` (nothing from our servers for longer than the window), `history_incomplete`
   * (the deals do not add up to the terminal's balance).
   */
  reason: z.nullable(z.enum(VERIFICATION_REASONS)),
  /** The current run's first point (null: none running). */
  since: z.nullable(z.string()),
  /** The latest point from our servers followed. */
  last_hosted_at: z.nullable(z.string()),
  /** The displayed period's start: the first deal or equity point. */
  period_from: z.nullable(z.string()),
  /** The share (0 to 1) of the period's market time, to now, that the current run covers. */
  covered: z.number(),
  /** The points are followed up to here (a few minutes behind now). */
  checked_at: z.nullable(z.string()),
  /**
   * With `gap`: the last point before the silence and the first after it; with `elsewhere`: the
   * first and the latest point from elsewhere. Null with the other reasons.
   */
  broken_from: z.nullable(z.string()),
  broken_to: z.nullable(z.string()),
});
export type VerificationResponse = z.infer<typeof verificationSchema>;

export const statisticsResponseSchema = z.object({
  currency: z.nullable(z.string()),
  gain: z.number(),
  absolute_gain: nullableNumber,
  daily_gain: nullableNumber,
  monthly_gain: nullableNumber,
  deposits: hideable,
  withdrawals: hideable,
  profit: hideable,
  /**
   * The account's results that are not trades: commission and fee lines, interest, dividends,
   * tax, charges, corrections and bonuses, so that deposits - withdrawals + profit +
   * other_results = balance.
   */
  other_results: hideable,
  balance: hideable,
  equity: nullableNumber,
  /**
   * The terminal's balance (its latest snapshot) differs from what the deals it sent add up to:
   * part of the history is missing (MT4 publishes only what the Account History tab shows).
   */
  history_incomplete: z.boolean(),
  /** When the publisher's first equity point was taken: equity figures start there. */
  equity_since: z.nullable(z.string()),
  max_drawdown: z.number(),
  equity_drawdown: z.number(),
  drawdown_money: hideable,
  absolute_drawdown: hideable,
  trades: z.object({
    count: z.int(),
    wins: z.int(),
    losses: z.int(),
    win_rate: nullableNumber,
    profit_factor: nullableNumber,
    average_win: nullableNumber,
    average_loss: nullableNumber,
    expectancy: nullableNumber,
    best: nullableNumber,
    worst: nullableNumber,
    longest_win_streak: z.object({ count: z.int(), money: hideable }),
    longest_loss_streak: z.object({ count: z.int(), money: hideable }),
    lots: z.number(),
    pips: z.number(),
    longs_won: nullableNumber,
    shorts_won: nullableNumber,
    average_length_sec: nullableNumber,
    trades_per_week: nullableNumber,
  }),
  ratios: z.object({
    recovery_factor: nullableNumber,
    ahpr: nullableNumber,
    ghpr: nullableNumber,
    sharpe: nullableNumber,
    z_score: nullableNumber,
    activity: nullableNumber,
    max_deposit_load: nullableNumber,
  }),
  daily: z.array(periodRowSchema),
  monthly: z.array(periodRowSchema),
  breakdowns: breakdownsSchema,
  risk_of_ruin: riskOfRuinSchema,
  /** Of the whole history, whatever the range asked for; read at each request, so current. */
  verification: verificationSchema,
  last_data_at: z.nullable(z.string()),
});
export type StatisticsResponse = z.infer<typeof statisticsResponseSchema>;

/** The most points a chart gets (a longer history is thinned evenly, the extremes kept). */
export const CHART_POINTS_MAX = 1500;

/**
 * GET .../accounts/:id/chart: the growth (time-weighted gain), balance and equity, and the
 * drawdown from the previous peak of the gain index, per event; balance and equity are null on
 * the public page when money is hidden.
 */
export const chartResponseSchema = z.object({
  points: z.array(
    z.object({
      time: z.string(),
      gain: z.number(),
      balance: hideable,
      equity: hideable,
      drawdown: z.number(),
    }),
  ),
});
export type ChartResponse = z.infer<typeof chartResponseSchema>;

export const tradesQuerySchema = z.object(pagingFields(50));

/**
 * GET .../accounts/:id/ping?period=day|week|month: the terminal's ping to its trade server over
 * the period ending now, beside the equity chart: a point a minute over a day, the mean of each
 * 10 minutes over a week, of each hour over a month (`max_ms` the step's longest), oldest first;
 * none where the terminal told no ping (not connected, an older publisher).
 */
export const PING_PERIODS = ['day', 'week', 'month'] as const;
export type PingPeriod = (typeof PING_PERIODS)[number];
export const PING_PERIOD_DAYS: Record<PingPeriod, number> = { day: 1, week: 7, month: 30 };
export const PING_STEP_SEC: Record<PingPeriod, number> = { day: 60, week: 600, month: 3600 };

export const pingQuerySchema = z.object({
  period: z._default(z.enum(PING_PERIODS, { error: 'PERIOD_INVALID' }), 'day'),
});
export type PingQuery = z.input<typeof pingQuerySchema>;

export const pingResponseSchema = z.object({
  period: z.enum(PING_PERIODS),
  /** Seconds a point stands for. */
  step_sec: z.int(),
  points: z.array(z.object({ time: z.string(), ping_ms: z.int(), max_ms: z.int() })),
});
export type PingResponse = z.infer<typeof pingResponseSchema>;

/** A closed trade (MT5 deals of one position, an MT4 order), newest first. */
export const tradeSchema = z.object({
  position_id: z.string(),
  symbol: z.string(),
  direction: z.enum(['long', 'short']),
  open_time: z.string(),
  close_time: z.string(),
  volume: z.number(),
  /** The symbol's number of decimals (the publisher's deals carry it): prices are printed with it. */
  digits: z.int(),
  /** The volume-weighted average price of the position's deals (unrounded). */
  open_price: z.number(),
  close_price: z.number(),
  /** profit + swap + commission + fee; null on the public page when money is hidden. */
  result: hideable,
  /** Counted for currency pairs only: null for metals, indices, crypto and the like. */
  pips: nullableNumber,
  /** Its opening deal's magic number ('0': placed by hand) and the name its owner gave it. */
  magic: z.string(),
  strategy: z.nullable(z.string()),
  /**
   * Its excursions as the publisher watched the position (1.4 on): the worst and best floating
   * profit in money (mae at most 0, mfe at least 0; null on the public page when money is hidden)
   * and in price points; for a position closed in several deals the most adverse mae and the best
   * mfe among its closing deals. All four null when the publisher told none (before 1.4).
   */
  mae: hideable,
  mfe: hideable,
  mae_points: nullableNumber,
  mfe_points: nullableNumber,
});
export type MonitoringTrade = z.infer<typeof tradeSchema>;
export const tradesResponseSchema = pageOf(tradeSchema);

/** The most trades the excursions' scatter gets: the latest closed. */
export const EXCURSIONS_MAX = 5000;

/**
 * GET .../accounts/:id/excursions (and the public page's, unless the owner hides the history):
 * every closed trade with excursions, for the scatter of result against MAE (MQL5's "Risks"),
 * newest first, at most EXCURSIONS_MAX. Money (result, mae, mfe) is null on the public page when
 * hidden: `result_points` (the trade's price move in points of its symbol, as the excursions'
 * points) and the points stay.
 */
export const excursionsResponseSchema = z.object({
  trades: z.array(
    z.object({
      position_id: z.string(),
      symbol: z.string(),
      direction: z.enum(['long', 'short']),
      close_time: z.string(),
      result: hideable,
      result_points: z.number(),
      mae: hideable,
      mfe: hideable,
      mae_points: z.number(),
      mfe_points: z.number(),
    }),
  ),
  /** Closed trades with excursions (`trades` holds the latest EXCURSIONS_MAX of them). */
  total: z.int(),
  /** Closed trades without: closed before the publisher told them (before 1.4), or unseen. */
  without: z.int(),
});
export type ExcursionsResponse = z.infer<typeof excursionsResponseSchema>;

/** The longest name of a strategy (a magic number). */
export const STRATEGY_NAME_MAX = 40;

/**
 * PUT and DELETE /api/user/monitoring/accounts/:id/strategies/:magic: a magic number the account
 * has traded with, as digits (MT5's is 64-bit); '0', the trades placed by hand, has no name.
 */
export const MAGIC_PATTERN = /^(0|-?[1-9][0-9]{0,18})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
export const strategyParamsSchema = z.object({
  id: idSchema('bigserial'),
  magic: z.string().check(
    z.regex(MAGIC_PATTERN, { error: 'MONITORING_STRATEGY_NOT_FOUND' }),
    z.refine(
      (magic) =>
        !MAGIC_PATTERN.test(magic) || (BigInt(magic) >= INT64_MIN && BigInt(magic) <= INT64_MAX),
      { error: 'MONITORING_STRATEGY_NOT_FOUND' },
    ),
  ),
});

export const strategyNameRequestSchema = z.object({
  name: z
    .string({ error: 'MONITORING_STRATEGY_NAME_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'MONITORING_STRATEGY_NAME_REQUIRED' }),
      z.maxLength(STRATEGY_NAME_MAX, { error: 'MONITORING_STRATEGY_NAME_TOO_LONG' }),
      singleLine(),
      noWebAddress(),
    ),
});
export type StrategyNameRequest = z.input<typeof strategyNameRequestSchema>;

export const strategyResponseSchema = z.object({
  magic: z.string(),
  name: z.nullable(z.string()),
});
export type StrategyResponse = z.infer<typeof strategyResponseSchema>;

/** The open positions of the latest snapshot. */
export const positionSchema = z.object({
  ticket: z.int(),
  symbol: z.string(),
  type: z.enum(['buy', 'sell']),
  volume: z.number(),
  open_time: z.string(),
  open_price: z.number(),
  current_price: z.number(),
  sl: z.number(),
  tp: z.number(),
  profit: hideable,
  swap: hideable,
  /**
   * The symbol's number of decimals, taken from the account's latest deal in that symbol (the
   * publisher's positions do not carry it); null when no deal in it is stored yet.
   */
  digits: z.nullable(z.int()),
  /**
   * Its excursions so far as the publisher watched it (1.4 on; all null before): the worst and
   * best floating profit (null on the public page when money is hidden) and price move in points.
   */
  mae: hideable,
  mfe: hideable,
  mae_points: nullableNumber,
  mfe_points: nullableNumber,
});
export const positionsResponseSchema = z.object({
  at: z.nullable(z.string()),
  positions: z.array(positionSchema),
});
export type PositionsResponse = z.infer<typeof positionsResponseSchema>;

/** :monitoringId, the public id of an account (random base64url). */
export const monitoringIdParamsSchema = z.object({
  monitoringId: z.string().check(z.regex(MONITORING_ID_PATTERN)),
});

/**
 * GET /api/monitoring/:monitoringId: the public page, signed in or out. What the owner hid is
 * null (login, broker and server) or left out (positions, history: `shows_*` false); money
 * figures are null when hidden. A private or deleted account is 404 in the same words.
 */
export const publicAccountResponseSchema = z.object({
  account: z.object({
    monitoring_id: z.string(),
    name: z.string(),
    platform: z.enum(PLATFORMS),
    login: z.nullable(z.int()),
    company: z.nullable(z.string()),
    server: z.nullable(z.string()),
    currency: z.nullable(z.string()),
    leverage: z.nullable(z.int()),
    trade_mode: z.nullable(z.string()),
    created_at: z.string(),
    last_data_at: z.nullable(z.string()),
    terminal_connected: z.boolean(),
    views: z.int(),
    time_zone: z.string(),
    shows_money: z.boolean(),
    shows_positions: z.boolean(),
    shows_history: z.boolean(),
  }),
  statistics: statisticsResponseSchema,
});
export type PublicAccountResponse = z.infer<typeof publicAccountResponseSchema>;

// ---- the operator's calls (/api/admin/monitoring/*) ----------------------------------------

/** GET /api/admin/monitoring/prices (and the answer of PUT): dollars and whole percent. */
export const monitoringPricesSchema = z.object({
  account_month_price: z.number(),
  discounts: z.array(z.object({ months: z.int(), discount_percent: z.int() })),
});
export type MonitoringPrices = z.infer<typeof monitoringPricesSchema>;

/**
 * PUT /api/admin/monitoring/prices: the account-month price in dollars (taken as cents) and the
 * discounts of the periods given (each period once; the others keep theirs).
 */
export const monitoringPricesRequestSchema = z.object({
  account_month_price: priceCentsField(),
  discounts: z
    .array(
      z.object({
        months: z.coerce
          .number({ error: 'MONITORING_MONTHS_RANGE' })
          .check(
            z.int({ error: 'MONITORING_MONTHS_RANGE' }),
            z.minimum(MONITORING_MONTHS_MIN, { error: 'MONITORING_MONTHS_RANGE' }),
            z.maximum(MONITORING_MONTHS_MAX, { error: 'MONITORING_MONTHS_RANGE' }),
          ),
        discount_percent: discountPercentField(0),
      }),
    )
    .check(z.maxLength(MONITORING_MONTHS_MAX)),
});
export type MonitoringPricesRequest = z.input<typeof monitoringPricesRequestSchema>;

/** Whether a subscription still runs (the free plan always does). */
export const SUBSCRIPTION_STATES = ['running', 'ended'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** GET /api/admin/monitoring/subscriptions: newest first. */
export const adminSubscriptionsQuerySchema = z.object({
  /** A subscription number or (part of) the owner's e-mail. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  state: z.optional(z.enum(SUBSCRIPTION_STATES)),
  plan: z.optional(z.enum(['free', 'paid'])),
  ...pagingFields(20),
});
export const adminSubscriptionSchema = z.extend(subscriptionSchema, { user: personSchema });
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
export const adminSubscriptionsPageSchema = pageOf(adminSubscriptionSchema);

/**
 * POST /api/admin/monitoring/subscriptions/:id/extend: months added free of charge (a goodwill
 * gesture, a compensation), with the reason the audit log keeps. An ended subscription runs
 * again from now, as when its owner pays.
 */
export const adminExtendRequestSchema = z.object({
  months: rangeInt(MONITORING_MONTHS_MIN, MONITORING_MONTHS_MAX, 'MONITORING_MONTHS_RANGE'),
  reason: reasonField(),
});
export type AdminExtendRequest = z.infer<typeof adminExtendRequestSchema>;

/** A publisher that has sent nothing for this long is shown as silent. */
export const PUBLISHER_SILENT_AFTER_MS = 10 * 60_000;
/**
 * "Verified by the host": the longest silence of the publisher, in market minutes, that does
 * not break its run (the silent-terminal window).
 */
export const VERIFICATION_GAP_MINUTES = PUBLISHER_SILENT_AFTER_MS / 60_000;
/** The publisher's state in the operator's list: sending, silent, or never heard from. */
export const PUBLISHER_STATES = ['reporting', 'silent', 'never'] as const;
export type PublisherState = (typeof PUBLISHER_STATES)[number];

/**
 * The publisher's state at `now` from its last data: never heard from (null), reporting (data
 * within PUBLISHER_SILENT_AFTER_MS), or silent. The one rule of the operator's list (its filter
 * says the same in SQL) and of the owner's "live" dot: a silent publisher's terminal flag is
 * that of its last data, not of now.
 */
export function publisherStateAt(
  lastDataAt: Date | string | null,
  now: Date | number,
): PublisherState {
  if (lastDataAt === null) return 'never';
  return new Date(lastDataAt).getTime() > new Date(now).getTime() - PUBLISHER_SILENT_AFTER_MS
    ? 'reporting'
    : 'silent';
}

/** GET /api/admin/monitoring/accounts: newest first. */
export const adminMonitoringAccountsQuerySchema = z.object({
  /** An account number, (part of) its name, or (part of) the owner's e-mail. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  publisher: z.optional(z.enum(PUBLISHER_STATES)),
  ...pagingFields(20),
});
export const adminMonitoringAccountSchema = z.object({
  id: z.int(),
  monitoring_id: z.string(),
  subscription_id: z.int(),
  subscription_active: z.boolean(),
  user: personSchema,
  login: z.int(),
  platform: z.enum(PLATFORMS),
  name: z.string(),
  server: z.nullable(z.string()),
  company: z.nullable(z.string()),
  is_public: z.boolean(),
  views: z.int(),
  /** The publisher's version from its hello, and when it last said hello. */
  ea_version: z.nullable(z.string()),
  hello_at: z.nullable(z.string()),
  /** The latest snapshot. */
  last_data_at: z.nullable(z.string()),
  terminal_connected: z.boolean(),
  publisher: z.enum(PUBLISHER_STATES),
});
export type AdminMonitoringAccount = z.infer<typeof adminMonitoringAccountSchema>;
export const adminMonitoringAccountsPageSchema = pageOf(adminMonitoringAccountSchema);
