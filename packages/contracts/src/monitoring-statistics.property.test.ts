import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeStatistics, periodTable, type StatDeal } from './monitoring-statistics.ts';
import {
  cashOf,
  equityAt,
  publish,
  tradeOf,
  type Account,
  type Publishing,
} from './monitoring-statistics.terminal.ts';

/**
 * Properties of the statistics over generated histories: deposits and withdrawals at random
 * moments, trades whose floating result moves, snapshots at random cadences, all published as
 * the Expert Advisors publish and stored as the server stores them (see the terminal model).
 * Seeded: a failure names its seed and the smallest history that shows it.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const T = Date.UTC(2026, 0, 5, 12);
const RUNS = { seed: 40, numRuns: 60 };

/** One step of a history: a trade, or a cash flow while nothing is open. */
type Step =
  | { kind: 'trade'; gap: number; minutes: number; share: number; floating: number }
  | { kind: 'flow'; gap: number; share: number };

const step = fc.oneof(
  fc.record({
    kind: fc.constant('trade' as const),
    gap: fc.integer({ min: 1, max: 40 * 60 }), // seconds after the step before
    minutes: fc.integer({ min: 3, max: 30 }),
    share: fc.double({ min: -0.6, max: 0.6, noNaN: true }), // the result, of the balance
    floating: fc.double({ min: -0.6, max: 0.6, noNaN: true }), // the floating low point
  }),
  fc.record({
    kind: fc.constant('flow' as const),
    gap: fc.integer({ min: 1, max: 40 * 60 }),
    share: fc.double({ min: -0.9, max: 2, noNaN: true }), // of the balance; negative: withdrawal
  }),
);

interface History extends Account {
  /** When the last step is over, and nothing is open. */
  end: number;
  /** Balance then. */
  balance: number;
}

/**
 * A history from a first deposit and steps. A trade's floating result is 0 for its first
 * minute, then `floating` of the balance until a minute before its close, then its result:
 * constant for a minute around any moment a flow may be put in (see flowInside).
 */
function historyOf(first: number, steps: readonly Step[], flat = false): History {
  const deals: StatDeal[] = [cashOf(T, first)];
  const paths: Array<(time: number) => number> = [];
  let time = T;
  let balance = first;
  for (const s of steps) {
    time += Math.max(1, s.gap) * SECOND;
    if (s.kind === 'flow') {
      const amount = round(Math.max(s.share, -0.9) * balance);
      if (amount === 0 || balance + amount <= 0) continue;
      deals.push(cashOf(time, amount));
      balance += amount;
      continue;
    }
    const open = time;
    const close = open + s.minutes * MINUTE;
    const result = round(s.share * balance);
    const low = round(s.floating * balance);
    deals.push(...tradeOf(open, close, result));
    if (!flat)
      paths.push((t) => (t < open + MINUTE || t >= close ? 0 : t < close - MINUTE ? low : result));
    balance += result;
    time = close;
  }
  return {
    deals,
    floating: (t) => paths.reduce((total, path) => total + path(t), 0),
    end: time,
    balance,
  };
}

const round = (money: number) => Math.round(money * 100) / 100;

const history = fc.record({
  first: fc.integer({ min: 100, max: 1_000_000 }),
  steps: fc.array(step, { minLength: 1, maxLength: 8 }),
});

/** The figures every property compares, each a percentage. */
const percentages = (s: ReturnType<typeof computeStatistics>) => ({
  gain: s.gain,
  maxDrawdown: s.maxDrawdown,
  equityDrawdown: s.equityDrawdown,
});

const close = (a: Record<string, number>, b: Record<string, number>) => {
  for (const key of Object.keys(a)) expect(a[key], key).toBeCloseTo(b[key]!, 9);
};

const publishing = (account: History, everyMs: number): Publishing => ({
  from: T - MINUTE,
  to: account.end + 10 * MINUTE,
  everyMs,
  stored: true,
});

const statisticsOf = (account: History, p: Publishing, now = account.end + 20 * MINUTE) =>
  computeStatistics({ ...publish(account, p), now });

describe('the statistics over generated histories', () => {
  it('a flow with nothing open moves neither the gain nor any drawdown', () => {
    fc.assert(
      fc.property(
        history,
        fc.double({ min: -0.9, max: 3, noNaN: true }),
        fc.integer({ min: 1, max: 600 }),
        ({ first, steps }, share, after) => {
          const account = historyOf(first, steps);
          const amount = round(share * account.balance);
          fc.pre(amount !== 0 && account.balance + amount > 0);
          const at = account.end + after * SECOND;
          const p = publishing(account, 10 * SECOND);
          const now = at + 5 * MINUTE;
          const without = statisticsOf(account, { ...p, to: now }, now);
          const flowed = { ...account, deals: [...account.deals, cashOf(at, amount)] };
          const withFlow = statisticsOf(flowed, { ...p, to: now }, now);
          close(percentages(withFlow), percentages(without));
        },
      ),
      RUNS,
    );
  });

  it('a withdrawal while a trade floats, its equity before it told, moves neither the gain nor the equity drawdown', () => {
    fc.assert(
      fc.property(
        history,
        fc.double({ min: 0.01, max: 0.5, noNaN: true }),
        ({ first, steps }, share) => {
          const account = historyOf(first, steps);
          const trade = account.deals.find((d) => d.type === 'buy');
          fc.pre(trade !== undefined);
          // a minute and a half into the trade: its floating result is steady there
          const at = trade!.time + 90 * SECOND;
          const amount = -round(share * Math.max(equityAt(account, at), 0));
          fc.pre(amount < 0);
          // the history up to a second after the withdrawal, the trade still open
          const now = at + SECOND;
          const upToNow = { ...account, deals: account.deals.filter((d) => d.time <= now) };
          const p = { ...publishing(account, 10 * SECOND), to: now, equityBefore: true };
          const without = statisticsOf(upToNow, p, now);
          const flowed = { ...upToNow, deals: [...upToNow.deals, cashOf(at, amount)] };
          const withFlow = statisticsOf(flowed, p, now);
          expect(withFlow.gain).toBeCloseTo(without.gain, 9);
          expect(withFlow.equityDrawdown).toBeCloseTo(without.equityDrawdown, 9);
          // the balance index takes the floating result at a flow (so that the periods chain
          // to the gain once the trade closes): a loss the equity drawdown already holds
          expect(withFlow.maxDrawdown).toBeLessThanOrEqual(withFlow.equityDrawdown + 1e-12);
        },
      ),
      RUNS,
    );
  });

  it('the figures do not depend on the snapshot cadence when the floating result is flat', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 2, max: 90 }), ({ first, steps }, every) => {
        const account = historyOf(first, steps, true);
        const none = statisticsOf(account, publishing(account, 0));
        const often = statisticsOf(account, publishing(account, 10 * SECOND));
        const random = statisticsOf(account, publishing(account, every * SECOND));
        close(percentages(often), percentages(none));
        close(percentages(random), percentages(none));
      }),
      RUNS,
    );
  });

  it('nor on whether equity_before was sent, when it equals the true equity', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 5, max: 60 }), ({ first, steps }, every) => {
        const account = historyOf(first, steps);
        // a deposit two minutes into each trade, while it floats
        const inside = account.deals
          .filter((d) => d.type === 'buy')
          .map((d) => cashOf(d.time + 2 * MINUTE, 500));
        const flowed = { ...account, deals: [...account.deals, ...inside] };
        const p = publishing(account, every * SECOND);
        const told = statisticsOf(flowed, { ...p, equityBefore: true });
        const untold = statisticsOf(flowed, { ...p, equityBefore: false });
        close(percentages(untold), percentages(told));
      }),
      RUNS,
    );
  });

  it('two deposits at one moment are their sum', () => {
    fc.assert(
      fc.property(
        history,
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        ({ first, steps }, part) => {
          const account = historyOf(first, steps);
          const whole = statisticsOf(account, publishing(account, 10 * SECOND));
          const [deposit, ...rest] = account.deals;
          const a = round(deposit!.profit * part);
          const split = {
            ...account,
            deals: [cashOf(deposit!.time, a), cashOf(deposit!.time, deposit!.profit - a), ...rest],
          };
          const parts = statisticsOf(split, publishing(account, 10 * SECOND));
          close(percentages(parts), percentages(whole));
          expect(parts.deposits).toBeCloseTo(whole.deposits, 6);
        },
      ),
      RUNS,
    );
  });

  it('multiplying every amount by k changes no percentage', () => {
    fc.assert(
      fc.property(history, fc.constantFrom(0.01, 0.37, 3, 1000), ({ first, steps }, k) => {
        const account = historyOf(first, steps);
        const scaled: History = {
          ...account,
          deals: account.deals.map((d) => ({ ...d, profit: d.profit * k })),
          floating: (t) => account.floating(t) * k,
          balance: account.balance * k,
        };
        const p = publishing(account, 10 * SECOND);
        const s = statisticsOf(account, p);
        const sk = statisticsOf(scaled, p);
        close(percentages(sk), percentages(s));
        expect(sk.trades.winRate).toBe(s.trades.winRate);
        expect(sk.absoluteGain ?? 0).toBeCloseTo(s.absoluteGain ?? 0, 9);
      }),
      RUNS,
    );
  });

  it('no figure is ever NaN, however the account is emptied and refilled', () => {
    fc.assert(
      fc.property(history, ({ first, steps }) => {
        // a trade that loses everything, then the steps
        const wiped: Step[] = [
          { kind: 'trade', gap: 60, minutes: 5, share: -1, floating: -1 },
          { kind: 'flow', gap: 60, share: 0 },
          ...steps,
        ];
        const account = historyOf(first, wiped);
        account.deals.push(cashOf(account.end + MINUTE, 100));
        const s = statisticsOf(account, publishing(account, 10 * SECOND));
        const numbers = [
          s.gain,
          s.maxDrawdown,
          s.equityDrawdown,
          s.dailyGain ?? 0,
          s.monthlyGain ?? 0,
          ...s.index.flatMap((p) => [p.index, p.equityIndex ?? 0]),
          ...periodTable(s, 'day').map((r) => r.gain),
        ];
        expect(numbers.every(Number.isFinite)).toBe(true);
        expect(s.maxDrawdown).toBeLessThanOrEqual(1);
      }),
      RUNS,
    );
  });
});
