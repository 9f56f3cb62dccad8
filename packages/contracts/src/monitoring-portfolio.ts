import * as z from 'zod/mini';
import { idSchema, noWebAddress, singleLine } from './input.ts';
import { fallTracker } from './monitoring-statistics.ts';
import { CHART_POINTS_MAX, MONITORING_ID_PATTERN } from './monitoring.ts';

/**
 * Portfolios: several of a user's monitored accounts seen as one. `combinePortfolio` is the one
 * computation (pure, from each account's stored chart); the rest are the API's calls
 * (/api/user/monitoring/portfolios/*, and the public /api/monitoring/portfolios/:monitoringId).
 */

export const PORTFOLIO_ACCOUNTS_MIN = 2;
export const PORTFOLIO_ACCOUNTS_MAX = 20;
/** A user keeps at most this many portfolios. */
export const PORTFOLIOS_MAX = 20;
export const PORTFOLIO_NAME_MAX = 60;

/** An index at or below this has been lost whole: there is no return to measure from it. */
const EPSILON = 1e-9;

// ---- the computation ---------------------------------------------------------------------

/** A point of an account's chart (chartResponseSchema's): its growth index is 1 + gain. */
export interface PortfolioPointInput {
  /** ISO text as the chart has it, or ms since the epoch. */
  time: string | number;
  gain: number;
  balance: number | null;
  /** Null where the chart does not know it (a deal while positions are open). */
  equity: number | null;
}

export interface PortfolioAccountInput {
  name: string;
  /** The account's currency (null: its publisher has not said yet). */
  currency: string | null;
  /** Its chart, oldest first (an account without figures yet has none). */
  points: readonly PortfolioPointInput[];
}

export type PortfolioWeighting = 'value' | 'equal';

export interface PortfolioPoint {
  time: number;
  gain: number;
  /** The portfolio index's fall from its previous peak. */
  drawdown: number;
  /** Summed, in the one currency (null when the currencies differ). */
  balance: number | null;
  equity: number | null;
}

export interface PortfolioAccountFigures {
  name: string;
  currency: string | null;
  /** From its chart: its last gain and the largest fall of its index; null without points. */
  gain: number | null;
  maxDrawdown: number | null;
  balance: number | null;
  /** Its equity where the last point knows it, else its balance. */
  equity: number | null;
  /** Its share of the portfolio's value now (value weighting only). */
  share: number | null;
  /** Its first point: it weighs nothing before it. */
  since: number | null;
}

export interface Portfolio {
  /**
   * How each step's returns were weighed: by the accounts' values, when all are in one currency;
   * equally, when they are not (amounts in different currencies cannot be added).
   */
  weighting: PortfolioWeighting;
  /** The one currency of the accounts with points (null when they differ or none has any). */
  currency: string | null;
  gain: number;
  maxDrawdown: number;
  /** The summed balance and equity now (null when the currencies differ). */
  balance: number | null;
  equity: number | null;
  since: number | null;
  /** The combined series, at most CHART_POINTS_MAX (thinned as an account's chart is). */
  points: PortfolioPoint[];
  /** Each account's row, in the order given. */
  accounts: PortfolioAccountFigures[];
}

/**
 * One account's chart as arrays, a moment of several points at its last one (the chart's events
 * of one millisecond), with a cursor at its latest moment at or before "now".
 */
interface Track {
  times: number[];
  index: number[];
  /** Equity where the point knows it, else balance (what the value weighting takes). */
  value: number[];
  balance: number[];
  /** The very first point's index and value: an account moving within its first moment. */
  firstIndex: number;
  firstValue: number;
  /** The latest moment at or before the time being combined (-1: not joined yet). */
  at: number;
}

function trackOf(points: readonly PortfolioPointInput[]): Track {
  const sorted = points
    .map((p) => ({ ...p, ms: typeof p.time === 'number' ? p.time : Date.parse(p.time) }))
    .filter((p) => Number.isFinite(p.ms) && Number.isFinite(p.gain))
    // stable: points of one moment keep their order, the last being the latest
    .sort((a, b) => a.ms - b.ms);
  const track: Track = {
    times: [],
    index: [],
    value: [],
    balance: [],
    firstIndex: 1 + (sorted[0]?.gain ?? 0),
    firstValue: sorted[0] ? (sorted[0].equity ?? sorted[0].balance ?? 0) : 0,
    at: -1,
  };
  for (const p of sorted) {
    if (track.times.at(-1) === p.ms) {
      track.times.pop();
      track.index.pop();
      track.value.pop();
      track.balance.pop();
    }
    track.times.push(p.ms);
    track.index.push(1 + p.gain);
    track.value.push(p.equity ?? p.balance ?? 0);
    track.balance.push(p.balance ?? 0);
  }
  return track;
}

/**
 * The largest fall of an account's index from its previous peak (as the statistics measure the
 * maximal drawdown), from its first point on.
 */
function largestFall(track: Track): number {
  const falls = fallTracker();
  falls.take(track.firstIndex);
  for (const value of track.index) falls.take(value);
  return falls.worst;
}

/**
 * Combines accounts into one portfolio, from their charts:
 * - the gain is time-weighted: on the union of the accounts' point times, each step's return is
 *   the accounts' returns over the step (their growth index held between their points) weighed
 *   by their values at the step's start (equity where known, else balance) when all are in one
 *   currency, else equally; an account joins at its first point and weighs nothing before it,
 *   and one whose index has fallen to zero weighs nothing until it starts again. The steps chain
 *   into the portfolio's index; the gain is its last value - 1, the maximal drawdown its largest
 *   fall from a previous peak. Deposits and withdrawals move no account's index, so none moves
 *   the portfolio's either.
 * - the balance and equity are summed on the same times (each account's latest at or before),
 *   in one currency only.
 */
export function combinePortfolio(accounts: readonly PortfolioAccountInput[]): Portfolio {
  const tracks = accounts.map((a) => trackOf(a.points));
  const withPoints = accounts.filter((_, i) => tracks[i]!.times.length > 0);
  const currencies = new Set(withPoints.map((a) => a.currency));
  const moneyKnown = withPoints.every((a) => a.points.every((p) => p.balance !== null));
  const oneCurrency = currencies.size <= 1 && !currencies.has(null) && moneyKnown;
  const currency = oneCurrency ? (withPoints[0]?.currency ?? null) : null;
  const byValue = oneCurrency;

  const times = [...new Set(tracks.flatMap((t) => t.times))].sort((a, b) => a - b);
  const full: PortfolioPoint[] = [];
  const falls = fallTracker();
  // the index before the first moment: what an account moving within its first one falls from
  falls.take(1);
  let index = 1;
  for (const time of times) {
    let weighted = 0;
    let total = 0;
    let balance = 0;
    let equity = 0;
    // accounts joining now with several points at this moment: their move within it, after
    // the step, against the value of every account there
    let joinedMove = 0;
    let present = 0;
    for (const track of tracks) {
      const start = track.at;
      while (track.at + 1 < track.times.length && track.times[track.at + 1]! <= time) track.at += 1;
      if (track.at < 0) continue;
      balance += track.balance[track.at]!;
      equity += track.value[track.at]!;
      // joining now: nothing before its first point
      const joining = start < 0;
      const from = joining ? track.firstIndex : track.index[start]!;
      if (from <= EPSILON) continue;
      const weight = byValue ? Math.max(joining ? track.firstValue : track.value[start]!, 0) : 1;
      if (weight <= 0) continue;
      const move = track.index[track.at]! / from - 1;
      if (joining) {
        joinedMove += weight * move;
        present += weight;
        continue;
      }
      weighted += weight * move;
      total += weight;
      present += byValue ? Math.max(track.value[track.at]!, 0) : 1;
    }
    if (total > 0) index *= 1 + weighted / total;
    if (joinedMove !== 0 && present > 0) index *= 1 + joinedMove / present;
    falls.take(index);
    full.push({
      time,
      gain: index - 1,
      drawdown: falls.fall,
      balance: byValue ? balance : null,
      equity: byValue ? equity : null,
    });
  }

  const values = tracks.map((t) => (t.times.length > 0 ? Math.max(t.value.at(-1)!, 0) : 0));
  const totalValue = values.reduce((sum, v) => sum + v, 0);
  const last = full.at(-1);
  return {
    weighting: byValue ? 'value' : 'equal',
    currency,
    gain: index - 1,
    maxDrawdown: falls.worst,
    balance: last?.balance ?? null,
    equity: last?.equity ?? null,
    since: times[0] ?? null,
    points: thinned(full),
    accounts: accounts.map((account, i) => {
      const track = tracks[i]!;
      const n = track.times.length;
      return {
        name: account.name,
        currency: account.currency,
        gain: n > 0 ? track.index[n - 1]! - 1 : null,
        maxDrawdown: n > 0 ? largestFall(track) : null,
        balance: n > 0 && moneyKnown ? track.balance[n - 1]! : null,
        equity: n > 0 && moneyKnown ? track.value[n - 1]! : null,
        share: byValue && n > 0 && totalValue > 0 ? values[i]! / totalValue : null,
        since: n > 0 ? track.times[0]! : null,
      };
    }),
  };
}

/**
 * A series longer than CHART_POINTS_MAX in buckets, each keeping its first point and its deepest
 * drawdown, and the last point: the shape and the worst moment survive (as an account's chart).
 */
function thinned(points: PortfolioPoint[]): PortfolioPoint[] {
  const count = points.length;
  if (count <= CHART_POINTS_MAX) return points;
  const size = Math.ceil(count / Math.floor(CHART_POINTS_MAX / 2));
  const kept: number[] = [];
  for (let first = 0; first < count; first += size) {
    let deepest = first;
    for (let i = first + 1; i < Math.min(first + size, count); i += 1)
      if (points[i]!.drawdown > points[deepest]!.drawdown) deepest = i;
    kept.push(first);
    if (deepest !== first) kept.push(deepest);
  }
  if (kept.at(-1) !== count - 1) kept.push(count - 1);
  return kept.map((i) => points[i]!);
}

// ---- the owner's calls (/api/user/monitoring/portfolios/*) -------------------------------

const portfolioName = z
  .string({ error: 'MONITORING_PORTFOLIO_NAME_REQUIRED' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'MONITORING_PORTFOLIO_NAME_REQUIRED' }),
    z.maxLength(PORTFOLIO_NAME_MAX, { error: 'MONITORING_PORTFOLIO_NAME_TOO_LONG' }),
    singleLine(),
    noWebAddress(),
  );

/** 2 to 20 different accounts of the reader's (which the service checks: 422 otherwise). */
const accountIds = z
  .array(idSchema('bigserial', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN'), {
    error: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE',
  })
  .check(
    z.minLength(PORTFOLIO_ACCOUNTS_MIN, { error: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE' }),
    z.maxLength(PORTFOLIO_ACCOUNTS_MAX, { error: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE' }),
    z.refine((ids) => new Set(ids).size === ids.length, {
      error: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE',
    }),
  );

/** POST /api/user/monitoring/portfolios */
export const createPortfolioRequestSchema = z.object({
  name: portfolioName,
  account_ids: accountIds,
});
export type CreatePortfolioRequest = z.input<typeof createPortfolioRequestSchema>;

const flag = z.boolean({ error: 'VALIDATION' });

/** PATCH /api/user/monitoring/portfolios/:id: what is given changes, together or not at all. */
export const updatePortfolioRequestSchema = z.object({
  name: z.optional(portfolioName),
  account_ids: z.optional(accountIds),
  is_public: z.optional(flag),
  hide_money: z.optional(flag),
});
export type UpdatePortfolioRequest = z.input<typeof updatePortfolioRequestSchema>;

/**
 * GET /api/user/monitoring/portfolios: `monitoring_id` narrows the list to the reader's portfolio
 * of that public id (none when another's or unknown), which the portfolio's page asks for alone.
 */
export const portfoliosQuerySchema = z.object({
  monitoring_id: z.optional(
    z.string().check(z.regex(MONITORING_ID_PATTERN, { error: 'MONITORING_PORTFOLIO_NOT_FOUND' })),
  ),
});

/** Money the public page may hide: null there when the owner hides money figures. */
const hideable = z.nullable(z.number());

/** The combined figures (combinePortfolio): fractions for percentages, money in `currency`. */
export const portfolioFiguresSchema = z.object({
  weighting: z.enum(['value', 'equal']),
  /** The accounts' one currency; null when they differ (or money is hidden). */
  currency: z.nullable(z.string()),
  gain: z.number(),
  max_drawdown: z.number(),
  balance: hideable,
  equity: hideable,
  /** The first point of any of its accounts (null: none has figures yet). */
  since: z.nullable(z.string()),
  /** How many accounts it combines. */
  accounts: z.int(),
});
export type PortfolioFigures = z.infer<typeof portfolioFiguresSchema>;

/**
 * A row of the per-account table. On the public page an account that is not public itself is
 * "a private account": no id, name or money, its gain and drawdown only.
 */
export const portfolioAccountSchema = z.object({
  /** The account's id: the owner's view only. */
  id: z.nullable(z.int()),
  /** Its public id: the owner's view, and the public page's when the account is public. */
  monitoring_id: z.nullable(z.string()),
  name: z.nullable(z.string()),
  is_public: z.boolean(),
  currency: z.nullable(z.string()),
  /** Its own figures as stored (null until the statistics job has computed them). */
  gain: z.nullable(z.number()),
  max_drawdown: z.nullable(z.number()),
  balance: hideable,
  equity: hideable,
  /** Its share of the portfolio's value (value weighting only). */
  share: z.nullable(z.number()),
  since: z.nullable(z.string()),
});
export type PortfolioAccount = z.infer<typeof portfolioAccountSchema>;

/** The combined series: the account chart's shape (money null when not summed or hidden). */
export const portfolioPointSchema = z.object({
  time: z.string(),
  gain: z.number(),
  balance: hideable,
  equity: hideable,
  drawdown: z.number(),
});

export const portfolioSchema = z.object({
  id: z.int(),
  monitoring_id: z.string(),
  name: z.string(),
  is_public: z.boolean(),
  hide_money: z.boolean(),
  views: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  account_ids: z.array(z.int()),
  figures: portfolioFiguresSchema,
});
export type PortfolioSummary = z.infer<typeof portfolioSchema>;

export const portfoliosResponseSchema = z.object({ portfolios: z.array(portfolioSchema) });

/** GET, POST (201) and PATCH of one portfolio: the figures, the per-account table, the series. */
export const portfolioResponseSchema = z.object({
  portfolio: portfolioSchema,
  accounts: z.array(portfolioAccountSchema),
  points: z.array(portfolioPointSchema),
});
export type PortfolioResponse = z.infer<typeof portfolioResponseSchema>;

/** DELETE /api/user/monitoring/portfolios/:id (its accounts stay as they are). */
export const portfolioDeletedResponseSchema = z.object({ message: z.string() });

// ---- the public page (/api/monitoring/portfolios/:monitoringId) --------------------------

/**
 * GET /api/monitoring/portfolios/:monitoringId, signed in or out: a private or missing
 * portfolio is 404 in the same words (MONITORING_PUBLIC_NOT_FOUND). Money is null when the
 * owner hides it; a private account's row shows its gain and drawdown only.
 */
export const publicPortfolioResponseSchema = z.object({
  portfolio: z.object({
    monitoring_id: z.string(),
    name: z.string(),
    views: z.int(),
    created_at: z.string(),
    shows_money: z.boolean(),
    figures: portfolioFiguresSchema,
  }),
  accounts: z.array(portfolioAccountSchema),
  points: z.array(portfolioPointSchema),
});
export type PublicPortfolioResponse = z.infer<typeof publicPortfolioResponseSchema>;
