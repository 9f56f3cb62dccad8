/**
 * The statistics of a monitored trading account: one pure, dependency-free module, used by the
 * API (recomputed by a job after each batch a terminal sends) and the terminal simulator. Every
 * figure is defined here, in words next to its code; the guide page repeats the definitions.
 *
 * Inputs are deals (MetaTrader's own records, deposits and withdrawals included) and equity
 * snapshots; money is in the account's currency, times are milliseconds since the epoch.
 *
 * Principles (what Myfxbook-style monitors get wrong):
 * - Cash flows are `balance` deals: deposits positive, withdrawals negative. The gain is
 *   time-weighted across them, so neither a deposit (even during an open trade) nor a withdrawal
 *   moves it, and a withdrawal is never drawdown.
 * - Credit and bonus are never profit, deposit or drawdown: they change the account's value at a
 *   boundary (like a cash flow) but count in no sum of deposits, and the value a gain is measured
 *   on is equity without credit.
 * - Other non-trade deals (charge, correction, commission, interest) are the account's result:
 *   they move the value inside a period (so the gain), but they are not trades.
 * - The figures depend on the set of deals and snapshots, not on their order or repetition: deals
 *   are taken once per ticket, in time order (ticket breaking ties).
 */

import { DAY_MS, HOUR_MS } from './time.ts';

export const DEAL_TYPES = [
  'buy',
  'sell',
  'balance',
  'credit',
  'charge',
  'correction',
  'bonus',
  'commission',
  'interest',
] as const;
export type DealType = (typeof DEAL_TYPES)[number];
export const DEAL_ENTRIES = ['in', 'out', 'inout', 'out_by'] as const;
export type DealEntry = (typeof DEAL_ENTRIES)[number];

export interface StatDeal {
  /** Unique per account (a deal's ticket in MT5; in MT4 the order's ticket with its entry). */
  ticket: string;
  /**
   * The position the deal belongs to: MT5's position id; in MT4 the order's ticket, the order
   * being sent as an `in` deal when opened and an `out` deal when closed.
   */
  positionId: string;
  time: number;
  type: DealType;
  entry: DealEntry;
  symbol: string;
  /** Digits of the symbol's quotes (pips: 10 points on 3- and 5-digit quotes, else 1 point). */
  digits: number;
  volume: number;
  price: number;
  profit: number;
  swap: number;
  commission: number;
  fee: number;
  /** On balance deals: the account's equity (credit included) just before it. */
  equityBefore?: number | null;
}

export interface StatSnapshot {
  time: number;
  balance: number;
  equity: number;
  margin: number;
  credit: number;
  /** The lowest and highest equity since the previous snapshot (the minute's, when thinned). */
  equityLow?: number | null;
  equityHigh?: number | null;
  /** Open positions at that moment: how many, and since when the oldest (for activity). */
  openPositions?: number;
  oldestOpenTime?: number | null;
}

export interface StatInput {
  deals: readonly StatDeal[];
  snapshots: readonly StatSnapshot[];
  /** The moment the figures are for. */
  now: number;
  /** IANA time zone of the daily and monthly tables ('UTC' unless told). */
  timeZone?: string;
  /**
   * Each ticket is there once (as the database keeps them, keyed by account and ticket), so
   * repeated copies need not be looked for; deals out of time order are still put in order.
   */
  uniqueTickets?: boolean;
}

/** A closed position. */
export interface Trade {
  positionId: string;
  symbol: string;
  direction: 'long' | 'short';
  openTime: number;
  closeTime: number;
  /** Lots opened. */
  volume: number;
  openPrice: number;
  closePrice: number;
  /** profit + swap + commission + fee of all its deals. */
  result: number;
  pips: number;
}

/** A point of the growth index: 1 + the time-weighted gain up to `time`. */
export interface IndexPoint {
  time: number;
  /** From balances and closed results: what the maximal drawdown is measured on. */
  index: number;
  /** The same index moved by equity (its low where a snapshot gives one). */
  equityIndex: number;
  balance: number;
  equity: number | null;
  /** The last point: the value at the moment asked for, not an event (the tables skip it). */
  now?: true;
}

export interface PeriodRow {
  /** `YYYY-MM-DD` or `YYYY-MM` in the account's time zone. */
  period: string;
  /** Time-weighted gain over the period (a fraction: 0.05 is 5 %). */
  gain: number;
  /** Net result of the trades closed in it. */
  profit: number;
  trades: number;
}

export interface Statistics {
  /** Time-weighted gain since the first deposit (a fraction). */
  gain: number;
  /** Net result of all trades / sum of deposits; null without deposits. */
  absoluteGain: number | null;
  /** (1 + gain)^(1/days) - 1 and (1 + gain)^(30.4375/days) - 1, days since the first deposit. */
  dailyGain: number | null;
  monthlyGain: number | null;
  deposits: number;
  withdrawals: number;
  /** Net result of all closed trades. */
  profit: number;
  balance: number;
  equity: number | null;
  /** Largest fall of the growth index from its previous peak (a fraction). */
  maxDrawdown: number;
  /** The same on the index moved by equity snapshots. */
  equityDrawdown: number;
  /** Largest fall of the cumulative net trade result, in money. */
  drawdownMoney: number;
  /** max(0, -lowest cumulative net trade result). */
  absoluteDrawdown: number;
  trades: TradeFigures;
  ratios: RatioFigures;
  firstDepositTime: number | null;
  index: IndexPoint[];
  closedTrades: Trade[];
}

export interface TradeFigures {
  count: number;
  wins: number;
  losses: number;
  /** wins / count; null without trades. */
  winRate: number | null;
  grossProfit: number;
  grossLoss: number;
  /** gross profit / gross loss; null when there are no losses ("no losses"). */
  profitFactor: number | null;
  averageWin: number | null;
  averageLoss: number | null;
  /** net / count. */
  expectancy: number | null;
  best: number | null;
  worst: number | null;
  longestWinStreak: { count: number; money: number };
  longestLossStreak: { count: number; money: number };
  lots: number;
  pips: number;
  longsWon: number | null;
  shortsWon: number | null;
  /** Mean of close time - open time, ms. */
  averageLengthMs: number | null;
  tradesPerWeek: number | null;
}

export interface RatioFigures {
  /** net / drawdown in money; null when there is no drawdown. */
  recoveryFactor: number | null;
  /** Mean and geometric mean of the per-trade holding-period returns (balance after / before). */
  ahpr: number | null;
  ghpr: number | null;
  /** (AHPR - 1) / standard deviation of the holding-period returns (population). */
  sharpe: number | null;
  /** Runs test over wins and losses: below -1.96 or above 1.96, results are not independent. */
  zScore: number | null;
  /** Share of the time since the first deal with at least one position open. */
  activity: number | null;
  /** Largest margin / equity among the snapshots. */
  maxDepositLoad: number | null;
}

const EPSILON = 1e-9;
const WEEK = 7 * DAY_MS;
const AVERAGE_MONTH_DAYS = 30.4375;
/** A snapshot stands for the value before a cash flow only this close to it. */
const SNAPSHOT_REACH = 5 * 60_000;

const isTradeDeal = (deal: StatDeal) => deal.type === 'buy' || deal.type === 'sell';
/** Deals that move value across a boundary without being a result: cash flows, credit, bonus. */
const isFlow = (deal: StatDeal) =>
  deal.type === 'balance' || deal.type === 'credit' || deal.type === 'bonus';
const moneyOf = (deal: StatDeal) => deal.profit + deal.swap + deal.commission + deal.fee;

/** Each ticket once (the last copy of a repeated one), in time order, ticket breaking ties. */
export function normalizeDeals(deals: readonly StatDeal[], uniqueTickets = false): StatDeal[] {
  if (uniqueTickets && inOrder(deals)) return [...deals];
  const byTicket = new Map<string, StatDeal>();
  for (const deal of deals) byTicket.set(deal.ticket, deal);
  return [...byTicket.values()].sort(byTimeAndTicket);
}

const byTimeAndTicket = (a: StatDeal, b: StatDeal) =>
  a.time - b.time || compareTickets(a.ticket, b.ticket);

function inOrder(deals: readonly StatDeal[]): boolean {
  for (let i = 1; i < deals.length; i += 1)
    if (byTimeAndTicket(deals[i - 1]!, deals[i]!) > 0) return false;
  return true;
}

function compareTickets(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function normalizeSnapshots(snapshots: readonly StatSnapshot[]): StatSnapshot[] {
  const byTime = new Map<number, StatSnapshot>();
  for (const snapshot of snapshots) byTime.set(snapshot.time, snapshot);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** A pip: 10 points on 3- and 5-digit quotes, else 1 point. */
export const pipSize = (digits: number) => 10 ** -digits * (digits === 3 || digits === 5 ? 10 : 1);

/**
 * Closed positions: buy and sell deals grouped by position; a position is closed once its `out`
 * volume has reached its `in` volume. Its result is profit + swap + commission + fee of all its
 * deals; its prices are the volume-weighted ones of its `in` and its closing deals.
 */
export function closedTrades(deals: readonly StatDeal[]): Trade[] {
  return closePositions(deals).trades;
}

/**
 * closedTrades, and each closed position's result at the index of its last deal, where its
 * holding-period return is taken (the balance then has all of its result): NaN at other deals.
 */
function closePositions(deals: readonly StatDeal[]): { trades: Trade[]; resultAt: Float64Array } {
  // each position's sums, added up in time order as its deals come
  const positions = new Map<string, Position>();
  for (let i = 0; i < deals.length; i += 1) {
    const deal = deals[i]!;
    if (!isTradeDeal(deal)) continue;
    let position = positions.get(deal.positionId);
    if (!position) {
      position = new Position();
      positions.set(deal.positionId, position);
    }
    position.result += moneyOf(deal);
    position.last = i;
    if (deal.entry === 'in') {
      position.first ??= deal;
      position.opened += deal.volume;
      position.openValue += deal.price * deal.volume;
    } else {
      position.closings += 1;
      position.closed += deal.volume;
      position.closeValue += deal.price * deal.volume;
      position.closeTime = Math.max(position.closeTime, deal.time);
    }
  }
  const trades: Trade[] = [];
  const resultAt = new Float64Array(deals.length).fill(Number.NaN);
  for (const [positionId, p] of positions) {
    const first = p.first;
    if (!first || p.closings === 0 || p.closed + EPSILON < p.opened) continue;
    const direction = first.type === 'buy' ? 'long' : 'short';
    const openPrice = p.opened > 0 ? p.openValue / p.opened : 0;
    const closePrice = p.closed > 0 ? p.closeValue / p.closed : 0;
    const sign = direction === 'long' ? 1 : -1;
    trades.push({
      positionId,
      symbol: first.symbol,
      direction,
      openTime: first.time,
      closeTime: p.closeTime,
      volume: p.opened,
      openPrice,
      closePrice,
      result: p.result,
      pips: ((closePrice - openPrice) * sign) / pipSize(first.digits),
    });
    resultAt[p.last] = p.result;
  }
  trades.sort((a, b) => a.closeTime - b.closeTime || compareTickets(a.positionId, b.positionId));
  return { trades, resultAt };
}

/** A position's deals summed: its first `in` deal, volumes, price x volume, result; its last deal. */
class Position {
  first: StatDeal | undefined = undefined;
  opened = 0;
  openValue = 0;
  closings = 0;
  closed = 0;
  closeValue = 0;
  closeTime = -Infinity;
  result = 0;
  last = -1;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
// not Math.max(...values): an account's 100,000 trades are too many arguments
const largest = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);
const smallest = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);

/**
 * The growth index over time, chaining the periods between flows: a period starts at the value
 * just before the flow plus the flow, and ends at the value just before the next one. The value
 * is equity without credit: `equity_before` of the flow (less the credit then), else a snapshot
 * at most 5 minutes before it, else the balance.
 */
function growthIndex(deals: StatDeal[], snapshots: StatSnapshot[], now: number): IndexPoint[] {
  const points: IndexPoint[] = [];
  let balance = 0;
  let credit = 0;
  let factor = 1; // the chained factor of the periods ended so far
  let start = 0; // the value the current period started at
  let peakStarted = false;
  let s = 0; // next snapshot
  let lastSnapshot: StatSnapshot | undefined;
  // A flow while positions are open starts its period at the equity then, which differs from the
  // balance by their floating result: until they close, the balance is short of that (`offset`)
  // to stand for the value. Open volume by position, and the positions the offset waits for.
  const openVolume = new Map<string, number>();
  let offset = 0;
  let awaited = new Set<string>();

  const valueIndex = (value: number) => (start > EPSILON ? (factor * value) / start : factor);
  const addPoint = (time: number, equity: number | null, low: number | null) => {
    const index = valueIndex(balance - offset);
    const equityIndex = equity === null ? index : valueIndex(low ?? equity);
    points.push({ time, index, equityIndex, balance, equity });
  };
  const takeSnapshotsUntil = (time: number) => {
    while (s < snapshots.length && snapshots[s]!.time <= time) {
      const snapshot = snapshots[s++]!;
      lastSnapshot = snapshot;
      if (!peakStarted) continue;
      const low = snapshot.equityLow ?? null;
      addPoint(
        snapshot.time,
        snapshot.equity - snapshot.credit,
        low === null ? null : low - snapshot.credit,
      );
    }
  };

  for (const deal of deals) {
    takeSnapshotsUntil(deal.time - 1);
    const amount = moneyOf(deal);
    if (isFlow(deal)) {
      let before = balance;
      if (deal.equityBefore !== undefined && deal.equityBefore !== null)
        before = deal.equityBefore - credit;
      else if (lastSnapshot && deal.time - lastSnapshot.time <= SNAPSHOT_REACH)
        before = lastSnapshot.equity - lastSnapshot.credit;
      if (start > EPSILON) factor *= Math.max(before, 0) / start;
      awaited = new Set([...openVolume.keys()]);
      offset = awaited.size > 0 ? balance - before : 0;
      if (deal.type === 'credit') credit += amount;
      else balance += amount;
      // the value just after: what came in on top of what was there (credit excluded)
      start = deal.type === 'credit' ? before : before + amount;
      if (start <= EPSILON) start = 0;
      if (deal.type === 'balance' && amount > 0) peakStarted = true;
      if (peakStarted) addPoint(deal.time, null, null);
      continue;
    }
    balance += amount;
    if (isTradeDeal(deal)) {
      const volume =
        (openVolume.get(deal.positionId) ?? 0) + (deal.entry === 'in' ? deal.volume : -deal.volume);
      if (volume > EPSILON) openVolume.set(deal.positionId, volume);
      else {
        openVolume.delete(deal.positionId);
        awaited.delete(deal.positionId);
        if (awaited.size === 0) offset = 0;
      }
    }
    if (peakStarted) addPoint(deal.time, null, null);
  }
  takeSnapshotsUntil(now);
  if (peakStarted) {
    // the latest snapshot tells the value now unless a deal came after it
    const current = lastSnapshot && lastSnapshot.time >= (deals.at(-1)?.time ?? 0);
    const equity = current ? lastSnapshot!.equity - lastSnapshot!.credit : null;
    points.push({
      now: true,
      time: now,
      index: valueIndex(balance - offset),
      equityIndex: valueIndex(equity ?? balance - offset),
      balance,
      equity,
    });
  }
  return points;
}

/**
 * The largest fall from a peak, as a share of the peak, along the index (and, with `equity`,
 * each point's equity index after its index where the two differ).
 */
function largestFall(points: readonly IndexPoint[], equity: boolean): number {
  let peak = -Infinity;
  let worst = 0;
  const take = (value: number) => {
    if (value > peak) peak = value;
    else if (peak > EPSILON) worst = Math.max(worst, (peak - value) / peak);
  };
  for (const p of points) {
    take(p.index);
    if (equity && p.equityIndex !== p.index) take(p.equityIndex);
  }
  return worst;
}

function streaks(results: number[]) {
  const best = { count: 0, money: 0 };
  const worst = { count: 0, money: 0 };
  let run = { count: 0, money: 0, sign: 0 };
  for (const result of results) {
    const sign = Math.sign(result);
    if (sign === 0) {
      run = { count: 0, money: 0, sign: 0 };
      continue;
    }
    run =
      sign === run.sign
        ? { ...run, count: run.count + 1, money: run.money + result }
        : {
            count: 1,
            money: result,
            sign,
          };
    const target = sign > 0 ? best : worst;
    if (
      run.count > target.count ||
      (run.count === target.count && Math.abs(run.money) > Math.abs(target.money))
    ) {
      target.count = run.count;
      target.money = run.money;
    }
  }
  return { best, worst };
}

/** Runs test over wins and losses (break-even trades left out). */
function zScore(results: number[]): number | null {
  const signs = results.filter((r) => r !== 0).map(Math.sign);
  const n = signs.length;
  const wins = signs.filter((s) => s > 0).length;
  const losses = n - wins;
  if (n < 2 || wins === 0 || losses === 0) return null;
  let runs = 1;
  for (let i = 1; i < n; i += 1) if (signs[i] !== signs[i - 1]) runs += 1;
  const x = 2 * wins * losses;
  const denominator = Math.sqrt((x * (x - n)) / (n - 1));
  return denominator > 0 ? (n * (runs - 0.5) - x) / denominator : null;
}

/** Share of [from, to] covered by the union of the intervals. */
function coverage(intervals: Array<[number, number]>, from: number, to: number): number | null {
  if (to <= from) return null;
  const sorted = intervals
    .map(([a, b]): [number, number] => [Math.max(a, from), Math.min(b, to)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = from;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    covered += b - Math.max(a, end);
    end = b;
  }
  return covered / (to - from);
}

export function computeStatistics(input: StatInput): Statistics {
  const deals = normalizeDeals(input.deals, input.uniqueTickets);
  const snapshots = normalizeSnapshots(input.snapshots);
  const { now } = input;
  const { trades, resultAt } = closePositions(deals);
  const results = trades.map((t) => t.result);
  const index = growthIndex(deals, snapshots, now);

  const depositDeals = deals.filter((d) => d.type === 'balance' && moneyOf(d) > 0);
  const deposits = sum(depositDeals.map(moneyOf));
  const withdrawals = -sum(
    deals.filter((d) => d.type === 'balance' && moneyOf(d) < 0).map(moneyOf),
  );
  const firstDepositTime = depositDeals[0]?.time ?? null;
  const profit = sum(results);
  const last = index.at(-1);
  // measured on the value now: equity (without credit) where a snapshot gives it
  const gain = last ? last.equityIndex - 1 : 0;
  const days = firstDepositTime === null ? 0 : (now - firstDepositTime) / DAY_MS;
  const compound = (span: number) =>
    days > 0 && 1 + gain > 0 ? (1 + gain) ** (span / days) - 1 : null;

  // cumulative net trade result, from 0
  let cumulative = 0;
  let peak = 0;
  let lowest = 0;
  let drawdownMoney = 0;
  for (const result of results) {
    cumulative += result;
    peak = Math.max(peak, cumulative);
    lowest = Math.min(lowest, cumulative);
    drawdownMoney = Math.max(drawdownMoney, peak - cumulative);
  }

  const wins = results.filter((r) => r > 0);
  const losses = results.filter((r) => r < 0);
  const grossProfit = sum(wins);
  const grossLoss = -sum(losses);
  const count = trades.length;
  const runs = streaks(results);
  const wonShare = (direction: Trade['direction']) => {
    const of = trades.filter((t) => t.direction === direction);
    return of.length > 0 ? of.filter((t) => t.result > 0).length / of.length : null;
  };
  const firstTradeTime = trades.length > 0 ? smallest(trades.map((t) => t.openTime)) : null;

  // holding-period returns: the balance after each trade (at its last deal) over the balance before it
  const hprs: number[] = [];
  {
    let balance = 0;
    for (let i = 0; i < deals.length; i += 1) {
      const deal = deals[i]!;
      balance += deal.type === 'credit' ? 0 : moneyOf(deal);
      const result = resultAt[i]!;
      if (Number.isNaN(result)) continue;
      const before = balance - result;
      if (before > EPSILON) hprs.push(balance / before);
    }
  }
  const ahpr = hprs.length > 0 ? sum(hprs) / hprs.length : null;
  const ghpr =
    hprs.length > 0 && hprs.every((h) => h > 0)
      ? Math.exp(sum(hprs.map(Math.log)) / hprs.length)
      : null;
  const sd = ahpr === null ? null : Math.sqrt(sum(hprs.map((h) => (h - ahpr) ** 2)) / hprs.length);

  const firstDealTime = deals.find(isTradeDeal)?.time ?? null;
  const openIntervals: Array<[number, number]> = trades.map((t) => [t.openTime, t.closeTime]);
  const latest = snapshots.at(-1);
  if (latest?.openPositions && latest.oldestOpenTime)
    openIntervals.push([latest.oldestOpenTime, now]);
  const loads = snapshots.filter((s) => s.equity > 0).map((s) => s.margin / s.equity);

  return {
    gain,
    absoluteGain: deposits > 0 ? profit / deposits : null,
    dailyGain: compound(1),
    monthlyGain: compound(AVERAGE_MONTH_DAYS),
    deposits,
    withdrawals,
    profit,
    balance: last?.balance ?? sum(deals.filter((d) => d.type !== 'credit').map(moneyOf)),
    equity: latest ? latest.equity : null,
    maxDrawdown: largestFall(index, false),
    equityDrawdown: largestFall(index, true),
    drawdownMoney,
    absoluteDrawdown: Math.max(0, -lowest),
    trades: {
      count,
      wins: wins.length,
      losses: losses.length,
      winRate: count > 0 ? wins.length / count : null,
      grossProfit,
      grossLoss,
      profitFactor: grossLoss > 0 ? grossProfit / grossLoss : null,
      averageWin: wins.length > 0 ? grossProfit / wins.length : null,
      averageLoss: losses.length > 0 ? -grossLoss / losses.length : null,
      expectancy: count > 0 ? profit / count : null,
      best: count > 0 ? largest(results) : null,
      worst: count > 0 ? smallest(results) : null,
      longestWinStreak: runs.best,
      longestLossStreak: runs.worst,
      lots: sum(trades.map((t) => t.volume)),
      pips: sum(trades.map((t) => t.pips)),
      longsWon: wonShare('long'),
      shortsWon: wonShare('short'),
      averageLengthMs: count > 0 ? sum(trades.map((t) => t.closeTime - t.openTime)) / count : null,
      tradesPerWeek:
        firstTradeTime !== null && now > firstTradeTime
          ? count / ((now - firstTradeTime) / WEEK)
          : null,
    },
    ratios: {
      recoveryFactor: drawdownMoney > 0 ? profit / drawdownMoney : null,
      ahpr,
      ghpr,
      sharpe: ahpr !== null && sd !== null && sd > 0 ? (ahpr - 1) / sd : null,
      zScore: zScore(results),
      activity: firstDealTime === null ? null : coverage(openIntervals, firstDealTime, now),
      maxDepositLoad: loads.length > 0 ? largest(loads) : null,
    },
    firstDepositTime,
    index,
    closedTrades: trades,
  };
}

/** A time zone's wall-clock format and its offsets from UTC by UTC hour (NaN: it changes in that hour). */
interface Zone {
  format: Intl.DateTimeFormat;
  offsets: Map<number, number>;
}
const zones = new Map<string, Zone>();
/** `YYYY-MM-DD` by days since 1970. */
const dayNames = new Map<number, string>();
const OFFSETS_KEPT = 200_000; // hours per zone (23 years) before the memo starts afresh

function zoneOf(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zone = { format, offsets: new Map() };
    zones.set(timeZone, zone);
  }
  return zone;
}

/** The zone's offset from UTC at `time` in ms: its wall clock read as if it were UTC, minus the time. */
function offsetAt(zone: Zone, time: number): number {
  const parts = zone.format.formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(time / 1000) * 1000;
}

/**
 * `YYYY-MM-DD` of `time` in `timeZone`. A zone's offset is read once per UTC hour (at the hour's
 * first and last millisecond: equal, it holds for the whole hour, since no zone changes twice in
 * an hour) instead of formatting every time: a history of 100,000 deals spans a few thousand hours.
 */
export function localDay(time: number, timeZone: string): string {
  // times in order mostly fall on the day just named: in its span (within one UTC hour), no lookup
  if (timeZone === lastNamed.timeZone && time >= lastNamed.from && time < lastNamed.to)
    return lastNamed.name;
  const zone = zoneOf(timeZone);
  const hour = Math.floor(time / HOUR_MS);
  let offset = zone.offsets.get(hour);
  if (offset === undefined) {
    const first = offsetAt(zone, hour * HOUR_MS);
    offset = first === offsetAt(zone, hour * HOUR_MS + HOUR_MS - 1) ? first : Number.NaN;
    if (zone.offsets.size >= OFFSETS_KEPT) zone.offsets.clear();
    zone.offsets.set(hour, offset);
  }
  if (Number.isNaN(offset)) offset = offsetAt(zone, time);
  const day = Math.floor((time + offset) / DAY_MS);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayNames.size >= OFFSETS_KEPT) dayNames.clear();
    dayNames.set(day, name);
  }
  if (Number.isNaN(zone.offsets.get(hour) ?? Number.NaN)) lastNamed.timeZone = '';
  else {
    lastNamed.timeZone = timeZone;
    lastNamed.from = Math.max(hour * HOUR_MS, day * DAY_MS - offset);
    lastNamed.to = Math.min(hour * HOUR_MS + HOUR_MS, day * DAY_MS + DAY_MS - offset);
    lastNamed.name = name;
  }
  return name;
}
/** The day localDay named last, and the span of times it holds for (none when timeZone is ''). */
const lastNamed = { timeZone: '', from: 0, to: 0, name: '' };

/**
 * Gain and profit by day or month in the account's time zone, for the periods with any event (a
 * deal or a snapshot) or closed trade, between `from` and `to` (the period picker's range) when given. A
 * period's gain is its last index value over the last one before it, minus 1.
 */
export function periodTable(
  statistics: Pick<Statistics, 'index' | 'closedTrades'>,
  unit: 'day' | 'month',
  timeZone = 'UTC',
  range: { from?: number; to?: number } = {},
): PeriodRow[] {
  let lastDay = '';
  let lastMonth = '';
  const key = (time: number) => {
    const day = localDay(time, timeZone);
    if (unit === 'day') return day;
    if (day !== lastDay) {
      lastDay = day;
      lastMonth = day.slice(0, 7);
    }
    return lastMonth;
  };
  const closing = new Map<string, number>(); // the index at each period's end
  for (const point of statistics.index) if (!point.now) closing.set(key(point.time), point.index);
  const rows = new Map<string, PeriodRow>();
  let previous = 1;
  for (const [period, index] of closing) {
    rows.set(period, { period, gain: index / previous - 1, profit: 0, trades: 0 });
    previous = index;
  }
  for (const trade of statistics.closedTrades) {
    const period = key(trade.closeTime);
    const row = rows.get(period) ?? { period, gain: 0, profit: 0, trades: 0 };
    row.profit += trade.result;
    row.trades += 1;
    rows.set(period, row);
  }
  const from = range.from === undefined ? undefined : key(range.from);
  const to = range.to === undefined ? undefined : key(range.to);
  return [...rows.values()]
    .filter(
      (row) => (from === undefined || row.period >= from) && (to === undefined || row.period <= to),
    )
    .sort((a, b) => (a.period < b.period ? -1 : 1));
}
