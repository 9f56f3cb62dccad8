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
 * - Other non-trade deals (charge, correction, commission, interest, dividend, tax) are the
 *   account's result: they move the value inside a period (so the gain), but they are not
 *   trades, and they are counted apart from Profit (`otherResults`).
 * - A floating profit is never a drawdown: the equity drawdown compares equity with equity, and
 *   the balance stands for equity only where no position is open.
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
  'dividend',
  'tax',
  /** A trade deal the broker cancelled afterwards (MT5's BUY_CANCELED, SELL_CANCELED): no result. */
  'canceled',
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
  /**
   * The Expert Advisor's magic number, as digits (MT5's is 64-bit); '0' or missing: placed by
   * hand. A trade is its opening deal's (a close by stop loss or by hand may carry another).
   */
  magic?: string;
}

export interface StatSnapshot {
  /**
   * When its values were taken: the true time of the publisher's snapshot (a stored point that
   * stands for several snapshots carries the latest one's values and time), never a minute or
   * an hour it was filed under, which would carry a later value into the time before it.
   */
  time: number;
  balance: number;
  equity: number;
  margin: number;
  credit: number;
  /**
   * The lowest and highest equity since the snapshot before it. A low that spans a cash flow
   * mixes two values of the account and is left out.
   */
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

/**
 * A closed trade: a position from its opening to its full close. A netting reversal (an `inout`
 * deal) closes one trade and opens the next on the same position.
 */
export interface Trade {
  /** The position's id; the trades after a netting reversal on it are `id#2`, `id#3`, ... */
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
  /** Counted for currency pairs only (see pipsOf): null for metals, indices, crypto. */
  pips: number | null;
  /** Its opening deal's magic number ('0': placed by hand). */
  magic: string;
}

/** A point of the growth index: 1 + the time-weighted gain up to `time`. */
export interface IndexPoint {
  time: number;
  /** From balances and closed results: what the maximal drawdown is measured on. */
  index: number;
  /**
   * The index at the account's equity where it is known: a snapshot's equity, or the balance at
   * a deal that leaves no position open; null at a deal while positions are open (their floating
   * result is not known there, and the balance is no stand-in for it).
   */
  equityIndex: number | null;
  /** At a snapshot: the index at its equity low, unless that low spans a cash flow. */
  lowIndex?: number | null;
  /**
   * The next snapshot's equity low, when a deal comes before that snapshot: the low may be from
   * before the deal (a trade's close, whose point sets a new peak), so it is taken here, before
   * the deal's point, and not at the snapshot.
   */
  lowAfter?: number | null;
  balance: number;
  /** Equity without credit, at snapshots. */
  equity: number | null;
  /** The last point: the value at the moment asked for, not an event (the tables skip it). */
  now?: true;
}

export interface PeriodRow {
  /** `YYYY-MM-DD` or `YYYY-MM` in the account's time zone. */
  period: string;
  /** Time-weighted gain over the period (a fraction: 0.05 is 5 %). */
  gain: number;
  /** The result of the trade deals in it, as Profit counts them (partial closes when they happen). */
  profit: number;
  /** Trades closed in it. */
  trades: number;
}

export interface Statistics {
  /** Time-weighted gain since the first deposit (a fraction). */
  gain: number;
  /** Profit / sum of deposits; null without deposits. */
  absoluteGain: number | null;
  /** (1 + gain)^(1/days) - 1 and (1 + gain)^(30.4375/days) - 1, days since the first deposit. */
  dailyGain: number | null;
  monthlyGain: number | null;
  deposits: number;
  withdrawals: number;
  /**
   * The result of every trade deal so far: closed trades, each partial close when it happens,
   * and the commission already charged on positions still open.
   */
  profit: number;
  /**
   * Results that are not trades: commission and fee lines, interest, dividends, tax, charges,
   * corrections, bonuses. deposits - withdrawals + profit + otherResults = balance.
   */
  otherResults: number;
  balance: number;
  equity: number | null;
  /** The latest snapshot's balance is not what the deals add up to: part of the history is missing. */
  historyIncomplete: boolean;
  /** The first snapshot's time: equity figures start there. */
  equitySince: number | null;
  /** Largest fall of the growth index from its previous peak (a fraction). */
  maxDrawdown: number;
  /** The same on the index at the account's equity, where it is known (lows included). */
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
  /**
   * Each closed trade's result as a share of the balance before it (the balance after its last
   * deal less its whole result, so a trade closed in parts counts once: its holding-period
   * return - 1), in time order; trades on a balance of zero or less are left out.
   */
  tradeReturns: number[];
  /** The trade deals' times and results, in time order: the period tables' profit. */
  dealResults: { times: number[]; money: number[] };
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
  /** Of the trades in currency pairs only. */
  pips: number;
  longsWon: number | null;
  shortsWon: number | null;
  /** Mean of close time - open time, ms. */
  averageLengthMs: number | null;
  /** Trades / weeks since the first trade opened. */
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
/**
 * Snapshots are stamped in whole seconds of the trade server's clock and deals in milliseconds:
 * a snapshot in a cash flow's second may have been taken just after it. Lows this close to a flow
 * are left out, and a snapshot's balance tells on which side of a flow in its second it was.
 */
const SECOND = 1000;

const isTradeDeal = (deal: StatDeal) => deal.type === 'buy' || deal.type === 'sell';
/** Deals that move value across a boundary without being a result: cash flows, credit, bonus. */
const isFlow = (deal: StatDeal) =>
  deal.type === 'balance' || deal.type === 'credit' || deal.type === 'bonus';
const moneyOf = (deal: StatDeal) => deal.profit + swapEtc(deal);
const swapEtc = (deal: StatDeal) => deal.swap + deal.commission + deal.fee;
/** A buy adds to a position's net volume, a sell takes from it. */
const signedVolume = (deal: StatDeal) => (deal.type === 'buy' ? deal.volume : -deal.volume);
/** Equal as money written with cents (or, for large amounts, to a millionth). */
const sameMoney = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-6 * Math.abs(b);

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

/** ISO 4217 codes of the currencies a forex pair quotes (not the metals XAU, XAG, XPT, XPD). */
const CURRENCIES = new Set(
  (
    'AED ARS AUD BGN BHD BRL CAD CHF CLP CNH CNY COP CZK DKK EUR GBP HKD HUF IDR ILS INR ISK ' +
    'JPY KES KRW KWD KZT MAD MXN MYR NGN NOK NZD OMR PEN PHP PKR PLN QAR RON RSD RUB SAR SEK ' +
    'SGD THB TRY TWD UAH USD ZAR'
  ).split(' '),
);

/**
 * A currency pair: two currencies' codes at the start of the symbol, after a broker's prefix
 * (`#EURUSD`, `.GBPJPY`) and before its suffix (`EURUSD.m`, `EURUSDpro`, `EUR/USD`).
 */
export function isCurrencyPair(symbol: string): boolean {
  const letters = symbol
    .replace(/^[^A-Za-z]+/, '')
    .replace('/', '')
    .toUpperCase();
  const base = letters.slice(0, 3);
  const quote = letters.slice(3, 6);
  return base !== quote && CURRENCIES.has(base) && CURRENCIES.has(quote);
}

/**
 * A price move in pips, for currency pairs quoted with 2 to 5 digits (a pip is 10 points on 3-
 * and 5-digit quotes, 1 point on 2- and 4-digit ones); null for anything else: 0.01 of gold or
 * a point of an index is no pip, and summing them with pips would mean nothing.
 */
export function pipsOf(symbol: string, digits: number, move: number): number | null {
  if (digits < 2 || digits > 5 || !isCurrencyPair(symbol)) return null;
  return move / pipSize(digits);
}

/**
 * Closed trades: buy and sell deals grouped by position; a position is closed once its closing
 * volume has reached its opening volume. A netting reversal (`inout`) closes the position's open
 * volume (its whole result goes there) and opens the rest the other way, as the next trade. A
 * trade's result is profit + swap + commission + fee of its deals; its prices are the
 * volume-weighted ones of its openings and closings.
 */
export function closedTrades(deals: readonly StatDeal[]): Trade[] {
  return closePositions(deals).trades;
}

/**
 * closedTrades, and each closed trade's result at the index of its last deal, where its
 * holding-period return is taken (the balance then has all of its result): NaN at other deals.
 */
function closePositions(deals: readonly StatDeal[]): { trades: Trade[]; resultAt: Float64Array } {
  // each position's current trade, its sums added up in time order as its deals come
  const positions = new Map<string, Position>();
  const trades: Trade[] = [];
  const resultAt = new Float64Array(deals.length).fill(Number.NaN);
  const finish = (p: Position) => {
    const first = p.first;
    if (!first || p.closings === 0 || p.closed + EPSILON < p.opened) return;
    const direction = first.type === 'buy' ? 'long' : 'short';
    const openPrice = p.opened > 0 ? p.openValue / p.opened : 0;
    const closePrice = p.closed > 0 ? p.closeValue / p.closed : 0;
    const sign = direction === 'long' ? 1 : -1;
    trades.push({
      positionId: p.segment === 1 ? p.id : `${p.id}#${p.segment}`,
      symbol: first.symbol,
      direction,
      openTime: first.time,
      closeTime: p.closeTime,
      volume: p.opened,
      openPrice,
      closePrice,
      result: p.result,
      pips: pipsOf(first.symbol, first.digits, (closePrice - openPrice) * sign),
      magic: first.magic ?? '0',
    });
    resultAt[p.last] = p.result;
  };
  for (let i = 0; i < deals.length; i += 1) {
    const deal = deals[i]!;
    if (!isTradeDeal(deal)) continue;
    let position = positions.get(deal.positionId);
    if (!position) {
      position = new Position(deal.positionId, 1);
      positions.set(deal.positionId, position);
    }
    position.result += moneyOf(deal);
    position.last = i;
    if (deal.entry === 'inout') {
      // what was open closes here; the rest of the deal's volume opens the next trade
      const closing = Math.max(position.opened - position.closed, 0);
      position.close(deal, closing);
      finish(position);
      const next = new Position(deal.positionId, position.segment + 1);
      next.open(deal, Math.max(deal.volume - closing, 0));
      next.last = i;
      positions.set(deal.positionId, next);
    } else if (deal.entry === 'in') position.open(deal, deal.volume);
    else position.close(deal, deal.volume);
  }
  for (const position of positions.values()) finish(position);
  trades.sort((a, b) => a.closeTime - b.closeTime || compareTickets(a.positionId, b.positionId));
  return { trades, resultAt };
}

/** A trade's deals summed: its first opening deal, volumes, price x volume, result; its last deal. */
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
  readonly id: string;
  /** 1 for the position's first trade, 2 after a netting reversal, ... */
  readonly segment: number;
  constructor(id: string, segment: number) {
    this.id = id;
    this.segment = segment;
  }
  open(deal: StatDeal, volume: number) {
    this.first ??= deal;
    this.opened += volume;
    this.openValue += deal.price * volume;
  }
  close(deal: StatDeal, volume: number) {
    this.closings += 1;
    this.closed += volume;
    this.closeValue += deal.price * volume;
    this.closeTime = Math.max(this.closeTime, deal.time);
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
// not Math.max(...values): an account's 100,000 trades are too many arguments
const largest = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);
const smallest = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);

interface GrowthIndex {
  points: IndexPoint[];
  /** The last snapshot clear of deals disagrees with the balance the deals add up to. */
  historyIncomplete: boolean;
}

/**
 * The growth index over time, chaining the periods between flows: a period starts at the value
 * just after a flow and ends at the value just before the next one, the value being equity
 * without credit. The value just before a flow is, in this order:
 * - the publisher's `equity_before`, which it sends only for a flow it saw as it happened;
 * - the balance, when no position is open (the equity is then the balance);
 * - the latest snapshot taken before the flow (by its true time, at most 5 minutes earlier),
 *   moved by what the deals since then charged or paid (commissions, fees, other flows);
 * - else the balance.
 * A point carries no value from after a flow into the time before it: a snapshot stamped in a
 * flow's second counts on the side its balance shows (or not at all), and an equity low that
 * spans a flow is left out. An index that has fallen to zero (an account lost whole) starts
 * again at 1 at the next deposit.
 *
 * `openSince`: the oldest position open at the latest snapshot, which the deals may not show
 * yet (MetaTrader 4 publishes an order once it has closed).
 */
function growthIndex(
  deals: readonly StatDeal[],
  snapshots: readonly StatSnapshot[],
  now: number,
  openSince: number | null,
): GrowthIndex {
  const points: IndexPoint[] = [];
  let balance = 0;
  let credit = 0;
  let factor = 1; // the chained factor of the periods ended so far
  let start = 0; // the value the current period started at
  let started = false; // from the first deposit on
  let s = 0; // next snapshot
  // where a snapshot's low starts: the snapshot before it (the first one's, an hour back: at
  // most what a stored point stands for)
  let previousSnapshotTime = (snapshots[0]?.time ?? 0) - HOUR_MS;
  let lastSnapshot: StatSnapshot | undefined;
  let sinceSnapshot = 0; // what deals after the last snapshot moved its value by
  let historyIncomplete = false;
  let lastDealTime = -Infinity;
  // A flow while positions are open starts its period at the equity then, which differs from the
  // balance by their floating result: until they close, the balance is short of that (`offset`)
  // to stand for the value. Net volume by position, and the positions the offset waits for.
  const netVolume = new Map<string, number>();
  let offset = 0;
  let awaited = new Set<string>();
  const LATEST = ''; // the latest snapshot's positions, which no deal closes
  const flowTimes = deals.filter(isFlow).map((d) => d.time);
  let f = 0; // the first flow not before the previous snapshot

  const anyOpen = (time: number) => netVolume.size > 0 || (openSince !== null && time >= openSince);
  /**
   * The latest snapshot's value (equity without credit), moved by what the deals since charged
   * or paid, if it was taken at most SNAPSHOT_REACH before `time`.
   */
  const snapshotValue = (time: number) =>
    lastSnapshot && time - lastSnapshot.time <= SNAPSHOT_REACH
      ? lastSnapshot.equity - lastSnapshot.credit + sinceSnapshot
      : null;
  const valueIndex = (value: number) => (start > EPSILON ? (factor * value) / start : factor);
  const dealPoint = (time: number) => {
    const index = valueIndex(balance - offset);
    points.push({ time, index, equityIndex: anyOpen(time) ? null : index, balance, equity: null });
  };
  /** Whether a flow lies within a second of (from, to]. */
  const flowWithin = (from: number, to: number) => {
    while (f < flowTimes.length && flowTimes[f]! <= from - SECOND) f += 1;
    return f < flowTimes.length && flowTimes[f]! < to + SECOND;
  };
  /** The equity low (without credit) of the next snapshot, unless it spans a cash flow. */
  const lowOf = (snapshot: StatSnapshot) =>
    flowWithin(previousSnapshotTime, snapshot.time) ||
    snapshot.equityLow === undefined ||
    snapshot.equityLow === null
      ? null
      : Math.min(snapshot.equityLow, snapshot.equity) - snapshot.credit;
  let lowTaken = -1; // the snapshot whose low a deal's point took before it
  // the latest cash flows (those of its second together), for views of the account from before it
  let recentFlow: { time: number; amount: number } | undefined;
  /** A snapshot's point at `time` (its own, or the flow's it was taken just after). */
  const takeSnapshot = (snapshot: StatSnapshot, time: number, nextDeal: StatDeal | undefined) => {
    // a terminal that had not booked a flow yet (it learnt of it late) shows the account as
    // it was before it: such a view, stamped after the flow, is left out
    if (recentFlow && snapshot.time - recentFlow.time <= SNAPSHOT_REACH) {
      const seen = snapshot.balance + snapshot.credit;
      const level = balance + credit;
      if (Math.abs(seen - level + recentFlow.amount) < Math.abs(seen - level)) return;
    }
    const low = lowTaken === s - 1 ? null : lowOf(snapshot);
    previousSnapshotTime = snapshot.time;
    lastSnapshot = snapshot;
    sinceSnapshot = 0;
    // clear of deals, its balance is what the deals add up to then, unless some are missing
    if (
      snapshot.time - lastDealTime > 2 * SECOND &&
      (!nextDeal || nextDeal.time - snapshot.time > 2 * SECOND)
    )
      historyIncomplete = !sameMoney(snapshot.balance, balance);
    if (!started) return;
    const value = snapshot.equity - snapshot.credit;
    points.push({
      time,
      index: valueIndex(balance - offset),
      equityIndex: valueIndex(value),
      lowIndex: low === null ? null : valueIndex(low),
      balance,
      equity: value,
    });
  };
  /** Before a deal's point: the next snapshot's low, when it may be from before the deal. */
  const takeLowBefore = (time: number) => {
    const next = snapshots[s];
    if (!next || lowTaken === s || points.length === 0 || time <= previousSnapshotTime) return;
    lowTaken = s;
    const low = lowOf(next);
    if (low === null) return;
    const last = points.at(-1)!;
    last.lowAfter = Math.min(last.lowAfter ?? Infinity, valueIndex(low));
  };
  const takeSnapshotsBefore = (time: number, nextDeal: StatDeal | undefined) => {
    while (s < snapshots.length && snapshots[s]!.time < time) {
      const snapshot = snapshots[s++]!;
      takeSnapshot(snapshot, snapshot.time, nextDeal);
    }
  };

  /**
   * Before the first of the cash flows in one second (deals[first] on, while they are flows of
   * that second): the snapshots stamped in that second up to the last of them, each placed
   * before the flows or after one of them as its balance and credit tell (nearest the balance
   * plus credit after that flow, and nearer it than half the way to any other); the rest are
   * left out. A snapshot is stamped in whole seconds: it may have been taken after a flow of
   * its second.
   */
  const placeSnapshotsOfSecond = (first: number, second: number) => {
    takeSnapshotsBefore(second, deals[first]);
    const run: StatDeal[] = [];
    for (let j = first; j < deals.length; j += 1) {
      const d = deals[j]!;
      if (!isFlow(d) || d.time >= second + SECOND) break;
      run.push(d);
      pending.set(d, []);
    }
    // the account's balance plus credit before the run and after each of its flows
    const levels = [balance + credit];
    for (const d of run) levels.push(levels.at(-1)! + moneyOf(d));
    while (s < snapshots.length && snapshots[s]!.time <= run.at(-1)!.time) {
      const snapshot = snapshots[s++]!;
      const seen = snapshot.balance + snapshot.credit;
      let k = 0;
      for (let j = 1; j < levels.length; j += 1)
        if (Math.abs(seen - levels[j]!) < Math.abs(seen - levels[k]!)) k = j;
      const gap = Math.min(
        ...levels.map((level, j) => (j === k ? Infinity : Math.abs(level - levels[k]!))),
      );
      if (Math.abs(seen - levels[k]!) >= gap / 2) continue;
      if (k === 0) takeSnapshot(snapshot, snapshot.time, deals[first]);
      else pending.get(run[k - 1]!)!.push(snapshot);
    }
  };

  // snapshots stamped in a second with cash flows, to be taken after the flow they follow
  const pending = new Map<StatDeal, StatSnapshot[]>();
  for (let i = 0; i < deals.length; i += 1) {
    const deal = deals[i]!;
    const amount = moneyOf(deal);
    if (!isFlow(deal)) {
      takeSnapshotsBefore(deal.time, deal);
      balance += amount;
      // closing a trade moves its result from floating to the balance: the equity stays
      sinceSnapshot += isTradeDeal(deal) ? deal.commission + deal.fee : amount;
      if (isTradeDeal(deal)) {
        const volume = (netVolume.get(deal.positionId) ?? 0) + signedVolume(deal);
        if (Math.abs(volume) > EPSILON) netVolume.set(deal.positionId, volume);
        else {
          netVolume.delete(deal.positionId);
          awaited.delete(deal.positionId);
          if (awaited.size === 0) offset = 0;
        }
      }
      lastDealTime = deal.time;
      if (started) {
        takeLowBefore(deal.time);
        dealPoint(deal.time);
      }
      continue;
    }
    const second = Math.floor(deal.time / SECOND) * SECOND;
    if (!pending.has(deal)) placeSnapshotsOfSecond(i, second);
    const isCredit = deal.type === 'credit';
    let before = balance;
    if (deal.equityBefore !== undefined && deal.equityBefore !== null)
      before = deal.equityBefore - credit;
    else if (anyOpen(deal.time)) before = snapshotValue(deal.time) ?? balance;
    if (start > EPSILON) factor *= Math.max(before, 0) / start;
    // an account lost whole starts again with its next deposit
    if (factor <= EPSILON && deal.type === 'balance' && amount > 0) factor = 1;
    awaited = new Set(netVolume.keys());
    if (openSince !== null && deal.time >= openSince) awaited.add(LATEST);
    offset = awaited.size > 0 ? balance - before : 0;
    if (isCredit) credit += amount;
    else {
      balance += amount;
      sinceSnapshot += amount;
    }
    // the value just after: what came in on top of what was there (credit excluded)
    start = isCredit ? before : before + amount;
    if (start <= EPSILON) start = 0;
    if (deal.type === 'balance' && amount > 0) started = true;
    recentFlow =
      recentFlow && Math.floor(recentFlow.time / SECOND) === Math.floor(deal.time / SECOND)
        ? { time: deal.time, amount: recentFlow.amount + amount }
        : { time: deal.time, amount };
    lastDealTime = deal.time;
    if (started) dealPoint(deal.time);
    for (const snapshot of pending.get(deal) ?? []) takeSnapshot(snapshot, deal.time, undefined);
    pending.delete(deal);
  }
  takeSnapshotsBefore(now + 1, undefined);
  if (started) {
    // the latest snapshot tells the value now, moved by what deals since charged or paid if
    // they came within minutes of it while positions are open; else the balance does
    const index = valueIndex(balance - offset);
    const current = lastSnapshot !== undefined && lastSnapshot.time >= lastDealTime;
    const equity =
      current || anyOpen(now)
        ? snapshotValue(Math.max(lastDealTime, lastSnapshot?.time ?? 0))
        : null;
    points.push({
      now: true,
      time: now,
      index,
      equityIndex: equity !== null ? valueIndex(equity) : anyOpen(now) ? null : index,
      balance,
      equity,
    });
  }
  return { points, historyIncomplete };
}

/**
 * Follows the largest fall of a series from its previous peak, as a share of the peak: `take`
 * each value in time order, `worst` so far, `fall` of the last value taken.
 */
export function fallTracker(from = -Infinity) {
  let peak = from;
  let worst = 0;
  let fall = 0;
  return {
    take(value: number) {
      if (value > peak) peak = value;
      fall = peak > EPSILON ? (peak - value) / peak : 0;
      if (fall > worst) worst = fall;
    },
    get worst() {
      return worst;
    },
    get fall() {
      return fall;
    },
  };
}

/**
 * The values of a point the equity drawdown measures, in the order they happened: the equity
 * low (before the equity it was taken with), then the equity, then the next snapshot's low when
 * a deal comes before it; none where the equity is unknown.
 */
export function equityValuesOf(point: IndexPoint): number[] {
  const values: number[] = [];
  if (point.lowIndex !== undefined && point.lowIndex !== null) values.push(point.lowIndex);
  if (point.equityIndex !== null) values.push(point.equityIndex);
  if (point.lowAfter !== undefined && point.lowAfter !== null) values.push(point.lowAfter);
  return values;
}

function largestFall(points: readonly IndexPoint[], equity: boolean): number {
  const falls = fallTracker();
  for (const p of points)
    if (!equity) falls.take(p.index);
    else for (const value of equityValuesOf(p)) falls.take(value);
  return falls.worst;
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
  // a cancelled deal has no result (the broker books any correction as a deal of its own)
  const normalized = normalizeDeals(input.deals, input.uniqueTickets);
  const deals = normalized.some((d) => d.type === 'canceled')
    ? normalized.filter((d) => d.type !== 'canceled')
    : normalized;
  const snapshots = normalizeSnapshots(input.snapshots);
  const { now } = input;
  const { trades, resultAt } = closePositions(deals);
  const results = trades.map((t) => t.result);
  const latest = snapshots.at(-1);
  const openSince = latest?.openPositions ? (latest.oldestOpenTime ?? null) : null;
  const { points: index, historyIncomplete } = growthIndex(deals, snapshots, now, openSince);

  let deposits = 0;
  let withdrawals = 0;
  let profit = 0;
  let otherResults = 0;
  let balance = 0;
  let firstDepositTime: number | null = null;
  const dealResults: Statistics['dealResults'] = { times: [], money: [] };
  for (const deal of deals) {
    const money = moneyOf(deal);
    if (deal.type === 'credit') continue;
    balance += money;
    if (isTradeDeal(deal)) {
      profit += money;
      dealResults.times.push(deal.time);
      dealResults.money.push(money);
    } else if (deal.type !== 'balance') otherResults += money;
    else if (money > 0) {
      deposits += money;
      firstDepositTime ??= deal.time;
    } else withdrawals -= money;
  }
  const last = index.at(-1);
  // measured on the value now: equity (without credit) where a snapshot gives it
  const gain = last ? (last.equityIndex ?? last.index) - 1 : 0;
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
  const net = sum(results);
  const runs = streaks(results);
  const wonShare = (direction: Trade['direction']) => {
    const of = trades.filter((t) => t.direction === direction);
    return of.length > 0 ? of.filter((t) => t.result > 0).length / of.length : null;
  };
  const firstTradeTime = trades.length > 0 ? smallest(trades.map((t) => t.openTime)) : null;

  // holding-period returns: the balance after each trade (at its last deal) over the balance before it
  const hprs: number[] = [];
  {
    let running = 0;
    for (let i = 0; i < deals.length; i += 1) {
      const deal = deals[i]!;
      running += deal.type === 'credit' ? 0 : moneyOf(deal);
      const result = resultAt[i]!;
      if (Number.isNaN(result)) continue;
      const before = running - result;
      if (before > EPSILON) hprs.push(running / before);
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
  if (openSince !== null) openIntervals.push([openSince, now]);
  const loads = snapshots.filter((s) => s.equity > 0).map((s) => s.margin / s.equity);
  const pips = trades.filter((t) => t.pips !== null).map((t) => t.pips!);

  return {
    gain,
    absoluteGain: deposits > 0 ? profit / deposits : null,
    dailyGain: compound(1),
    monthlyGain: compound(AVERAGE_MONTH_DAYS),
    deposits,
    withdrawals,
    profit,
    otherResults,
    balance,
    equity: latest ? latest.equity : null,
    historyIncomplete,
    equitySince: snapshots[0]?.time ?? null,
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
      expectancy: count > 0 ? net / count : null,
      best: count > 0 ? largest(results) : null,
      worst: count > 0 ? smallest(results) : null,
      longestWinStreak: runs.best,
      longestLossStreak: runs.worst,
      lots: sum(trades.map((t) => t.volume)),
      pips: sum(pips),
      longsWon: wonShare('long'),
      shortsWon: wonShare('short'),
      averageLengthMs: count > 0 ? sum(trades.map((t) => t.closeTime - t.openTime)) / count : null,
      tradesPerWeek:
        firstTradeTime !== null && now > firstTradeTime
          ? count / ((now - firstTradeTime) / WEEK)
          : null,
    },
    ratios: {
      recoveryFactor: drawdownMoney > 0 ? net / drawdownMoney : null,
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
    tradeReturns: hprs.map((h) => h - 1),
    dealResults,
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
  let offset = hourOffset(zone, hour);
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
/** The zone's offset over a whole UTC hour, memoised; NaN where it changes within the hour. */
function hourOffset(zone: Zone, hour: number): number {
  let offset = zone.offsets.get(hour);
  if (offset === undefined) {
    const first = offsetAt(zone, hour * HOUR_MS);
    offset = first === offsetAt(zone, hour * HOUR_MS + HOUR_MS - 1) ? first : Number.NaN;
    if (zone.offsets.size >= OFFSETS_KEPT) zone.offsets.clear();
    zone.offsets.set(hour, offset);
  }
  return offset;
}

/**
 * The wall clock of `time` in `timeZone`: its hour (0-23) and ISO weekday (1 Monday ... 7
 * Sunday), the offset read once per UTC hour as localDay reads it.
 */
export function localHourAndWeekday(
  time: number,
  timeZone: string,
): { hour: number; weekday: number } {
  const zone = zoneOf(timeZone);
  let offset = hourOffset(zone, Math.floor(time / HOUR_MS));
  if (Number.isNaN(offset)) offset = offsetAt(zone, time);
  const local = time + offset;
  const day = Math.floor(local / DAY_MS);
  // 1 January 1970 was a Thursday (ISO 4)
  return {
    hour: Math.floor((local - day * DAY_MS) / HOUR_MS),
    weekday: ((((day + 3) % 7) + 7) % 7) + 1,
  };
}

/** The day localDay named last, and the span of times it holds for (none when timeZone is ''). */
const lastNamed = { timeZone: '', from: 0, to: 0, name: '' };

/**
 * Gain and profit by day or month in the account's time zone, for the periods with any event (a
 * deal or a snapshot) or closed trade, between `from` and `to` (the period picker's range) when
 * given. A period's gain is its last index value over the last one before it, minus 1 (0 where
 * that was 0: an account lost whole, started again); its profit, the results of its trade deals.
 */
export function periodTable(
  statistics: Pick<Statistics, 'index' | 'closedTrades' | 'dealResults'>,
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
    rows.set(period, {
      period,
      gain: previous > EPSILON ? index / previous - 1 : 0,
      profit: 0,
      trades: 0,
    });
    previous = index;
  }
  const rowOf = (time: number) => {
    const period = key(time);
    let row = rows.get(period);
    if (!row) {
      row = { period, gain: 0, profit: 0, trades: 0 };
      rows.set(period, row);
    }
    return row;
  };
  const { times, money } = statistics.dealResults;
  for (let i = 0; i < times.length; i += 1) rowOf(times[i]!).profit += money[i]!;
  for (const trade of statistics.closedTrades) rowOf(trade.closeTime).trades += 1;
  const from = range.from === undefined ? undefined : key(range.from);
  const to = range.to === undefined ? undefined : key(range.to);
  return [...rows.values()]
    .filter(
      (row) => (from === undefined || row.period >= from) && (to === undefined || row.period <= to),
    )
    .sort((a, b) => (a.period < b.period ? -1 : 1));
}
