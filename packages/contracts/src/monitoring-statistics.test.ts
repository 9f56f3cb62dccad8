import { describe, expect, it } from 'vitest';
import {
  closedTrades,
  computeStatistics,
  localDay,
  normalizeDeals,
  periodTable,
  type StatDeal,
  type StatSnapshot,
} from './monitoring-statistics.ts';
import { dealOf } from './monitoring-statistics.terminal.ts';

/**
 * Hand-computed histories: each expected figure is worked out in the comment above it, from the
 * definitions in monitoring-statistics.ts.
 */

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 5); // a Monday, 00:00 UTC
const at = (day: number, hour = 12) => T0 + day * DAY + hour * 3_600_000;

const deal = dealOf;
const cash = (time: number, amount: number, equityBefore?: number) =>
  deal({ type: 'balance', time, profit: amount, equityBefore });
/** A position opened and closed: its two deals. */
function trade(
  position: string,
  side: 'buy' | 'sell',
  open: { time: number; price: number; commission?: number },
  close: { time: number; price: number; profit: number; swap?: number },
  volume = 1,
  symbol = 'EURUSD',
  digits = 5,
): StatDeal[] {
  const closing = side === 'buy' ? 'sell' : 'buy';
  return [
    deal({ type: side, entry: 'in', positionId: position, symbol, digits, volume, ...open }),
    deal({ type: closing, entry: 'out', positionId: position, symbol, digits, volume, ...close }),
  ];
}

describe('several deposits and a withdrawal', () => {
  // day 0 deposit 1000; A long +100 less 7 commission = 93 (balance 1093);
  // day 2 deposit 500 (equity 1093 before it); B short -159.30 (balance 1433.70);
  // day 4 withdrawal 433.70; C long +50 (balance 1050)
  const deals = [
    cash(at(0), 1000),
    ...trade(
      'A',
      'buy',
      { time: at(1, 9), price: 1.1, commission: -7 },
      { time: at(1, 15), price: 1.101, profit: 100 },
    ),
    cash(at(2), 500, 1093),
    ...trade(
      'B',
      'sell',
      { time: at(3, 9), price: 1.1 },
      { time: at(3, 15), price: 1.10159, profit: -159.3 },
    ),
    cash(at(4), -433.7, 1433.7),
    ...trade(
      'C',
      'buy',
      { time: at(5, 9), price: 1.1 },
      { time: at(5, 15), price: 1.1005, profit: 50 },
    ),
  ];
  const stats = computeStatistics({ deals, snapshots: [], now: at(10) });

  it('gains time-weighted: 1093/1000 x 1433.7/1593 x 1050/1000 - 1', () => {
    // 1.093 x 0.9 x 1.05 = 1.032885
    expect(stats.gain).toBeCloseTo(0.032885, 10);
    expect(stats.deposits).toBeCloseTo(1500, 10);
    expect(stats.withdrawals).toBeCloseTo(433.7, 10);
    expect(stats.balance).toBeCloseTo(1050, 10);
    // net of the trades (93 - 159.3 + 50 = -16.3) over the deposits
    expect(stats.profit).toBeCloseTo(-16.3, 10);
    expect(stats.absoluteGain).toBeCloseTo(-16.3 / 1500, 10);
    // 10 days since the first deposit
    expect(stats.dailyGain).toBeCloseTo(1.032885 ** (1 / 10) - 1, 12);
    expect(stats.monthlyGain).toBeCloseTo(1.032885 ** (30.4375 / 10) - 1, 12);
  });

  it('measures drawdown on the index, where the withdrawal is not a fall', () => {
    // the index peaks at 1.093 after A and falls to 1.093 x 0.9 after B: 10 %
    expect(stats.maxDrawdown).toBeCloseTo(0.1, 10);
    expect(stats.equityDrawdown).toBeCloseTo(0.1, 10);
    // cumulative results 93, -66.3, -16.3: a fall of 159.3 from 93, and 66.3 below zero
    expect(stats.drawdownMoney).toBeCloseTo(159.3, 10);
    expect(stats.absoluteDrawdown).toBeCloseTo(66.3, 10);
  });

  it('counts the trades, their pips and their ratios', () => {
    const figures = stats.trades;
    expect(figures).toMatchObject({ count: 3, wins: 2, losses: 1, lots: 3 });
    expect(figures.winRate).toBeCloseTo(2 / 3, 12);
    expect(figures.profitFactor).toBeCloseTo(143 / 159.3, 12);
    expect(figures.averageWin).toBeCloseTo(71.5, 12);
    expect(figures.averageLoss).toBeCloseTo(-159.3, 12);
    expect(figures.expectancy).toBeCloseTo(-16.3 / 3, 12);
    expect(figures.best).toBeCloseTo(93, 12);
    expect(figures.worst).toBeCloseTo(-159.3, 12);
    // A +10 pips, B (short, 1.10000 -> 1.10159) -15.9 pips, C +5 pips
    expect(figures.pips).toBeCloseTo(10 - 15.9 + 5, 8);
    expect(figures.longsWon).toBe(1);
    expect(figures.shortsWon).toBe(0);
    expect(figures.longestWinStreak).toEqual({ count: 1, money: 93 });
    expect(figures.longestLossStreak).toEqual({ count: 1, money: -159.3 });
    expect(figures.averageLengthMs).toBe(6 * 3_600_000);
    // 3 trades from day 1 09:00 to day 10 12:00
    expect(figures.tradesPerWeek).toBeCloseTo(3 / ((9 * 24 + 3) / (7 * 24)), 12);

    // holding-period returns: 1093/1000, 1433.7/1593, 1050/1000
    const hprs = [1.093, 0.9, 1.05];
    const mean = (1.093 + 0.9 + 1.05) / 3;
    const sd = Math.sqrt(hprs.reduce((s, h) => s + (h - mean) ** 2, 0) / 3);
    expect(stats.ratios.ahpr).toBeCloseTo(mean, 12);
    expect(stats.ratios.ghpr).toBeCloseTo((1.093 * 0.9 * 1.05) ** (1 / 3), 12);
    expect(stats.ratios.sharpe).toBeCloseTo((mean - 1) / sd, 10);
    expect(stats.ratios.recoveryFactor).toBeCloseTo(-16.3 / 159.3, 12);
    // win, loss, win: 3 runs; n = 3, x = 2 x 2 x 1 = 4: (3 x 2.5 - 4) / sqrt(4 x 1 / 2)
    expect(stats.ratios.zScore).toBeCloseTo(3.5 / Math.SQRT2, 12);
    // three 6-hour trades over the time from the first trade deal to now (9 days 3 hours)
    expect(stats.ratios.activity).toBeCloseTo(18 / (9 * 24 + 3), 12);
  });

  it('gives daily and monthly gain and profit in the account’s time zone', () => {
    const days = periodTable(stats, 'day', 'UTC');
    expect(days.map((d) => d.period)).toEqual([
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
      '2026-01-08',
      '2026-01-09',
      '2026-01-10',
    ]);
    const day = (period: string) => days.find((d) => d.period === period)!;
    expect(day('2026-01-06').gain).toBeCloseTo(0.093, 12);
    expect(day('2026-01-06').profit).toBeCloseTo(93, 12);
    expect(day('2026-01-08').gain).toBeCloseTo(-0.1, 12);
    expect(day('2026-01-09').gain).toBeCloseTo(0, 12); // the withdrawal
    expect(day('2026-01-10').gain).toBeCloseTo(0.05, 12);
    const months = periodTable(stats, 'month', 'UTC');
    expect(months).toHaveLength(1);
    expect(months[0]!.gain).toBeCloseTo(0.032885, 10);
    expect(months[0]!.trades).toBe(3);
    // the picker's range
    expect(
      periodTable(stats, 'day', 'UTC', { from: at(2), to: at(4) }).map((d) => d.period),
    ).toEqual(['2026-01-07', '2026-01-08', '2026-01-09']);
  });
});

describe('a deposit made while a trade is open', () => {
  // deposit 1000; a trade opens; with it 50 down (equity 950) 1000 more comes in; it closes +100
  const deals = [
    cash(at(0), 1000),
    deal({ type: 'buy', entry: 'in', positionId: 'P', time: at(1), volume: 1, price: 1.1 }),
    cash(at(2), 1000, 950),
    deal({
      type: 'sell',
      entry: 'out',
      positionId: 'P',
      time: at(3),
      volume: 1,
      price: 1.101,
      profit: 100,
    }),
  ];
  const stats = computeStatistics({ deals, snapshots: [], now: at(4) });

  it('does not move the gain at the deposit: the period before it ends at the equity then', () => {
    // 950/1000 x 2100/1950 - 1: the deposit adds nothing, the trade's result counts on what was in
    expect(stats.gain).toBeCloseTo(0.95 * (2100 / 1950) - 1, 12);
    const atDeposit = stats.index.find((p) => p.time === at(2))!;
    expect(atDeposit.index).toBeCloseTo(0.95, 12);
    expect(stats.deposits).toBe(2000);
    expect(stats.absoluteGain).toBeCloseTo(100 / 2000, 12);
  });
});

describe('credit and bonus', () => {
  // deposit 1000; the broker credits 500; a trade +100; the credit is taken back; a bonus of 50
  const deals = [
    cash(at(0), 1000),
    deal({ type: 'credit', time: at(1), profit: 500 }),
    ...trade(
      'T',
      'buy',
      { time: at(2, 9), price: 1.1 },
      { time: at(2, 15), price: 1.101, profit: 100 },
    ),
    deal({ type: 'credit', time: at(3), profit: -500 }),
    deal({ type: 'bonus', time: at(4), profit: 50 }),
  ];
  const snapshots: StatSnapshot[] = [
    { time: at(2, 16), balance: 1100, equity: 1600, margin: 0, credit: 500 },
  ];
  const stats = computeStatistics({ deals, snapshots, now: at(5) });

  it('are never profit, deposit or drawdown', () => {
    expect(stats.gain).toBeCloseTo(0.1, 12);
    expect(stats.profit).toBeCloseTo(100, 12);
    expect(stats.deposits).toBe(1000);
    expect(stats.maxDrawdown).toBe(0);
    expect(stats.equityDrawdown).toBe(0);
    expect(stats.absoluteGain).toBeCloseTo(0.1, 12);
    expect(stats.balance).toBeCloseTo(1150, 12);
  });
});

describe('grouping deals into trades', () => {
  it('MT5: a position closed in parts is one trade once fully closed; hedged positions are apart', () => {
    const deals = [
      deal({
        symbol: 'EURUSD',
        type: 'buy',
        entry: 'in',
        positionId: '7',
        time: at(0, 1),
        volume: 1,
        price: 1.1,
        commission: -3,
      }),
      deal({ type: 'sell', entry: 'in', positionId: '8', time: at(0, 2), volume: 0.5, price: 1.1 }),
      deal({
        symbol: 'EURUSD',
        type: 'sell',
        entry: 'out',
        positionId: '7',
        time: at(0, 3),
        volume: 0.4,
        price: 1.102,
        profit: 80,
      }),
      deal({
        type: 'sell',
        entry: 'out',
        positionId: '7',
        time: at(0, 4),
        volume: 0.6,
        price: 1.097,
        profit: -180,
        swap: -1,
      }),
    ];
    const trades = closedTrades(deals);
    expect(trades).toHaveLength(1); // position 8 is still open
    expect(trades[0]).toMatchObject({
      positionId: '7',
      direction: 'long',
      volume: 1,
      openTime: at(0, 1),
      closeTime: at(0, 4),
    });
    expect(trades[0]!.result).toBeCloseTo(-104, 12);
    // closing price weighted by volume: (1.102 x 0.4 + 1.097 x 0.6) = 1.099: -10 pips
    expect(trades[0]!.closePrice).toBeCloseTo(1.099, 12);
    expect(trades[0]!.pips).toBeCloseTo(-10, 8);
    // the first part alone is not a trade yet
    expect(closedTrades(deals.slice(0, 3))).toEqual([]);
  });

  it('MT4: each order, sent as an in and an out deal under its ticket, is a trade', () => {
    const deals = [
      ...trade(
        '1001',
        'sell',
        { time: at(0, 1), price: 150 },
        { time: at(0, 5), price: 149.5, profit: 334.45 },
        1,
        'USDJPY',
        3,
      ),
      ...trade(
        '1002',
        'buy',
        { time: at(0, 2), price: 2000 },
        { time: at(0, 3), price: 2001, profit: 100 },
        1,
        'XAUUSD',
        2,
      ),
    ];
    const trades = closedTrades(deals);
    expect(trades.map((t) => [t.positionId, t.direction])).toEqual([
      ['1002', 'long'],
      ['1001', 'short'],
    ]);
    // 3-digit quote: a pip is 10 points (0.01): 0.5 / 0.01; gold is no currency pair, and its
    // 0.01 no pip
    expect(trades[1]!.pips).toBeCloseTo(50, 8);
    expect(trades[0]!.pips).toBeNull();
  });
});

describe('holding-period returns', () => {
  it('are taken once a trade’s last deal is in, when deals share its opening or closing millisecond', () => {
    const t = at(1);
    const deals = [
      cash(at(0), 1000),
      // A: opened (commission -1), then closed in two parts in one millisecond (+50, +50):
      // result 99, balance 1000 -> 1099: 1099 / 1000
      deal({ type: 'buy', entry: 'in', positionId: 'A', time: t, volume: 1, commission: -1 }),
      deal({ type: 'sell', entry: 'out', positionId: 'A', time: t + 1, volume: 0.5, profit: 50 }),
      deal({ type: 'sell', entry: 'out', positionId: 'A', time: t + 1, volume: 0.5, profit: 50 }),
      // B: opened (commission -2) and closed (+30) in the same millisecond: result 28,
      // balance 1099 -> 1127: 1127 / 1099
      deal({ type: 'sell', entry: 'in', positionId: 'B', time: t + 2, volume: 1, commission: -2 }),
      deal({ type: 'buy', entry: 'out', positionId: 'B', time: t + 2, volume: 1, profit: 30 }),
    ];
    const stats = computeStatistics({ deals, snapshots: [], now: at(2) });
    const hprs = [1099 / 1000, 1127 / 1099];
    expect(stats.ratios.ahpr).toBeCloseTo((hprs[0]! + hprs[1]!) / 2, 12);
    expect(stats.ratios.ghpr).toBeCloseTo(Math.sqrt(hprs[0]! * hprs[1]!), 12);
  });
});

describe('edge histories', () => {
  it('no trades: the counts are zero and the ratios have no value', () => {
    const stats = computeStatistics({ deals: [cash(at(0), 1000)], snapshots: [], now: at(1) });
    expect(stats.gain).toBe(0);
    expect(stats.trades).toMatchObject({
      count: 0,
      winRate: null,
      profitFactor: null,
      expectancy: null,
      best: null,
      tradesPerWeek: null,
    });
    expect(stats.ratios).toMatchObject({
      ahpr: null,
      sharpe: null,
      zScore: null,
      recoveryFactor: null,
    });
  });

  it('only losses: profit factor 0, a losing streak over all of them', () => {
    const deals = [
      cash(at(0), 1000),
      ...trade(
        'L1',
        'buy',
        { time: at(1, 1), price: 1.1 },
        { time: at(1, 2), price: 1.099, profit: -100 },
      ),
      ...trade(
        'L2',
        'buy',
        { time: at(1, 3), price: 1.1 },
        { time: at(1, 4), price: 1.0995, profit: -50 },
      ),
    ];
    const stats = computeStatistics({ deals, snapshots: [], now: at(2) });
    expect(stats.trades.profitFactor).toBe(0);
    expect(stats.trades.longestLossStreak).toEqual({ count: 2, money: -150 });
    expect(stats.trades.winRate).toBe(0);
    expect(stats.gain).toBeCloseTo(-0.15, 12);
    // 1000 -> 900 -> 850: 15 % from the peak
    expect(stats.maxDrawdown).toBeCloseTo(0.15, 12);
    expect(stats.absoluteDrawdown).toBeCloseTo(150, 12);
    expect(stats.ratios.zScore).toBeNull();
  });

  it('only wins: "no losses" (no profit factor), no drawdown', () => {
    const deals = [
      cash(at(0), 1000),
      ...trade(
        'W1',
        'sell',
        { time: at(1, 1), price: 1.1 },
        { time: at(1, 2), price: 1.099, profit: 100 },
      ),
      ...trade(
        'W2',
        'buy',
        { time: at(1, 3), price: 1.1 },
        { time: at(1, 4), price: 1.101, profit: 100 },
      ),
    ];
    const stats = computeStatistics({ deals, snapshots: [], now: at(2) });
    expect(stats.trades.profitFactor).toBeNull();
    expect(stats.trades.longestWinStreak).toEqual({ count: 2, money: 200 });
    expect(stats.maxDrawdown).toBe(0);
    expect(stats.drawdownMoney).toBe(0);
    expect(stats.ratios.recoveryFactor).toBeNull();
  });

  it('equity snapshots deepen the equity drawdown, and give the largest deposit load', () => {
    const deals = [
      cash(at(0), 1000),
      deal({ type: 'buy', entry: 'in', positionId: 'O', time: at(1), volume: 1, price: 1.1 }),
    ];
    const snapshots: StatSnapshot[] = [
      { time: at(1, 13), balance: 1000, equity: 950, margin: 200, credit: 0, equityLow: 900 },
      { time: at(1, 14), balance: 1000, equity: 1020, margin: 204, credit: 0, equityLow: 1000 },
    ];
    const stats = computeStatistics({ deals, snapshots, now: at(1, 15) });
    expect(stats.maxDrawdown).toBe(0); // no trade closed
    expect(stats.equityDrawdown).toBeCloseTo(0.1, 12); // the low of 900
    expect(stats.gain).toBeCloseTo(0.02, 12); // equity now
    expect(stats.ratios.maxDepositLoad).toBeCloseTo(200 / 950, 12);
  });
});

describe('days in the account’s time zone', () => {
  it('a trade closed at 22:30 UTC is the next day’s in Moscow (UTC+3) and the same day’s in New York', () => {
    const deals = [
      cash(at(0, 8), 1000),
      ...trade(
        'N',
        'buy',
        { time: at(0, 20), price: 1.1 },
        { time: at(0, 22.5), price: 1.101, profit: 100 },
      ),
    ];
    const stats = computeStatistics({ deals, snapshots: [], now: at(1, 12) });
    const profitDays = (zone: string) =>
      periodTable(stats, 'day', zone)
        .filter((d) => d.trades > 0)
        .map((d) => [d.period, d.profit, Number(d.gain.toFixed(12))]);
    expect(profitDays('Europe/Moscow')).toEqual([['2026-01-06', 100, 0.1]]);
    expect(profitDays('America/New_York')).toEqual([['2026-01-05', 100, 0.1]]);
  });

  it('localDay is the calendar day Intl gives, across DST changes and odd offsets', () => {
    const byIntl = (format: Intl.DateTimeFormat, time: number) => format.format(time);
    // a year of each zone's midnights and DST changes: Lord Howe moves by half an hour, Kathmandu
    // is UTC+5:45, Chatham +12:45/+13:45, Sao Paulo ended DST at midnight, and Tehran (+3:30) went
    // back from 00:00 to 23:00, at 19:30 UTC: an hour with two offsets, on two dates
    const zones = [
      'UTC',
      'Europe/Moscow',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'America/Sao_Paulo',
      'Asia/Tehran',
    ];
    const start = Date.UTC(2018, 0, 1);
    for (const zone of zones) {
      const format = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      const wrong: string[] = [];
      const check = (time: number) => {
        if (localDay(time, zone) !== byIntl(format, time)) wrong.push(new Date(time).toISOString());
      };
      for (let time = start; time < start + 366 * 86_400_000; time += 15 * 60_000) {
        // a quarter hour's last and first millisecond: where midnights and changes fall
        check(time - 1);
        check(time);
      }
      expect({ zone, wrong: wrong.slice(0, 3) }).toEqual({ zone, wrong: [] });
    }
    // times in no order, zones taking turns: the day named last is no answer for these
    const formats = zones.map(
      (timeZone) =>
        new Intl.DateTimeFormat('en-CA', {
          timeZone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        }),
    );
    let seed = 3;
    const wrong: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      seed = (seed * 16_807) % 2_147_483_647;
      const z = seed % zones.length;
      const time = start + (seed % (366 * 96)) * 15 * 60_000 - (seed % 3);
      if (localDay(time, zones[z]!) !== byIntl(formats[z]!, time))
        wrong.push(`${zones[z]} ${new Date(time).toISOString()}`);
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  }, 30_000);
});

describe('properties', () => {
  const base = [
    cash(at(0), 1000),
    ...trade(
      'A',
      'buy',
      { time: at(1, 9), price: 1.1 },
      { time: at(1, 15), price: 1.1012, profit: 120 },
    ),
    cash(at(2), 300, 1120),
    ...trade(
      'B',
      'sell',
      { time: at(3, 9), price: 1.1 },
      { time: at(3, 15), price: 1.1004, profit: -40 },
    ),
    cash(at(4), -200, 1380),
  ];
  const reference = computeStatistics({ deals: base, snapshots: [], now: at(6) });

  it('figures do not depend on the order or repetition of the batches', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (let round = 0; round < 20; round += 1) {
      const batches = [...base, ...base.filter(() => random() < 0.5)].sort(() => random() - 0.5);
      expect(computeStatistics({ deals: batches, snapshots: [], now: at(6) })).toEqual(reference);
    }
  });

  it('deals the caller says are each ticket once give the same figures, in order or not', () => {
    const ordered = normalizeDeals(base);
    const unique = (deals: StatDeal[]) =>
      computeStatistics({ deals, snapshots: [], now: at(6), uniqueTickets: true });
    expect(unique(ordered)).toEqual(reference);
    expect(unique([...ordered].reverse())).toEqual(reference);
  });

  it('splitting a deposit in two at the same moment changes nothing', () => {
    const split = [
      cash(at(0), 600),
      cash(at(0), 400, 600),
      ...base.slice(1, 3),
      cash(at(2), 100, 1120),
      cash(at(2), 200, 1220),
      ...base.slice(4),
    ];
    const stats = computeStatistics({ deals: split, snapshots: [], now: at(6) });
    for (const figure of [
      'gain',
      'deposits',
      'withdrawals',
      'profit',
      'maxDrawdown',
      'absoluteGain',
    ] as const)
      expect(stats[figure], figure).toBeCloseTo(reference[figure]!, 12);
  });
});
