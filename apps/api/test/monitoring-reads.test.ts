import { closedTrades, EXCURSIONS_MAX, statDealOf, type IngestDeal } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { fieldRefusal, quickUser, refusal, useTestApp } from './helpers.ts';
import { dealsOf, snapshotsOf } from '../src/modules/monitoring/monitoring.statistics.ts';
import {
  at,
  deal,
  DEALS,
  handComputedHistory,
  hello,
  HELLO,
  publisherOf,
  tradeDeal,
  send,
  snapshot,
  SNAPSHOT,
} from './monitoring-fixtures.ts';

const t = useTestApp();
const ACCOUNT = (id: number) => `/api/user/monitoring/accounts/${id}`;
const PUBLIC = (monitoringId: string) => `/api/monitoring/${monitoringId}`;
/** The hand-computed history's gain with the snapshot's equity of 1090.5 at the end. */
const GAIN = 1.093 * 0.9 * 1.0905 - 1;

/** A publisher that has sent the hand-computed history, a hello and a snapshot with a position. */
async function published(login: number) {
  const publisher = await publisherOf(t, login);
  await send(t, HELLO, publisher.key, hello({ login }));
  await send(t, DEALS, publisher.key, { login, deals: handComputedHistory() });
  await send(
    t,
    SNAPSHOT,
    publisher.key,
    snapshot({
      login,
      time: at(6),
      balance: 1082.99,
      equity: 1090.5,
      positions: [
        {
          ticket: 400,
          symbol: 'GBPUSD',
          type: 'buy',
          volume: 0.5,
          open_time: at(6, 9),
          open_price: 1.25,
          current_price: 1.2515,
          sl: 1.24,
          tp: 1.27,
          profit: 75,
          swap: -1.5,
        },
      ],
    }),
  );
  return publisher;
}

const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
  t.api.get(path, { ...(token ? { token } : {}), headers });
const patch = (id: number, body: object, who: { token: string }) =>
  t.api.request('PATCH', ACCOUNT(id), { body, token: who.token });
const remove = (id: number, who: { token: string }) =>
  t.api.request('DELETE', ACCOUNT(id), { token: who.token });

describe('the stored figures', () => {
  it('the statistics read back exactly what the publisher sent, awkward values included', async () => {
    const login = 20_009;
    const publisher = await publisherOf(t, login);
    await send(t, HELLO, publisher.key, hello({ login }));
    // deals seen as they happened: a second ago
    const second = Math.floor(Date.now() / 1000) * 1000 - 1000;
    const justNow = (ms: number) => new Date(second + ms).toISOString();
    const deals = [
      deal(9_007_199_254_740_000, { time: justNow(999), equity_before: null }),
      deal(7, {
        time: justNow(1),
        type: 'buy',
        entry: 'in',
        symbol: 'EUR,USD.m',
        digits: 5,
        volume: 0.01,
        price: 1.0000001,
        profit: -0.1,
        swap: -1e-7,
        commission: -0.07,
        fee: 123_456_789.12,
        equity_before: 1234.5678,
      }),
      deal(8, { time: justNow(1), symbol: ',' }),
    ];
    await send(t, DEALS, publisher.key, { login, deals });
    // a flow sent long after it happened (a publisher stopped meanwhile): its equity_before is
    // the equity of when it was sent, not of before the flow, and is not read
    const late = deal(9, { time: '2026-01-05T09:00:00.000Z', equity_before: 500 });
    await send(t, DEALS, publisher.key, { login, deals: [late] });
    await send(t, SNAPSHOT, publisher.key, snapshot({ login, time: '2026-01-05T10:00:59.999Z' }));
    await send(
      t,
      SNAPSHOT,
      publisher.key,
      snapshot({ login, time: '2026-01-05T10:01:00.000Z', equity: 0.3 }),
    );

    const byTime = [...(deals as IngestDeal[]), { ...late, equity_before: null } as IngestDeal]
      .map(statDealOf)
      .sort((a, b) => a.time - b.time || a.ticket.length - b.ticket.length);
    expect(await dealsOf(t.app.db, publisher.account.id)).toEqual(byTime);
    // each point at the time its values were taken, not at the minute it is filed under
    expect(await snapshotsOf(t.app.db, publisher.account.id)).toEqual([
      {
        time: Date.parse('2026-01-05T10:00:59.999Z'),
        balance: 1000,
        equity: 990,
        margin: 20,
        credit: 0,
        equityLow: 985,
        equityHigh: 1001,
      },
      {
        time: Date.parse('2026-01-05T10:01:00.000Z'),
        balance: 1000,
        equity: 0.3,
        margin: 20,
        credit: 0,
        equityLow: 0.3,
        equityHigh: 1001,
      },
    ]);
  });

  it('the statistics job stores what the read computes: the list shows its summary', async () => {
    const { user, account } = await published(20_001);
    const list = await get('/api/user/monitoring/accounts', user.token);
    expect(list.body.accounts[0]).toMatchObject({
      id: account.id,
      summary: null,
      currency: 'USD',
      server: 'Broker-Live',
      terminal_connected: true,
      balance: 1082.99,
      equity: 1090.5,
    });
    expect(list.body.accounts[0].last_data_at).not.toBeNull();

    const live = await get(`${ACCOUNT(account.id)}/statistics`, user.token);
    expect(await t.app.monitoringJobs.recompute(account.id)).toBe(true);
    const stored = await get(`${ACCOUNT(account.id)}/statistics`, user.token);
    // the same figures, but for the two that run with the clock (computed a moment apart), and
    // the verification's points, followed by the job (up to the snapshot's minute)
    const still = (body: typeof live.body) => ({
      ...body,
      daily_gain: null,
      monthly_gain: null,
      trades: { ...body.trades, trades_per_week: null },
      ratios: { ...body.ratios, activity: null },
      verification: { ...body.verification, checked_at: null },
    });
    expect(still(stored.body)).toEqual(still(live.body));
    expect(live.body.verification.checked_at).toBeNull();
    expect(stored.body.verification.checked_at).toBe(at(6));
    for (const figure of ['daily_gain', 'monthly_gain'] as const)
      expect(stored.body[figure]).toBeCloseTo(live.body[figure], 6);
    expect(stored.body.trades.trades_per_week).toBeCloseTo(live.body.trades.trades_per_week, 6);

    const after = await get('/api/user/monitoring/accounts', user.token);
    expect(after.body.accounts[0].summary).toMatchObject({ trades: 3 });
    // the open position's floating profit counts: 1.093 x 0.9 x 1090.5 / 1000 - 1
    expect(after.body.accounts[0].summary.gain).toBeCloseTo(GAIN, 10);
    expect(after.body.accounts[0].summary.profit).toBeCloseTo(-16.3, 10);
    expect(after.body.accounts[0].summary.max_drawdown).toBeCloseTo(0.1, 10);

    // a deleted account's job stores nothing
    await remove(account.id, user);
    expect(await t.app.monitoringJobs.recompute(account.id)).toBe(false);
  });

  it('the chart: gain, balance and equity per event, and the drawdown from the peak', async () => {
    const { user, account } = await published(20_002);
    const chart = await get(`${ACCOUNT(account.id)}/chart`, user.token);
    expect(chart.status).toBe(200);
    const points = chart.body.points as Array<{ gain: number; drawdown: number; time: string }>;
    expect(points[0]).toMatchObject({ time: at(0), gain: 0, balance: 1000, drawdown: 0 });
    const statistics = await get(`${ACCOUNT(account.id)}/statistics`, user.token);
    expect(points.at(-1)!.gain).toBeCloseTo(GAIN, 10);
    // the chart's deepest point is the equity drawdown figure
    expect(Math.max(...points.map((p) => p.drawdown))).toBeCloseTo(
      statistics.body.equity_drawdown,
      12,
    );
    expect(statistics.body.equity_drawdown).toBeGreaterThan(statistics.body.max_drawdown);
    await t.app.monitoringJobs.recompute(account.id);
    // stored, the same points but the last one's moment (now, a moment later)
    const stored = (await get(`${ACCOUNT(account.id)}/chart`, user.token)).body.points;
    expect(stored.slice(0, -1)).toEqual(points.slice(0, -1));
    expect({ ...stored.at(-1), time: null }).toEqual({ ...points.at(-1), time: null });
  });
});

describe('trades, positions and CSV', () => {
  it('pips count currency pairs only: a gold trade has none, in the list, the CSV and the sum', async () => {
    const login = 20_104;
    const publisher = await publisherOf(t, login);
    await send(t, HELLO, publisher.key, hello({ login }));
    const side = (ticket: number, position: number, fields: Record<string, unknown>) =>
      tradeDeal(ticket, { position_id: position, ...fields });
    await send(t, DEALS, publisher.key, {
      login,
      deals: [
        deal(1, { time: at(0), profit: 10_000, equity_before: 0 }),
        // EURUSD 1.10000 -> 1.10300: +30 pips
        side(2, 2, {
          time: at(1, 9),
          type: 'buy',
          entry: 'in',
          symbol: 'EURUSD',
          digits: 5,
          volume: 1,
          price: 1.1,
        }),
        side(3, 2, {
          time: at(1, 10),
          type: 'sell',
          entry: 'out',
          symbol: 'EURUSD',
          digits: 5,
          volume: 1,
          price: 1.103,
          profit: 300,
        }),
        // XAUUSD 2,000.00 -> 2,012.00: no pips (0.01 of gold is no pip)
        side(4, 4, {
          time: at(2, 9),
          type: 'buy',
          entry: 'in',
          symbol: 'XAUUSD',
          digits: 2,
          volume: 1,
          price: 2000,
        }),
        side(5, 4, {
          time: at(2, 10),
          type: 'sell',
          entry: 'out',
          symbol: 'XAUUSD',
          digits: 2,
          volume: 1,
          price: 2012,
          profit: 1200,
        }),
      ],
    });
    const { user, account } = publisher;
    const trades = (await get(`${ACCOUNT(account.id)}/trades`, user.token)).body.data;
    expect(
      trades.map((tr: { symbol: string; pips: number | null }) => [tr.symbol, tr.pips]),
    ).toEqual([
      ['XAUUSD', null],
      ['EURUSD', expect.closeTo(30, 9)],
    ]);
    const csv = (await get(`${ACCOUNT(account.id)}/trades.csv`, user.token)).text;
    // position, symbol, direction, open and close time, volume, prices, pips, result, magic,
    // strategy, and the excursions (none told: empty)
    const cells = (symbol: string) =>
      csv
        .split('\r\n')
        .find((line) => line.split(',')[1] === symbol)!
        .split(',')
        .slice(6);
    expect(cells('EURUSD')).toEqual([
      '1.10000',
      '1.10300',
      '30',
      '300.00',
      '0',
      '',
      '',
      '',
      '',
      '',
    ]);
    expect(cells('XAUUSD')).toEqual(['2000.00', '2012.00', '', '1200.00', '0', '', '', '', '', '']);
    const statistics = (await get(`${ACCOUNT(account.id)}/statistics`, user.token)).body;
    expect(statistics.trades.pips).toBeCloseTo(30, 9);
  });

  it('the closed trades, newest first, paged, as the statistics group them', async () => {
    const { user, account } = await published(20_101);
    const page = await get(`${ACCOUNT(account.id)}/trades?per_page=2`, user.token);
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ page: 1, per_page: 2, total: 3 });
    expect(page.body.data.map((d: { position_id: string }) => d.position_id)).toEqual([
      '300',
      '200',
    ]);
    const second = await get(`${ACCOUNT(account.id)}/trades?per_page=2&page=2`, user.token);
    expect(second.body.data).toHaveLength(1);
    // past the last page: no trades, and still how many there are
    const past = await get(`${ACCOUNT(account.id)}/trades?per_page=2&page=5`, user.token);
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], meta: { page: 5, per_page: 2, total: 3 } });

    // the SQL grouping gives what closedTrades of the statistics module gives
    const deals = (handComputedHistory() as IngestDeal[]).map(statDealOf);
    const expected = closedTrades(deals).reverse();
    const all = (await get(`${ACCOUNT(account.id)}/trades?per_page=100`, user.token)).body.data;
    expect(all).toHaveLength(expected.length);
    all.forEach((trade: Record<string, number | string>, i: number) => {
      const e = expected[i]!;
      expect(trade).toMatchObject({
        position_id: e.positionId,
        symbol: e.symbol,
        direction: e.direction,
        open_time: new Date(e.openTime).toISOString(),
        close_time: new Date(e.closeTime).toISOString(),
        volume: e.volume,
        // the symbol's digits, for the console to print the prices with
        digits: 5,
      });
      expect(trade.result).toBeCloseTo(e.result, 9);
      expect(e.pips).not.toBeNull();
      expect(trade.pips).toBeCloseTo(e.pips!, 9);
      expect(trade.open_price).toBeCloseTo(e.openPrice, 12);
    });
  });

  it('the CSV neutralises a symbol a spreadsheet would run, and keeps a loss a number', async () => {
    const login = 20_105;
    const publisher = await publisherOf(t, login);
    await send(t, HELLO, publisher.key, hello({ login }));
    const symbol = '=HYPERLINK("http://x")';
    const side = (ticket: number, fields: Record<string, unknown>) =>
      tradeDeal(ticket, { position_id: 2, symbol, digits: 5, volume: 1, ...fields });
    const sent = await send(t, DEALS, publisher.key, {
      login,
      deals: [
        deal(1, { time: at(0), profit: 10_000, equity_before: 0 }),
        side(2, { time: at(1, 9), type: 'buy', entry: 'in', price: 1.1 }),
        side(3, { time: at(1, 10), type: 'sell', entry: 'out', price: 1.0988, profit: -12.5 }),
      ],
    });
    expect(sent.status).toBe(200);
    const { user, account } = publisher;
    const csv = (await get(`${ACCOUNT(account.id)}/trades.csv`, user.token)).text;
    expect(csv.split('\r\n')[1]).toBe(
      `2,"'=HYPERLINK(""http://x"")",long,${at(1, 9)},${at(1, 10)},1,1.10000,1.09880,,-12.50,0,,,,,`,
    );
  });

  it("CSV prices at the symbol's digits, a weighted average's and a sum's binary noise gone", async () => {
    const login = 20_103;
    const publisher = await publisherOf(t, login);
    await send(t, HELLO, publisher.key, hello({ login }));
    const side = (ticket: number, fields: Record<string, unknown>) =>
      tradeDeal(ticket, { position_id: 500, symbol: 'USDJPY', digits: 3, ...fields });
    // two entries of 0.1 and 0.2 lots (0.30000000000000004 in all) at an average price of
    // 151.16666666666666, closed at once for 10.005 in all
    await send(t, DEALS, publisher.key, {
      login,
      deals: [
        deal(1, { time: at(0), profit: 1000 }),
        side(2, { time: at(1, 9), type: 'buy', entry: 'in', volume: 0.1, price: 151.1 }),
        side(3, { time: at(1, 10), type: 'buy', entry: 'in', volume: 0.2, price: 151.2 }),
        side(4, {
          time: at(1, 15),
          type: 'sell',
          entry: 'out',
          volume: 0.30000000000000004,
          price: 151.25,
          profit: 10.004999999999999,
        }),
      ],
    });
    const csv = await get(`${ACCOUNT(publisher.account.id)}/trades.csv`, publisher.user.token);
    expect(csv.status).toBe(200);
    expect(csv.text.trimEnd().split('\r\n')[1]).toBe(
      '500,USDJPY,long,2026-01-06T09:00:00.000Z,2026-01-06T15:00:00.000Z,0.3,151.167,151.250,8.3,10.00,0,,,,,',
    );
  });

  it('CSV of every trade, and the open positions of the latest snapshot', async () => {
    const { user, account } = await published(20_102);
    const csv = await get(`${ACCOUNT(account.id)}/trades.csv`, user.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('trades-20102.csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'position,symbol,direction,open_time,close_time,volume,open_price,close_price,pips,result_USD,magic,strategy,mae,mfe,mae_points,mfe_points',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      /^300,EURUSD,long,2026-01-10T09:00:00.000Z,2026-01-10T15:00:00.000Z,1,1.10000,1.10050,5,50.00,0,,,,,$/,
    );

    const positions = await get(`${ACCOUNT(account.id)}/positions`, user.token);
    expect(positions.body.positions).toEqual([
      expect.objectContaining({ ticket: 400, symbol: 'GBPUSD', profit: 75, swap: -1.5 }),
    ]);
    expect(positions.body.at).not.toBeNull();

    const stranger = await quickUser(t);
    for (const path of ['trades', 'trades.csv', 'positions', 'chart', 'excursions'])
      expect((await get(`${ACCOUNT(account.id)}/${path}`, stranger.token)).status).toBe(404);
  });
});

/** The excursions a closing deal carries: [mae, mfe, mae_points, mfe_points]. */
const told = (mae: number, mfe: number, maePoints: number, mfePoints: number) => ({
  mae,
  mfe,
  mae_points: maePoints,
  mfe_points: mfePoints,
});
const pick = (row: Record<string, unknown>) => [row.mae, row.mfe, row.mae_points, row.mfe_points];

/**
 * A publisher of four trades with excursions and one without (MT5, EURUSD and GBPUSD: a point of
 * 0.00001 is 1.00 on 1 lot):
 * - 10: buy 1 at 1.10000, closed at 1.10100 (+100, 100 points); its closing deal tells
 *   MAE -12.50, MFE +130, -12.5 and +130 points (its opening deal tells some too: not kept);
 * - 20: sell 1 at 1.10000, closed in two halves at 1.09900 (+50) and 1.10060 (-30): +20, closed
 *   at 1.09980 on average, 20 points; the first half tells (-20, +60, -20, +60), the second
 *   (-35, +45, -35, +45), as a publisher that lost its memory in between would: the trade's are
 *   the most adverse MAE and the best MFE, (-35, +60, -35, +60);
 * - 30: buy 0.1 GBPUSD 1.25000 -> 1.24900 (-10), from before the publisher told them: none;
 * - 40, netting: buy 1 at 1.10000, sell 2 at 1.10100 (inout: the long lot +100, telling
 *   (-5, +100, -5, +100)), buy 1 at 1.10050 (the short lot +50, telling (-8, +50, -8, +50)):
 *   trades 40 and 40#2.
 */
async function withExcursions(login: number) {
  const publisher = await publisherOf(t, login);
  await send(t, HELLO, publisher.key, hello({ login, margin_mode: 'netting' }));
  const side = (ticket: number, position: number, fields: Record<string, unknown>) =>
    tradeDeal(ticket, { position_id: position, symbol: 'EURUSD', digits: 5, volume: 1, ...fields });
  const sent = await send(t, DEALS, publisher.key, {
    login,
    deals: [
      deal(1, { time: at(0), profit: 10_000, equity_before: 0 }),
      side(2, 10, { time: at(1, 9), type: 'buy', entry: 'in', price: 1.1, ...told(-1, 1, -1, 1) }),
      side(3, 10, {
        time: at(1, 15),
        type: 'sell',
        entry: 'out',
        price: 1.101,
        profit: 100,
        ...told(-12.5, 130, -12.5, 130),
      }),
      side(4, 20, { time: at(2, 9), type: 'sell', entry: 'in', price: 1.1 }),
      side(5, 20, {
        time: at(2, 10),
        type: 'buy',
        entry: 'out',
        volume: 0.5,
        price: 1.099,
        profit: 50,
        ...told(-20, 60, -20, 60),
      }),
      side(6, 20, {
        time: at(2, 11),
        type: 'buy',
        entry: 'out',
        volume: 0.5,
        price: 1.1006,
        profit: -30,
        ...told(-35, 45, -35, 45),
      }),
      side(7, 30, {
        time: at(3, 9),
        type: 'buy',
        entry: 'in',
        symbol: 'GBPUSD',
        volume: 0.1,
        price: 1.25,
      }),
      side(8, 30, {
        time: at(3, 10),
        type: 'sell',
        entry: 'out',
        symbol: 'GBPUSD',
        volume: 0.1,
        price: 1.249,
        profit: -10,
      }),
      side(9, 40, { time: at(4, 9), type: 'buy', entry: 'in', price: 1.1 }),
      side(10, 40, {
        time: at(4, 10),
        type: 'sell',
        entry: 'inout',
        volume: 2,
        price: 1.101,
        profit: 100,
        ...told(-5, 100, -5, 100),
      }),
      side(11, 40, {
        time: at(4, 11),
        type: 'buy',
        entry: 'out',
        price: 1.1005,
        profit: 50,
        ...told(-8, 50, -8, 50),
      }),
    ],
  });
  expect(sent.body).toEqual({ accepted: 11, duplicate: 0 });
  return publisher;
}

describe('excursions (MAE and MFE)', () => {
  it('each trade carries its excursions, the most adverse and the best of its closing deals; an older trade none', async () => {
    const { user, account } = await withExcursions(20_401);
    const trades = (await get(`${ACCOUNT(account.id)}/trades`, user.token)).body.data;
    expect(
      trades.map((tr: Record<string, unknown>) => [tr.position_id, tr.result, ...pick(tr)]),
    ).toEqual([
      ['40#2', 50, -8, 50, -8, 50],
      ['40', 100, -5, 100, -5, 100],
      ['30', -10, null, null, null, null],
      ['20', 20, -35, 60, -35, 60],
      ['10', 100, -12.5, 130, -12.5, 130],
    ]);
    // the CSV's last four columns: money to the cent, points to a tenth; none told: empty
    const csv = (await get(`${ACCOUNT(account.id)}/trades.csv`, user.token)).text;
    const line = (position: string) => csv.split('\r\n').find((l) => l.startsWith(`${position},`))!;
    expect(line('20')).toBe(
      `20,EURUSD,short,${at(2, 9)},${at(2, 11)},1,1.10000,1.09980,2,20.00,0,,-35.00,60.00,-35,60`,
    );
    expect(line('10')).toBe(
      `10,EURUSD,long,${at(1, 9)},${at(1, 15)},1,1.10000,1.10100,10,100.00,0,,-12.50,130.00,-12.5,130`,
    );
    expect(line('30').endsWith(',-10.00,0,,,,,')).toBe(true);
    // kept on closing deals only: the opening deal's were dropped
    const { rows } = await t.sql.query(
      `select ticket, mae, mfe, mae_points, mfe_points from monitoring_deals
       where account_id = $1 and mae is not null order by ticket`,
      [account.id],
    );
    expect(rows.map((r) => Number(r.ticket))).toEqual([3, 5, 6, 10, 11]);
  });

  it('the scatter: every closed trade with excursions, newest first, its result in money and points, and how many have none', async () => {
    const { user, account } = await withExcursions(20_402);
    const scatter = await get(`${ACCOUNT(account.id)}/excursions`, user.token);
    expect(scatter.status).toBe(200);
    expect(scatter.body).toEqual({
      trades: [
        {
          position_id: '40#2',
          symbol: 'EURUSD',
          direction: 'short',
          close_time: at(4, 11),
          // 1.10100 -> 1.10050 short: 50 points
          result: 50,
          result_points: 50,
          ...told(-8, 50, -8, 50),
        },
        {
          position_id: '40',
          symbol: 'EURUSD',
          direction: 'long',
          close_time: at(4, 10),
          result: 100,
          result_points: 100,
          ...told(-5, 100, -5, 100),
        },
        {
          position_id: '20',
          symbol: 'EURUSD',
          direction: 'short',
          close_time: at(2, 11),
          // 1.10000 -> 1.09980 on average, short: 20 points
          result: 20,
          result_points: 20,
          ...told(-35, 60, -35, 60),
        },
        {
          position_id: '10',
          symbol: 'EURUSD',
          direction: 'long',
          close_time: at(1, 15),
          result: 100,
          result_points: 100,
          ...told(-12.5, 130, -12.5, 130),
        },
      ],
      total: 4,
      without: 1,
    });
    // another user's account is not found; an account without trades has an empty scatter
    const stranger = await quickUser(t);
    expect(await get(`${ACCOUNT(account.id)}/excursions`, stranger.token)).toMatchObject({
      status: 404,
      body: refusal('MONITORING_ACCOUNT_NOT_FOUND'),
    });
    const empty = await publisherOf(t, 20_403);
    expect((await get(`${ACCOUNT(empty.account.id)}/excursions`, empty.user.token)).body).toEqual({
      trades: [],
      total: 0,
      without: 0,
    });
  });

  it(`the scatter holds the latest ${EXCURSIONS_MAX} trades with excursions and counts the rest`, async () => {
    const { user, account } = await publisherOf(t, 20_404);
    // trade g (1 to 5,002) opened at minute g and closed 30 s later; the first without
    // excursions, the others telling (-g, g, -g, g)
    await t.sql.query(
      `insert into monitoring_deals (account_id, ticket, "order", position_id, time, type, entry,
         symbol, digits, volume, price, profit, swap, commission, fee, magic, comment, mae, mfe,
         mae_points, mfe_points)
       select $1, 2 * g + d, 2 * g + d, g,
         timestamptz '2026-01-01' + g * interval '1 minute' + d * interval '30 seconds',
         case d when 0 then 'buy' else 'sell' end, case d when 0 then 'in' else 'out' end,
         'EURUSD', 5, 1, 1.1 + d * 0.0001, d * 10, 0, 0, 0, 0, '',
         case when d = 1 and g > 1 then -g end, case when d = 1 and g > 1 then g end,
         case when d = 1 and g > 1 then -g end, case when d = 1 and g > 1 then g end
       from generate_series(1, 5002) g, generate_series(0, 1) d`,
      [account.id],
    );
    const { body } = await get(`${ACCOUNT(account.id)}/excursions`, user.token);
    expect(body.total).toBe(5001);
    expect(body.without).toBe(1);
    expect(body.trades).toHaveLength(EXCURSIONS_MAX);
    // newest first: 5,002 down to 3 (2, the oldest with excursions, is past the cap)
    expect(body.trades[0]).toMatchObject({ position_id: '5002', result: 10, result_points: 10 });
    expect(pick(body.trades[0])).toEqual([-5002, 5002, -5002, 5002]);
    expect(body.trades.at(-1).position_id).toBe('3');
  });

  it('the public page: hidden money leaves the points, a hidden history hides the scatter', async () => {
    const { user, account } = await withExcursions(20_405);
    const path = `${PUBLIC(account.monitoring_id)}/excursions`;
    const missing = await get(`${PUBLIC('AAAAAAAAAAAAAAAA')}/excursions`);
    expect(missing).toMatchObject({ status: 404, body: refusal('MONITORING_PUBLIC_NOT_FOUND') });
    // private: as missing
    expect((await get(path)).body).toEqual(missing.body);

    await patch(account.id, { is_public: true }, user);
    const owner = await get(`${ACCOUNT(account.id)}/excursions`, user.token);
    expect((await get(path)).body).toEqual(owner.body);

    await patch(account.id, { hide_money: true }, user);
    const hidden = (await get(path)).body;
    expect(hidden.total).toBe(4);
    expect(hidden.without).toBe(1);
    expect(
      hidden.trades.map((tr: Record<string, unknown>) => [
        tr.result,
        tr.result_points,
        ...pick(tr),
      ]),
    ).toEqual([
      [null, 50, null, null, -8, 50],
      [null, 100, null, null, -5, 100],
      [null, 20, null, null, -35, 60],
      [null, 100, null, null, -12.5, 130],
    ]);
    const trades = (await get(`${PUBLIC(account.monitoring_id)}/trades`)).body.data;
    expect(trades.find((tr: { position_id: string }) => tr.position_id === '20')).toMatchObject({
      result: null,
      mae: null,
      mfe: null,
      mae_points: -35,
      mfe_points: 60,
    });
    expect(JSON.stringify(hidden)).not.toMatch(/"(?:mae|mfe|result)":-?\d/);

    await patch(account.id, { hide_money: false, hide_history: true }, user);
    expect((await get(path)).body).toEqual(missing.body);
  });

  it('the open positions carry their excursions so far; an older publisher’s none; hidden money hides the money ones', async () => {
    const publisher = await publisherOf(t, 20_406);
    const { user, account } = publisher;
    await send(t, HELLO, publisher.key, hello({ login: 20_406 }));
    const position = {
      type: 'buy' as const,
      volume: 1,
      open_time: at(6, 10),
      open_price: 1.1,
      current_price: 1.1002,
      sl: 0,
      tp: 0,
      profit: 20,
      swap: 0,
    };
    const stored = await send(
      t,
      SNAPSHOT,
      publisher.key,
      snapshot({
        login: 20_406,
        time: at(6, 11),
        positions: [
          { ...position, ticket: 501, symbol: 'EURUSD', ...told(-30, 50, -30, 50) },
          { ...position, ticket: 502, symbol: 'GBPUSD' },
        ],
      }),
    );
    expect(stored.status).toBe(200);
    const { body } = await get(`${ACCOUNT(account.id)}/positions`, user.token);
    expect(body.positions.map((p: Record<string, unknown>) => [p.ticket, ...pick(p)])).toEqual([
      [501, -30, 50, -30, 50],
      [502, null, null, null, null],
    ]);
    await patch(account.id, { is_public: true, hide_money: true }, user);
    const open = (await get(`${PUBLIC(account.monitoring_id)}/positions`)).body;
    expect(open.positions.map((p: Record<string, unknown>) => [p.ticket, ...pick(p)])).toEqual([
      [501, null, null, -30, 50],
      [502, null, null, null, null],
    ]);
  });
});

describe("positions' digits", () => {
  it("a position in a symbol with deals has the symbol's latest digits, one without has null", async () => {
    const publisher = await published(20_103);
    const { user, account } = publisher;
    const position = {
      type: 'buy' as const,
      volume: 0.1,
      open_time: at(6, 10),
      current_price: 1.0851,
      sl: 0,
      tp: 0,
      profit: 1,
      swap: 0,
    };
    await send(
      t,
      SNAPSHOT,
      publisher.key,
      snapshot({
        login: 20_103,
        time: at(6, 1),
        positions: [
          { ...position, ticket: 401, symbol: 'EURUSD', open_price: 1.085 },
          { ...position, ticket: 402, symbol: 'GBPUSD', open_price: 1.25 },
        ],
      }),
    );
    const { body } = await get(`${ACCOUNT(account.id)}/positions`, user.token);
    expect(body.positions).toEqual([
      expect.objectContaining({ ticket: 401, symbol: 'EURUSD', digits: 5 }),
      expect.objectContaining({ ticket: 402, symbol: 'GBPUSD', digits: null }),
    ]);
    await patch(account.id, { is_public: true }, user);
    const open = await get(`${PUBLIC(account.monitoring_id)}/positions`);
    expect(open.body.positions.map((p: { digits: number | null }) => p.digits)).toEqual([5, null]);
  });
});

describe("the owner's account by its public id", () => {
  it("the list narrowed to the one account of the reader; another's and an unknown one are none", async () => {
    const { user, subscription, account } = await publisherOf(t, 20_101);
    // room for a second account (the free plan has one)
    await t.sql.query('update monitoring_subscriptions set accounts = 2 where id = $1', [
      subscription,
    ]);
    const second = await t.api.post(
      '/api/user/monitoring/accounts',
      {
        subscription_id: subscription,
        login: 20_102,
        platform: 'MT4',
        name: 'Second',
        email: 'r@example.com',
      },
      { token: user.token },
    );
    expect(second.status).toBe(201);
    const mine = (monitoringId: string, token = user.token) =>
      get(`/api/user/monitoring/accounts?monitoring_id=${encodeURIComponent(monitoringId)}`, token);

    const whole = await get('/api/user/monitoring/accounts', user.token);
    expect(whole.body.accounts).toHaveLength(2);
    const one = await mine(second.body.account.monitoring_id);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      accounts: [whole.body.accounts.find((a: { id: number }) => a.id === second.body.account.id)],
    });

    const other = await quickUser(t);
    expect((await mine(account.monitoring_id, other.token)).body).toEqual({ accounts: [] });
    expect((await mine('AAAAAAAAAAAAAAAA')).body).toEqual({ accounts: [] });
    expect(await mine('not an id')).toMatchObject({
      status: 422,
      body: fieldRefusal('monitoring_id', 'MONITORING_ACCOUNT_NOT_FOUND'),
    });
  });
});

describe('settings and the public page', () => {
  it('settings change together; a bad time zone is refused and changes nothing', async () => {
    const { user, account } = await publisherOf(t, 20_201);
    expect(account).toMatchObject({ is_public: false, hide_login: true, time_zone: 'UTC' });
    const bad = await patch(account.id, { is_public: true, time_zone: 'Mars/Olympus' }, user);
    expect(bad).toMatchObject({
      status: 422,
      body: fieldRefusal('time_zone', 'MONITORING_TIME_ZONE_INVALID'),
    });
    expect((await get(PUBLIC(account.monitoring_id))).status).toBe(404);
    const good = await patch(
      account.id,
      { is_public: true, hide_money: true, time_zone: 'Europe/Moscow' },
      user,
    );
    expect(good.body.account).toMatchObject({
      is_public: true,
      hide_money: true,
      time_zone: 'Europe/Moscow',
    });
  });

  it('private, missing and hidden parts are 404 in the same words', async () => {
    const { user, account } = await published(20_301);
    const missing = await get(PUBLIC('AAAAAAAAAAAAAAAA'));
    const private_ = await get(PUBLIC(account.monitoring_id));
    expect(missing).toMatchObject({ status: 404, body: refusal('MONITORING_PUBLIC_NOT_FOUND') });
    expect(private_.body).toEqual(missing.body);
    expect((await get(PUBLIC('not an id'))).status).toBe(404);

    await patch(account.id, { is_public: true, hide_history: true, hide_positions: true }, user);
    expect((await get(PUBLIC(account.monitoring_id))).status).toBe(200);
    expect((await get(`${PUBLIC(account.monitoring_id)}/trades`)).body).toEqual(missing.body);
    expect((await get(`${PUBLIC(account.monitoring_id)}/positions`)).body).toEqual(missing.body);
    expect((await get(`${PUBLIC(account.monitoring_id)}/chart`)).status).toBe(200);

    await remove(account.id, user);
    expect((await get(PUBLIC(account.monitoring_id))).body).toEqual(missing.body);
  });

  it('hidden money shows percentages only; the login is hidden by default, the broker on request', async () => {
    const { user, account } = await published(20_302);
    await patch(account.id, { is_public: true, hide_money: true, hide_broker: true }, user);
    const page = await get(PUBLIC(account.monitoring_id));
    expect(page.body.account).toMatchObject({
      name: 'Main',
      login: null,
      company: null,
      server: null,
      currency: null,
      shows_money: false,
    });
    const s = page.body.statistics;
    expect(s.gain).toBeCloseTo(GAIN, 10);
    expect(s.max_drawdown).toBeCloseTo(0.1, 10);
    for (const money of [
      s.balance,
      s.equity,
      s.profit,
      s.deposits,
      s.withdrawals,
      s.drawdown_money,
      s.absolute_drawdown,
      s.trades.best,
      s.trades.worst,
      s.trades.average_win,
      s.trades.longest_win_streak.money,
      ...s.daily.map((d: { profit: number | null }) => d.profit),
    ])
      expect(money).toBeNull();
    expect(s.trades.count).toBe(3);
    expect(JSON.stringify(page.body)).not.toContain('1090.5');

    const chart = await get(`${PUBLIC(account.monitoring_id)}/chart`);
    expect(
      chart.body.points.every(
        (p: { balance: null; equity: null }) => p.balance === null && p.equity === null,
      ),
    ).toBe(true);
    const trades = await get(`${PUBLIC(account.monitoring_id)}/trades`);
    expect(trades.body.data.map((d: { result: null }) => d.result)).toEqual([null, null, null]);
    const positions = await get(`${PUBLIC(account.monitoring_id)}/positions`);
    expect(positions.body.positions[0]).toMatchObject({
      symbol: 'GBPUSD',
      profit: null,
      swap: null,
    });

    // shown again, the figures are there
    await patch(account.id, { hide_money: false, hide_login: false, hide_broker: false }, user);
    const open = await get(PUBLIC(account.monitoring_id));
    expect(open.body.account).toMatchObject({
      login: 20_302,
      server: 'Broker-Live',
      currency: 'USD',
    });
    const owner = await get(`${ACCOUNT(account.id)}/statistics`, user.token);
    expect(open.body.statistics.balance).toBe(owner.body.balance);
    expect(open.body.statistics.equity).toBe(1090.5);
  });

  it('counts a visitor once a day (another browser is another visitor), and keeps no address', async () => {
    const { user, account } = await published(20_303);
    await patch(account.id, { is_public: true }, user);
    const visit = (agent: string) =>
      get(PUBLIC(account.monitoring_id), undefined, { 'user-agent': agent });
    expect((await visit('Browser A')).body.account.views).toBe(1);
    expect((await visit('Browser A')).body.account.views).toBe(1);
    expect((await visit('Browser B')).body.account.views).toBe(2);
    t.clock.advance(24 * 3600_000);
    expect((await visit('Browser A')).body.account.views).toBe(3);
    t.clock.advance(-24 * 3600_000);
    const { rows } = await t.sql.query(
      'select visitor from monitoring_views where account_id = $1',
      [account.id],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.visitor).not.toContain('127.0.0.1');
    const list = await get('/api/user/monitoring/accounts', user.token);
    expect(list.body.accounts[0].views).toBe(3);
  });
});
