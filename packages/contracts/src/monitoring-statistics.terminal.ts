import type { StatDeal, StatSnapshot } from './monitoring-statistics.ts';

/**
 * For the statistics' tests: what a terminal shows over time and what its publisher sends, as
 * the shipped Expert Advisors send it, and what the server stores of it. A deal is sent the
 * moment it happens; a snapshot every `everyMs`, stamped in whole seconds of the server's clock,
 * with the lowest and highest equity since the snapshot before (sampled each second, and not
 * reset at a cash flow, as publishers before 1.2 did not); the server keeps one point a minute
 * and cash-flow count, with the latest snapshot's values and time.
 */

export interface Account {
  /** The account's deals (balance, trades, charges...), any order. */
  deals: StatDeal[];
  /** The floating result of the positions open at `time` (0 when none is). */
  floating: (time: number) => number;
}

export interface Publishing {
  /** When the publisher was attached and until when it sent. */
  from: number;
  to: number;
  /** Snapshot cadence (ms); none when 0. */
  everyMs: number;
  /** Whether balance deals carry the equity just before them (MT5 seeing them live). */
  equityBefore?: boolean;
  /** Whether the server's minute points are what the statistics read (else each snapshot). */
  stored?: boolean;
}

const isFlow = (deal: StatDeal) =>
  deal.type === 'balance' || deal.type === 'credit' || deal.type === 'bonus';
const moneyOf = (deal: StatDeal) => deal.profit + deal.swap + deal.commission + deal.fee;

/** Balance and credit once every deal up to `time` (inclusive) is booked. */
export function booked(deals: readonly StatDeal[], time: number, before = false) {
  let balance = 0;
  let credit = 0;
  for (const deal of deals) {
    if (before ? deal.time >= time : deal.time > time) continue;
    if (deal.type === 'credit') credit += moneyOf(deal);
    else balance += moneyOf(deal);
  }
  return { balance, credit };
}

/** The account's equity at `time` (credit included), deals at `time` booked. */
export const equityAt = (account: Account, time: number) => {
  const { balance, credit } = booked(account.deals, time);
  return balance + credit + account.floating(time);
};

/** What the statistics get from this publishing: the deals and the equity points. */
export function publish(
  account: Account,
  publishing: Publishing,
): { deals: StatDeal[]; snapshots: StatSnapshot[] } {
  const deals = account.deals.map((deal) => {
    if (deal.type !== 'balance' || !publishing.equityBefore) return { ...deal, equityBefore: null };
    const { balance, credit } = booked(account.deals, deal.time, true);
    return { ...deal, equityBefore: balance + credit + account.floating(deal.time) };
  });
  const snapshots: StatSnapshot[] = [];
  if (publishing.everyMs > 0) {
    let low = Infinity;
    let high = -Infinity;
    let sampled = publishing.from;
    for (let time = publishing.from; time <= publishing.to; time += publishing.everyMs) {
      for (; sampled <= time; sampled += 1000) {
        const equity = equityAt(account, sampled);
        low = Math.min(low, equity);
        high = Math.max(high, equity);
      }
      const { balance, credit } = booked(account.deals, time);
      const equity = balance + credit + account.floating(time);
      snapshots.push({
        time,
        balance,
        equity,
        margin: 0,
        credit,
        equityLow: Math.min(low, equity),
        equityHigh: Math.max(high, equity),
      });
      low = Infinity;
      high = -Infinity;
    }
  }
  if (!publishing.stored) return { deals, snapshots };
  // the server's points: a minute's snapshots of one cash-flow count merged, the latest values
  // and time kept, the lowest low and the highest high
  const flowTimes = deals.filter(isFlow).map((d) => d.time);
  const points = new Map<string, StatSnapshot>();
  for (const snapshot of snapshots) {
    const segment = flowTimes.filter((t) => t <= snapshot.time).length;
    const key = `${Math.floor(snapshot.time / 60_000)}/${segment}`;
    const point = points.get(key);
    points.set(
      key,
      point
        ? {
            ...snapshot,
            equityLow: Math.min(point.equityLow!, snapshot.equityLow!),
            equityHigh: Math.max(point.equityHigh!, snapshot.equityHigh!),
          }
        : snapshot,
    );
  }
  return { deals, snapshots: [...points.values()] };
}

let tickets = 0;

/** A deal with the fields a test does not care about filled in. */
export function dealOf(fields: Partial<StatDeal> & Pick<StatDeal, 'type' | 'time'>): StatDeal {
  tickets += 1;
  return {
    ticket: String(tickets),
    positionId: String(tickets),
    entry: 'in',
    symbol: '',
    digits: 5,
    volume: 0,
    price: 0,
    profit: 0,
    swap: 0,
    commission: 0,
    fee: 0,
    ...fields,
  };
}

/** A deposit (positive) or a withdrawal (negative). */
export const cashOf = (time: number, amount: number) =>
  dealOf({ type: 'balance', time, profit: amount });

/** A trade's two deals: opened at `open`, closed at `close` with `result`. */
export function tradeOf(
  open: number,
  close: number,
  result: number,
  fields: { symbol?: string; digits?: number; volume?: number; from?: number; to?: number } = {},
): StatDeal[] {
  const opening = dealOf({
    type: 'buy',
    entry: 'in',
    time: open,
    symbol: fields.symbol ?? 'EURUSD',
    digits: fields.digits ?? 5,
    volume: fields.volume ?? 1,
    price: fields.from ?? 1.1,
  });
  return [
    opening,
    dealOf({
      type: 'sell',
      entry: 'out',
      positionId: opening.positionId,
      time: close,
      symbol: opening.symbol,
      digits: opening.digits,
      volume: opening.volume,
      price: fields.to ?? 1.1,
      profit: result,
    }),
  ];
}

/** A floating result from `open` to `close` (excluded), following `path` (0 at the open). */
export const floatingOf =
  (open: number, close: number, path: (elapsed: number) => number) => (time: number) =>
    time >= open && time < close ? path(time - open) : 0;
