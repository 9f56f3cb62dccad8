import { describe, expect, it } from 'vitest';
import { PERIODS, RATES } from '../test-utils';
import {
  expiryOf,
  isBusy,
  isDayWithin,
  isSearchValid,
  largerRates,
  parseRdp,
  priceOf,
  renewedUntil,
  upgradeDates,
  upgradePrice,
} from './vps';

const [start, trader, pro] = RATES as [(typeof RATES)[0], (typeof RATES)[0], (typeof RATES)[0]];

describe('priceOf', () => {
  it('takes the period’s discount off the monthly price times the months', () => {
    expect(priceOf(trader, 1, PERIODS)).toEqual({
      baseCents: 4000,
      periodDiscountCents: 0,
      promoDiscountCents: 0,
      totalCents: 4000,
    });
    expect(priceOf(trader, 3, PERIODS).totalCents).toBe(11400);
    expect(priceOf(trader, 6, PERIODS).totalCents).toBe(21600);
    expect(priceOf(trader, 12, PERIODS)).toMatchObject({
      baseCents: 48000,
      periodDiscountCents: 7200,
      totalCents: 40800,
    });
  });

  it('gives a promocode’s discount on a 1-month rental only', () => {
    expect(priceOf(trader, 1, PERIODS, 10)).toMatchObject({
      promoDiscountCents: 400,
      totalCents: 3600,
    });
    expect(priceOf(trader, 3, PERIODS, 10)).toMatchObject({
      promoDiscountCents: 0,
      totalCents: 11400,
    });
  });

  it('counts an unlisted period without a discount, and works in cents (no float drift)', () => {
    expect(priceOf({ monthly_price: 19.99 }, 3, [])).toMatchObject({ totalCents: 5997 });
    expect(priceOf({ monthly_price: 0.1 }, 3, [])).toMatchObject({ totalCents: 30 });
  });
});

describe('upgrade dates', () => {
  const now = new Date('2026-11-10T12:00:00.000Z');

  it('run from today to the day before paid-until (UTC days)', () => {
    expect(upgradeDates(now, new Date('2026-12-01T10:00:00.000Z'))).toEqual({
      min: '2026-11-10',
      max: '2026-11-30',
    });
    // paid until midnight: the day before is still the last
    expect(upgradeDates(now, new Date('2026-12-01T00:00:00.000Z'))?.max).toBe('2026-11-30');
  });

  it('are none when the paid period ends today or has ended', () => {
    expect(upgradeDates(now, new Date('2026-11-11T08:00:00.000Z'))).toEqual({
      min: '2026-11-10',
      max: '2026-11-10',
    });
    expect(upgradeDates(now, new Date('2026-11-10T23:00:00.000Z'))).toBeNull();
    expect(upgradeDates(now, new Date('2026-11-01T00:00:00.000Z'))).toBeNull();
  });

  it('accept only real days within the bounds', () => {
    const bounds = { min: '2026-11-10', max: '2026-11-30' };
    expect(isDayWithin('2026-11-10', bounds)).toBe(true);
    expect(isDayWithin('2026-11-30', bounds)).toBe(true);
    expect(isDayWithin('2026-11-09', bounds)).toBe(false);
    expect(isDayWithin('2026-12-01', bounds)).toBe(false);
    expect(isDayWithin('2026-11-31', bounds)).toBe(false);
    expect(isDayWithin('', bounds)).toBe(false);
    expect(isDayWithin('10.11.2026', bounds)).toBe(false);
  });

  it('price the monthly difference for the days left, a month as 30 days', () => {
    const paidUntil = new Date('2026-12-01T00:00:00.000Z');
    // 20 days of (80 - 40) a month: 40 * 20 / 30 = 26.666… -> 26.67
    expect(upgradePrice(trader, pro, '2026-11-11', paidUntil)).toBe(2667);
    expect(upgradePrice(trader, pro, '2026-11-30', paidUntil)).toBe(134);
  });
});

describe('largerRates', () => {
  it('lists the dearer rates with no less of anything', () => {
    expect(largerRates(RATES, start).map((r) => r.name)).toEqual(['Trader', 'Pro']);
    expect(largerRates(RATES, trader).map((r) => r.name)).toEqual(['Pro']);
    expect(largerRates(RATES, pro)).toEqual([]);
    // dearer but with a smaller disk: not larger
    expect(largerRates([{ ...pro, disk_gb: 100 }], trader)).toEqual([]);
  });
});

describe('renewedUntil', () => {
  it('adds the months to paid-until, or to now for a lapsed server', () => {
    const now = new Date('2026-11-10T12:00:00.000Z');
    expect(renewedUntil(new Date('2026-12-01T10:00:00.000Z'), now, 3).toISOString()).toBe(
      '2027-03-01T10:00:00.000Z',
    );
    expect(renewedUntil(new Date('2026-11-01T10:00:00.000Z'), now, 1).toISOString()).toBe(
      '2026-12-10T12:00:00.000Z',
    );
  });
});

describe('expiryOf', () => {
  const now = new Date('2026-11-10T12:00:00.000Z');
  it('is soon within 3 days, past after, else nothing', () => {
    expect(expiryOf(new Date('2026-11-20T12:00:00.000Z'), now)).toBeNull();
    expect(expiryOf(new Date('2026-11-13T12:00:00.000Z'), now)).toBe('soon');
    expect(expiryOf(new Date('2026-11-13T12:00:01.000Z'), now)).toBeNull();
    expect(expiryOf(new Date('2026-11-10T12:00:00.000Z'), now)).toBe('past');
  });
});

describe('parseRdp', () => {
  it('reads the host, the port and the user of an .rdp file', () => {
    const text = 'full address:s:vps12.tradehost.example:33012\r\nusername:s:Administrator\r\n';
    expect(parseRdp(text)).toEqual({
      host: 'vps12.tradehost.example',
      port: 33012,
      username: 'Administrator',
    });
    expect(parseRdp('full address:s:[2001:db8::1]:3390\nusername:s:Admin')).toEqual({
      host: '2001:db8::1',
      port: 3390,
      username: 'Admin',
    });
    expect(parseRdp('full address:s:10.0.0.5\nusername:s:Admin')?.port).toBe(3389);
  });

  it('gives up on a file without them', () => {
    expect(parseRdp('')).toBeNull();
    expect(parseRdp('username:s:Admin')).toBeNull();
    expect(parseRdp('<html>error</html>')).toBeNull();
  });
});

describe('the rest', () => {
  it('searches by digits only', () => {
    expect(isSearchValid('')).toBe(true);
    expect(isSearchValid(' 12 ')).toBe(true);
    expect(isSearchValid('12a')).toBe(false);
    expect(isSearchValid('#12')).toBe(false);
    expect(isSearchValid('1'.repeat(21))).toBe(false);
  });

  it('follows a server while an operation runs or it is being created', () => {
    expect(isBusy({ operation: null, status: 'active' })).toBe(false);
    expect(isBusy({ operation: null, status: 'provisioning' })).toBe(true);
    expect(
      isBusy({
        status: 'active',
        operation: {
          id: 1,
          kind: 'reboot',
          status: 'running',
          created_at: '',
          started_at: null,
          finished_at: null,
          error: null,
        },
      }),
    ).toBe(true);
  });
});
