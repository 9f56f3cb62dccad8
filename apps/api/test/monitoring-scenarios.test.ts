import {
  EA_VERSION,
  HISTORY_PARTIAL,
  runScenario,
  SCENARIOS,
  type EaCall,
  type ScenarioName,
  type ScenarioWorld,
} from '@tradehost/simulator';
import { describe, expect, it } from 'vitest';
import { fund, postKeyed, quickUser, useTestApp, type Json } from './helpers.ts';
import { FREE } from './monitoring-fixtures.ts';

/**
 * The terminal's awkward habits (packages/simulator's scenarios) end to end: a simulated
 * MetaTrader terminal with the publisher Expert Advisor 1.4 attached publishes to this API over
 * HTTP, on a virtual clock (no test waits), and the trader's fixes are made through the console's
 * own routes. Each test then reads what the trader sees: the accounts list, the statistics as
 * the statistics job stores them, the trades and the open positions.
 */

// the scenarios compress minutes of publishing into moments: the per-key limit of a minute
// of real time is not what they are about
const t = useTestApp({ env: { INGEST_RATE_LIMIT_MAX: '100000' } });
const ACCOUNTS = '/api/user/monitoring/accounts';
const ACCOUNT = (id: number) => `${ACCOUNTS}/${id}`;
/** Scenarios run a few thousand virtual seconds, each a timer tick, some with an HTTP call. */
const SLOW = 90_000;

interface Played {
  world: ScenarioWorld;
  calls: readonly EaCall[];
  user: { id: number; token: string };
  accountId: () => number;
  /** What the trader sees now: the statistics job run, then the account's pages. */
  sees(): Promise<Seen>;
}

interface Seen {
  statistics: Json;
  trades: Json;
  positions: Json;
  listed: Json;
}

/**
 * A trader's console as the scenario needs it at its start (the account added or not, the
 * subscription running or ended, the key the EA holds current or regenerated), then the scenario
 * run against this API, the trader doing in the console what it asks.
 */
async function play(
  name: ScenarioName,
  login: number,
  look: (world: ScenarioWorld, seesNow: () => Promise<Seen>) => Promise<void> = async () => {},
): Promise<Played> {
  const scenario = SCENARIOS[name];
  const user = await quickUser(t);
  const as = { token: user.token };
  let subscriptionId: number;
  if (scenario.server.subscription === 'ended') {
    await fund(t, user.id, 10_000);
    const paid = await postKeyed(
      t,
      '/api/user/monitoring/subscriptions',
      { accounts: 1, months: 1 },
      user,
    );
    expect(paid.status).toBe(201);
    subscriptionId = paid.body.subscription.id;
  } else {
    const free = await t.api.post(FREE, undefined, as);
    expect(free.status).toBe(201);
    subscriptionId = free.body.subscription.id;
  }
  let accountId: number | undefined;
  const addAccount = async () => {
    const added = await t.api.post(
      ACCOUNTS,
      {
        subscription_id: subscriptionId,
        login,
        platform: scenario.platform,
        name: scenario.name,
        email: 'trader@example.com',
      },
      as,
    );
    expect(added.status).toBe(201);
    accountId = added.body.account.id;
  };
  if (scenario.server.account === 'added') await addAccount();
  const id = () => {
    if (accountId === undefined) throw new Error('the account was never added');
    return accountId;
  };
  const issued = await t.api.post(
    `/api/user/monitoring/subscriptions/${subscriptionId}/key`,
    undefined,
    as,
  );
  const key: string = issued.body.key;
  let current = key;
  if (scenario.server.key === 'regenerated') {
    const fresh = await t.api.post(
      `/api/user/monitoring/subscriptions/${subscriptionId}/key/regenerate`,
      undefined,
      as,
    );
    current = fresh.body.key;
  }
  if (scenario.server.subscription === 'ended')
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '1 second' where id = $1`,
      [subscriptionId],
    );

  const world = await runScenario(
    name,
    { url: t.url, key, login },
    {
      addAccount,
      renewSubscription: async () => {
        const renewed = await postKeyed(
          t,
          `/api/user/monitoring/subscriptions/${subscriptionId}/extend`,
          { months: 1 },
          user,
        );
        expect(renewed.status).toBe(200);
      },
      newKey: async () => current,
      checkpoint: (_moment, world) => look(world, () => sees(user.token, id())),
    },
  );
  return {
    world,
    calls: world.ea.calls,
    user,
    accountId: id,
    sees: () => sees(user.token, id()),
  };
}

/** The statistics job recomputes the account's figures (jobs are off here), then the pages read. */
async function sees(token: string, accountId: number): Promise<Seen> {
  expect(await t.app.monitoringJobs.recompute(accountId)).toBe(true);
  const [statistics, trades, positions, list] = await Promise.all([
    t.api.get(`${ACCOUNT(accountId)}/statistics`, { token }),
    t.api.get(`${ACCOUNT(accountId)}/trades?per_page=100`, { token }),
    t.api.get(`${ACCOUNT(accountId)}/positions`, { token }),
    t.api.get(ACCOUNTS, { token }),
  ]);
  for (const res of [statistics, trades, positions, list]) expect(res.status).toBe(200);
  return {
    statistics: statistics.body,
    trades: trades.body,
    positions: positions.body,
    listed: list.body.accounts.find((a: { id: number }) => a.id === accountId),
  };
}

const statusesOf = (calls: readonly EaCall[], path?: EaCall['path']) =>
  calls.filter((c) => !path || c.path === path).map((c) => c.status);

/**
 * What every publishing account shows: data from the 1.4 publisher, the terminal connected with
 * its ping, algorithmic trading allowed.
 */
function expectPublishing(listed: Json) {
  expect(listed.last_data_at).not.toBeNull();
  expect(listed.ea_version).toBe(EA_VERSION);
  expect(listed.terminal_connected).toBe(true);
  expect(listed).toMatchObject({ trade_allowed: true, ea_trade_allowed: true });
  expect(listed.ping_ms).toEqual(expect.any(Number));
}

describe('the terminal’s habits, end to end', () => {
  it(
    'loginZeroAtStart: the account publishes once login 0 clears, its hello never refused',
    async () => {
      const played = await play('loginZeroAtStart', 60_001);
      // nothing was sent in the 20 s the terminal reported login 0; nothing was refused after
      const attached = Date.parse('2026-11-04T09:00:00.000Z');
      expect(played.calls[0]!.at).toBeGreaterThanOrEqual(attached + 20_000);
      expect(statusesOf(played.calls).every((s) => s === 200)).toBe(true);
      const { listed, statistics } = await played.sees();
      expectPublishing(listed);
      // deposit 1,000, nothing else: balance = equity = 1,000
      expect(listed).toMatchObject({ balance: 1000, equity: 1000 });
      expect(statistics.deposits).toBe(1000);
      expect(statistics.balance).toBe(1000);
    },
    SLOW,
  );

  it(
    'weekendFrozenTick: hello not refused after the weekend, Friday’s deals at their true times',
    async () => {
      const played = await play('weekendFrozenTick', 60_002);
      // the first call waited for Sunday's first tick (22:00:05) and its hello was taken
      expect(played.calls[0]).toMatchObject({ path: 'hello', status: 200 });
      expect(played.calls[0]!.at).toBeGreaterThan(Date.parse('2026-11-08T22:00:05.000Z'));
      expect(statusesOf(played.calls).every((s) => s === 200)).toBe(true);
      const { trades, statistics, listed } = await played.sees();
      expectPublishing(listed);
      // a buy of 1 lot EURUSD at 1.10000 at 10:00 UTC, closed at 1.10100 at 15:30 UTC:
      // (1.10100 - 1.10000) x 100,000 = +100, 10 pips of 0.0001
      expect(trades.meta.total).toBe(1);
      expect(trades.data[0]).toMatchObject({
        symbol: 'EURUSD',
        direction: 'long',
        open_time: '2026-11-06T10:00:00.000Z',
        close_time: '2026-11-06T15:30:00.000Z',
        volume: 1,
        result: 100,
      });
      expect(trades.data[0].pips).toBeCloseTo(10, 9);
      // deposit 1,000 + 100 = balance 1,100; no flow after the first: gain 1,100 / 1,000 - 1 = 10 %
      expect(statistics.deposits).toBe(1000);
      expect(statistics.profit).toBeCloseTo(100, 9);
      expect(statistics.balance).toBeCloseTo(1100, 9);
      expect(statistics.gain).toBeCloseTo(0.1, 9);
      const { rows } = await t.sql.query(
        'select min(time) as first from monitoring_deals where account_id = $1',
        [played.accountId()],
      );
      expect(rows[0].first.toISOString()).toBe('2026-11-06T09:00:00.000Z');
    },
    SLOW,
  );

  it(
    'accountAddedLater: 404 on the chart until the account is added, then publishing without a restart',
    async () => {
      let chart = '';
      const played = await play('accountAddedLater', 60_003, async (world) => {
        chart = world.ea.status;
      });
      expect(chart).toContain('Account 60003 is not added to this subscription');
      // the same Expert Advisor: refused twice, 3 minutes apart, then taken
      const hellos = played.calls.filter((c) => c.path === 'hello');
      expect(hellos.map((c) => c.status)).toEqual([404, 404, 200]);
      expect(hellos[1]!.at - hellos[0]!.at).toBe(180_000);
      expect(played.world.ea.status).toMatch(/^publishing/);
      const { listed, statistics } = await played.sees();
      expectPublishing(listed);
      expect(statistics.deposits).toBe(1000);
      expect(statistics.balance).toBe(1000);
    },
    SLOW,
  );

  it(
    'manyPositions: a snapshot of 400 positions (over 64 KiB) is taken, and all 400 are shown',
    async () => {
      const played = await play('manyPositions', 60_004);
      const snapshot = played.calls.find((c) => c.path === 'snapshot')!;
      expect(snapshot.bytes).toBeGreaterThan(64 * 1024);
      expect(statusesOf(played.calls, 'snapshot').every((s) => s === 200)).toBe(true);
      const { positions, listed } = await played.sees();
      expectPublishing(listed);
      expect(positions.positions).toHaveLength(400);
      expect(new Set(positions.positions.map((p: { ticket: number }) => p.ticket)).size).toBe(400);
      // 400 buys of 0.01 lot at 1.10000 quoted at 1.10100: 0.001 x 0.01 x 100,000 = +1.00 each,
      // equity 10,000 + 400 x 1.00 = 10,400
      expect(positions.positions[0]).toMatchObject({ symbol: 'EURUSD', volume: 0.01, profit: 1 });
      expect(listed).toMatchObject({ balance: 10_000, equity: 10_400 });
    },
    SLOW,
  );

  it(
    'depositEarlyInMinute: a deposit at 12:00:02 with nothing open leaves gain and drawdowns at 0 %',
    async () => {
      const played = await play('depositEarlyInMinute', 60_005);
      const { statistics } = await played.sees();
      // deposits of 1,000 at 11:59:00 (before the EA: valued at the balance before it, 0) and
      // 12:00:02 (seen live: equity before it 1,000). Nothing was ever open, so each period
      // ends at the value it started at: 1,000 -> 1,000, then 2,000 -> 2,000, and the index is
      // 1,000 / 1,000 x 2,000 / (1,000 + 1,000) = 1: gain 0. Equity = balance at every
      // snapshot (the minute 12:00 holds 1,000 before the deposit and 2,000 after it): no fall
      // from any peak, drawdowns 0.
      expect(statistics.deposits).toBe(2000);
      expect(statistics.balance).toBe(2000);
      expect(statistics.profit).toBe(0);
      expect(statistics.gain).toBeCloseTo(0, 12);
      expect(statistics.max_drawdown).toBeCloseTo(0, 12);
      expect(statistics.equity_drawdown).toBeCloseTo(0, 12);
    },
    SLOW,
  );

  it(
    'depositWhileOffline: a deposit the terminal learns of late, nothing open, leaves gain and drawdowns at 0 %',
    async () => {
      const played = await play('depositWhileOffline', 60_014);
      const { statistics } = await played.sees();
      // deposits of 1,000 at 11:59:00 and 12:02:02, the second without equity_before (learnt
      // of at 12:02:32). The value before it: the last snapshot before it, 12:02:01, 1,000. The
      // snapshots of 12:02:11, :21, :31 say 1,000 after it by the clock, but their balance
      // (1,000) shows the terminal had not counted it: they are the value before it, not a fall
      // of 2,000 -> 1,000 after it. Index 1,000 / 1,000 x 2,000 / (1,000 + 1,000) = 1: gain 0;
      // nothing open, equity = the balance the terminal knew: drawdowns 0.
      expect(statistics.deposits).toBe(2000);
      expect(statistics.balance).toBe(2000);
      expect(statistics.gain).toBeCloseTo(0, 12);
      expect(statistics.max_drawdown).toBeCloseTo(0, 12);
      expect(statistics.equity_drawdown).toBeCloseTo(0, 12);
    },
    SLOW,
  );

  it(
    'nettingReversal: buy 1, sell 2, buy 1 on a netting account shows 2 trades and 2 lots',
    async () => {
      const played = await play('nettingReversal', 60_006);
      const { trades, statistics } = await played.sees();
      // the long lot: 1.10000 -> 1.10100, +0.00100 x 100,000 = +100, 10 pips;
      // the short lot the reversal opened: 1.10100 -> 1.10050, +0.00050 x 100,000 = +50, 5 pips
      expect(trades.meta.total).toBe(2);
      const [short, long] = trades.data;
      expect(short).toMatchObject({ direction: 'short', volume: 1, open_price: 1.101, result: 50 });
      expect(short.close_price).toBeCloseTo(1.1005, 9);
      expect(short.pips).toBeCloseTo(5, 6);
      expect(long).toMatchObject({ direction: 'long', volume: 1, open_price: 1.1, result: 100 });
      expect(long.close_price).toBeCloseTo(1.101, 9);
      expect(long.pips).toBeCloseTo(10, 6);
      // 2 trades, 1 + 1 = 2 lots, 10 + 5 = 15 pips, profit 100 + 50 = 150,
      // balance 10,000 + 150 = 10,150, gain 10,150 / 10,000 - 1 = 1.5 %
      expect(statistics.trades.count).toBe(2);
      expect(statistics.trades.wins).toBe(2);
      expect(statistics.trades.lots).toBeCloseTo(2, 9);
      expect(statistics.trades.pips).toBeCloseTo(15, 6);
      expect(statistics.profit).toBeCloseTo(150, 9);
      expect(statistics.balance).toBeCloseTo(10_150, 9);
      expect(statistics.gain).toBeCloseTo(0.015, 9);
    },
    SLOW,
  );

  it(
    'partialClose: 1 of 2 lots closed at +50 shows Profit 50 and balance 1,050, the other lot open',
    async () => {
      const played = await play('partialClose', 60_007);
      const { statistics, positions, listed } = await played.sees();
      // closing 1 lot: (1.10050 - 1.10000) x 1 x 100,000 = +50, in Profit when it happens;
      // balance 1,000 + 50 = 1,050; the other lot floats +50: equity 1,100
      expect(statistics.profit).toBeCloseTo(50, 9);
      expect(statistics.balance).toBeCloseTo(1050, 9);
      expect(statistics.equity).toBeCloseTo(1100, 9);
      // deposits - withdrawals + Profit + other results = balance: 1,000 - 0 + 50 + 0 = 1,050
      expect(statistics.other_results).toBeCloseTo(0, 9);
      expect(
        statistics.deposits - statistics.withdrawals + statistics.profit + statistics.other_results,
      ).toBeCloseTo(statistics.balance, 9);
      expect(positions.positions).toHaveLength(1);
      expect(positions.positions[0]).toMatchObject({ type: 'buy', volume: 1, profit: 50 });
      expect(listed).toMatchObject({ balance: 1050, equity: 1100 });
    },
    SLOW,
  );

  it(
    'historyLimitedToMonth: history_incomplete while the tab shows a month, complete with the right gain once widened',
    async () => {
      let before: Json;
      let chart = '';
      const played = await play('historyLimitedToMonth', 60_008, async (world, seesNow) => {
        chart = world.ea.status;
        before = (await seesNow()).statistics;
      });
      // the EA said on the chart what to do
      expect(chart).toContain(HISTORY_PARTIAL);
      // only October's trade was visible: the deals add up to 300 against a balance of 10,500
      expect(before.history_incomplete).toBe(true);

      const { statistics, trades } = await played.sees();
      // all history: deposit 10,000 (1 Sep), +200 (10 Sep: 1.10000 -> 1.10200 on 1 lot), +300
      // (20 Oct: a sell 1.10500 -> 1.10200): profit 500, balance 10,500, and with no flow after
      // the first deposit, gain 10,500 / 10,000 - 1 = 5 %
      expect(statistics.history_incomplete).toBe(false);
      expect(statistics.deposits).toBe(10_000);
      expect(statistics.profit).toBeCloseTo(500, 9);
      expect(statistics.balance).toBeCloseTo(10_500, 9);
      expect(statistics.gain).toBeCloseTo(0.05, 9);
      expect(trades.meta.total).toBe(2);
      expect(played.world.ea.status).not.toContain(HISTORY_PARTIAL);
    },
    SLOW,
  );

  it(
    'keyWithTrailingSpace and urlWithTrailingSlash: both publish at once',
    async () => {
      for (const [name, login] of [
        ['keyWithTrailingSpace', 60_009],
        ['urlWithTrailingSlash', 60_010],
      ] as const) {
        const played = await play(name, login);
        expect(statusesOf(played.calls).every((s) => s === 200)).toBe(true);
        const { listed, statistics } = await played.sees();
        expectPublishing(listed);
        expect(statistics.deposits).toBe(1000);
      }
    },
    SLOW,
  );

  it(
    'renewedSubscription and regeneratedKey: refused with the reason on the chart until the trader acts, then publishing',
    async () => {
      for (const [name, login, refused, reason] of [
        ['renewedSubscription', 60_011, 402, 'renew'],
        ['regeneratedKey', 60_012, 401, 'HTTP 401'],
      ] as const) {
        let chart = '';
        const played = await play(name, login, async (world) => {
          chart = world.ea.status;
        });
        expect(chart).toContain(reason);
        expect(chart).toContain('trying again every 3 minutes');
        expect(statusesOf(played.calls, 'hello')).toEqual([refused, 200]);
        const { listed, statistics } = await played.sees();
        expectPublishing(listed);
        expect(statistics.deposits).toBe(1000);
      }
    },
    SLOW,
  );

  it(
    'webRequestNotAllowed: publishing once the trader lists the URL in the terminal',
    async () => {
      const played = await play('webRequestNotAllowed', 60_013);
      expect(played.calls.filter((c) => c.status === -1).length).toBeGreaterThanOrEqual(2);
      const { listed } = await played.sees();
      expectPublishing(listed);
    },
    SLOW,
  );

  it(
    'algoTradingOff: the account says algorithmic trading is off while it is, and publishing goes on',
    async () => {
      let off: Json;
      const played = await play('algoTradingOff', 60_016, async (_world, seesNow) => {
        off = (await seesNow()).listed;
      });
      expect(off).toMatchObject({ trade_allowed: false, ea_trade_allowed: true });
      expect(statusesOf(played.calls).every((s) => s === 200)).toBe(true);
      const { listed } = await played.sees();
      expectPublishing(listed);
    },
    SLOW,
  );

  it(
    'pingClimbs: a ping point a minute, the minute’s first, and the account’s latest ping',
    async () => {
      const played = await play('pingClimbs', 60_017);
      const { rows } = await t.sql.query(
        `select to_char(at at time zone 'UTC', 'HH24:MI') as minute, ping_ms, server, location
         from monitoring_pings where account_id = $1 order by at`,
        [played.accountId()],
      );
      expect(rows.map((r) => [r.minute, r.ping_ms])).toEqual([
        ['11:59', 20],
        ['12:00', 80],
        ['12:01', 140],
        ['12:02', 200],
        ['12:03', 260],
      ]);
      // the trade server its hello named; not from one of the owner's servers: no location
      expect(rows.every((r) => r.server === 'TradeHost-Demo' && r.location === null)).toBe(true);
      const { listed } = await played.sees();
      expectPublishing(listed);
      expect(listed.ping_ms).toBe(260);
    },
    SLOW,
  );
});

/** The trades' excursions as the pages show them: [position's result, mae, mfe, points...]. */
const excursionsOf = (row: Json) => [row.result, row.mae, row.mfe, row.mae_points, row.mfe_points];

describe('the excursions, end to end', () => {
  it(
    'dipThenRally: the open position shows MAE -30 while down, the closed trade MAE -30 and MFE +50, and the scatter has it',
    async () => {
      let fallen: Json;
      const played = await play('dipThenRally', 60_018, async (world, seesNow) => {
        await world.runUntilSnapshot();
        fallen = (await seesNow()).positions.positions[0];
      });
      // a buy of 1 lot EURUSD at 1.10000 quoted at 1.09970: -30.00, -30 points, nothing better yet
      expect(fallen).toMatchObject({
        profit: -30,
        mae: -30,
        mfe: 0,
        mae_points: -30,
        mfe_points: 0,
      });
      const { trades, listed } = await played.sees();
      expectPublishing(listed);
      // closed at 1.10020 (+20) after rising to 1.10050 (+50)
      expect(trades.meta.total).toBe(1);
      expect(excursionsOf(trades.data[0])).toEqual([20, -30, 50, -30, 50]);
      const scatter = await t.api.get(`${ACCOUNT(played.accountId())}/excursions`, {
        token: played.user.token,
      });
      expect(scatter.body).toEqual({
        trades: [
          expect.objectContaining({
            direction: 'long',
            result: 20,
            result_points: 20,
            mae: -30,
            mfe: 50,
            mae_points: -30,
            mfe_points: 50,
          }),
        ],
        total: 1,
        without: 0,
      });
    },
    SLOW,
  );

  it(
    'olderPublisher: a 1.3.0 publishes as before; its trade and position say they have no excursions',
    async () => {
      const played = await play('olderPublisher', 60_019);
      expect(statusesOf(played.calls).every((s) => s === 200)).toBe(true);
      const { trades, listed } = await played.sees();
      expect(listed.ea_version).toBe('1.3.0');
      expect(excursionsOf(trades.data[0])).toEqual([20, null, null, null, null]);
      const scatter = await t.api.get(`${ACCOUNT(played.accountId())}/excursions`, {
        token: played.user.token,
      });
      expect(scatter.body).toEqual({ trades: [], total: 0, without: 1 });
    },
    SLOW,
  );

  it(
    'eaRestartedMidPosition: the trade keeps the MAE seen before the stop and the MFE after the restart',
    async () => {
      const played = await play('eaRestartedMidPosition', 60_020);
      const { trades, listed } = await played.sees();
      expectPublishing(listed);
      // -30 seen before the stop (the -100 while the terminal was closed missed), +50 after it
      expect(excursionsOf(trades.data[0])).toEqual([20, -30, 50, -30, 50]);
    },
    SLOW,
  );
});
