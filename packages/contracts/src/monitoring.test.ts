import { describe, expect, it } from 'vitest';
import {
  INGEST_DEALS_MAX,
  INGEST_FIELDS,
  INGEST_PING_MS_MAX,
  ingestDealsSchema,
  ingestHelloSchema,
  ingestPositionSchema,
  ingestSnapshotSchema,
} from './monitoring-ingest.ts';
import {
  enlargementPriceCents,
  MONITORING_SEED_ACCOUNT_MONTH_CENTS,
  MONITORING_SEED_DISCOUNTS,
  monitoringPrice,
} from './monitoring.ts';

const seed = {
  accountMonthCents: MONITORING_SEED_ACCOUNT_MONTH_CENTS,
  discounts: MONITORING_SEED_DISCOUNTS,
};

describe('monitoringPrice', () => {
  it('charges accounts x months x $3 less the discount of the longest period reached', () => {
    // 5 accounts, 3 months: $45, 5 % off = $42.75
    expect(monitoringPrice({ ...seed, accounts: 5, months: 3 })).toEqual({
      baseCents: 4500,
      discountPercent: 5,
      discountCents: 225,
      totalCents: 4275,
    });
    // 1 account, 1 month: $3, no discount
    expect(monitoringPrice({ ...seed, accounts: 1, months: 1 }).totalCents).toBe(300);
    // 4 months reach the 3-month discount; 11 the 6-month one; 12 the 12-month one
    expect(monitoringPrice({ ...seed, accounts: 1, months: 4 }).discountPercent).toBe(5);
    expect(monitoringPrice({ ...seed, accounts: 1, months: 11 }).discountPercent).toBe(10);
    // 50 accounts, 12 months: $1,800, 15 % off = $1,530
    expect(monitoringPrice({ ...seed, accounts: 50, months: 12 }).totalCents).toBe(153_000);
  });

  it('rounds the discount to a cent, and follows the operator’s prices in any order', () => {
    const price = monitoringPrice({
      accounts: 3,
      months: 7,
      accountMonthCents: 333,
      discounts: [
        { months: 6, percent: 7 },
        { months: 1, percent: 0 },
        { months: 3, percent: 3 },
      ],
    });
    // 3 x 7 x 333 = 6993; 7 % = 489.51 -> 490
    expect(price).toEqual({
      baseCents: 6993,
      discountPercent: 7,
      discountCents: 490,
      totalCents: 6503,
    });
  });
});

describe('enlargementPriceCents', () => {
  it('prices the added accounts for the days left, a month being 30 days, rounded up', () => {
    const from = new Date('2026-03-01T10:00:00Z');
    // 2 accounts x $3 x 15/30 = $3
    expect(enlargementPriceCents(2, 300, from, new Date('2026-03-16T10:00:00Z'))).toBe(300);
    // 1 account x $3 x 7/30 = 70 cents
    expect(enlargementPriceCents(1, 300, from, new Date('2026-03-08T09:00:00Z'))).toBe(70);
    // 1 x 333 x 1/30 = 11.1 -> 12
    expect(enlargementPriceCents(1, 333, from, new Date('2026-03-02T10:00:00Z'))).toBe(12);
    expect(enlargementPriceCents(1, 300, from, from)).toBe(0);
  });
});

describe('the ingestion protocol', () => {
  it('keeps the names the publishers send', () => {
    expect(INGEST_FIELDS).toEqual({
      hello: [
        'platform',
        'login',
        'server',
        'company',
        'currency',
        'leverage',
        'trade_mode',
        'margin_mode',
        'server_time_offset_sec',
        'ea_version',
        'sessions',
      ],
      session: ['day', 'from', 'to'],
      deals: ['login', 'deals'],
      deal: [
        'ticket',
        'order',
        'position_id',
        'time',
        'type',
        'entry',
        'symbol',
        'digits',
        'volume',
        'price',
        'profit',
        'swap',
        'commission',
        'fee',
        'magic',
        'comment',
        'equity_before',
        'mae',
        'mfe',
        'mae_points',
        'mfe_points',
      ],
      snapshot: [
        'login',
        'time',
        'balance',
        'equity',
        'margin',
        'free_margin',
        'credit',
        'equity_low',
        'equity_high',
        'terminal_connected',
        'positions',
        'positions_total',
        'ping_ms',
        'trade_allowed',
        'ea_trade_allowed',
      ],
      position: [
        'ticket',
        'symbol',
        'type',
        'volume',
        'open_time',
        'open_price',
        'current_price',
        'sl',
        'tp',
        'profit',
        'swap',
        'mae',
        'mfe',
        'mae_points',
        'mfe_points',
      ],
    });
  });

  const hello = {
    platform: 'MT5',
    login: 5012345,
    server: 'Broker-Live',
    company: 'Broker Ltd',
    currency: 'USD',
    leverage: 500,
    trade_mode: 'real',
    margin_mode: 'hedging',
    server_time_offset_sec: 7200,
    ea_version: '1.0.0',
  };
  const deal = {
    ticket: 1001,
    order: 2001,
    position_id: 3001,
    time: '2026-01-05T09:30:00.000Z',
    type: 'balance',
    entry: 'in',
    symbol: '',
    digits: 0,
    volume: 0,
    price: 0,
    profit: 1000,
    swap: 0,
    commission: 0,
    fee: 0,
    magic: 0,
    comment: 'Deposit',
    equity_before: 0,
  };

  it('takes what a terminal sends', () => {
    expect(ingestHelloSchema.safeParse(hello).success).toBe(true);
    expect(ingestDealsSchema.safeParse({ login: 5012345, deals: [deal] }).success).toBe(true);
    const { equity_before: _, ...trade } = { ...deal, type: 'buy', symbol: 'EURUSD', digits: 5 };
    expect(ingestDealsSchema.safeParse({ login: 5012345, deals: [trade] }).success).toBe(true);
    const snapshot = {
      login: 5012345,
      time: '2026-01-05T09:31:00.000Z',
      balance: 1000,
      equity: 990.5,
      margin: 20,
      free_margin: 970.5,
      credit: 0,
      equity_low: 985,
      equity_high: 1001,
      terminal_connected: true,
      positions: [
        {
          ticket: 3002,
          symbol: 'EURUSD',
          type: 'buy',
          volume: 0.1,
          open_time: '2026-01-05T09:00:00.000Z',
          open_price: 1.1,
          current_price: 1.099,
          sl: 0,
          tp: 0,
          profit: -9.5,
          swap: 0,
        },
      ],
    };
    expect(ingestSnapshotSchema.safeParse(snapshot).success).toBe(true);
  });

  describe('the terminal’s state in a snapshot (publisher 1.3)', () => {
    const snapshot = {
      login: 5012345,
      time: '2026-01-05T09:31:00.000Z',
      balance: 1000,
      equity: 1000,
      margin: 0,
      free_margin: 1000,
      credit: 0,
      equity_low: 1000,
      equity_high: 1000,
      terminal_connected: true,
      positions: [],
    };

    it('takes the ping in whole milliseconds (or null) and both trade permissions', () => {
      for (const state of [
        { ping_ms: 24, trade_allowed: true, ea_trade_allowed: true },
        { ping_ms: 0, trade_allowed: false, ea_trade_allowed: true },
        { ping_ms: null, trade_allowed: true, ea_trade_allowed: false },
        { ping_ms: INGEST_PING_MS_MAX },
      ]) {
        const parsed = ingestSnapshotSchema.safeParse({ ...snapshot, ...state });
        expect(parsed.success, JSON.stringify(state)).toBe(true);
        expect(parsed.data).toMatchObject(state);
      }
    });

    it('still takes an older publisher’s snapshot, which has none of them', () => {
      const parsed = ingestSnapshotSchema.safeParse(snapshot);
      expect(parsed.success).toBe(true);
      expect(parsed.data).not.toHaveProperty('ping_ms');
      expect(parsed.data).not.toHaveProperty('trade_allowed');
      expect(parsed.data).not.toHaveProperty('ea_trade_allowed');
    });

    it('refuses a ping that is not whole milliseconds in range, and permissions that are not booleans', () => {
      for (const state of [
        { ping_ms: -1 },
        { ping_ms: 12.5 },
        { ping_ms: '12' },
        { ping_ms: INGEST_PING_MS_MAX + 1 },
        { trade_allowed: 'true' },
        { trade_allowed: null },
        { ea_trade_allowed: 1 },
      ]) {
        const parsed = ingestSnapshotSchema.safeParse({ ...snapshot, ...state });
        expect(parsed.success, JSON.stringify(state)).toBe(false);
        expect(parsed.error?.issues[0]?.message).toBe('VALIDATION');
      }
    });
  });

  describe('the excursions of a position and of its closing deal (publisher 1.4)', () => {
    const closing = {
      ...deal,
      type: 'sell',
      entry: 'out',
      symbol: 'EURUSD',
      digits: 5,
      volume: 1,
      price: 1.1002,
      profit: 20,
      equity_before: null,
    };
    const position = {
      ticket: 3002,
      symbol: 'EURUSD',
      type: 'buy',
      volume: 1,
      open_time: '2026-01-05T09:00:00.000Z',
      open_price: 1.1,
      current_price: 1.0997,
      sl: 0,
      tp: 0,
      profit: -30,
      swap: 0,
    };
    const parseDeal = (fields: object) =>
      ingestDealsSchema.safeParse({ login: 1, deals: [{ ...closing, ...fields }] });
    const parsePosition = (fields: object) =>
      ingestPositionSchema.safeParse({ ...position, ...fields });

    it('takes the four of them, zero included, or none (an older publisher; null)', () => {
      for (const fields of [
        { mae: -30, mfe: 50, mae_points: -30, mfe_points: 50 },
        { mae: 0, mfe: 0, mae_points: 0, mfe_points: 0 },
        { mae: -0, mfe: 12.5, mae_points: -0.4, mfe_points: 1e6 },
        { mae: null, mfe: null, mae_points: null, mfe_points: null },
        {},
      ]) {
        const parsedDeal = parseDeal(fields);
        expect(parsedDeal.success, JSON.stringify(fields)).toBe(true);
        expect(parsedDeal.data?.deals[0]).toMatchObject(fields);
        expect(parsePosition(fields).success, JSON.stringify(fields)).toBe(true);
      }
      // what a 1.3 sends has none of them, and stays without them
      const older = parseDeal({});
      expect(older.data?.deals[0]).not.toHaveProperty('mae');
      expect(parsePosition({}).data).not.toHaveProperty('mfe_points');
    });

    it('refuses an adverse excursion above 0, a favourable one below 0, what is not a finite number, and some without the others', () => {
      for (const fields of [
        { mae: 0.01, mfe: 50, mae_points: -30, mfe_points: 50 },
        { mae: -30, mfe: -0.01, mae_points: -30, mfe_points: 50 },
        { mae: -30, mfe: 50, mae_points: 1, mfe_points: 50 },
        { mae: -30, mfe: 50, mae_points: -30, mfe_points: -1 },
        { mae: Number.NEGATIVE_INFINITY, mfe: 50, mae_points: -30, mfe_points: 50 },
        { mae: -30, mfe: Number.NaN, mae_points: -30, mfe_points: 50 },
        { mae: '-30', mfe: 50, mae_points: -30, mfe_points: 50 },
        { mae: -30, mfe: 50 },
        { mae: -30, mfe: 50, mae_points: -30, mfe_points: null },
        { mae_points: -30 },
      ]) {
        for (const parsed of [parseDeal(fields), parsePosition(fields)]) {
          expect(parsed.success, JSON.stringify(fields)).toBe(false);
          expect(parsed.error?.issues[0]?.message).toBe('VALIDATION');
        }
      }
    });
  });

  it('refuses what a terminal must not send', () => {
    const bad: Array<[string, unknown]> = [
      ['a platform', { ...hello, platform: 'MT6' }],
      ['a login of 0', { ...hello, login: 0 }],
      ['a fractional leverage', { ...hello, leverage: 1.5 }],
    ];
    for (const [what, body] of bad)
      expect(ingestHelloSchema.safeParse(body).success, what).toBe(false);
    const badDeals: Array<[string, unknown]> = [
      ['a time without milliseconds', { ...deal, time: '2026-01-05T09:30:00Z' }],
      ['a local time', { ...deal, time: '2026-01-05T09:30:00.000+02:00' }],
      ['an unknown type', { ...deal, type: 'rebate' }],
      ['a magic number as a fraction', { ...deal, magic: '1.5' }],
      ['a magic number past 64 bits', { ...deal, magic: '9223372036854775808' }],
      ['a magic number in words', { ...deal, magic: 'twelve' }],
      ['an unknown entry', { ...deal, entry: 'reverse' }],
      ['a negative ticket', { ...deal, ticket: -1 }],
      ['a profit as text', { ...deal, profit: '1000' }],
      ['an unsafe ticket', { ...deal, ticket: 2 ** 53 }],
    ];
    for (const [what, body] of badDeals)
      expect(ingestDealsSchema.safeParse({ login: 1, deals: [body] }).success, what).toBe(false);
    // what MT5 sends: a 64-bit magic number as digits, dividends, tax and cancelled deals
    for (const body of [
      { ...deal, magic: '-9223372036854775808' },
      { ...deal, magic: '9223372036854775807' },
      { ...deal, type: 'dividend' },
      { ...deal, type: 'tax' },
      { ...deal, type: 'canceled' },
    ])
      expect(ingestDealsSchema.safeParse({ login: 1, deals: [body] }).success).toBe(true);
    const tooMany = Array.from({ length: INGEST_DEALS_MAX + 1 }, (_, i) => ({
      ...deal,
      ticket: i,
    }));
    expect(ingestDealsSchema.safeParse({ login: 1, deals: tooMany }).success).toBe(false);
    expect(
      ingestDealsSchema.safeParse({ login: 1, deals: tooMany.slice(0, INGEST_DEALS_MAX) }).success,
    ).toBe(true);
  });
});
