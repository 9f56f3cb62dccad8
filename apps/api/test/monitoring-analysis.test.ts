import { riskOfRuin, RUIN_LEVELS } from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { storeStatistics } from '../src/modules/monitoring/monitoring.statistics.ts';
import { fieldRefusal, quickUser, refusal, useTestApp } from './helpers.ts';
import { deal, DEALS, hello, HELLO, publisherOf, send, tradeDeal } from './monitoring-fixtures.ts';

/**
 * What produced an account's result, through the publisher's protocol: the breakdowns by symbol,
 * hour, weekday, direction and strategy (hand-computed below), the strategies' names, and the
 * risk of ruin.
 */

const t = useTestApp();
const ACCOUNT = (id: number) => `/api/user/monitoring/accounts/${id}`;
const STRATEGY = (id: number, magic: string) => `${ACCOUNT(id)}/strategies/${magic}`;
const BIG_MAGIC = '9223372036854775807';

const utc = (day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2026, 0, day, hour, minute)).toISOString();

/** One closed trade: its opening and closing deals (MT5 hedging), tickets `position` and +1000. */
function trade(
  position: number,
  o: {
    symbol: string;
    digits: number;
    type: 'buy' | 'sell';
    volume: number;
    open: [string, number];
    close: [string, number];
    profit: number;
    commission?: number;
    magic: number | string;
    closeMagic?: number | string;
  },
) {
  const common = { position_id: position, symbol: o.symbol, digits: o.digits, volume: o.volume };
  return [
    tradeDeal(position, {
      ...common,
      type: o.type,
      entry: 'in',
      time: o.open[0],
      price: o.open[1],
      magic: o.magic,
    }),
    tradeDeal(position + 1000, {
      ...common,
      type: o.type === 'buy' ? 'sell' : 'buy',
      entry: 'out',
      time: o.close[0],
      price: o.close[1],
      profit: o.profit,
      commission: o.commission ?? 0,
      magic: o.closeMagic ?? o.magic,
    }),
  ];
}

/**
 * Four trades (times UTC; the account's zone is Moscow, UTC+3):
 * - A EURUSD long 1 lot, EA 111, Tue 6 Jan 07:00 (10:00 Moscow) to 08:00, +50 pips, +500; closed
 *   by hand (the closing deal's magic is 0: the trade is still the EA's);
 * - B EURUSD short 0.5, EA 111, Tue 6 Jan 21:30 (00:30 Wed in Moscow) to Wed 01:00, -20 pips,
 *   -100 and -5 commission;
 * - C XAUUSD long 0.1, by hand, Thu 8 Jan 12:00 (15:00) to 13:00, +100 (gold: no pips);
 * - D GBPUSD long 2, the largest 64-bit magic, Fri 9 Jan 09:00 (12:00) to Mon 12 Jan 10:00,
 *   -10 pips, -200.
 */
function history() {
  return [
    deal(1, { time: utc(5, 9), profit: 10_000, equity_before: 0 }),
    ...trade(10, {
      symbol: 'EURUSD',
      digits: 5,
      type: 'buy',
      volume: 1,
      open: [utc(6, 7), 1.1],
      close: [utc(6, 8), 1.105],
      profit: 500,
      magic: 111,
      closeMagic: 0,
    }),
    ...trade(11, {
      symbol: 'EURUSD',
      digits: 5,
      type: 'sell',
      volume: 0.5,
      open: [utc(6, 21, 30), 1.105],
      close: [utc(7, 1), 1.107],
      profit: -100,
      commission: -5,
      magic: '111',
    }),
    ...trade(12, {
      symbol: 'XAUUSD',
      digits: 2,
      type: 'buy',
      volume: 0.1,
      open: [utc(8, 12), 2000],
      close: [utc(8, 13), 2010],
      profit: 100,
      magic: 0,
    }),
    ...trade(13, {
      symbol: 'GBPUSD',
      digits: 5,
      type: 'buy',
      volume: 2,
      open: [utc(9, 9), 1.25],
      close: [utc(12, 10), 1.249],
      profit: -200,
      magic: BIG_MAGIC,
    }),
  ];
}

async function analysed(login: number) {
  const publisher = await publisherOf(t, login);
  expect((await send(t, HELLO, publisher.key, hello({ login }))).status).toBe(200);
  const sent = await send(t, DEALS, publisher.key, { login, deals: history() });
  expect(sent.status, sent.text).toBe(200);
  const zoned = await t.api.request('PATCH', ACCOUNT(publisher.account.id), {
    body: { time_zone: 'Europe/Moscow' },
    token: publisher.user.token,
  });
  expect(zoned.status, zoned.text).toBe(200);
  return publisher;
}

const get = (path: string, token?: string) => t.api.get(path, token ? { token } : {});
const put = (id: number, magic: string, body: unknown, token: string) =>
  t.api.request('PUT', STRATEGY(id, magic), { body, token });
const del = (id: number, magic: string, token: string) =>
  t.api.request('DELETE', STRATEGY(id, magic), { token });

const row = (key: string, fields: Record<string, unknown>) =>
  expect.objectContaining({ key, ...fields });
const empty = (key: string) =>
  row(key, { trades: 0, wins: 0, win_rate: null, lots: 0, profit: 0, pips: null });

describe('breakdowns', () => {
  it('by symbol, hour, weekday, direction and strategy, in the account time zone', async () => {
    const { user, account } = await analysed(30_001);
    const s = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    const b = s.breakdowns;
    expect(b.symbols).toEqual([
      // 500 - 100 - 5 = 395; gross 500 and 105; pips 50 - 20
      {
        key: 'EURUSD',
        trades: 2,
        wins: 1,
        win_rate: 0.5,
        lots: 1.5,
        profit: 395,
        gross_profit: 500,
        gross_loss: 105,
        profit_factor: 500 / 105,
        pips: expect.closeTo(30, 6),
      },
      // one trade each: the larger profit first
      {
        key: 'XAUUSD',
        trades: 1,
        wins: 1,
        win_rate: 1,
        lots: 0.1,
        profit: 100,
        gross_profit: 100,
        gross_loss: 0,
        profit_factor: null,
        pips: null,
      },
      {
        key: 'GBPUSD',
        trades: 1,
        wins: 0,
        win_rate: 0,
        lots: 2,
        profit: -200,
        gross_profit: 0,
        gross_loss: 200,
        profit_factor: 0,
        pips: expect.closeTo(-10, 6),
      },
    ]);
    // every hour, Moscow's: A at 10, B at 0 (21:30 UTC the day before), C at 15, D at 12
    expect(b.hours.map((r: { key: string }) => r.key)).toEqual(
      Array.from({ length: 24 }, (_, h) => String(h)),
    );
    expect(b.hours[0]).toEqual(row('0', { trades: 1, wins: 0, profit: -105 }));
    expect(b.hours[10]).toEqual(row('10', { trades: 1, wins: 1, profit: 500 }));
    expect(b.hours[12]).toEqual(row('12', { trades: 1, profit: -200 }));
    expect(b.hours[15]).toEqual(row('15', { trades: 1, profit: 100 }));
    expect(b.hours[7]).toEqual(empty('7'));
    // Monday '1' to Sunday '7': B opened on Wednesday in Moscow
    expect(b.weekdays.map((r: { key: string; trades: number }) => [r.key, r.trades])).toEqual([
      ['1', 0],
      ['2', 1],
      ['3', 1],
      ['4', 1],
      ['5', 1],
      ['6', 0],
      ['7', 0],
    ]);
    expect(b.directions).toEqual([
      row('long', { trades: 3, wins: 2, lots: 3.1, profit: 400, win_rate: 2 / 3 }),
      row('short', { trades: 1, wins: 0, lots: 0.5, profit: -105, profit_factor: 0 }),
    ]);
    // the opening deal's magic: A closed by hand is still EA 111's; no name yet
    expect(b.strategies).toEqual([
      row('111', { trades: 2, profit: 395, name: null }),
      row('0', { trades: 1, profit: 100, name: null }),
      row(BIG_MAGIC, { trades: 1, profit: -200, name: null }),
    ]);
    // the trades carry their strategy too
    const trades = (await get(`${ACCOUNT(account.id)}/trades`, user.token)).body.data;
    expect(
      trades.map((d: { position_id: string; magic: string }) => [d.position_id, d.magic]),
    ).toEqual([
      ['13', BIG_MAGIC],
      ['12', '0'],
      ['11', '111'],
      ['10', '111'],
    ]);
  });

  it("a period holds the trades closed in it: from included, to not; the job's figures agree", async () => {
    const { user, account } = await analysed(30_002);
    const ranged = await get(
      `${ACCOUNT(account.id)}/statistics?from=${utc(7, 1)}&to=${utc(12, 10)}`,
      user.token,
    );
    expect(ranged.status).toBe(200);
    // B closes at `from` (in), D at `to` (out), A before
    expect(ranged.body.breakdowns.symbols.map((r: { key: string }) => r.key)).toEqual([
      'XAUUSD',
      'EURUSD',
    ]);
    expect(ranged.body.breakdowns.directions).toEqual([
      row('long', { trades: 1, profit: 100 }),
      row('short', { trades: 1, profit: -105 }),
    ]);
    // a period without a closed trade: nothing to split
    const none = await get(`${ACCOUNT(account.id)}/statistics?from=${utc(20, 0)}`, user.token);
    expect(none.body.breakdowns).toEqual({
      symbols: [],
      hours: [],
      weekdays: [],
      directions: [],
      strategies: [],
    });
    // the statistics job stores the whole history's, the same as computed on request
    const live = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(await storeStatistics(t.app.db, account.id, new Date())).toBe(true);
    const stored = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(stored.breakdowns).toEqual(live.breakdowns);
    expect(stored.risk_of_ruin).toEqual(live.risk_of_ruin);
  });

  it('figures stored before the breakdowns existed are computed afresh', async () => {
    const { user, account } = await analysed(30_003);
    expect(await storeStatistics(t.app.db, account.id, new Date())).toBe(true);
    await t.app.db.execute(sql`
      update monitoring_statistics
      set figures = figures - 'breakdowns' - 'risk_of_ruin' where account_id = ${account.id}`);
    const s = await get(`${ACCOUNT(account.id)}/statistics`, user.token);
    expect(s.status, s.text).toBe(200);
    expect(s.body.breakdowns.symbols).toHaveLength(3);
    expect(s.body.risk_of_ruin).toEqual({ reason: 'too_few_trades', estimate: null });
  });
});

describe("strategies' names", () => {
  it('a name shows in the breakdown, the trades and the CSV, until it is taken away', async () => {
    const { user, account } = await analysed(30_010);
    const named = await put(account.id, '111', { name: '  Grid EA  ' }, user.token);
    expect(named.status, named.text).toBe(200);
    expect(named.body).toEqual({ magic: '111', name: 'Grid EA' });
    // a 64-bit magic number, exactly
    expect((await put(account.id, BIG_MAGIC, { name: 'Сетка' }, user.token)).status).toBe(200);
    // the job's stored figures get the names when read
    expect(await storeStatistics(t.app.db, account.id, new Date())).toBe(true);
    const s = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(
      s.breakdowns.strategies.map((r: { key: string; name: string | null }) => [r.key, r.name]),
    ).toEqual([
      ['111', 'Grid EA'],
      ['0', null],
      [BIG_MAGIC, 'Сетка'],
    ]);
    const trades = (await get(`${ACCOUNT(account.id)}/trades`, user.token)).body.data;
    expect(trades.map((d: { strategy: string | null }) => d.strategy)).toEqual([
      'Сетка',
      null,
      'Grid EA',
      'Grid EA',
    ]);
    const csv = (await get(`${ACCOUNT(account.id)}/trades.csv`, user.token)).text.split('\r\n');
    // the excursions' four columns after them: none told here
    expect(csv[0]).toMatch(/,magic,strategy,mae,mfe,mae_points,mfe_points$/);
    expect(csv[1]).toMatch(new RegExp(`,${BIG_MAGIC},Сетка,,,,$`));
    expect(csv[4]).toMatch(/,111,Grid EA,,,,$/);

    // renamed, then the name taken away (twice: the second takes nothing and is no error)
    expect((await put(account.id, '111', { name: 'Scalper' }, user.token)).body.name).toBe(
      'Scalper',
    );
    for (let i = 0; i < 2; i += 1) {
      const cleared = await del(account.id, '111', user.token);
      expect(cleared.status).toBe(200);
      expect(cleared.body).toEqual({ magic: '111', name: null });
    }
    const after = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(after.breakdowns.strategies[0]).toEqual(row('111', { name: null }));
  });

  it('bad names and numbers are refused and change nothing', async () => {
    const { user, account } = await analysed(30_011);
    expect((await put(account.id, '111', { name: 'Grid EA' }, user.token)).status).toBe(200);
    const cases: Array<[string, unknown, number, string]> = [
      ['111', { name: '   ' }, 422, 'MONITORING_STRATEGY_NAME_REQUIRED'],
      ['111', {}, 422, 'MONITORING_STRATEGY_NAME_REQUIRED'],
      ['111', { name: 'x'.repeat(41) }, 422, 'MONITORING_STRATEGY_NAME_TOO_LONG'],
      ['111', { name: 'Grid\nEA' }, 422, 'TEXT_NOT_SINGLE_LINE'],
      ['111', { name: 'see https://evil.example/x' }, 422, 'NAME_HAS_WEB_ADDRESS'],
      // trades placed by hand are Manual, always
      ['0', { name: 'Mine' }, 422, 'MONITORING_STRATEGY_MANUAL'],
      // a number the account never traded with
      ['222', { name: 'Ghost' }, 404, 'MONITORING_STRATEGY_NOT_FOUND'],
      // not a magic number at all: no such path
      ['abc', { name: 'X' }, 404, 'NOT_FOUND'],
      ['007', { name: 'X' }, 404, 'NOT_FOUND'],
      ['9223372036854775808', { name: 'X' }, 404, 'NOT_FOUND'],
    ];
    for (const [magic, body, status, code] of cases) {
      const refused = await put(account.id, magic, body, user.token);
      expect(refused.status, `${magic} ${JSON.stringify(body)}`).toBe(status);
      expect(refused.body.code).toBe(code);
    }
    expect((await del(account.id, '0', user.token)).status).toBe(422);
    const { rows } = await t.app.db.execute<{ magic: string; name: string }>(sql`
      select magic::text as magic, name from monitoring_strategies
      where account_id = ${account.id}`);
    expect(rows).toEqual([{ magic: '111', name: 'Grid EA' }]);
    // the name field is what the form marks
    const long = await put(account.id, '111', { name: 'x'.repeat(41) }, user.token);
    expect(long.body).toEqual(fieldRefusal('name', 'MONITORING_STRATEGY_NAME_TOO_LONG'));
  });

  it("another user can neither name nor clear an account's strategies, nor see them", async () => {
    const { user, account } = await analysed(30_012);
    expect((await put(account.id, '111', { name: 'Grid EA' }, user.token)).status).toBe(200);
    const stranger = await quickUser(t);
    expect(await put(account.id, '111', { name: 'Mine' }, stranger.token)).toMatchObject({
      status: 404,
      body: refusal('MONITORING_ACCOUNT_NOT_FOUND'),
    });
    expect(await del(account.id, '111', stranger.token)).toMatchObject({
      status: 404,
      body: refusal('MONITORING_ACCOUNT_NOT_FOUND'),
    });
    expect((await get(`${ACCOUNT(account.id)}/statistics`, stranger.token)).status).toBe(404);
    expect((await put(account.id, '111', { name: 'Mine' }, '')).status).toBe(401);
    const s = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(s.breakdowns.strategies[0]).toEqual(row('111', { name: 'Grid EA' }));
  });

  it('the public page shows the breakdowns, without money when its owner hides it', async () => {
    const { user, account } = await analysed(30_013);
    expect((await put(account.id, '111', { name: 'Grid EA' }, user.token)).status).toBe(200);
    const settings = { is_public: true, hide_money: true };
    const patched = await t.api.request('PATCH', ACCOUNT(account.id), {
      body: settings,
      token: user.token,
    });
    expect(patched.status, patched.text).toBe(200);
    const page = await get(`/api/monitoring/${account.monitoring_id}`);
    expect(page.status).toBe(200);
    const b = page.body.statistics.breakdowns;
    expect(b.symbols[0]).toEqual({
      key: 'EURUSD',
      trades: 2,
      wins: 1,
      win_rate: 0.5,
      lots: 1.5,
      profit: null,
      gross_profit: null,
      gross_loss: null,
      profit_factor: 500 / 105,
      pips: expect.closeTo(30, 6),
    });
    expect(b.strategies[0]).toEqual(row('111', { name: 'Grid EA', profit: null, trades: 2 }));
    for (const rows of Object.values(b) as Array<Array<{ profit: number | null }>>)
      expect(rows.every((r) => r.profit === null)).toBe(true);
  });
});

describe('the risk of ruin', () => {
  /** A deposit of 10,000 and `results` as trades closed one after another, an hour each. */
  async function tradedAccount(login: number, results: number[]) {
    const publisher = await publisherOf(t, login);
    await send(t, HELLO, publisher.key, hello({ login }));
    const deals = [
      deal(1, { time: utc(5, 0), profit: 10_000, equity_before: 0 }),
      ...results.flatMap((profit, i) =>
        trade(100 + i, {
          symbol: 'EURUSD',
          digits: 5,
          type: 'buy',
          volume: 1,
          open: [new Date(Date.UTC(2026, 0, 6, i)).toISOString(), 1.1],
          close: [new Date(Date.UTC(2026, 0, 6, i, 30)).toISOString(), 1.1 + profit / 100_000],
          profit,
          magic: 0,
        }),
      ),
    ];
    const sent = await send(t, DEALS, publisher.key, { login, deals });
    expect(sent.status, sent.text).toBe(200);
    return publisher;
  }

  it('from the trades as shares of the balance before each, when there are enough', async () => {
    // 20 trades: +200 and -100 in turn on 10,000: the returns 200 / 10,000, -100 / 10,200,
    // 200 / 10,100, -100 / 10,300, ...
    const results = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 200 : -100));
    const { user, account } = await tradedAccount(30_020, results);
    const returns: number[] = [];
    let balance = 10_000;
    for (const result of results) {
      returns.push(result / balance);
      balance += result;
    }
    const expected = riskOfRuin(returns).estimate!;
    const r = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body.risk_of_ruin;
    expect(r.reason).toBeNull();
    expect(r.estimate.trades).toBe(20);
    expect(r.estimate.win_rate).toBe(0.5);
    expect(r.estimate.average_win).toBeCloseTo(expected.averageWin, 12);
    expect(r.estimate.average_loss).toBeCloseTo(expected.averageLoss, 12);
    expect(r.estimate.levels.map((l: { loss: number }) => l.loss)).toEqual([...RUIN_LEVELS]);
    r.estimate.levels.forEach((level: { probability: number }, i: number) =>
      expect(level.probability).toBeCloseTo(expected.levels[i]!.probability, 12),
    );
    // a win of about 2 % against a loss of about 1 %, as often: losing 10 % is unlikely
    expect(r.estimate.levels[0].probability).toBeGreaterThan(0);
    expect(r.estimate.levels[0].probability).toBeLessThan(0.05);
  });

  it('certain when the trades lose on average; none from too few trades or no loss', async () => {
    const losing = await tradedAccount(
      30_021,
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 100 : -150)),
    );
    const certain = (await get(`${ACCOUNT(losing.account.id)}/statistics`, losing.user.token)).body
      .risk_of_ruin;
    expect(certain.estimate.levels.every((l: { probability: number }) => l.probability === 1)).toBe(
      true,
    );
    const few = await tradedAccount(30_022, [100, -50, 100]);
    expect(
      (await get(`${ACCOUNT(few.account.id)}/statistics`, few.user.token)).body.risk_of_ruin,
    ).toEqual({ reason: 'too_few_trades', estimate: null });
    const winning = await tradedAccount(30_023, Array<number>(20).fill(10));
    expect(
      (await get(`${ACCOUNT(winning.account.id)}/statistics`, winning.user.token)).body
        .risk_of_ruin,
    ).toEqual({ reason: 'no_losses', estimate: null });
  });
});
