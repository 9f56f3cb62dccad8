/**
 * What produced an account's result: its closed trades split by symbol, by the hour and the
 * weekday they were opened in, by direction and by strategy (the Expert Advisor's magic number),
 * and an estimate of the risk of ruin from its trades. Pure functions over the trades and
 * returns of monitoring-statistics.ts; the guide page repeats the definitions.
 */

import { localHourAndWeekday, type Trade } from './monitoring-statistics.ts';

/** One group of trades. Money is the account's currency; a trade's result is net of costs. */
export interface BreakdownRow {
  /** The symbol; the hour '0'-'23'; the ISO weekday '1' (Monday)-'7'; 'long' | 'short'; the magic number. */
  key: string;
  trades: number;
  /** Trades with a result above zero. */
  wins: number;
  /** wins / trades; null without trades. */
  winRate: number | null;
  lots: number;
  /** The sum of the trades' results (profit + swap + commission + fee). */
  profit: number;
  grossProfit: number;
  grossLoss: number;
  /** grossProfit / grossLoss; null without losses. */
  profitFactor: number | null;
  /** The sum of the currency-pair trades' pips; null when none is a currency pair. */
  pips: number | null;
}

export interface Breakdowns {
  /** Most traded first (the larger profit, then the name, breaking ties). */
  symbols: BreakdownRow[];
  /** All 24 hours in order, empty ones with zeros; none at all without trades. */
  hours: BreakdownRow[];
  /** All 7 weekdays from Monday, empty ones with zeros; none at all without trades. */
  weekdays: BreakdownRow[];
  /** Long, then short, each only when traded. */
  directions: BreakdownRow[];
  /** By magic number, most traded first; '0' is the trades placed by hand. */
  strategies: BreakdownRow[];
}

export const MANUAL_MAGIC = '0';

class Group {
  trades = 0;
  wins = 0;
  lots = 0;
  grossProfit = 0;
  grossLoss = 0;
  pips: number | null = null;
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
  add(trade: Trade) {
    this.trades += 1;
    if (trade.result > 0) {
      this.wins += 1;
      this.grossProfit += trade.result;
    } else if (trade.result < 0) this.grossLoss -= trade.result;
    this.lots += trade.volume;
    if (trade.pips !== null) this.pips = (this.pips ?? 0) + trade.pips;
  }
  row(): BreakdownRow {
    return {
      key: this.key,
      trades: this.trades,
      wins: this.wins,
      winRate: this.trades > 0 ? this.wins / this.trades : null,
      lots: this.lots,
      profit: this.grossProfit - this.grossLoss,
      grossProfit: this.grossProfit,
      grossLoss: this.grossLoss,
      profitFactor: this.grossLoss > 0 ? this.grossProfit / this.grossLoss : null,
      pips: this.pips,
    };
  }
}

/** Groups by a key, in the order the keys are first met (or given up front). */
function grouped(keys: readonly string[] = []) {
  const groups = new Map<string, Group>(keys.map((key) => [key, new Group(key)]));
  return {
    add(key: string, trade: Trade) {
      let group = groups.get(key);
      if (!group) {
        group = new Group(key);
        groups.set(key, group);
      }
      group.add(trade);
    },
    rows: () => [...groups.values()].map((g) => g.row()),
  };
}

const mostTraded = (a: BreakdownRow, b: BreakdownRow) =>
  b.trades - a.trades || b.profit - a.profit || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour));
const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'];

/**
 * The closed trades of a period split five ways. A trade belongs to the period it closed in
 * (as in the daily and monthly tables): `from` inclusive, `to` exclusive, either open. The hour
 * and the weekday are those of its opening, in the account's time zone: when the decision to
 * trade was taken.
 */
export function breakdownsOf(
  trades: readonly Trade[],
  timeZone = 'UTC',
  range: { from?: number; to?: number } = {},
): Breakdowns {
  const symbols = grouped();
  const hours = grouped(HOURS);
  const weekdays = grouped(WEEKDAYS);
  const directions = grouped(['long', 'short']);
  const strategies = grouped();
  let count = 0;
  for (const trade of trades) {
    if (range.from !== undefined && trade.closeTime < range.from) continue;
    if (range.to !== undefined && trade.closeTime >= range.to) continue;
    count += 1;
    const { hour, weekday } = localHourAndWeekday(trade.openTime, timeZone);
    symbols.add(trade.symbol, trade);
    hours.add(HOURS[hour]!, trade);
    weekdays.add(WEEKDAYS[weekday - 1]!, trade);
    directions.add(trade.direction, trade);
    strategies.add(trade.magic, trade);
  }
  if (count === 0) return { symbols: [], hours: [], weekdays: [], directions: [], strategies: [] };
  return {
    symbols: symbols.rows().sort(mostTraded),
    hours: hours.rows(),
    weekdays: weekdays.rows(),
    directions: directions.rows().filter((row) => row.trades > 0),
    strategies: strategies.rows().sort(mostTraded),
  };
}

// ---- the risk of ruin --------------------------------------------------------------------

/** Losses of the account the risk is estimated for: 10 %, 20 %, ... 100 %. */
export const RUIN_LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;
/** Fewer trades than this say too little to estimate from. */
export const RUIN_MIN_TRADES = 20;

export interface RiskOfRuin {
  /** The trades it is estimated from (those with a return). */
  trades: number;
  winRate: number;
  /** The average win and loss as a share of the balance before the trade (both positive). */
  averageWin: number;
  averageLoss: number;
  /** The adjustment coefficient θ (0: the trades lose on average, so any loss is certain). */
  theta: number;
  /** For each of RUIN_LEVELS: the probability of the account ever losing that share of itself. */
  levels: Array<{ loss: number; probability: number }>;
}

export type RiskOfRuinResult =
  | { estimate: RiskOfRuin; reason?: undefined }
  | { estimate: null; reason: 'too_few_trades' | 'no_losses' };

/**
 * The probability of the account ever losing 10 %, 20 %, ... 100 % of today's balance, if its
 * next trades are like its past ones: each a win with the account's win rate, of its average
 * win, else a loss of its average loss (break-even trades in their share), each as a share of
 * the balance before the trade, sized on today's balance (the position size stays as it is now).
 *
 * Method: the Cramér-Lundberg estimate for a random walk. θ is the positive root of
 * p·e^(-θ·w) + q·e^(θ·l) + r = 1 (p, q, r: the shares of wins, losses and break-evens; w, l:
 * the average win and loss), and the probability of ever falling by x is e^(-θ·x). When the
 * expectancy p·w - q·l is zero or less there is no such root: every level is certain (1).
 * The estimate has no horizon (ever, not within a month) and ignores streaks.
 */
export function riskOfRuin(returns: readonly number[]): RiskOfRuinResult {
  if (returns.length < RUIN_MIN_TRADES) return { estimate: null, reason: 'too_few_trades' };
  let wins = 0;
  let losses = 0;
  let won = 0;
  let lost = 0;
  for (const r of returns) {
    if (r > 0) {
      wins += 1;
      won += r;
    } else if (r < 0) {
      losses += 1;
      lost -= r;
    }
  }
  if (losses === 0) return { estimate: null, reason: 'no_losses' };
  const n = returns.length;
  const p = wins / n;
  const q = losses / n;
  const w = wins > 0 ? won / wins : 0;
  const l = lost / losses;
  const theta = adjustment(p, w, q, l);
  return {
    estimate: {
      trades: n,
      winRate: p,
      averageWin: w,
      averageLoss: l,
      theta,
      levels: RUIN_LEVELS.map((loss) => ({
        loss,
        probability: theta > 0 ? Math.exp(-theta * loss) : 1,
      })),
    },
  };
}

/**
 * The positive root θ of f(θ) = p·e^(-θw) + q·e^(θl) - (p + q) (0 when the expectancy is not
 * positive). f(0) = 0, f'(0) = -(p·w - q·l) < 0 and f is convex and grows without bound, so the
 * root is found by doubling an upper bound and bisecting to the float's precision.
 */
function adjustment(p: number, w: number, q: number, l: number): number {
  if (p * w - q * l <= 0) return 0;
  const f = (theta: number) => p * Math.exp(-theta * w) + q * Math.exp(theta * l) - (p + q);
  let low = 0;
  let high = 1;
  while (f(high) < 0) {
    low = high;
    high *= 2;
  }
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i += 1) {
    const middle = (low + high) / 2;
    if (f(middle) < 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
