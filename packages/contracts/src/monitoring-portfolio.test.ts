import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  combinePortfolio,
  createPortfolioRequestSchema,
  updatePortfolioRequestSchema,
  type PortfolioAccountInput,
  type PortfolioPointInput,
} from './monitoring-portfolio.ts';
import { CHART_POINTS_MAX } from './monitoring.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 12);
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

/** A chart point at `hours` after T0 with the balance (and, when given, the equity). */
const point = (hours: number, gain: number, balance: number, equity: number | null = null) => ({
  time: at(hours),
  gain,
  balance,
  equity,
});
const account = (
  name: string,
  points: PortfolioPointInput[],
  currency: string | null = 'USD',
): PortfolioAccountInput => ({ name, currency, points });

describe('a portfolio by hand', () => {
  it('weighs each step by the values at its start: +5 % then -5 % is -0.25 %, a withdrawal moving nothing', () => {
    // A gains 10 % on 1,000 then withdraws its 100 of profit; B then loses 10 % of its 1,000.
    const a = account('A', [
      point(0, 0, 1000),
      point(1, 0.1, 1100),
      point(2, 0.1, 1000), // the withdrawal: the index stays
      point(3, 0.1, 1000),
    ]);
    const b = account('B', [point(0, 0, 1000), point(3, -0.1, 900)]);
    const p = combinePortfolio([a, b]);
    expect(p.weighting).toBe('value');
    expect(p.currency).toBe('USD');
    // step returns: (0.1 x 1000 + 0 x 1000) / 2000 = +5 %, 0, (0 x 1000 - 0.1 x 1000) / 2000 = -5 %
    expect(p.gain).toBeCloseTo(1.05 * 0.95 - 1, 12);
    expect(p.gain).toBeCloseTo(-0.0025, 12);
    expect(p.maxDrawdown).toBeCloseTo(1 - 0.9975 / 1.05, 12);
    expect(p.points.map((x) => x.gain)).toEqual([
      0,
      expect.any(Number),
      expect.any(Number),
      p.gain,
    ]);
    expect(p.points[1]!.gain).toBeCloseTo(0.05, 12);
    expect(p.points[2]!.gain).toBeCloseTo(0.05, 12);
    // the summed curve: each account's latest balance at each time
    expect(p.points.map((x) => x.balance)).toEqual([2000, 2100, 2000, 1900]);
    expect(p.points.map((x) => x.equity)).toEqual([2000, 2100, 2000, 1900]);
    expect(p.balance).toBe(1900);
    expect(p.since).toBe(T0);
    expect(p.accounts).toEqual([
      {
        name: 'A',
        currency: 'USD',
        gain: expect.closeTo(0.1, 12),
        maxDrawdown: 0,
        balance: 1000,
        equity: 1000,
        share: expect.closeTo(1000 / 1900, 12),
        since: T0,
      },
      {
        name: 'B',
        currency: 'USD',
        gain: expect.closeTo(-0.1, 12),
        maxDrawdown: expect.closeTo(0.1, 12),
        balance: 900,
        equity: 900,
        share: expect.closeTo(900 / 1900, 12),
        since: T0,
      },
    ]);
  });

  it('in different currencies weighs the accounts equally, says so, and sums no money', () => {
    // unequal values: by value the steps would be +2.5 % and -7.5 %; equally, +5 % and -5 %
    const a = account('A', [point(0, 0, 1000), point(1, 0.1, 1100), point(2, 0.1, 1100)], 'USD');
    const b = account('B', [point(0, 0, 3000), point(1, 0, 3000), point(2, -0.1, 2700)], 'EUR');
    const p = combinePortfolio([a, b]);
    expect(p.weighting).toBe('equal');
    expect(p.currency).toBeNull();
    expect(p.gain).toBeCloseTo(1.05 * 0.95 - 1, 12);
    expect(p.balance).toBeNull();
    expect(p.equity).toBeNull();
    expect(p.points.every((x) => x.balance === null && x.equity === null)).toBe(true);
    expect(p.accounts.map((r) => r.share)).toEqual([null, null]);
    // each row keeps its own money, in its own currency
    expect(p.accounts.map((r) => [r.currency, r.balance])).toEqual([
      ['USD', 1100],
      ['EUR', 2700],
    ]);
    // the same accounts in one currency are weighed by value
    const same = combinePortfolio([a, { ...b, currency: 'USD' }]);
    expect(same.weighting).toBe('value');
    expect(same.gain).toBeCloseTo(1.025 * (1 - 0.1 * (3000 / 4100)) - 1, 12);
  });

  it('takes the equity where a point knows it, else the balance', () => {
    // at the first step A's equity (3000, a floating profit) weighs against B's balance (1000)
    const a = account('A', [point(0, 0, 1000, 3000), point(1, 0.2, 1000, 3600)]);
    const b = account('B', [point(0, 0, 1000), point(1, -0.2, 800)]);
    const p = combinePortfolio([a, b]);
    expect(p.gain).toBeCloseTo((3000 * 0.2 - 1000 * 0.2) / 4000, 12);
    expect(p.points.map((x) => [x.balance, x.equity])).toEqual([
      [2000, 4000],
      [1800, 4400],
    ]);
  });

  it('an account joins at its first point and weighs nothing before it', () => {
    const a = account('A', [point(0, 0, 1000), point(1, 0.1, 1100), point(2, 0.1, 1100)]);
    const b = account('B', [point(1, 0, 1100), point(2, 0.2, 1320)]);
    const p = combinePortfolio([a, b]);
    // A alone: +10 %; then A 0 and B +20 % on equal values: +10 %
    expect(p.gain).toBeCloseTo(1.1 * 1.1 - 1, 12);
    expect(p.points.map((x) => x.balance)).toEqual([1000, 2200, 2420]);
    expect(p.accounts[1]!.since).toBe(T0 + HOUR);
  });

  it('an account lost whole weighs nothing until it starts again', () => {
    const a = account('A', [
      point(0, 0, 1000),
      point(1, -1, 0),
      point(2, 0, 500), // a deposit starts its index again at 1
      point(3, 0.1, 550),
    ]);
    const b = account('B', [point(0, 0, 1000), point(3, 0, 1000)]);
    const p = combinePortfolio([a, b]);
    // -50 %, nothing, then +10 % on 500 beside 0 on 1000
    expect(p.gain).toBeCloseTo(0.5 * (1 + (0.1 * 500) / 1500) - 1, 12);
    expect(p.maxDrawdown).toBeCloseTo(0.5, 12);
  });

  it('an account without points yet is a row without figures and changes nothing', () => {
    const a = account('A', [point(0, 0, 1000), point(1, 0.1, 1100)]);
    const p = combinePortfolio([a, account('New', [], null)]);
    expect(p.weighting).toBe('value');
    expect(p.gain).toBeCloseTo(0.1, 12);
    expect(p.accounts[1]).toEqual({
      name: 'New',
      currency: null,
      gain: null,
      maxDrawdown: null,
      balance: null,
      equity: null,
      share: null,
      since: null,
    });
    const none = combinePortfolio([account('X', []), account('Y', [])]);
    expect(none).toMatchObject({ gain: 0, maxDrawdown: 0, points: [], since: null });
  });

  it('thins a long series to the chart’s size, keeping the deepest fall and the end', () => {
    const long = (name: string, phase: number) =>
      account(
        name,
        Array.from({ length: 2000 }, (_, i) => {
          const gain = 0.1 * Math.sin(i / 50 + phase) + (i === 1234 ? -0.5 : 0);
          return point(i + phase / 10, gain, 1000 * (1 + gain));
        }),
      );
    const p = combinePortfolio([long('A', 0), long('B', 1)]);
    expect(p.points.length).toBeLessThanOrEqual(CHART_POINTS_MAX);
    expect(p.points.at(-1)!.gain).toBe(p.gain);
    expect(Math.max(...p.points.map((x) => x.drawdown))).toBeCloseTo(p.maxDrawdown, 12);
  });
});

/** A generated account: a start value, and steps of a time gap and a return (no cash flows). */
const generated = fc.record({
  value: fc.double({ min: 100, max: 100_000, noNaN: true }),
  start: fc.integer({ min: 0, max: 48 }),
  steps: fc.array(
    fc.record({
      hours: fc.integer({ min: 0, max: 24 }),
      change: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      equity: fc.boolean(),
    }),
    { minLength: 0, maxLength: 30 },
  ),
});
type Generated = typeof generated extends fc.Arbitrary<infer T> ? T : never;

/** Its chart: the index chained from 1, the value following it (no deposit or withdrawal). */
function chartOf(g: Generated, name: string, currency = 'USD'): PortfolioAccountInput {
  let index = 1;
  let hours = g.start;
  const points: PortfolioPointInput[] = [point(hours, 0, g.value)];
  for (const s of g.steps) {
    hours += s.hours;
    index *= 1 + s.change;
    const value = g.value * index;
    points.push(point(hours, index - 1, value, s.equity ? value : null));
  }
  return account(name, points, currency);
}

const RUNS = { seed: 45, numRuns: 100 };

describe('a portfolio’s properties', () => {
  it('of one account alone is that account: its gain and its drawdown', () => {
    fc.assert(
      fc.property(generated, (g) => {
        const alone = chartOf(g, 'A');
        const p = combinePortfolio([alone]);
        const row = p.accounts[0]!;
        expect(p.gain).toBeCloseTo(row.gain!, 9);
        expect(p.maxDrawdown).toBeCloseTo(row.maxDrawdown!, 9);
        expect(row.share).toBe(1);
      }),
      RUNS,
    );
  });

  it('does not depend on the order of its accounts; the shares of its value add up to 1', () => {
    fc.assert(
      fc.property(
        fc.array(generated, { minLength: 2, maxLength: 6 }),
        fc.boolean(),
        (accounts, mixed) => {
          const charts = accounts.map((g, i) =>
            chartOf(g, `A${i}`, mixed && i === 0 ? 'EUR' : 'USD'),
          );
          const p = combinePortfolio(charts);
          const reversed = combinePortfolio([...charts].reverse());
          expect(reversed.gain).toBeCloseTo(p.gain, 9);
          expect(reversed.maxDrawdown).toBeCloseTo(p.maxDrawdown, 9);
          expect(reversed.points.map((x) => x.time)).toEqual(p.points.map((x) => x.time));
          const rows = [...p.accounts].reverse();
          expect(reversed.accounts).toEqual(
            rows.map((r) => ({
              ...r,
              share: r.share === null ? null : expect.closeTo(r.share, 12),
            })),
          );
          expect(p.weighting).toBe(mixed ? 'equal' : 'value');
          if (!mixed) {
            const shares = p.accounts.reduce((sum, r) => sum + r.share!, 0);
            expect(shares).toBeCloseTo(1, 12);
          }
        },
      ),
      RUNS,
    );
  });

  it('weighs by value: accounts started together without flows gain what their summed value does', () => {
    fc.assert(
      fc.property(fc.array(generated, { minLength: 1, maxLength: 5 }), (accounts) => {
        const together = accounts.map((g) => ({ ...g, start: 0 }));
        const charts = together.map((g, i) => chartOf(g, `A${i}`));
        const p = combinePortfolio(charts);
        const first = together.reduce((sum, g) => sum + g.value, 0);
        const last = p.points.at(-1)!.equity!;
        expect(p.gain).toBeCloseTo(last / first - 1, 9);
      }),
      RUNS,
    );
  });
});

describe('a portfolio’s requests', () => {
  const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.error?.issues[0]?.message;

  it('take 2 to 20 different accounts and a name of one line', () => {
    const ok = createPortfolioRequestSchema.safeParse({ name: ' Both ', account_ids: [1, 2] });
    expect(ok).toMatchObject({ success: true, data: { name: 'Both', account_ids: [1, 2] } });
    for (const ids of [[], [1], [1, 1], Array.from({ length: 21 }, (_, i) => i + 1), 'x'])
      expect(
        issue(createPortfolioRequestSchema.safeParse({ name: 'P', account_ids: ids })),
        JSON.stringify(ids),
      ).toBe('MONITORING_PORTFOLIO_ACCOUNTS_RANGE');
    expect(issue(createPortfolioRequestSchema.safeParse({ name: 'P', account_ids: [1, 0] }))).toBe(
      'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN',
    );
    expect(issue(createPortfolioRequestSchema.safeParse({ name: ' ', account_ids: [1, 2] }))).toBe(
      'MONITORING_PORTFOLIO_NAME_REQUIRED',
    );
    expect(
      issue(createPortfolioRequestSchema.safeParse({ name: 'x'.repeat(61), account_ids: [1, 2] })),
    ).toBe('MONITORING_PORTFOLIO_NAME_TOO_LONG');
    expect(updatePortfolioRequestSchema.safeParse({}).success).toBe(true);
    expect(issue(updatePortfolioRequestSchema.safeParse({ is_public: 'yes' }))).toBe('VALIDATION');
  });
});
