import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  customRange,
  daysBefore,
  localDay,
  monthsBefore,
  periodRange,
  presetRange,
  startOfDay,
} from './period';

/** The local time zone of a block of tests (Node reads TZ again when it changes). */
function inTimeZone(zone: string) {
  let previous: string | undefined;
  beforeEach(() => {
    previous = process.env.TZ;
    process.env.TZ = zone;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
}

describe('period presets (Europe/Moscow, UTC+3)', () => {
  inTimeZone('Europe/Moscow');
  // 21 November 2026, 12:34:56.789 in Moscow
  const now = new Date('2026-11-21T09:34:56.789Z');

  it('All has no bounds', () => {
    expect(presetRange('all', now)).toEqual({});
  });

  it('Week starts 7 days before now, at the same time, and leaves the end open', () => {
    expect(presetRange('week', now)).toEqual({ from: '2026-11-14T09:34:56.789Z' });
  });

  it('Month, Quarter and Year go back 1, 3 and 12 calendar months', () => {
    expect(presetRange('month', now)).toEqual({ from: '2026-10-21T09:34:56.789Z' });
    expect(presetRange('quarter', now)).toEqual({ from: '2026-08-21T09:34:56.789Z' });
    expect(presetRange('year', now)).toEqual({ from: '2025-11-21T09:34:56.789Z' });
  });

  it('a month back from a day the shorter month lacks is its last day', () => {
    // 31 March 10:00 Moscow -> 28 February (2026) and 29 February (2028, a leap year)
    expect(monthsBefore(new Date('2026-03-31T07:00:00.000Z'), 1).toISOString()).toBe(
      '2026-02-28T07:00:00.000Z',
    );
    expect(monthsBefore(new Date('2028-03-31T07:00:00.000Z'), 1).toISOString()).toBe(
      '2028-02-29T07:00:00.000Z',
    );
    // 31 May - a quarter = 28 February; 29 February 2028 - a year = 28 February 2027
    expect(monthsBefore(new Date('2026-05-31T07:00:00.000Z'), 3).toISOString()).toBe(
      '2026-02-28T07:00:00.000Z',
    );
    expect(monthsBefore(new Date('2028-02-29T07:00:00.000Z'), 12).toISOString()).toBe(
      '2027-02-28T07:00:00.000Z',
    );
  });

  it('crosses the year back from January', () => {
    expect(presetRange('month', new Date('2027-01-15T09:00:00.000Z'))).toEqual({
      from: '2026-12-15T09:00:00.000Z',
    });
    expect(daysBefore(new Date('2027-01-03T09:00:00.000Z'), 7).toISOString()).toBe(
      '2026-12-27T09:00:00.000Z',
    );
  });

  it('a custom period runs from the start of the from-day to the start of the day after the to-day', () => {
    expect(customRange('2026-11-01', '2026-11-21')).toEqual({
      ok: true,
      range: { from: '2026-10-31T21:00:00.000Z', to: '2026-11-21T21:00:00.000Z' },
    });
    // one day: 24 hours of it
    expect(customRange('2026-11-21', '2026-11-21')).toEqual({
      ok: true,
      range: { from: '2026-11-20T21:00:00.000Z', to: '2026-11-21T21:00:00.000Z' },
    });
  });

  it('a custom period may leave either end open', () => {
    expect(customRange('2026-11-01', '')).toEqual({
      ok: true,
      range: { from: '2026-10-31T21:00:00.000Z' },
    });
    expect(customRange('', '2026-11-21')).toEqual({
      ok: true,
      range: { to: '2026-11-21T21:00:00.000Z' },
    });
    expect(customRange('', '')).toEqual({ ok: true, range: {} });
  });

  it('refuses a custom period that ends before it starts, or a day that does not exist', () => {
    expect(customRange('2026-11-22', '2026-11-21')).toEqual({ ok: false, error: 'order' });
    expect(customRange('2026-02-30', '')).toEqual({ ok: false, error: 'from-invalid' });
    expect(customRange('', '21.11.2026')).toEqual({ ok: false, error: 'to-invalid' });
    expect(startOfDay('2026-13-01')).toBeNull();
  });

  it('periodRange reads a selection at a moment', () => {
    expect(periodRange({ preset: 'week' }, now)).toEqual({ from: '2026-11-14T09:34:56.789Z' });
    expect(periodRange({ preset: 'custom', from: '2026-11-01', to: '2026-11-01' }, now)).toEqual({
      from: '2026-10-31T21:00:00.000Z',
      to: '2026-11-01T21:00:00.000Z',
    });
    expect(periodRange({ preset: 'custom', from: '2026-11-02', to: '2026-11-01' }, now)).toEqual(
      {},
    );
  });

  it('localDay is the calendar day in the local time zone', () => {
    // 22:30 UTC on the 21st is already the 22nd in Moscow
    expect(localDay(new Date('2026-11-21T22:30:00.000Z'))).toBe('2026-11-22');
  });
});

describe('period maths across a daylight-saving change (America/New_York)', () => {
  inTimeZone('America/New_York');

  it('the day clocks go forward is 23 hours long', () => {
    // 8 March 2026: 02:00 EST becomes 03:00 EDT
    expect(customRange('2026-03-08', '2026-03-08')).toEqual({
      ok: true,
      range: { from: '2026-03-08T05:00:00.000Z', to: '2026-03-09T04:00:00.000Z' },
    });
  });

  it('a week back keeps the wall-clock time, not 7 x 24 hours', () => {
    // noon EDT on 10 March -> noon EST on 3 March
    expect(presetRange('week', new Date('2026-03-10T16:00:00.000Z'))).toEqual({
      from: '2026-03-03T17:00:00.000Z',
    });
  });
});
