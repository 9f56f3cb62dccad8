import type { IndexPoint, Trade } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  lastEndedPeriod,
  periodOf,
  reportFigures,
  startOfDay,
  startOfLocalDate,
} from './monitoring.alerts.periods.ts';

const iso = (span: { start: Date; end: Date }) => [
  span.start.toISOString(),
  span.end.toISOString(),
];

describe('periods in the account’s time zone', () => {
  it('starts days at local midnight', () => {
    // 12:00 UTC on 7 January is 15:00 in Moscow (UTC+3) and 23:00 in Sydney (UTC+11)
    const noon = new Date('2026-01-07T12:00:00Z');
    expect(iso(periodOf('daily', noon, 'UTC'))).toEqual([
      '2026-01-07T00:00:00.000Z',
      '2026-01-08T00:00:00.000Z',
    ]);
    expect(startOfDay(noon, 'Europe/Moscow').toISOString()).toBe('2026-01-06T21:00:00.000Z');
    expect(iso(periodOf('daily', noon, 'Australia/Sydney'))).toEqual([
      '2026-01-06T13:00:00.000Z',
      '2026-01-07T13:00:00.000Z',
    ]);
    // a quarter-hour zone: Kathmandu is UTC+5:45
    expect(startOfDay(noon, 'Asia/Kathmandu').toISOString()).toBe('2026-01-06T18:15:00.000Z');
  });

  it('gives daylight-saving days their 23 and 25 hours', () => {
    // New York springs forward on 8 March 2026 and falls back on 1 November
    expect(iso(periodOf('daily', new Date('2026-03-08T12:00:00Z'), 'America/New_York'))).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ]);
    expect(iso(periodOf('daily', new Date('2026-11-01T12:00:00Z'), 'America/New_York'))).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
    // London's March holds the change: 31 days less an hour
    expect(iso(periodOf('monthly', new Date('2026-03-29T12:00:00Z'), 'Europe/London'))).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-03-31T23:00:00.000Z',
    ]);
  });

  it('starts a day whose midnight does not exist at its first minute', () => {
    // Chile moves from 24:00 on Saturday 5 September 2026 to 01:00 (UTC-4 to UTC-3)
    expect(startOfLocalDate('2026-09-05', 'America/Santiago').toISOString()).toBe(
      '2026-09-05T04:00:00.000Z',
    );
    expect(startOfLocalDate('2026-09-06', 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    );
  });

  it('runs weeks Monday to Monday and months to the month’s end', () => {
    expect(iso(periodOf('weekly', new Date('2026-01-07T12:00:00Z'), 'Europe/Moscow'))).toEqual([
      '2026-01-04T21:00:00.000Z',
      '2026-01-11T21:00:00.000Z',
    ]);
    // a Sunday evening in Moscow is still the week begun on Monday the 5th
    expect(
      periodOf('weekly', new Date('2026-01-11T20:59:59Z'), 'Europe/Moscow').start.toISOString(),
    ).toBe('2026-01-04T21:00:00.000Z');
    // February of 2026 has 28 days; 2028 is a leap year
    expect(
      iso(lastEndedPeriod('monthly', new Date('2026-03-01T00:30:00+03:00'), 'Europe/Moscow')),
    ).toEqual(['2026-01-31T21:00:00.000Z', '2026-02-28T21:00:00.000Z']);
    expect(iso(periodOf('monthly', new Date('2028-02-15T00:00:00Z'), 'UTC'))).toEqual([
      '2028-02-01T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    ]);
    // December runs into the next year
    expect(periodOf('monthly', new Date('2026-12-31T23:00:00Z'), 'UTC').end.toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('names the period that ended last', () => {
    const now = new Date('2026-01-07T00:05:00Z');
    expect(iso(lastEndedPeriod('daily', now, 'UTC'))).toEqual([
      '2026-01-06T00:00:00.000Z',
      '2026-01-07T00:00:00.000Z',
    ]);
    // in New York it is still 6 January: the day that ended is the 5th
    expect(lastEndedPeriod('daily', now, 'America/New_York').start.toISOString()).toBe(
      '2026-01-05T05:00:00.000Z',
    );
    expect(lastEndedPeriod('weekly', now, 'UTC').start.toISOString()).toBe(
      '2025-12-29T00:00:00.000Z',
    );
  });
});

describe('a report’s figures', () => {
  const DAY = 86_400_000;
  const t0 = Date.UTC(2026, 0, 5);
  /** A point where the equity is known (as at a snapshot), with its equity low's index. */
  const point = (day: number, index: number, lowIndex: number | null = null) =>
    ({
      time: t0 + day * DAY,
      index,
      equityIndex: index,
      lowIndex,
      balance: 1000 * index,
      equity: null,
    }) as IndexPoint;
  const trade = (closeDay: number, result: number): Trade => ({
    positionId: String(closeDay * 100 + result),
    symbol: 'EURUSD',
    direction: 'long',
    openTime: t0 + closeDay * DAY - 3_600_000,
    closeTime: t0 + closeDay * DAY,
    volume: 1,
    openPrice: 1.1,
    closePrice: 1.1,
    result,
    pips: 0,
    magic: '0',
  });
  const span = { start: new Date(t0 + 1 * DAY), end: new Date(t0 + 3 * DAY) };

  it('measures gain, drawdown, profit and trades within the period', () => {
    const statistics = {
      index: [
        point(0, 1.0),
        point(0.5, 1.1), // the index the period opens with
        point(1.2, 1.21, 1.1), // +10 %, its equity low 1.1
        point(2, 0.99), // down to 0.99 from the peak 1.21: 18.18 %
        point(2.5, 1.045),
        point(3, 2), // after the period
        { ...point(4, 2), now: true as const },
      ],
      closedTrades: [trade(0, 50), trade(1.2, 100), trade(2, -220), trade(2.5, 55), trade(3, 9)],
    };
    const f = reportFigures(statistics, span);
    expect(f.gain).toBeCloseTo(1.045 / 1.1 - 1, 12); // -5 %
    expect(f.drawdown).toBeCloseTo((1.21 - 0.99) / 1.21, 12);
    expect(f.profit).toBe(100 - 220 + 55);
    expect(f.trades).toBe(3);
    expect(f.best?.result).toBe(100);
    expect(f.worst?.result).toBe(-220);
    expect(f.balance).toBeCloseTo(1045, 9);
  });

  it('is flat for a period without events or trades', () => {
    const f = reportFigures({ index: [point(0, 1.2)], closedTrades: [] }, span);
    expect(f).toEqual({
      gain: 0,
      profit: 0,
      drawdown: 0,
      trades: 0,
      best: null,
      worst: null,
      balance: 1200,
      equity: null,
    });
  });

  it('counts the fall from the opening value when the period starts in a drawdown', () => {
    const f = reportFigures({ index: [point(0, 1.0), point(1.5, 0.9)], closedTrades: [] }, span);
    expect(f.drawdown).toBeCloseTo(0.1, 12);
    expect(f.gain).toBeCloseTo(-0.1, 12);
  });
});
