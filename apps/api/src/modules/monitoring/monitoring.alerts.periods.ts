import {
  equityValuesOf,
  fallTracker,
  HOUR_MS,
  localDay,
  MINUTE_MS,
  type ReportPeriod,
  type Statistics,
  type Trade,
} from '@tradehost/contracts';

/**
 * Days, weeks (Monday to Monday) and months in an account's time zone, as instants: what the
 * daily-loss rule counts from and what each report covers. Pure functions of the clock, the
 * period and the IANA zone, so daylight-saving days of 23 or 25 hours and month ends are the
 * zone's own.
 */

/** No zone is further than this from UTC (+14:00 is the furthest today). */
const WIDEST_OFFSET = 15 * HOUR_MS;

export interface Span {
  start: Date;
  /** Exclusive: the next period's start. */
  end: Date;
}

/** `YYYY-MM-DD` moved by whole days or months (the day clamped to the month's length). */
function shiftDate(date: string, days: number, months = 0): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  if (months !== 0) {
    const last = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
    return new Date(Date.UTC(y, m - 1 + months, Math.min(d, last))).toISOString().slice(0, 10);
  }
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const starts = new Map<string, number>();

/**
 * The first instant of a local date in `timeZone`: its midnight, or, where the clocks jump over
 * midnight (a spring-forward at 00:00), the first minute that exists. Found by bisection on
 * whole minutes (every zone's offset is whole minutes) within the widest offset of UTC midnight.
 */
export function startOfLocalDate(date: string, timeZone: string): Date {
  const key = `${timeZone} ${date}`;
  let start = starts.get(key);
  if (start === undefined) {
    const midnight = Date.parse(`${date}T00:00:00Z`);
    let low = (midnight - WIDEST_OFFSET) / MINUTE_MS; // before the date everywhere
    let high = (midnight + WIDEST_OFFSET) / MINUTE_MS; // on or after it everywhere
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (localDay(middle * MINUTE_MS, timeZone) >= date) high = middle;
      else low = middle;
    }
    start = high * MINUTE_MS;
    if (starts.size > 10_000) starts.clear();
    starts.set(key, start);
  }
  return new Date(start);
}

/** The local date (`YYYY-MM-DD`) a period containing `date` starts on. */
function firstDateOf(period: ReportPeriod, date: string): string {
  if (period === 'daily') return date;
  if (period === 'monthly') return `${date.slice(0, 7)}-01`;
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday
  return shiftDate(date, -((weekday + 6) % 7)); // back to Monday
}

/** The local date the period after the one starting on `first` starts on. */
function nextFirstDate(period: ReportPeriod, first: string): string {
  if (period === 'daily') return shiftDate(first, 1);
  if (period === 'weekly') return shiftDate(first, 7);
  return shiftDate(first, 0, 1);
}

/** The day, week or month (in `timeZone`) that `at` falls in. */
export function periodOf(period: ReportPeriod, at: Date, timeZone: string): Span {
  const first = firstDateOf(period, localDay(at.getTime(), timeZone));
  return {
    start: startOfLocalDate(first, timeZone),
    end: startOfLocalDate(nextFirstDate(period, first), timeZone),
  };
}

/** The period that ended last before `now`: yesterday, last week, last month. */
export function lastEndedPeriod(period: ReportPeriod, now: Date, timeZone: string): Span {
  const current = periodOf(period, now, timeZone);
  return periodOf(period, new Date(current.start.getTime() - 1), timeZone);
}

/** The start of the local day `at` falls in. */
export const startOfDay = (at: Date, timeZone: string) => periodOf('daily', at, timeZone).start;

/** A report's figures for one period. */
export interface ReportFigures {
  /** Time-weighted gain over the period (a fraction), as the daily and monthly tables count it. */
  gain: number;
  /** Net result of the trades closed in the period. */
  profit: number;
  /** The largest fall in the period from a peak (its opening value the first), equity-based. */
  drawdown: number;
  trades: number;
  best: Trade | null;
  worst: Trade | null;
  /** The balance and equity at the period's end, as last known (null: nothing known). */
  balance: number | null;
  equity: number | null;
}

/**
 * A period's figures from the account's statistics (computed over its whole history), measured
 * as the statistics measure them: the gain is the growth index at the period's end over its
 * value before it; the drawdown is the statistics' equity drawdown within the period, starting
 * from the index the period opened with; profit and trades count the trades closed in it.
 */
export function reportFigures(
  statistics: Pick<Statistics, 'index' | 'closedTrades'>,
  span: Span,
): ReportFigures {
  const from = span.start.getTime();
  const to = span.end.getTime();
  let opening = 1;
  let closing: number | null = null;
  let falls = fallTracker(1);
  let balance: number | null = null;
  let equity: number | null = null;
  for (const point of statistics.index) {
    if (point.time >= to) break;
    balance = point.balance;
    equity = point.equity ?? equity;
    if (point.time < from) {
      if (!point.now) opening = point.index;
      falls = fallTracker(opening);
      continue;
    }
    if (point.now) continue;
    closing = point.index;
    for (const value of equityValuesOf(point)) falls.take(value);
  }
  const trades = statistics.closedTrades.filter((t) => t.closeTime >= from && t.closeTime < to);
  let best: Trade | null = null;
  let worst: Trade | null = null;
  for (const trade of trades) {
    if (!best || trade.result > best.result) best = trade;
    if (!worst || trade.result < worst.result) worst = trade;
  }
  return {
    gain: closing === null || opening <= 0 ? 0 : closing / opening - 1,
    profit: trades.reduce((total, t) => total + t.result, 0),
    drawdown: falls.worst,
    trades: trades.length,
    best,
    worst,
    balance,
    equity,
  };
}
