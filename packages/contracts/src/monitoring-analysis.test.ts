import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakdownsOf,
  MANUAL_MAGIC,
  riskOfRuin,
  RUIN_LEVELS,
  RUIN_MIN_TRADES,
  type BreakdownRow,
  type Breakdowns,
} from './monitoring-analysis.ts';
import {
  closedTrades,
  computeStatistics,
  localHourAndWeekday,
  type StatDeal,
  type Trade,
} from './monitoring-statistics.ts';
import { dealOf } from './monitoring-statistics.terminal.ts';

/**
 * The breakdowns and the risk of ruin, on hand-computed histories (the arithmetic in the comment
 * above each expectation), the local hour and weekday against Intl, and the risk of ruin against
 * its equation and a seeded simulation of the walk it models.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 5); // a Monday, 00:00 UTC
const at = (day: number, hour: number, minute = 0) =>
  T0 + day * DAY + hour * HOUR + minute * MINUTE;

// ---- breakdowns ----------------------------------------------------------------------------

/** A 64-bit magic number beyond 2^53: kept as digits, never rounded through a number. */
const EA = '9007199254740993';

interface Side {
  time: number;
  price: number;
  profit?: number;
  swap?: number;
  commission?: number;
  magic?: string;
}
/** A position opened and closed: its two deals (a magic only where given). */
function position(
  id: string,
  side: 'buy' | 'sell',
  symbol: string,
  digits: number,
  volume: number,
  open: Side,
  close: Side,
): StatDeal[] {
  const common = { positionId: id, symbol, digits, volume };
  return [
    dealOf({ type: side, entry: 'in', ...common, ...open }),
    dealOf({ type: side === 'buy' ? 'sell' : 'buy', entry: 'out', ...common, ...close }),
  ];
}

/*
 * Seven trades, in the order they close (day 0 is Monday 5 January 2026; opening times UTC):
 *   E1 EURUSD long  1    Mon 09:15 -> Mon 11:00  1.10000 -> 1.10200  +200 - 7 commission = 193  +20 pips  EA
 *   E2 EURUSD short 0.5  Tue 09:40 -> Tue 12:00  1.10000 -> 1.10100  -50                           -10 pips  EA
 *   E3 EURUSD long  2    Wed 23:30 -> Thu 01:00  1.10000 -> 1.10000  0 (break-even)                  0 pips  no magic
 *   J1 USDJPY short 1    Thu 00:05 -> Thu 05:00  150.000 -> 149.500  +334.45                        +50 pips  EA, closed by hand ('0')
 *   J2 USDJPY long  1    Fri 14:00 -> Fri 15:00  150.000 -> 149.800  -133.5 - 1.5 swap = -135       -20 pips  '0'
 *   X1 XAUUSD long  0.1  Sun 22:00 -> Sun 23:00  2000.00 -> 2010.00  +100                       pips null  '77'
 *   X2 XAUUSD long  0.2  Mon 09:59 -> Mon 10:30  2000.00 -> 2002.50  +50 (next Monday)          pips null  '77', closed by EA
 * Pips: EURUSD 5 digits, a pip 0.0001: 0.002 / 0.0001 = 20, -0.001 / 0.0001 = -10; USDJPY 3
 * digits, a pip 0.01: short 150 -> 149.5 is +0.5 / 0.01 = 50, long 150 -> 149.8 is -20.
 */
const DEALS: StatDeal[] = [
  ...position(
    'E1',
    'buy',
    'EURUSD',
    5,
    1,
    { time: at(0, 9, 15), price: 1.1, commission: -7, magic: EA },
    { time: at(0, 11), price: 1.102, profit: 200 },
  ),
  ...position(
    'E2',
    'sell',
    'EURUSD',
    5,
    0.5,
    { time: at(1, 9, 40), price: 1.1, magic: EA },
    { time: at(1, 12), price: 1.101, profit: -50, magic: EA },
  ),
  ...position(
    'E3',
    'buy',
    'EURUSD',
    5,
    2,
    { time: at(2, 23, 30), price: 1.1 },
    { time: at(3, 1), price: 1.1, profit: 0 },
  ),
  ...position(
    'J1',
    'sell',
    'USDJPY',
    3,
    1,
    { time: at(3, 0, 5), price: 150, magic: EA },
    { time: at(3, 5), price: 149.5, profit: 334.45, magic: '0' },
  ),
  ...position(
    'J2',
    'buy',
    'USDJPY',
    3,
    1,
    { time: at(4, 14), price: 150, magic: '0' },
    { time: at(4, 15), price: 149.8, profit: -133.5, swap: -1.5 },
  ),
  ...position(
    'X1',
    'buy',
    'XAUUSD',
    2,
    0.1,
    { time: at(6, 22), price: 2000, magic: '77' },
    { time: at(6, 23), price: 2010, profit: 100 },
  ),
  ...position(
    'X2',
    'buy',
    'XAUUSD',
    2,
    0.2,
    { time: at(7, 9, 59), price: 2000, magic: '77' },
    { time: at(7, 10, 30), price: 2002.5, profit: 50, magic: EA },
  ),
];
const TRADES = closedTrades(DEALS);
const closeOf = (id: string) => TRADES.find((t) => t.positionId === id)!.closeTime;

const FIELDS = [
  'trades',
  'wins',
  'winRate',
  'lots',
  'profit',
  'grossProfit',
  'grossLoss',
  'profitFactor',
  'pips',
] as const;

/** Every field of every row, numbers to 1e-9 (sums of decimals), nulls and keys exactly. */
function expectRows(actual: readonly BreakdownRow[], expected: readonly BreakdownRow[]) {
  expect(actual.map((r) => r.key)).toEqual(expected.map((r) => r.key));
  actual.forEach((row, i) => {
    const want = expected[i]!;
    expect(Object.keys(row).sort()).toEqual(Object.keys(want).sort());
    for (const field of FIELDS) {
      const value = row[field];
      const wanted = want[field];
      if (wanted === null) expect(value, `${row.key} ${field}`).toBeNull();
      else expect(value, `${row.key} ${field}`).toBeCloseTo(wanted, 9);
    }
  });
}

/** A row from its hand-counted sums: win rate, profit and profit factor follow from them. */
function row(
  key: string,
  trades: number,
  wins: number,
  lots: number,
  grossProfit: number,
  grossLoss: number,
  pips: number | null,
): BreakdownRow {
  return {
    key,
    trades,
    wins,
    winRate: trades > 0 ? wins / trades : null,
    lots,
    profit: grossProfit - grossLoss,
    grossProfit,
    grossLoss,
    profitFactor: grossLoss > 0 ? grossProfit / grossLoss : null,
    pips,
  };
}
const empty = (key: string) => row(key, 0, 0, 0, 0, 0, null);
const HOUR_KEYS = Array.from({ length: 24 }, (_, h) => String(h));
const WEEKDAY_KEYS = ['1', '2', '3', '4', '5', '6', '7'];
/** All 24 hours (or 7 weekdays), the given rows in their place and zeros elsewhere. */
const all = (keys: readonly string[], rows: BreakdownRow[]) =>
  keys.map((key) => rows.find((r) => r.key === key) ?? empty(key));

describe('breakdownsOf', () => {
  it('builds the trades from the deals as the fixture says', () => {
    expect(TRADES.map((t) => t.positionId)).toEqual(['E1', 'E2', 'E3', 'J1', 'J2', 'X1', 'X2']);
    expect(TRADES.map((t) => t.result)).toEqual([193, -50, 0, 334.45, -135, 100, 50]);
    expect(TRADES.map((t) => t.magic)).toEqual([EA, EA, '0', EA, '0', '77', '77']);
  });

  const all7 = breakdownsOf(TRADES, 'UTC');

  it('splits by symbol, every field, most traded first then the larger profit', () => {
    expectRows(all7.symbols, [
      // E1 + E2 + E3: 3 trades, 1 win (E1), lots 1 + 0.5 + 2 = 3.5; gross profit 193, gross loss 50,
      // profit 143, factor 193 / 50 = 3.86; pips 20 - 10 + 0 = 10
      {
        key: 'EURUSD',
        trades: 3,
        wins: 1,
        winRate: 1 / 3,
        lots: 3.5,
        profit: 143,
        grossProfit: 193,
        grossLoss: 50,
        profitFactor: 3.86,
        pips: 10,
      },
      // J1 + J2: 2 trades, 1 win, lots 2; 334.45 - 135 = 199.45, factor 334.45 / 135 = 2.477407...;
      // pips 50 - 20 = 30. Ahead of XAUUSD (also 2 trades) by its larger profit
      {
        key: 'USDJPY',
        trades: 2,
        wins: 1,
        winRate: 0.5,
        lots: 2,
        profit: 199.45,
        grossProfit: 334.45,
        grossLoss: 135,
        profitFactor: 334.45 / 135,
        pips: 30,
      },
      // X1 + X2: 2 wins, lots 0.1 + 0.2 = 0.3, 100 + 50 = 150, no loss (factor null), gold: no pips
      {
        key: 'XAUUSD',
        trades: 2,
        wins: 2,
        winRate: 1,
        lots: 0.3,
        profit: 150,
        grossProfit: 150,
        grossLoss: 0,
        profitFactor: null,
        pips: null,
      },
    ]);
  });

  it('breaks ties on trades by the larger profit, then by the symbol', () => {
    const one = (symbol: string, result: number) =>
      tradeAt({ symbol, result, openTime: at(0, 9), closeTime: at(0, 10) });
    const symbols = breakdownsOf(
      [
        one('GBPUSD', 10),
        one('NZDUSD', 20),
        one('AUDUSD', 10),
        one('USDCHF', -60),
        one('USDCHF', -40),
      ],
      'UTC',
    ).symbols;
    // USDCHF: 2 trades, first despite its loss; NZDUSD 20 before AUDUSD and GBPUSD (10 each,
    // in the order of their names)
    expect(symbols.map((r) => [r.key, r.trades, r.profit])).toEqual([
      ['USDCHF', 2, -100],
      ['NZDUSD', 1, 20],
      ['AUDUSD', 1, 10],
      ['GBPUSD', 1, 10],
    ]);
  });

  it('splits by the hour of the opening, all 24 in order, in UTC', () => {
    // 9: E1 (09:15), E2 (09:40), X2 (09:59): wins E1, X2; lots 1 + 0.5 + 0.2 = 1.7;
    //    gross profit 193 + 50 = 243, gross loss 50; pips 20 - 10 (X2 none) = 10
    // 0: J1 (Thursday 00:05). 14: J2, a loss only: factor 0 / 135 = 0, not null.
    // 22: X1. 23: E3 (Wednesday 23:30), a break-even: no win, factor null, pips 0 (a pair)
    expectRows(
      all7.hours,
      all(HOUR_KEYS, [
        row('0', 1, 1, 1, 334.45, 0, 50),
        row('9', 3, 2, 1.7, 243, 50, 10),
        row('14', 1, 0, 1, 0, 135, -20),
        row('22', 1, 1, 0.1, 100, 0, null),
        row('23', 1, 0, 2, 0, 0, 0),
      ]),
    );
    expect(all7.hours[14]!.profitFactor).toBe(0);
    expect(all7.hours[23]!.pips).toBe(0);
    expect(all7.hours[5]).toEqual({
      key: '5',
      trades: 0,
      wins: 0,
      winRate: null,
      lots: 0,
      profit: 0,
      grossProfit: 0,
      grossLoss: 0,
      profitFactor: null,
      pips: null,
    });
  });

  it('splits by the ISO weekday of the opening, Monday to Sunday, in UTC', () => {
    // Monday: E1 and X2 (the next Monday); Tuesday E2; Wednesday E3 (opened 23:30, closed on
    // Thursday); Thursday J1; Friday J2; Saturday none; Sunday X1
    expectRows(
      all7.weekdays,
      all(WEEKDAY_KEYS, [
        row('1', 2, 2, 1.2, 243, 0, 20),
        row('2', 1, 0, 0.5, 0, 50, -10),
        row('3', 1, 0, 2, 0, 0, 0),
        row('4', 1, 1, 1, 334.45, 0, 50),
        row('5', 1, 0, 1, 0, 135, -20),
        row('7', 1, 1, 0.1, 100, 0, null),
      ]),
    );
  });

  it('takes the hour and the weekday in the time zone given (Moscow, UTC+3)', () => {
    const moscow = breakdownsOf(TRADES, 'Europe/Moscow');
    // +3 h: E1 12:15, E2 12:40, X2 12:59 -> 12; E3 Thursday 02:30 -> 2; J1 03:05 -> 3;
    // J2 17:00 -> 17; X1 Monday 01:00 -> 1
    expectRows(
      moscow.hours,
      all(HOUR_KEYS, [
        row('1', 1, 1, 0.1, 100, 0, null),
        row('2', 1, 0, 2, 0, 0, 0),
        row('3', 1, 1, 1, 334.45, 0, 50),
        row('12', 3, 2, 1.7, 243, 50, 10),
        row('17', 1, 0, 1, 0, 135, -20),
      ]),
    );
    // Monday: E1, X1 (Sunday 22:00 UTC), X2: 3 wins, 193 + 100 + 50 = 343, lots 1.3, pips 20;
    // Wednesday empty: E3 moved to Thursday, with J1 (2 trades, 1 win, pips 0 + 50)
    expectRows(
      moscow.weekdays,
      all(WEEKDAY_KEYS, [
        row('1', 3, 3, 1.3, 343, 0, 20),
        row('2', 1, 0, 0.5, 0, 50, -10),
        row('4', 2, 1, 3, 334.45, 0, 50),
        row('5', 1, 0, 1, 0, 135, -20),
      ]),
    );
    // the time zone moves no trade between symbols, directions or strategies
    expect(moscow.symbols).toEqual(all7.symbols);
    expect(moscow.directions).toEqual(all7.directions);
    expect(moscow.strategies).toEqual(all7.strategies);
  });

  it('follows daylight saving time (New York: 06:30 UTC is 02:30 in July, 01:30 in January)', () => {
    const july = tradeAt({ openTime: Date.UTC(2026, 6, 15, 6, 30), result: 1 }); // a Wednesday
    const january = tradeAt({ openTime: Date.UTC(2026, 0, 14, 6, 30), result: -2 }); // a Wednesday
    // 03:30 UTC on Wednesday 14 January is 22:30 on Tuesday in New York (UTC-5)
    const evening = tradeAt({ openTime: Date.UTC(2026, 0, 14, 3, 30), result: 4 });
    const { hours, weekdays } = breakdownsOf([january, evening, july], 'America/New_York');
    expect(hours.map((r) => r.key)).toEqual(HOUR_KEYS);
    expect(hours.filter((r) => r.trades > 0).map((r) => [r.key, r.profit])).toEqual([
      ['1', -2],
      ['2', 1],
      ['22', 4],
    ]);
    expect(weekdays.filter((r) => r.trades > 0).map((r) => [r.key, r.trades])).toEqual([
      ['2', 1],
      ['3', 2],
    ]);
  });

  it('puts a trade opened late on Sunday UTC on Monday in Tokyo', () => {
    // Sunday 11 January 2026 20:00 UTC is Monday 05:00 in Tokyo (UTC+9)
    const trade = tradeAt({ openTime: Date.UTC(2026, 0, 11, 20), result: 5 });
    const tokyo = breakdownsOf([trade], 'Asia/Tokyo');
    expect(tokyo.weekdays.map((r) => r.key)).toEqual(WEEKDAY_KEYS);
    expect(tokyo.weekdays.map((r) => r.trades)).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(tokyo.hours.map((r) => r.trades).indexOf(1)).toBe(5);
    const utc = breakdownsOf([trade], 'UTC');
    expect(utc.weekdays.map((r) => r.trades)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(utc.hours.map((r) => r.trades).indexOf(1)).toBe(20);
    // the default time zone is UTC
    expect(breakdownsOf([trade])).toEqual(utc);
  });

  it('splits by direction, long first', () => {
    // long: E1, E3, J2, X1, X2: wins E1, X1, X2 (193 + 100 + 50 = 343), loss J2 135;
    //   lots 1 + 2 + 1 + 0.1 + 0.2 = 4.3; pips 20 + 0 - 20 = 0 (not null: some are pairs)
    // short: E2, J1: win J1 334.45, loss E2 50; lots 1.5; pips -10 + 50 = 40
    expectRows(all7.directions, [
      row('long', 5, 3, 4.3, 343, 135, 0),
      row('short', 2, 1, 1.5, 334.45, 50, 40),
    ]);
  });

  it('shows only the directions traded', () => {
    // E2 alone (closes Tuesday 12:00): a short
    const shorts = breakdownsOf(TRADES, 'UTC', { from: closeOf('E2'), to: closeOf('E2') + 1 });
    expect(shorts.directions.map((r) => [r.key, r.trades])).toEqual([['short', 1]]);
    // X1 and X2: longs only
    const longs = breakdownsOf(TRADES, 'UTC', { from: closeOf('X1') });
    expect(longs.directions.map((r) => [r.key, r.trades])).toEqual([['long', 2]]);
    // E2 (a short) closes first, E3 (a long) next: long is still first
    const both = breakdownsOf(TRADES, 'UTC', { from: closeOf('E2'), to: closeOf('J2') });
    expect(both.directions.map((r) => r.key)).toEqual(['long', 'short']);
  });

  it("splits by the opening deal's magic number, manual trades ('0') included", () => {
    // EA: E1, E2, J1 (J1 closed by hand): wins 193 + 334.45 = 527.45, loss 50; lots 2.5;
    //   pips 20 - 10 + 50 = 60
    // '77': X1, X2 (X2 closed by the EA): 150, no loss; gold, no pips. Ahead of '0' by profit
    // '0': E3 (no magic) and J2 ('0'): no win, loss 135 (factor 0); lots 3; pips 0 - 20
    expectRows(all7.strategies, [
      row(EA, 3, 2, 2.5, 527.45, 50, 60),
      row('77', 2, 2, 0.3, 150, 0, null),
      row(MANUAL_MAGIC, 2, 0, 3, 0, 135, -20),
    ]);
    expect(MANUAL_MAGIC).toBe('0');
  });

  it('gets the same breakdowns from computeStatistics as from closedTrades', () => {
    const deposit = dealOf({ type: 'balance', time: at(0, 0), profit: 10_000 });
    const stats = computeStatistics({ deals: [deposit, ...DEALS], snapshots: [], now: at(9, 0) });
    expect(stats.closedTrades.map((t) => [t.positionId, t.magic])).toEqual(
      TRADES.map((t) => [t.positionId, t.magic]),
    );
    expect(breakdownsOf(stats.closedTrades, 'UTC')).toEqual(all7);
  });

  it("gives the trade after a netting reversal the reversing deal's magic", () => {
    const deals = [
      dealOf({ type: 'buy', entry: 'in', positionId: 'P', time: at(0, 9), volume: 1, magic: '5' }),
      // closes the long, opens a short of 1 lot: that deal opens the second trade
      dealOf({
        type: 'sell',
        entry: 'inout',
        positionId: 'P',
        time: at(0, 10),
        volume: 2,
        magic: '6',
      }),
      dealOf({ type: 'buy', entry: 'out', positionId: 'P', time: at(0, 11), volume: 1 }),
    ];
    expect(closedTrades(deals).map((t) => [t.positionId, t.direction, t.magic])).toEqual([
      ['P', 'long', '5'],
      ['P#2', 'short', '6'],
    ]);
  });

  it('counts a trade in the period it closed in: from inclusive, to exclusive', () => {
    // from E2's close to J2's close: E2 (closed at `from`), E3, J1; J2 (closed at `to`) is out
    const range = { from: closeOf('E2'), to: closeOf('J2') };
    const inRange = breakdownsOf(TRADES, 'UTC', range);
    // EURUSD: E2 -50, E3 0 (2 trades, no win, lots 2.5, pips -10); USDJPY: J1
    expectRows(inRange.symbols, [
      row('EURUSD', 2, 0, 2.5, 0, 50, -10),
      row('USDJPY', 1, 1, 1, 334.45, 0, 50),
    ]);
    // E2 opened at 09:40, before `from` (12:00 that day): its hour is still 9; E3 opened on
    // Wednesday, out of the range, closed on Thursday, in it
    expectRows(
      inRange.hours,
      all(HOUR_KEYS, [
        row('0', 1, 1, 1, 334.45, 0, 50),
        row('9', 1, 0, 0.5, 0, 50, -10),
        row('23', 1, 0, 2, 0, 0, 0),
      ]),
    );
    expect(inRange.weekdays.map((r) => r.trades)).toEqual([0, 1, 1, 1, 0, 0, 0]);
    expect(inRange.strategies.map((r) => [r.key, r.trades])).toEqual([
      [EA, 2],
      ['0', 1],
    ]);
    // a millisecond later at both ends: E2 out, J2 in (E3; J1, J2)
    const shifted = breakdownsOf(TRADES, 'UTC', { from: range.from + 1, to: range.to + 1 });
    expect(shifted.symbols.map((r) => [r.key, r.trades])).toEqual([
      ['USDJPY', 2],
      ['EURUSD', 1],
    ]);
    // open at either end
    expect(sumOf(breakdownsOf(TRADES, 'UTC', { from: closeOf('X1') }).symbols)).toBe(2);
    expect(sumOf(breakdownsOf(TRADES, 'UTC', { to: closeOf('E1') + 1 }).symbols)).toBe(1);
  });

  it('counts every trade once in each of the five splits', () => {
    for (const split of Object.values(all7) as BreakdownRow[][]) {
      expect(sumOf(split)).toBe(7);
      // 193 - 50 + 0 + 334.45 - 135 + 100 + 50 = 492.45
      expect(split.reduce((total, r) => total + r.profit, 0)).toBeCloseTo(492.45, 9);
    }
  });

  it('is empty in every split without trades in the period', () => {
    const none: Breakdowns = {
      symbols: [],
      hours: [],
      weekdays: [],
      directions: [],
      strategies: [],
    };
    expect(breakdownsOf([], 'Europe/Moscow')).toEqual(none);
    expect(breakdownsOf(TRADES, 'UTC', { to: closeOf('E1') })).toEqual(none);
    expect(breakdownsOf(TRADES, 'UTC', { from: closeOf('X2') + 1 })).toEqual(none);
    // from = to: an empty period
    expect(breakdownsOf(TRADES, 'UTC', { from: closeOf('J1'), to: closeOf('J1') })).toEqual(none);
  });
});

let tradeIds = 0;
/** A closed EURUSD trade for the tests that need only its times and result. */
function tradeAt(fields: Partial<Trade> & Pick<Trade, 'openTime' | 'result'>): Trade {
  tradeIds += 1;
  return {
    positionId: `t${tradeIds}`,
    symbol: 'EURUSD',
    direction: 'long',
    closeTime: fields.openTime + HOUR,
    volume: 1,
    openPrice: 1.1,
    closePrice: 1.1,
    pips: 0,
    magic: '0',
    ...fields,
  };
}
const sumOf = (rows: readonly BreakdownRow[]) => rows.reduce((total, r) => total + r.trades, 0);

// ---- the local hour and weekday --------------------------------------------------------------

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Moscow',
  'Asia/Kolkata', // +5:30
  'Asia/Kathmandu', // +5:45
  'Australia/Lord_Howe', // +10:30, half an hour more in summer
  'America/St_Johns', // -3:30 with daylight saving time
  'Pacific/Chatham', // +12:45 / +13:45
] as const;
const ISO_WEEKDAYS: Record<string, number> = {
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
  Sun: 7,
};
const clocks = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Intl.DateTimeFormat>();
const formatOf = (cache: Map<string, Intl.DateTimeFormat>, timeZone: string, options: object) => {
  let format = cache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    cache.set(timeZone, format);
  }
  return format;
};
/** The hour and the ISO weekday as Intl writes them. */
function intlClock(time: number, timeZone: string) {
  const parts = formatOf(clocks, timeZone, {
    hourCycle: 'h23',
    hour: 'numeric',
    weekday: 'short',
  }).formatToParts(time);
  return {
    hour: Number(parts.find((p) => p.type === 'hour')!.value),
    weekday: ISO_WEEKDAYS[parts.find((p) => p.type === 'weekday')!.value]!,
  };
}
/** The zone's offset as Intl names it ('GMT+05:45'). */
const intlOffset = (time: number, timeZone: string) =>
  formatOf(offsets, timeZone, { timeZoneName: 'longOffset' })
    .formatToParts(time)
    .find((p) => p.type === 'timeZoneName')!.value;

const FROM_1990 = Date.UTC(1990, 0, 1);
const TO_2040 = Date.UTC(2040, 0, 1);

/** The first millisecond of each offset change from 1990 to 2040 (none is within 2 weeks of another). */
function transitions(timeZone: string): number[] {
  const found: number[] = [];
  const step = 14 * DAY;
  for (let time = FROM_1990; time < TO_2040; time += step) {
    if (intlOffset(time, timeZone) === intlOffset(time + step, timeZone)) continue;
    let low = time; // the offset before the change
    let high = time + step; // the offset after it
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (intlOffset(middle, timeZone) === intlOffset(time, timeZone)) low = middle;
      else high = middle;
    }
    found.push(high);
  }
  return found;
}

describe('localHourAndWeekday', () => {
  it('starts at Thursday 00:00 in 1970 (UTC), Wednesday 23:00 a millisecond before', () => {
    expect(localHourAndWeekday(0, 'UTC')).toEqual({ hour: 0, weekday: 4 });
    expect(localHourAndWeekday(-1, 'UTC')).toEqual({ hour: 23, weekday: 3 });
    // further back the day count's remainder is negative: 20 July 1969 20:17 UTC was a Sunday
    // (day -165: (-165 + 3) mod 7 = 6, the seventh day from Monday)
    expect(localHourAndWeekday(Date.UTC(1969, 6, 20, 20, 17), 'UTC')).toEqual({
      hour: 20,
      weekday: 7,
    });
    // Monday 5 January 2026 00:00 UTC; 23:59:59.999 on the Sunday after
    expect(localHourAndWeekday(T0, 'UTC')).toEqual({ hour: 0, weekday: 1 });
    expect(localHourAndWeekday(T0 + 7 * DAY - 1, 'UTC')).toEqual({ hour: 23, weekday: 7 });
    // Kathmandu, +5:45: 18:15 UTC on Monday is 00:00 on Tuesday; a millisecond before, 23:59
    expect(localHourAndWeekday(at(0, 18, 15), 'Asia/Kathmandu')).toEqual({ hour: 0, weekday: 2 });
    expect(localHourAndWeekday(at(0, 18, 15) - 1, 'Asia/Kathmandu')).toEqual({
      hour: 23,
      weekday: 1,
    });
  });

  it('agrees with Intl at 2,000 times from 1990 to 2040', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: FROM_1990, max: TO_2040 }),
        fc.constantFrom(...ZONES),
        (time, zone) => {
          expect(
            localHourAndWeekday(time, zone),
            `${new Date(time).toISOString()} ${zone}`,
          ).toEqual(intlClock(time, zone));
        },
      ),
      { seed: 7, numRuns: 2000 },
    );
  });

  it('agrees with Intl within an hour of each daylight-saving change', () => {
    const random = mulberry32(11);
    let checked = 0;
    for (const zone of ZONES) {
      const changes = transitions(zone);
      // two a year for 50 years where the zone keeps daylight saving time (Chatham's and New
      // York's rules changed in 2007, St John's in 2011, still twice a year); none in the others
      if (['UTC', 'Asia/Kolkata', 'Asia/Kathmandu'].includes(zone)) expect(changes).toEqual([]);
      else if (zone === 'Europe/Moscow')
        expect(changes.length).toBeGreaterThan(20); // until 2014
      else expect(changes.length).toBeGreaterThanOrEqual(99);
      for (const change of changes) {
        // the last and first millisecond of each offset, the hour on either side, the half hours
        // (Lord Howe moves by 30 minutes, on a UTC half hour), and random times around it
        const times = [-HOUR, -HOUR / 2, -1, 0, 1, HOUR / 2, HOUR - 1, HOUR];
        for (let i = 0; i < 4; i += 1) times.push(Math.floor((random() * 2 - 1) * HOUR));
        // the offsets are read once per UTC hour: ask in either order
        if (random() < 0.5) times.reverse();
        for (const delta of times) {
          const time = change + delta;
          expect(
            localHourAndWeekday(time, zone),
            `${new Date(time).toISOString()} ${zone}`,
          ).toEqual(intlClock(time, zone));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(4000);
  });
});

// ---- trade returns ---------------------------------------------------------------------------

describe('tradeReturns', () => {
  const cash = (time: number, amount: number) => dealOf({ type: 'balance', time, profit: amount });
  const trade = (id: string, open: number, result: number, commission = 0) =>
    position(
      id,
      'buy',
      'EURUSD',
      5,
      1,
      { time: open, price: 1.1, commission },
      { time: open + HOUR, price: 1.1, profit: result - commission },
    );

  it('is each trade over the balance before it, its costs included', () => {
    // deposit 1000; A: 107 less 7 commission = +100 -> 100 / 1000 = 0.1 (balance 1100);
    // B: -55 -> -55 / 1100 = -0.05 (balance 1045)
    const stats = computeStatistics({
      deals: [cash(at(0, 8), 1000), ...trade('A', at(0, 9), 100, -7), ...trade('B', at(1, 9), -55)],
      snapshots: [],
      now: at(3, 0),
    });
    expect(stats.closedTrades.map((t) => t.result)).toEqual([100, -55]);
    expect(stats.tradeReturns).toHaveLength(2);
    expect(stats.tradeReturns[0]).toBeCloseTo(0.1, 12);
    expect(stats.tradeReturns[1]).toBeCloseTo(-0.05, 12);
    // AHPR: 1 + (0.1 - 0.05) / 2 = 1.025
    expect(stats.ratios.ahpr).toBeCloseTo(1.025, 12);
  });

  it('measures on the balance a deposit made', () => {
    // deposit 1000; +100 -> 0.1; deposit 900 (balance 2000); -50 -> -50 / 2000 = -0.025
    const stats = computeStatistics({
      deals: [
        cash(at(0, 8), 1000),
        ...trade('A', at(0, 9), 100),
        cash(at(1, 8), 900),
        ...trade('B', at(1, 9), -50),
      ],
      snapshots: [],
      now: at(3, 0),
    });
    expect(stats.tradeReturns[0]).toBeCloseTo(0.1, 12);
    expect(stats.tradeReturns[1]).toBeCloseTo(-0.025, 12);
  });

  it('leaves out the trades on a balance of zero or less', () => {
    // deposit 100; A -100 -> -1 (balance 0); B +10 on 0: out (10); deposit 50 (60);
    // C -90 -> -90 / 60 = -1.5 (balance -30); D +5 on -30: out (-25)
    const stats = computeStatistics({
      deals: [
        cash(at(0, 8), 100),
        ...trade('A', at(0, 9), -100),
        ...trade('B', at(1, 9), 10),
        cash(at(2, 8), 50),
        ...trade('C', at(2, 9), -90),
        ...trade('D', at(3, 9), 5),
      ],
      snapshots: [],
      now: at(5, 0),
    });
    expect(stats.closedTrades).toHaveLength(4);
    expect(stats.tradeReturns).toHaveLength(2);
    expect(stats.tradeReturns[0]).toBeCloseTo(-1, 12);
    expect(stats.tradeReturns[1]).toBeCloseTo(-1.5, 12);
  });

  it('is empty without closed trades', () => {
    const stats = computeStatistics({ deals: [cash(at(0, 8), 100)], snapshots: [], now: at(1, 0) });
    expect(stats.tradeReturns).toEqual([]);
  });
});

// ---- the risk of ruin ------------------------------------------------------------------------

const repeat = (value: number, times: number) => Array.from({ length: times }, () => value);
const relative = (actual: number, expected: number) => Math.abs(actual / expected - 1);
/** f(θ) = p·e^(-θw) + q·e^(θl) - (p + q): θ is its positive root. */
const lundberg = (theta: number, p: number, w: number, q: number, l: number) =>
  p * Math.exp(-theta * w) + q * Math.exp(theta * l) - (p + q);

/** A small seeded generator (mulberry32), uniform in [0, 1). */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('riskOfRuin', () => {
  it('needs RUIN_MIN_TRADES returns', () => {
    expect(RUIN_MIN_TRADES).toBe(20);
    const tooFew = { estimate: null, reason: 'too_few_trades' };
    expect(riskOfRuin([])).toEqual(tooFew);
    expect(riskOfRuin([...repeat(0.02, 10), ...repeat(-0.01, 9)])).toEqual(tooFew);
    // too few comes first, even without losses
    expect(riskOfRuin(repeat(0.02, 19))).toEqual(tooFew);
    expect(riskOfRuin([...repeat(0.02, 10), ...repeat(-0.01, 10)]).estimate).not.toBeNull();
  });

  it('has nothing to estimate from without losses', () => {
    const noLosses = { estimate: null, reason: 'no_losses' };
    expect(riskOfRuin([...repeat(0.02, 15), ...repeat(0, 5)])).toEqual(noLosses);
    expect(riskOfRuin(repeat(0, 20))).toEqual(noLosses);
  });

  /*
   * 10 wins of 0.02 and 10 losses of 0.01: p = q = 0.5, w = 0.02, l = 0.01.
   * 0.5·e^(-0.02θ) + 0.5·e^(0.01θ) = 1; with u = e^(0.01θ): 1/u² + u = 2, u³ - 2u² + 1 = 0,
   * (u - 1)(u² - u - 1) = 0, so u = φ = (1 + √5) / 2 (u = 1 is θ = 0), θ = 100·ln φ ≈ 48.1212,
   * and P(losing x) = e^(-θx) = φ^(-100x): φ^(-10) ≈ 0.00813 at 10 %, φ^(-100) ≈ 1.26e-21 at 100 %.
   */
  const PHI = (1 + Math.sqrt(5)) / 2;
  const HAND = [...repeat(0.02, 10), ...repeat(-0.01, 10)];

  it('solves a hand-computed case: θ = 100·ln φ, P(x) = φ^(-100x)', () => {
    const { estimate } = riskOfRuin(HAND);
    expect(estimate).not.toBeNull();
    expect(estimate!.trades).toBe(20);
    expect(estimate!.winRate).toBe(0.5);
    expect(estimate!.averageWin).toBeCloseTo(0.02, 15);
    expect(estimate!.averageLoss).toBeCloseTo(0.01, 15);
    expect(relative(estimate!.theta, 100 * Math.log(PHI))).toBeLessThan(1e-9);
    expect(estimate!.levels.map((l) => l.loss)).toEqual([...RUIN_LEVELS]);
    expect(RUIN_LEVELS).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    for (const level of estimate!.levels)
      expect(relative(level.probability, PHI ** (-100 * level.loss))).toBeLessThan(1e-9);
    expect(estimate!.levels[0]!.probability).toBeCloseTo(0.00813, 5);
    // in any order
    expect(riskOfRuin([...HAND].reverse())).toEqual(riskOfRuin(HAND));
  });

  it('lets break-even trades dilute the win rate but not θ', () => {
    // 5 more zeros: p = q = 10/25 = 0.4, r = 0.2; 0.4·e^(-0.02θ) + 0.4·e^(0.01θ) + 0.2 = 1 is
    // the same equation times 0.8
    const { estimate } = riskOfRuin([...HAND, ...repeat(0, 5)]);
    expect(estimate!.trades).toBe(25);
    expect(estimate!.winRate).toBe(0.4);
    expect(estimate!.averageWin).toBeCloseTo(0.02, 15);
    expect(estimate!.averageLoss).toBeCloseTo(0.01, 15);
    expect(relative(estimate!.theta, riskOfRuin(HAND).estimate!.theta)).toBeLessThan(1e-10);
    expect(relative(estimate!.theta, 100 * Math.log(PHI))).toBeLessThan(1e-9);
  });

  it('makes every loss certain when the trades do not win on average', () => {
    const certain = (returns: number[]) => {
      const { estimate } = riskOfRuin(returns);
      expect(estimate!.theta).toBe(0);
      expect(estimate!.levels.map((l) => l.probability)).toEqual(repeat(1, RUIN_LEVELS.length));
      return estimate!;
    };
    // expectancy 0.5·0.01 - 0.5·0.01 = 0
    certain([...repeat(0.01, 10), ...repeat(-0.01, 10)]);
    // 0.25·0.02 - 0.75·0.01 = -0.0025
    certain([...repeat(0.02, 5), ...repeat(-0.01, 15)]);
    // no win at all: average win 0
    const losing = certain([...repeat(-0.01, 18), 0, 0]);
    expect(losing.winRate).toBe(0);
    expect(losing.averageWin).toBe(0);
    expect(losing.averageLoss).toBeCloseTo(0.01, 15);
  });

  it('gives probabilities in [0, 1] falling with the loss, θ the root of its equation', () => {
    // returns in steps of 0.0001 (whole numbers of basis points: the expectancy's sign is exact)
    const basisPoints = fc.oneof(
      fc.constant(0),
      fc.integer({ min: -3000, max: 3000 }),
      fc.integer({ min: -150, max: 400 }),
    );
    fc.assert(
      fc.property(fc.array(basisPoints, { minLength: 20, maxLength: 80 }), (points) => {
        const returns = points.map((b) => b / 10_000);
        const result = riskOfRuin(returns);
        const n = returns.length;
        const wins = returns.filter((r) => r > 0);
        const losses = returns.filter((r) => r < 0);
        if (losses.length === 0) {
          expect(result).toEqual({ estimate: null, reason: 'no_losses' });
          return;
        }
        const estimate = result.estimate!;
        const p = wins.length / n;
        const q = losses.length / n;
        const w = wins.length > 0 ? wins.reduce((a, b) => a + b, 0) / wins.length : 0;
        const l = -losses.reduce((a, b) => a + b, 0) / losses.length;
        expect(estimate.trades).toBe(n);
        expect(estimate.winRate).toBeCloseTo(p, 12);
        expect(estimate.averageWin).toBeCloseTo(w, 12);
        expect(estimate.averageLoss).toBeCloseTo(l, 12);
        expect(estimate.theta).toBeGreaterThanOrEqual(0);
        expect(Number.isFinite(estimate.theta)).toBe(true);
        expect(estimate.levels.map((level) => level.loss)).toEqual([...RUIN_LEVELS]);
        let previous = 1;
        for (const { probability } of estimate.levels) {
          expect(probability).toBeGreaterThanOrEqual(0);
          expect(probability).toBeLessThanOrEqual(previous);
          previous = probability;
        }
        const expectancy = points.reduce((a, b) => a + b, 0); // in basis points, exact
        if (expectancy <= 0) {
          for (const { probability } of estimate.levels) expect(probability).toBeCloseTo(1, 9);
          return;
        }
        const theta = estimate.theta;
        expect(theta).toBeGreaterThan(0);
        expect(estimate.levels[0]!.probability).toBeLessThan(1);
        for (const { loss, probability } of estimate.levels)
          expect(probability).toBeCloseTo(Math.exp(-theta * loss), 12);
        // the root to ~1e-9 of θ: |f(θ)| within 1e-9 of θ·|f'| (f' bounded by p·w + q·l·e^(θl)),
        // and f changes sign 0.1 % either side of it
        const slope = p * w + q * l * Math.exp(theta * l);
        expect(Math.abs(lundberg(theta, p, w, q, l))).toBeLessThanOrEqual(
          1e-9 * theta * slope + 1e-15,
        );
        expect(lundberg(theta * 0.999, p, w, q, l)).toBeLessThan(0);
        expect(lundberg(theta * 1.001, p, w, q, l)).toBeGreaterThan(0);
      }),
      { seed: 23, numRuns: 300 },
    );
  });

  /*
   * Equal steps of 0.01, p = 0.55: 0.55·e^(-0.01θ) + 0.45·e^(0.01θ) = 1; with v = e^(0.01θ):
   * 0.45v² - v + 0.55 = 0, v = (1 ± √(1 - 0.99)) / 0.9 = 11/9 (or 1), so P(losing 10 %) =
   * v^(-10) = (9/11)^10 ≈ 0.13443. The walk in steps of 0.01 is the gambler's ruin from 10 steps
   * above ruin with ρ = q/p = 9/11: stopped 100 steps up, P = (ρ^10 - ρ^110) / (1 - ρ^110), and
   * ρ^110 ≈ 2.6e-10: the estimate is exact (steps divide 0.1, no overshoot). 4,000 walks: the
   * share ruined has a standard deviation of √(0.134·0.866/4000) ≈ 0.0054; 0.02 is 3.7 of them.
   */
  it('matches a seeded simulation of the walk it models (equal steps)', () => {
    const { estimate } = riskOfRuin([...repeat(0.01, 11), ...repeat(-0.01, 9)]);
    const p10 = estimate!.levels[0]!.probability;
    const rho = 9 / 11;
    expect(Math.abs(p10 - (rho ** 10 - rho ** 110) / (1 - rho ** 110))).toBeLessThan(1e-8);
    expect(p10).toBeCloseTo(0.13443, 5);

    const random = mulberry32(2024);
    const walks = 4000;
    let ruined = 0;
    for (let walk = 0; walk < walks; walk += 1) {
      let steps = 0; // in hundredths of today's balance
      while (steps > -10 && steps < 100) steps += random() < 0.55 ? 1 : -1;
      if (steps <= -10) ruined += 1;
    }
    expect(Math.abs(p10 - ruined / walks)).toBeLessThan(0.02);
  });
});
