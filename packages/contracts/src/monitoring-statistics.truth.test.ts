import { describe, expect, it } from 'vitest';
import { computeStatistics, periodTable } from './monitoring-statistics.ts';
import {
  cashOf,
  dealOf,
  floatingOf,
  publish,
  tradeOf,
  type Account,
  type Publishing,
} from './monitoring-statistics.terminal.ts';

/**
 * The histories of issue 40, each published as the shipped Expert Advisors publish (a deal as
 * it happens, a snapshot every 10 s with the equity low and high since the one before) and
 * stored as the server stores it: what was shown before, and what is true, worked by hand.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T = Date.UTC(2026, 0, 5, 12); // a Monday, 12:00 UTC

const every10s = (from: number, to: number): Publishing => ({
  from,
  to,
  everyMs: 10 * SECOND,
  stored: true,
});
const figures = (account: Account, publishing: Publishing, now = publishing.to) =>
  computeStatistics({ ...publish(account, publishing), now });

describe('a deposit or a withdrawal never distorts the gain or shows up as drawdown', () => {
  it('a trade that floated +98 and closed +100 is a 10 % gain and no drawdown (was 8.93 %)', () => {
    // deposit 1,000; a trade opens at 12:10, floats up to +98 by 12:50, closes +100 at 13:00
    const close = T + HOUR;
    const account: Account = {
      deals: [cashOf(T, 1000), ...tradeOf(T + 10 * MINUTE, close, 100)],
      floating: floatingOf(T + 10 * MINUTE, close, (ms) => Math.min(98, (98 * ms) / (40 * MINUTE))),
    };
    const s = figures(account, every10s(T - MINUTE, T + 2 * HOUR));
    expect(s.gain).toBeCloseTo(0.1, 12); // 1,100 / 1,000
    expect(s.equityDrawdown).toBe(0); // equity only rose: 1,000 -> 1,098 -> 1,100
    expect(s.maxDrawdown).toBe(0);
  });

  it('a second deposit a day later with nothing open is no drawdown (was 47.62 %)', () => {
    const close = T + HOUR;
    const account: Account = {
      deals: [cashOf(T, 1000), ...tradeOf(T + 10 * MINUTE, close, 100), cashOf(T + DAY, 1000)],
      floating: floatingOf(T + 10 * MINUTE, close, (ms) => Math.min(98, (98 * ms) / (40 * MINUTE))),
    };
    const s = figures(account, every10s(T - MINUTE, T + DAY + HOUR));
    // 1,100 / 1,000 x 2,100 / 2,100
    expect(s.gain).toBeCloseTo(0.1, 12);
    expect(s.equityDrawdown).toBe(0);
    expect(s.maxDrawdown).toBe(0);
    expect(s.balance).toBe(2100);
  });

  it('MT4: a withdrawal at 12:00:20 while publishing, then a trade +100, is +20 % (was -50 %)', () => {
    // deposit 1,000 at 11:00; withdrawal 500 at 12:00:20 (no equity_before: MT4); a trade +100
    const account: Account = {
      deals: [
        cashOf(T - HOUR, 1000),
        cashOf(T + 20 * SECOND, -500),
        ...tradeOf(T + HOUR, T + 2 * HOUR, 100),
      ],
      floating: () => 0,
    };
    const s = figures(account, every10s(T - HOUR, T + 3 * HOUR));
    // 1,000 / 1,000 x 600 / 500 - 1
    expect(s.gain).toBeCloseTo(0.2, 12);
    expect(s.maxDrawdown).toBe(0);
    expect(s.equityDrawdown).toBe(0);
    expect(s.trades.count).toBe(1);
    expect(s.withdrawals).toBe(500);
  });

  it('one history gives one gain, whether snapshots come every 10 s, every 60 s or never (was 62.93 / 19.31 / 19.31 %)', () => {
    // deposit 1,000; +150; deposit 500 at 12:00:02 of a day; -60; withdrawal 300; +80
    const deals = [
      cashOf(T, 1000),
      ...tradeOf(T + HOUR, T + 2 * HOUR, 150),
      cashOf(T + DAY + 2 * SECOND, 500),
      ...tradeOf(T + DAY + HOUR, T + DAY + 2 * HOUR, -60),
      cashOf(T + 2 * DAY + 45 * SECOND, -300),
      ...tradeOf(T + 2 * DAY + HOUR, T + 2 * DAY + 2 * HOUR, 80),
    ];
    const account: Account = { deals, floating: () => 0 };
    const end = T + 3 * DAY;
    // 1,150 / 1,000 x 1,590 / 1,650 x 1,370 / 1,290
    const gain = 1.15 * (1590 / 1650) * (1370 / 1290) - 1;
    for (const everyMs of [10 * SECOND, 60 * SECOND, 0]) {
      const s = figures(account, { from: T - MINUTE, to: end, everyMs, stored: true });
      expect({ everyMs, gain: s.gain }).toEqual({ everyMs, gain: expect.closeTo(gain, 12) });
      // -60 from 1,650: the only fall of the index
      expect(s.maxDrawdown).toBeCloseTo(60 / 1650, 12);
      expect(s.equityDrawdown).toBeCloseTo(60 / 1650, 12);
    }
  });

  it('MT5: the same history with and without equity_before gives the same gain (was 0.83 / 301.11 %)', () => {
    // a deposit while a trade floats -50: equity_before tells it; without it the snapshot
    // 5 s before does
    const open = T + HOUR;
    const close = T + 3 * HOUR;
    const account: Account = {
      deals: [
        cashOf(T, 1000),
        ...tradeOf(open, close, -50),
        cashOf(T + 2 * HOUR + 5 * SECOND, 1000),
      ],
      floating: floatingOf(open, close, () => -50),
    };
    const publishing = every10s(T - MINUTE, T + 4 * HOUR);
    const sent = figures(account, { ...publishing, equityBefore: true });
    const unsent = figures(account, { ...publishing, equityBefore: false });
    // 950 / 1,000 x 1,950 / 1,950 - 1
    expect(sent.gain).toBeCloseTo(-0.05, 12);
    expect(unsent.gain).toBeCloseTo(-0.05, 12);
    expect(unsent.equityDrawdown).toBeCloseTo(sent.equityDrawdown, 12);
  });

  it('a deposit of 5,000 while a trade floats -600 on 10,000 leaves the equity drawdown at 6 % (was 38.64 %)', () => {
    const open = T + HOUR;
    const close = T + 4 * HOUR;
    const account: Account = {
      deals: [
        cashOf(T, 10_000),
        ...tradeOf(open, close, -600),
        cashOf(T + 2 * HOUR + 1 * SECOND, 5000),
      ],
      // down 600 within the first hour, then flat until it closes at -600
      floating: floatingOf(open, close, (ms) => -Math.min(600, (600 * ms) / HOUR)),
    };
    const s = figures(account, every10s(T - MINUTE, T + 5 * HOUR));
    // 10,000 -> 9,400: 6 %; after the deposit 14,400 stays 14,400
    expect(s.equityDrawdown).toBeCloseTo(0.06, 12);
    expect(s.gain).toBeCloseTo(-0.06, 12);
    expect(s.maxDrawdown).toBeCloseTo(0.06, 12);
  });

  it('an account emptied by a withdrawal, then refilled: the gain unchanged, no drawdown, no NaN (was -100 %, a 500)', () => {
    const account: Account = {
      deals: [
        cashOf(T, 1000),
        ...tradeOf(T + HOUR, T + 2 * HOUR, 100),
        cashOf(T + DAY + 20 * SECOND, -1100),
        cashOf(T + 2 * DAY + 20 * SECOND, 500),
      ],
      floating: () => 0,
    };
    const s = figures(account, every10s(T - MINUTE, T + 3 * DAY));
    expect(s.gain).toBeCloseTo(0.1, 12);
    expect(s.maxDrawdown).toBe(0);
    expect(s.equityDrawdown).toBe(0);
    const rows = [...periodTable(s, 'day'), ...periodTable(s, 'month')];
    for (const row of rows) expect(Number.isFinite(row.gain), row.period).toBe(true);
  });

  it('an account lost whole starts again at the next deposit, with no NaN', () => {
    // 1,000 lost by a trade (-100 %), 500 deposited, +50 on it: +10 % since starting again
    const account: Account = {
      deals: [
        cashOf(T, 1000),
        ...tradeOf(T + HOUR, T + 2 * HOUR, -1000),
        cashOf(T + DAY, 500),
        ...tradeOf(T + DAY + HOUR, T + DAY + 2 * HOUR, 50),
      ],
      floating: () => 0,
    };
    const s = figures(account, every10s(T - MINUTE, T + 2 * DAY));
    expect(s.gain).toBeCloseTo(0.1, 12);
    expect(s.maxDrawdown).toBe(1);
    expect(Number.isFinite(s.dailyGain!)).toBe(true);
    for (const row of periodTable(s, 'day')) expect(Number.isFinite(row.gain)).toBe(true);
  });

  it('a publisher attached before the first deposit shows no drawdown (was 100 %)', () => {
    // snapshots of an empty account from 11:59; the deposit at 12:00:20
    const account: Account = {
      deals: [cashOf(T + 20 * SECOND, 1000), ...tradeOf(T + HOUR, T + 2 * HOUR, 30)],
      floating: () => 0,
    };
    const s = figures(account, every10s(T - MINUTE, T + 3 * HOUR));
    expect(s.equityDrawdown).toBe(0);
    expect(s.maxDrawdown).toBe(0);
    expect(s.gain).toBeCloseTo(0.03, 12);
    expect(s.equitySince).toBe(T - MINUTE + 50 * SECOND); // the first minute's point, its last snapshot
  });

  it('a snapshot stamped in a deposit’s second, taken just after it, counts after it', () => {
    // the deposit at 12:00:20.350; the snapshot stamped 12:00:20.000 already shows it
    const deposit = cashOf(T + 20_350, 1000);
    const s = computeStatistics({
      deals: [cashOf(T - HOUR, 1000), deposit],
      snapshots: [
        {
          time: T + 10 * SECOND,
          balance: 1000,
          equity: 1000,
          margin: 0,
          credit: 0,
          equityLow: 1000,
        },
        {
          time: T + 20 * SECOND,
          balance: 2000,
          equity: 2000,
          margin: 0,
          credit: 0,
          equityLow: 1000,
        },
        {
          time: T + 30 * SECOND,
          balance: 2000,
          equity: 2000,
          margin: 0,
          credit: 0,
          equityLow: 2000,
        },
      ],
      now: T + MINUTE,
    });
    expect(s.gain).toBe(0);
    expect(s.equityDrawdown).toBe(0);
  });
});

describe('trades are counted as traders count them', () => {
  it('an MT5 netting reversal is two trades and two lots (was 1 trade, 1 lot)', () => {
    // buy 1 at 1.1000; sell 2 at 1.1010 (closes the long +100, opens a short of 1); buy 1 at
    // 1.1005 (closes the short +50)
    const deals = [
      cashOf(T, 1000),
      dealOf({
        type: 'buy',
        entry: 'in',
        positionId: '9',
        time: T + HOUR,
        symbol: 'EURUSD',
        volume: 1,
        price: 1.1,
      }),
      dealOf({
        type: 'sell',
        entry: 'inout',
        positionId: '9',
        time: T + 2 * HOUR,
        symbol: 'EURUSD',
        volume: 2,
        price: 1.101,
        profit: 100,
      }),
      dealOf({
        type: 'buy',
        entry: 'out',
        positionId: '9',
        time: T + 3 * HOUR,
        symbol: 'EURUSD',
        volume: 1,
        price: 1.1005,
        profit: 50,
      }),
    ];
    const s = computeStatistics({ deals, snapshots: [], now: T + DAY });
    expect(s.trades.count).toBe(2);
    expect(s.trades.lots).toBe(2);
    expect(s.closedTrades.map((t) => [t.positionId, t.direction, t.volume, t.result])).toEqual([
      ['9', 'long', 1, 100],
      ['9#2', 'short', 1, 50],
    ]);
    // +10 pips and +5 pips
    expect(s.closedTrades.map((t) => Number(t.pips!.toFixed(6)))).toEqual([10, 5]);
    expect(s.profit).toBe(150);
  });

  it('a partial close counts in Profit when it happens (was Profit 0 beside balance 1,050)', () => {
    const deals = [
      cashOf(T, 1000),
      dealOf({
        type: 'buy',
        entry: 'in',
        positionId: '5',
        time: T + HOUR,
        symbol: 'EURUSD',
        volume: 2,
        price: 1.1,
      }),
      dealOf({
        type: 'sell',
        entry: 'out',
        positionId: '5',
        time: T + 2 * HOUR,
        symbol: 'EURUSD',
        volume: 1,
        price: 1.1005,
        profit: 50,
      }),
    ];
    const s = computeStatistics({ deals, snapshots: [], now: T + DAY });
    expect(s.profit).toBe(50);
    expect(s.balance).toBe(1050);
    expect(s.trades.count).toBe(0); // the position is still open
    expect(periodTable(s, 'day').map((r) => [r.period, r.profit])).toEqual([['2026-01-05', 50]]);
  });

  it('pips count currency pairs only: EURUSD +30 pips and XAUUSD +12.00 are 30 pips (was 1,230)', () => {
    const deals = [
      cashOf(T, 10_000),
      ...tradeOf(T + HOUR, T + 2 * HOUR, 300, { from: 1.1, to: 1.103 }),
      ...tradeOf(T + 3 * HOUR, T + 4 * HOUR, 1200, {
        symbol: 'XAUUSD',
        digits: 2,
        from: 2000,
        to: 2012,
      }),
    ];
    const s = computeStatistics({ deals, snapshots: [], now: T + DAY });
    expect(s.trades.pips).toBeCloseTo(30, 9);
    expect(s.closedTrades.map((t) => t.pips === null)).toEqual([false, true]);
  });

  it('deals that are not trades are their own line: deposits - withdrawals + Profit + other results = balance', () => {
    const deals = [
      cashOf(T, 1000),
      ...tradeOf(T + HOUR, T + 2 * HOUR, 120),
      dealOf({ type: 'commission', time: T + 3 * HOUR, profit: -7.5 }),
      dealOf({ type: 'interest', time: T + 4 * HOUR, profit: 1.25 }),
      dealOf({ type: 'dividend', time: T + 5 * HOUR, profit: 3 }),
      dealOf({ type: 'tax', time: T + 6 * HOUR, profit: -0.45 }),
      dealOf({ type: 'charge', time: T + 7 * HOUR, profit: -2 }),
      dealOf({ type: 'correction', time: T + 8 * HOUR, profit: 0.7 }),
      dealOf({ type: 'bonus', time: T + 9 * HOUR, profit: 10 }),
      dealOf({ type: 'canceled', time: T + 10 * HOUR, profit: 0 }),
      cashOf(T + 11 * HOUR, -200),
      dealOf({ type: 'credit', time: T + 12 * HOUR, profit: 500 }),
    ];
    const s = computeStatistics({ deals, snapshots: [], now: T + DAY });
    expect(s.profit).toBe(120);
    // -7.5 + 1.25 + 3 - 0.45 - 2 + 0.7 + 10
    expect(s.otherResults).toBeCloseTo(4.999999999999, 9);
    expect(s.deposits - s.withdrawals + s.profit + s.otherResults).toBeCloseTo(s.balance, 9);
    expect(s.balance).toBeCloseTo(925, 9);
    expect(s.trades.count).toBe(1);
  });
});

describe('a history the terminal did not show whole', () => {
  it('MT4 with the Account History tab set to a month: the terminal’s balance is not what the deals add up to', () => {
    // the first deposit of 10,000 is older than the month the tab shows: only a +100 trade is sent
    const deals = tradeOf(T + HOUR, T + 2 * HOUR, 100);
    const snapshot = { time: T + 3 * HOUR, balance: 10_100, equity: 10_100, margin: 0, credit: 0 };
    const cut = computeStatistics({ deals, snapshots: [snapshot], now: T + 4 * HOUR });
    expect(cut.historyIncomplete).toBe(true);
    // the whole history, once the tab shows it: nothing missing
    const whole = computeStatistics({
      deals: [cashOf(T - 60 * DAY, 10_000), ...deals],
      snapshots: [snapshot],
      now: T + 4 * HOUR,
    });
    expect(whole.historyIncomplete).toBe(false);
    expect(whole.gain).toBeCloseTo(0.01, 12);
  });
});

describe('our gain beside Myfxbook’s, worked by hand', () => {
  // Deposit 1,000. A trade opens and floats -50 (equity 950) when 1,000 more is deposited; it
  // closes at -50: balance 1,950.
  // Ours values each cash flow at the equity just before it: 950 / 1,000 x 1,950 / 1,950 - 1
  // = -5 %: the trader lost 50 on the 1,000 at work.
  // Myfxbook's published method chains balances: 1,000 / 1,000 x 1,950 / 2,000 - 1 = -2.5 %,
  // the loss spread over money that was not in the trade when it was lost (and a floating
  // profit at a deposit would likewise be credited to the money that came after it).
  it('values the deposit at the equity, not the balance', () => {
    const open = T + HOUR;
    const close = T + 3 * HOUR;
    const account: Account = {
      deals: [cashOf(T, 1000), ...tradeOf(open, close, -50), cashOf(T + 2 * HOUR, 1000)],
      floating: floatingOf(open, close, () => -50),
    };
    const s = figures(account, every10s(T - MINUTE, T + 4 * HOUR));
    expect(s.gain).toBeCloseTo(-0.05, 12);
    const myfxbook = (1000 / 1000) * (1950 / 2000) - 1;
    expect(myfxbook).toBeCloseTo(-0.025, 12);
  });
});
