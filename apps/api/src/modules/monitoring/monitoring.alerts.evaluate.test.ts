import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  crosses,
  drawdownPercent,
  evaluateDailyLoss,
  evaluateDrawdown,
  evaluateEquityBelow,
  evaluateMarginLevel,
  evaluateNoData,
  evaluatePingAbove,
  flowApplied,
  marginLevel,
  marketMinutesBetween,
  marketOpen,
  positionChanges,
  tradeSessionsOf,
  recovers,
  type PingPoint,
  type RuleState,
  type SnapshotFigures,
} from './monitoring.alerts.evaluate.ts';

const NOW = new Date('2026-01-07T12:00:00Z'); // a Wednesday
const EARLIER = new Date('2026-01-07T11:00:00Z');

const rule = (fields: Partial<RuleState> & Pick<RuleState, 'kind'>): RuleState => ({
  threshold: null,
  firedAt: null,
  base: null,
  baseAt: null,
  ...fields,
});
const figures = (fields: Partial<SnapshotFigures> = {}): SnapshotFigures => ({
  equity: 1000,
  credit: 0,
  margin: 0,
  equityHigh: 1000,
  ...fields,
});

describe('lines and recovery', () => {
  it('fires a ceiling at or above the line and a floor below it', () => {
    expect(crosses('drawdown', 20, 20)).toBe(true);
    expect(crosses('drawdown', 19.99, 20)).toBe(false);
    expect(crosses('equity_below', 999.99, 1000)).toBe(true);
    expect(crosses('equity_below', 1000, 1000)).toBe(false);
    expect(crosses('margin_level', 99, 100)).toBe(true);
  });

  it('re-arms only 5 % of the line past it', () => {
    // drawdown 20: below 19; margin level 100: above 105; equity 1,000: above 1,050
    expect(recovers('drawdown', 19.01, 20)).toBe(false);
    expect(recovers('drawdown', 18.99, 20)).toBe(true);
    expect(recovers('margin_level', 105, 100)).toBe(false);
    expect(recovers('margin_level', 105.01, 100)).toBe(true);
    expect(recovers('equity_below', 1050.01, 1000)).toBe(true);
    expect(recovers('daily_loss', 475, 500)).toBe(false);
    expect(recovers('daily_loss', 474.99, 500)).toBe(true);
  });
});

describe('drawdown from the peak', () => {
  it('measures the fall of equity without credit from its highest value', () => {
    expect(drawdownPercent(1000, 800)).toBeCloseTo(20, 10);
    expect(drawdownPercent(1000, 1200)).toBe(0);
    // equity 900 with 100 of credit is 800 of the trader's money; the peak 1,000 (the high)
    const d = evaluateDrawdown(
      rule({ kind: 'drawdown', threshold: 20 }),
      figures({ equity: 900, credit: 100, equityHigh: 1100 }),
      NOW,
    );
    expect(d).toEqual({ firedAt: NOW, fired: { value: 20 }, base: 1000, baseAt: null });
  });

  it('fires once while the value hovers at the line, and again only after recovering', () => {
    let state = rule({ kind: 'drawdown', threshold: 10, base: 2000 });
    const events: number[] = [];
    // 10 %, 9.5 % (not recovered: 9.5 is not below 9.5), 10.5 %, 9.4 % (recovered), 10 % again
    for (const equity of [1800, 1810, 1790, 1812, 1800]) {
      const d = evaluateDrawdown(state, figures({ equity, equityHigh: equity }), NOW);
      if (d.fired) events.push(d.fired.value);
      state = { ...state, firedAt: d.firedAt, base: d.base };
    }
    expect(events).toHaveLength(2);
    expect(events[0]).toBeCloseTo(10, 10);
    expect(events[1]).toBeCloseTo(10, 10);
  });

  it('moves the peak with deposits and withdrawals, as the growth index does', () => {
    const peak = rule({ kind: 'drawdown', threshold: 20, base: 1000 });
    // 800 before withdrawing 400: the peak 1,000 becomes 1,000 x 400 / 800 = 500
    expect(flowApplied(peak, { amount: -400, before: 800, at: NOW })).toEqual({
      base: 500,
      baseAt: null,
    });
    // so equity 400 after it is still the 20 % drawdown it was at 800, not 60 %
    const d = evaluateDrawdown(
      { ...peak, base: 500 },
      figures({ equity: 400, equityHigh: 400 }),
      NOW,
    );
    expect(d.fired?.value).toBeCloseTo(20, 10);
    // a deposit of 1,000 at 800: 1,000 x 1,800 / 800 = 2,250
    expect(flowApplied(peak, { amount: 1000, before: 800, at: NOW })?.base).toBe(2250);
  });

  it('starts its peak at the first snapshot when none is known', () => {
    const d = evaluateDrawdown(
      rule({ kind: 'drawdown', threshold: 5 }),
      figures({ equity: 990, equityHigh: 1010 }),
      NOW,
    );
    expect(d.base).toBe(1010);
    expect(d.fired).toBeNull(); // 20 / 1,010 = 1.98 %
  });
});

describe('equity below and margin level', () => {
  it('fires equity below the amount once and re-arms above 105 % of it', () => {
    const line = rule({ kind: 'equity_below', threshold: 1000 });
    const fired = evaluateEquityBelow(line, figures({ equity: 999 }), NOW);
    expect(fired.fired).toEqual({ value: 999 });
    const held = evaluateEquityBelow({ ...line, firedAt: EARLIER }, figures({ equity: 1040 }), NOW);
    expect(held).toMatchObject({ firedAt: EARLIER, fired: null });
    const rearmed = evaluateEquityBelow(
      { ...line, firedAt: EARLIER },
      figures({ equity: 1051 }),
      NOW,
    );
    expect(rearmed).toMatchObject({ firedAt: null, fired: null });
  });

  it('counts margin level only while margin is in use', () => {
    expect(marginLevel(1500, 1000)).toBe(150);
    expect(marginLevel(1500, 0)).toBeNull();
    const line = rule({ kind: 'margin_level', threshold: 200 });
    // 1,500 / 1,000 x 100 = 150 % < 200 %
    expect(evaluateMarginLevel(line, figures({ equity: 1500, margin: 1000 }), NOW).fired).toEqual({
      value: 150,
    });
    // no positions: nothing fires, and a fired rule counts it as recovered
    expect(evaluateMarginLevel(line, figures({ margin: 0 }), NOW).fired).toBeNull();
    expect(
      evaluateMarginLevel({ ...line, firedAt: EARLIER }, figures({ margin: 0 }), NOW).firedAt,
    ).toBeNull();
  });
});

describe('daily loss', () => {
  const dayStart = new Date('2026-01-06T21:00:00Z'); // midnight in Moscow
  const day = { start: dayStart, base: 5000 };

  it('counts from the day’s opening equity and fires beyond the amount', () => {
    const line = rule({ kind: 'daily_loss', threshold: 300 });
    // 5,000 - (4,750 - 50 credit) = 300
    const d = evaluateDailyLoss(line, figures({ equity: 4750, credit: 50 }), NOW, day);
    expect(d).toEqual({ firedAt: NOW, fired: { value: 300 }, base: 5000, baseAt: dayStart });
    const less = evaluateDailyLoss(line, figures({ equity: 4701 }), NOW, day);
    expect(less.fired).toBeNull();
  });

  it('keeps the day’s base once known and takes the new day’s at its start', () => {
    const known = rule({ kind: 'daily_loss', threshold: 300, base: 4800, baseAt: dayStart });
    // the base known for today wins over the looked-up one
    expect(evaluateDailyLoss(known, figures({ equity: 4500 }), NOW, day)).toMatchObject({
      base: 4800,
      fired: { value: 300 },
    });
    // yesterday's fired rule: today starts at 4,500, loss 0, so it re-arms
    const tomorrow = new Date(dayStart.getTime() + 86_400_000);
    const next = evaluateDailyLoss(
      { ...known, firedAt: EARLIER },
      figures({ equity: 4500 }),
      new Date(tomorrow.getTime() + 60_000),
      { start: tomorrow, base: 4500 },
    );
    expect(next).toMatchObject({ firedAt: null, base: 4500, baseAt: tomorrow });
  });

  it('moves the day’s base by the day’s deposits and withdrawals only', () => {
    const known = rule({ kind: 'daily_loss', threshold: 300, base: 5000, baseAt: dayStart });
    expect(flowApplied(known, { amount: -1000, before: 5000, at: NOW })).toEqual({
      base: 4000,
      baseAt: dayStart,
    });
    const yesterday = new Date(dayStart.getTime() - 1);
    expect(flowApplied(known, { amount: -1000, before: 5000, at: yesterday })).toBeNull();
  });
});

describe('positions opened and closed', () => {
  const position = (ticket: number, fields: Record<string, unknown> = {}) => ({
    ticket,
    symbol: 'EURUSD',
    type: 'buy' as const,
    volume: 0.1,
    open_time: '2026-01-07T10:00:00.000Z',
    open_price: 1.1,
    current_price: 1.102,
    sl: 0,
    tp: 0,
    profit: 20,
    swap: -1,
    ...fields,
  });

  it('names the new tickets opened and the missing ones closed', () => {
    const changes = positionChanges([position(1), position(2)], [position(2), position(3)]);
    expect(changes).toEqual([
      {
        action: 'opened',
        ticket: 3,
        symbol: 'EURUSD',
        type: 'buy',
        volume: 0.1,
        price: 1.1,
        profit: 19,
      },
      {
        action: 'closed',
        ticket: 1,
        symbol: 'EURUSD',
        type: 'buy',
        volume: 0.1,
        price: 1.102,
        profit: 19,
      },
    ]);
    expect(positionChanges([position(1)], [position(1, { profit: 50 })])).toEqual([]);
  });
});

describe('market hours: Sunday 22:00 to Friday 22:00 UTC', () => {
  it('counts the weekday minutes and not the weekend’s', () => {
    expect(marketMinutesBetween(new Date('2026-01-07T11:00:00Z'), NOW)).toBe(60);
    // Friday 21:30 to Sunday 22:30: 30 minutes before the close, 30 after the open
    expect(
      marketMinutesBetween(new Date('2026-01-09T21:30:00Z'), new Date('2026-01-11T22:30:00Z')),
    ).toBe(60);
    // the whole weekend, silent: nothing
    expect(
      marketMinutesBetween(new Date('2026-01-09T22:00:00Z'), new Date('2026-01-11T22:00:00Z')),
    ).toBe(0);
    // a whole week: 120 hours
    expect(
      marketMinutesBetween(new Date('2026-01-05T00:00:00Z'), new Date('2026-01-12T00:00:00Z')),
    ).toBe(120 * 60);
    expect(marketMinutesBetween(NOW, EARLIER)).toBe(0);
  });

  it('knows when the market is open', () => {
    expect(marketOpen(new Date('2026-01-09T21:59:00Z'))).toBe(true);
    expect(marketOpen(new Date('2026-01-09T22:00:00Z'))).toBe(false);
    expect(marketOpen(new Date('2026-01-10T12:00:00Z'))).toBe(false);
    expect(marketOpen(new Date('2026-01-11T22:00:00Z'))).toBe(true);
  });

  it('fires no data after N market minutes, once', () => {
    const line = rule({ kind: 'no_data', threshold: 30 });
    expect(evaluateNoData(line, new Date('2026-01-07T11:31:00Z'), NOW).fired).toBeNull();
    expect(evaluateNoData(line, new Date('2026-01-07T11:30:00Z'), NOW).fired).toEqual({
      value: 30,
    });
    expect(
      evaluateNoData({ ...line, firedAt: EARLIER }, new Date('2026-01-07T11:00:00Z'), NOW).fired,
    ).toBeNull();
    // silent since Friday 21:50: on Saturday noon only 10 market minutes have passed
    expect(
      evaluateNoData(line, new Date('2026-01-09T21:50:00Z'), new Date('2026-01-10T12:00:00Z'))
        .fired,
    ).toBeNull();
    expect(evaluateNoData(line, null, NOW).fired).toBeNull();
  });
});

describe('the broker’s trade sessions', () => {
  it('turns the server’s days and minutes into UTC minutes of the week, wrapped and merged', () => {
    // UTC+2: Monday 00:30-01:00 server time is Sunday 22:30-23:00 UTC
    expect(tradeSessionsOf([{ day: 1, from: 30, to: 60 }], 7200)).toEqual([[1350, 1380]]);
    // UTC-3: Saturday 22:00-24:00 server time is Sunday 01:00-03:00 UTC, after the week's turn
    expect(tradeSessionsOf([{ day: 6, from: 1320, to: 1440 }], -3 * 3600)).toEqual([[60, 180]]);
    // a session over the week's turn is split in two
    expect(tradeSessionsOf([{ day: 0, from: 0, to: 120 }], 3600)).toEqual([
      [0, 60],
      [10_020, 10_080],
    ]);
    // overlapping and touching sessions of several symbols are one
    expect(
      tradeSessionsOf(
        [
          { day: 2, from: 0, to: 600 },
          { day: 2, from: 300, to: 900 },
          { day: 2, from: 900, to: 1000 },
          { day: 1, from: 10, to: 20 },
        ],
        0,
      ),
    ).toEqual([
      [1450, 1460],
      [2880, 3880],
    ]);
    expect(tradeSessionsOf([], 0)).toBeNull();
    expect(tradeSessionsOf(undefined, 0)).toBeNull();
  });

  it('counts only the minutes inside the sessions, over days and weeks', () => {
    // Monday to Friday 00:05-23:55 UTC
    const sessions = tradeSessionsOf(
      [1, 2, 3, 4, 5].map((day) => ({ day, from: 5, to: 1435 })),
      0,
    )!;
    // Tuesday 23:50 to Wednesday 00:10: five minutes before the break and five after
    expect(
      marketMinutesBetween(
        new Date('2026-01-06T23:50:00Z'),
        new Date('2026-01-07T00:10:00Z'),
        sessions,
      ),
    ).toBe(10);
    // a whole week: five days of 1430 minutes; two weeks twice that
    expect(
      marketMinutesBetween(
        new Date('2026-01-04T00:00:00Z'),
        new Date('2026-01-11T00:00:00Z'),
        sessions,
      ),
    ).toBe(5 * 1430);
    expect(
      marketMinutesBetween(
        new Date('2026-01-07T12:00:00Z'),
        new Date('2026-01-21T12:00:00Z'),
        sessions,
      ),
    ).toBe(10 * 1430);
    // seconds inside a minute count too
    expect(
      marketMinutesBetween(
        new Date('2026-01-07T12:00:30Z'),
        new Date('2026-01-07T12:02:00Z'),
        sessions,
      ),
    ).toBe(1);
    expect(marketOpen(new Date('2026-01-07T23:56:00Z'), sessions)).toBe(false);
    expect(marketOpen(new Date('2026-01-07T23:54:59Z'), sessions)).toBe(true);
    expect(marketOpen(new Date('2026-01-10T12:00:00Z'), sessions)).toBe(false);
  });

  it('fires no data after N minutes of the broker’s sessions, not of the clock', () => {
    const sessions = tradeSessionsOf(
      [1, 2, 3, 4, 5].map((day) => ({ day, from: 5, to: 1435 })),
      0,
    );
    const line = rule({ kind: 'no_data', threshold: 15 });
    const silentSince = new Date('2026-01-06T23:50:00Z');
    // 25 minutes of the clock, 15 of them in the sessions (5 before the break, 10 after)
    expect(
      evaluateNoData(line, silentSince, new Date('2026-01-07T00:14:00Z'), sessions).fired,
    ).toBeNull();
    expect(
      evaluateNoData(line, silentSince, new Date('2026-01-07T00:15:00Z'), sessions).fired,
    ).toEqual({ value: 15 });
    // without sessions, the Forex week: 25 minutes
    expect(evaluateNoData(line, silentSince, new Date('2026-01-07T00:15:00Z')).fired).toEqual({
      value: 25,
    });
  });
});

describe('ping above the line', () => {
  const ping = rule({ kind: 'ping_above', threshold: 150 });
  /** Points a minute apart, the last at 11:59 (the snapshot's time is 11:59:40). */
  const series = (...values: (number | null)[]): PingPoint[] =>
    values.flatMap((pingMs, i) =>
      pingMs === null
        ? []
        : [
            {
              at: new Date(Date.parse('2026-01-07T11:59:00Z') - (values.length - 1 - i) * 60_000),
              pingMs,
            },
          ],
    );
  const until = new Date('2026-01-07T11:59:40Z');

  it('fires when every point of the last 5 minutes is above the line, at the latest point', () => {
    expect(evaluatePingAbove(ping, series(151, 300, 170, 212), until, NOW)).toEqual({
      firedAt: NOW,
      fired: { value: 212 },
      base: null,
      baseAt: null,
    });
    // a point older than 5 minutes does not count, below the line or not
    expect(evaluatePingAbove(ping, series(20, 200, 200, 200, 200, 200), until, NOW).fired).toEqual({
      value: 200,
    });
  });

  it('never fires on a spike: one or two points above, or one point of the five at the line', () => {
    expect(evaluatePingAbove(ping, series(40, 40, 40, 40, 900), until, NOW).fired).toBeNull();
    expect(evaluatePingAbove(ping, series(40, 40, 40, 900, 900), until, NOW).fired).toBeNull();
    expect(evaluatePingAbove(ping, series(200, 200, 150, 200, 200), until, NOW).fired).toBeNull();
    expect(evaluatePingAbove(ping, series(151, 151, 151), until, NOW).fired).toEqual({
      value: 151,
    });
  });

  it('needs 3 points: a gap in the pings (not connected, not told) is no measure', () => {
    expect(
      evaluatePingAbove(ping, series(400, null, null, null, 400), until, NOW).fired,
    ).toBeNull();
    expect(evaluatePingAbove(ping, series(400, null, 400, null, 400), until, NOW)).toMatchObject({
      fired: { value: 400 },
    });
    expect(evaluatePingAbove(ping, [], until, NOW)).toEqual({
      firedAt: null,
      fired: null,
      base: null,
      baseAt: null,
    });
  });

  it('stays fired above 95 % of the line and without points; re-arms on a point below it', () => {
    const fired = { ...ping, firedAt: EARLIER };
    // 142.5 ms is 95 % of 150: at it, still fired; below it, armed again
    expect(evaluatePingAbove(fired, series(300, 300, 142.5), until, NOW).firedAt).toBe(EARLIER);
    expect(evaluatePingAbove(fired, series(300, 300, 300), until, NOW)).toEqual({
      firedAt: EARLIER,
      fired: null,
      base: null,
      baseAt: null,
    });
    expect(evaluatePingAbove(fired, [], until, NOW).firedAt).toBe(EARLIER);
    expect(evaluatePingAbove(fired, series(300, 300, 142), until, NOW).firedAt).toBeNull();
  });

  it('over any minute series: fires only after 3 points above, never twice without a recovery', () => {
    const minute = fc.option(fc.integer({ min: 0, max: 400 }), { nil: null, freq: 4 });
    fc.assert(
      fc.property(
        fc.array(minute, { maxLength: 60 }),
        fc.integer({ min: 10, max: 300 }),
        (values, line) => {
          const points = values.flatMap((pingMs, i) =>
            pingMs === null ? [] : [{ at: new Date(i * 60_000), pingMs }],
          );
          let state = rule({ kind: 'ping_above', threshold: line });
          let recoveredSinceFire = true;
          values.forEach((value, i) => {
            const until = new Date(i * 60_000 + 30_000);
            const d = evaluatePingAbove(state, points, until, until);
            if (value !== null && value < line * 0.95) recoveredSinceFire = true;
            if (d.fired) {
              const window = points.filter(
                (p) => p.at.getTime() > until.getTime() - 5 * 60_000 && p.at <= until,
              );
              expect(window.length).toBeGreaterThanOrEqual(3);
              expect(window.every((p) => p.pingMs > line)).toBe(true);
              expect(d.fired.value).toBe(window.at(-1)!.pingMs);
              expect(recoveredSinceFire).toBe(true);
              recoveredSinceFire = false;
            }
            state = { ...state, firedAt: d.firedAt };
          });
        },
      ),
    );
  });
});
