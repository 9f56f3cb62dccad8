import { ingestSnapshotSchema, type IngestDeal, type IngestSnapshot } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from './clock.ts';
import {
  createExpertAdvisor,
  EA_VERSION,
  EXCURSIONS_GONE_MS,
  HISTORY_PARTIAL,
  PERMISSION_RETRY_MS,
  REFUSAL_RETRY_MS,
  type EaCall,
} from './expert-advisor.ts';
import { createFakeIngest, type FakeIngestOptions } from './fake-ingest.ts';
import {
  createScenarioWorld,
  runScenario,
  SCENARIO_NAMES,
  SCENARIOS,
  type ScenarioName,
  type ScenarioTrader,
  type ScenarioWorld,
} from './scenarios.ts';
import { createTerminalModel } from './terminal-model.ts';

const KEY = 'mk_simulator-test-key';
const URL = 'https://tradehost.example';
const LOGIN = 5_012_345;

/** A scenario against the in-memory API, the trader's console actions changing its state. */
async function play(name: ScenarioName, trader: Partial<ScenarioTrader> = {}) {
  const scenario = SCENARIOS[name];
  const fake = createFakeIngest({
    key: KEY,
    login: LOGIN,
    account: scenario.server.account,
    subscription: scenario.server.subscription,
  });
  const regenerated = scenario.server.key === 'regenerated';
  if (regenerated) fake.state.key = 'mk_the-regenerated-key';
  const world = await runScenario(
    name,
    { url: URL, key: KEY, login: LOGIN, transport: fake.transport },
    {
      addAccount: async () => {
        fake.state.added = true;
      },
      renewSubscription: async () => {
        fake.state.ended = false;
      },
      newKey: async () => fake.state.key,
      ...trader,
    },
  );
  return { world, fake, calls: world.ea.calls };
}

const statuses = (calls: readonly EaCall[], path?: string) =>
  calls.filter((c) => !path || c.path === path).map((c) => c.status);
const iso = (at: number) => new Date(at).toISOString();
const sentDeals = (calls: readonly EaCall[]) =>
  calls
    .filter((c) => c.path === 'deals' && c.status === 200)
    .flatMap((c) => (c.sent as { deals: IngestDeal[] }).deals);
/** A deal's or position's excursions as sent: [mae, mfe, mae_points, mfe_points]. */
const excursionsOf = (d: Partial<Record<'mae' | 'mfe' | 'mae_points' | 'mfe_points', unknown>>) => [
  d.mae,
  d.mfe,
  d.mae_points,
  d.mfe_points,
];
/** The last snapshot the server took from the world's (latest) Expert Advisor. */
const lastSnapshot = (world: ScenarioWorld) =>
  world.ea.calls.filter((c) => c.path === 'snapshot' && c.status === 200).at(-1)!
    .sent as IngestSnapshot;
/** The excursions' global variables the terminal holds. */
const keptExcursions = (globals: ReadonlyMap<string, number>) =>
  [...globals.keys()].filter((name) => name.startsWith('TradeHost.ex.'));
describe('the scenarios', () => {
  it('are each named after their key and documented', () => {
    expect(Object.keys(SCENARIOS)).toEqual([...SCENARIO_NAMES]);
    for (const name of SCENARIO_NAMES) {
      expect(SCENARIOS[name].name).toBe(name);
      expect(SCENARIOS[name].summary.length).toBeGreaterThan(10);
    }
  });

  it('loginZeroAtStart: no hello while the terminal reports login 0, then a hello with the login', async () => {
    const { calls, fake } = await play('loginZeroAtStart');
    const attached = Date.parse('2026-11-04T09:00:00.000Z');
    expect(calls[0]!.at).toBeGreaterThanOrEqual(attached + 20_000);
    expect(calls[0]).toMatchObject({ path: 'hello', status: 200, sent: { login: LOGIN } });
    expect(calls.every((c) => (c.sent as { login: number }).login === LOGIN)).toBe(true);
    expect(statuses(calls).every((s) => s === 200)).toBe(true);
    expect(fake.deals()).toHaveLength(1);
  });

  it('weekendFrozenTick: MT4 waits for the first Sunday tick, says hello with +2 h, and dates Friday right', async () => {
    // the old way at Sunday 12:00 UTC: TimeCurrent() (Friday 23:59:58 server time) - TimeGMT()
    const clock = createVirtualClock('2026-11-06T21:59:58.000Z');
    const terminal = createTerminalModel({ clock, platform: 'MT4', login: LOGIN });
    terminal.setTicking(true);
    terminal.setTicking(false);
    clock.advance(Date.parse('2026-11-08T12:00:00.000Z') - clock.ms());
    // Friday 21:59:58 UTC to Sunday 12:00:00 UTC is 38 h 2 s; the server's clock is 2 h ahead:
    // -38 h - 2 s + 2 h, out of the hello's range of +-24 h
    expect((terminal.timeCurrent() - terminal.timeGMT()) / 1000).toBe(-38 * 3600 - 2 + 7200);
    expect(terminal.timeCurrent() - terminal.timeGMT()).toBeLessThan(-86_400_000);

    const { calls, world } = await play('weekendFrozenTick');
    // the quote seen at the start (Friday's) may be an old one; the first new one, at 22:00:06,
    // anchors, and 20 s later (:26) the server's clock has kept step with the computer's
    expect(calls[0]!.at).toBe(Date.parse('2026-11-08T22:00:26.000Z'));
    expect(calls[0]).toMatchObject({
      path: 'hello',
      status: 200,
      sent: { platform: 'MT4', server_time_offset_sec: 7200, ea_version: EA_VERSION },
    });
    expect(world.ea.serverOffsetSec).toBe(7200);
    expect(sentDeals(calls).map((d) => [d.type, d.entry, d.time])).toEqual([
      ['balance', 'in', '2026-11-06T09:00:00.000Z'],
      ['buy', 'in', '2026-11-06T10:00:00.000Z'],
      ['sell', 'out', '2026-11-06T15:30:00.000Z'],
    ]);
    expect(statuses(calls).every((s) => s === 200)).toBe(true);
  });

  it('accountAddedLater: 404 on the chart, a hello every 3 minutes, publishing once the account is added', async () => {
    let chart = '';
    const { calls, world } = await play('accountAddedLater', {
      checkpoint: async (_name, world) => {
        chart = world.ea.status;
      },
    });
    const hellos = calls.filter((c) => c.path === 'hello');
    expect(hellos.map((c) => c.status)).toEqual([404, 404, 200]);
    expect(hellos[1]!.at - hellos[0]!.at).toBe(REFUSAL_RETRY_MS);
    expect(hellos[2]!.at - hellos[1]!.at).toBe(REFUSAL_RETRY_MS);
    expect(chart).toContain(`Account ${LOGIN} is not added to this subscription`);
    expect(world.ea.status).toMatch(/^publishing/);
    expect(world.ea.accepted('snapshot')).toBeGreaterThan(1);
  });

  it('manyPositions: 400 positions in one snapshot of more than 64 KiB, all of them sent', async () => {
    const { calls, fake } = await play('manyPositions');
    const first = calls.find((c) => c.path === 'snapshot')!;
    expect(first.status).toBe(200);
    expect(first.bytes).toBeGreaterThan(64 * 1024);
    expect(fake.snapshots[0]!.positions).toHaveLength(400);
    expect(fake.snapshots[0]).toMatchObject({ balance: 10_000, equity: 10_400 });
    expect(fake.snapshots[0]!.positions_total).toBeUndefined();
  });

  it('depositEarlyInMinute: the live deposit carries the equity before it, the low and high restart, a snapshot at once', async () => {
    const { calls, fake } = await play('depositEarlyInMinute');
    const deposits = sentDeals(calls).filter((d) => d.type === 'balance');
    // the first, from before the EA was attached, is history: no equity before it is known
    expect(deposits.map((d) => [d.time, d.profit, d.equity_before])).toEqual([
      ['2026-11-04T11:59:00.000Z', 1000, null],
      ['2026-11-04T12:00:02.000Z', 1000, 1000],
    ]);
    const around = fake.snapshots
      .filter((s) => s.time >= '2026-11-04T11:59:51' && s.time <= '2026-11-04T12:00:13.000Z')
      .map((s) => [s.time.slice(11, 19), s.equity, s.equity_low, s.equity_high]);
    expect(around).toEqual([
      ['11:59:51', 1000, 1000, 1000],
      ['12:00:01', 1000, 1000, 1000],
      ['12:00:03', 2000, 2000, 2000],
      ['12:00:13', 2000, 2000, 2000],
    ]);
  });

  it('depositWhileOffline: snapshots go on while offline; the late deposit has no equity_before, a snapshot at once', async () => {
    const { calls, fake } = await play('depositWhileOffline');
    const deposits = sentDeals(calls).filter((d) => d.type === 'balance');
    expect(deposits.map((d) => [d.time, d.profit, d.equity_before])).toEqual([
      ['2026-11-04T11:59:00.000Z', 1000, null],
      ['2026-11-04T12:02:02.000Z', 1000, null],
    ]);
    const after = fake.snapshots
      .filter((s) => s.time >= '2026-11-04T12:01:00' && s.time <= '2026-11-04T12:02:40')
      .map((s) => [s.time.slice(11, 19), s.equity, s.terminal_connected]);
    expect(after).toEqual([
      ['12:01:01', 1000, true],
      ...['12:01:11', '12:01:21', '12:01:31', '12:01:41', '12:01:51', '12:02:01', '12:02:11']
        .concat(['12:02:21', '12:02:31'])
        .map((time) => [time, 1000, false]),
      ['12:02:33', 2000, true],
    ]);
  });

  it('nettingReversal: in, inout (2 lots, +100), out (+50), all on one position id', async () => {
    const { calls } = await play('nettingReversal');
    const trades = sentDeals(calls).filter((d) => d.type === 'buy' || d.type === 'sell');
    expect(trades.map((d) => [d.type, d.entry, d.volume, d.price, d.profit])).toEqual([
      ['buy', 'in', 1, 1.1, 0],
      ['sell', 'inout', 2, 1.101, 100],
      ['buy', 'out', 1, 1.1005, 50],
    ]);
    expect(new Set(trades.map((d) => d.position_id)).size).toBe(1);
    const hello = calls.find((c) => c.path === 'hello')!;
    expect(hello.sent).toMatchObject({ margin_mode: 'netting' });
  });

  it('partialClose: an out deal of 1 lot at +50, 1 lot still open', async () => {
    const { calls, fake } = await play('partialClose');
    const trades = sentDeals(calls).filter((d) => d.type === 'buy' || d.type === 'sell');
    expect(trades.map((d) => [d.type, d.entry, d.volume, d.profit])).toEqual([
      ['buy', 'in', 2, 0],
      ['sell', 'out', 1, 50],
    ]);
    const last = fake.snapshots.at(-1)!;
    expect(last).toMatchObject({ balance: 1050, equity: 1100 });
    expect(last.positions.map((p) => [p.volume, p.profit])).toEqual([[1, 50]]);
  });

  it('historyLimitedToMonth: says the deposit is missing, then sends the whole history once widened', async () => {
    let before: { deals: number; chart: string } | undefined;
    const { world, fake } = await play('historyLimitedToMonth', {
      checkpoint: async (_name, world) => {
        before = { deals: sentDeals(world.ea.calls).length, chart: world.ea.status };
      },
    });
    // October's trade only: its opening and closing
    expect(before!.deals).toBe(2);
    expect(before!.chart).toContain(HISTORY_PARTIAL);
    expect(fake.deals().map((d) => [d.type, d.entry, d.time, d.profit])).toEqual([
      ['balance', 'in', '2026-09-01T08:00:00.000Z', 10_000],
      ['buy', 'in', '2026-09-10T10:00:00.000Z', 0],
      ['sell', 'out', '2026-09-10T14:00:00.000Z', 200],
      ['sell', 'in', '2026-10-20T10:00:00.000Z', 0],
      ['buy', 'out', '2026-10-20T14:00:00.000Z', 300],
    ]);
    expect(world.ea.status).not.toContain(HISTORY_PARTIAL);
    expect(fake.snapshots.at(-1)).toMatchObject({ balance: 10_500 });
  });

  it('keyWithTrailingSpace and urlWithTrailingSlash: trimmed, accepted at once', async () => {
    for (const name of ['keyWithTrailingSpace', 'urlWithTrailingSlash'] as const) {
      const { calls } = await play(name);
      expect(statuses(calls).every((s) => s === 200)).toBe(true);
      expect(calls[0]!.path).toBe('hello');
    }
  });

  it('renewedSubscription and regeneratedKey: refused until the trader acts, then publishing', async () => {
    for (const [name, refused] of [
      ['renewedSubscription', 402],
      ['regeneratedKey', 401],
    ] as const) {
      let chart = '';
      const { calls, world } = await play(name, {
        checkpoint: async (_name, world) => {
          chart = world.ea.status;
        },
      });
      expect(statuses(calls, 'hello')).toEqual([refused, 200]);
      expect(chart).toContain(`HTTP ${refused}`);
      expect(chart).toContain('trying again every 3 minutes');
      expect(world.ea.status).toMatch(/^publishing/);
    }
  });

  it('webRequestNotAllowed: WebRequest refused, tried every 30 s, publishing once the URL is listed', async () => {
    let chart = '';
    const { calls, world } = await play('webRequestNotAllowed', {
      checkpoint: async (_name, world) => {
        chart = world.ea.status;
      },
    });
    const failed = calls.filter((c) => c.status === -1);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < failed.length; i += 1) {
      const gap = failed[i]!.at - failed[i - 1]!.at;
      expect(gap).toBe(PERMISSION_RETRY_MS);
    }
    expect(chart).toContain('Tools > Options > Expert Advisors');
    expect(world.ea.accepted('snapshot')).toBe(1);
  });

  it('algoTradingOff: publishing goes on, the snapshots of the 90 s say trade_allowed false', async () => {
    const { fake } = await play('algoTradingOff');
    const told = fake.snapshots.map((s) => [
      s.time.slice(11, 19),
      s.trade_allowed,
      s.ea_trade_allowed,
    ]);
    const off = told.filter(([, allowed]) => allowed === false).map(([time]) => time);
    expect(off).toEqual([
      '12:00:31',
      '12:00:41',
      '12:00:51',
      '12:01:01',
      '12:01:11',
      '12:01:21',
      '12:01:31',
      '12:01:41',
      '12:01:51',
    ]);
    // before and after, allowed; the Expert Advisor's own box never changed
    expect(told.at(0)).toEqual(['11:59:31', true, true]);
    expect(told.at(-1)).toEqual(['12:02:21', true, true]);
    expect(told.every(([, , ea]) => ea === true)).toBe(true);
  });

  it('pingClimbs: each snapshot tells the ping of its moment, in whole milliseconds', async () => {
    const { fake } = await play('pingClimbs');
    const byMinute = new Map<string, Set<number | null | undefined>>();
    for (const s of fake.snapshots) {
      const minute = s.time.slice(11, 16);
      byMinute.set(minute, (byMinute.get(minute) ?? new Set()).add(s.ping_ms));
    }
    expect([...byMinute].map(([minute, pings]) => [minute, [...pings]])).toEqual([
      ['11:59', [20]],
      ['12:00', [80]],
      ['12:01', [140]],
      ['12:02', [200]],
      ['12:03', [260]],
    ]);
  });
});

describe('the excursions (1.4)', () => {
  it('dipThenRally: a buy down 30 points and up 50 has MAE -30 and MFE +50, in money and points', async () => {
    let fallen: unknown[] = [];
    const { calls } = await play('dipThenRally', {
      checkpoint: async (_name, world) => {
        await world.runUntilSnapshot();
        fallen = excursionsOf(lastSnapshot(world).positions[0]!);
      },
    });
    // after the fall, the position's excursions so far (1 lot: a point is 1.00)
    expect(fallen).toEqual([-30, 0, -30, 0]);
    const trades = sentDeals(calls).filter((d) => d.type === 'buy' || d.type === 'sell');
    expect(trades.map((d) => [d.entry, d.profit, ...excursionsOf(d)])).toEqual([
      ['in', 0, null, null, null, null],
      // closed at 1.10020 (+20): the extremes it passed through
      ['out', 20, -30, 50, -30, 50],
    ]);
    // a balance deal carries none; the fake API took every message through the real schemas
    expect(excursionsOf(sentDeals(calls)[0]!)).toEqual([null, null, null, null]);
    expect(statuses(calls).every((s) => s === 200)).toBe(true);
    expect(calls.find((c) => c.path === 'hello')!.sent).toMatchObject({ ea_version: '1.4.0' });
  });

  it('keeps the extremes in the terminal’s global variables while the position is open, and forgets them a minute after its deals are sent', async () => {
    let during: string[] = [];
    const { world } = await play('dipThenRally', {
      checkpoint: async (_name, world) => {
        // saved every 30 s
        await world.runFor(30_000);
        during = keptExcursions(world.terminal.globals);
      },
    });
    expect(during.sort()).toEqual(
      ['mae', 'mae', 'mfe', 'mfe']
        .map((f, i) => (i % 2 ? `${f}p` : f))
        .map((f) => `TradeHost.ex.${LOGIN}.${world.terminal.deals().at(-1)!.position_id}.b.${f}`)
        .sort(),
    );
    expect(world.terminal.globals.get(during.find((n) => n.endsWith('.maep'))!)).toBe(-30);
    // closed 30 s ago: still kept; a minute after it was missed, its deals sent: forgotten
    expect(keptExcursions(world.terminal.globals)).toHaveLength(4);
    await world.runFor(EXCURSIONS_GONE_MS);
    expect(keptExcursions(world.terminal.globals)).toEqual([]);
  });

  it('olderPublisher: a 1.3.0 sends no excursions, on its positions or its deals', async () => {
    const { calls, fake, world } = await play('olderPublisher');
    expect(calls[0]!.sent).toMatchObject({ ea_version: '1.3.0' });
    const messages = calls.map((c) => JSON.stringify(c.sent));
    expect(messages.some((m) => m.includes('"mae'))).toBe(false);
    expect(fake.snapshots.some((s) => s.positions.length > 0)).toBe(true);
    expect(sentDeals(calls).find((d) => d.entry === 'out')).toMatchObject({ profit: 20 });
    expect(keptExcursions(world.terminal.globals)).toEqual([]);
  });

  it('eaRestartedMidPosition: the extremes before the stop are kept, those since the restart added, the low while it was off missed', async () => {
    const seen: Record<string, { path: number[]; sent: unknown[] }> = {};
    const { calls, world } = await play('eaRestartedMidPosition', {
      checkpoint: async (name, world) => {
        const open = world.terminal.positions()[0]!;
        seen[name] = {
          path: [open.path.worstPoints, open.path.bestPoints],
          sent: excursionsOf(lastSnapshot(world).positions[0]!),
        };
      },
    });
    // while it was closed the price fell to -100 points and came back: the terminal's path
    // knows it, the last snapshot (before the stop) does not
    expect(seen.closed).toEqual({ path: [-100, 0], sent: [-30, 0, -30, 0] });
    // restarted: it goes on from what it kept (-30), the rise to +50 added
    expect(seen.restarted).toEqual({ path: [-100, 50], sent: [-30, 50, -30, 50] });
    const closing = sentDeals(calls).find((d) => d.entry === 'out')!;
    expect([closing.profit, ...excursionsOf(closing)]).toEqual([20, -30, 50, -30, 50]);
    expect(world.ea.calls[0]).toMatchObject({ path: 'hello', status: 200 });
  });

  it('a terminal that lost its global variables (another machine, a crash before they were written) knows the extremes only since its start', async () => {
    const { fake, world } = attached();
    await world.runUntilSnapshot();
    const position = world.terminal.open('EURUSD', 'buy', 1, 1.1);
    world.terminal.quote('EURUSD', 1.0997);
    await world.runFor(10_000);
    // the terminal dies (no OnDeinit) before its 30 s save: nothing kept
    expect(keptExcursions(world.terminal.globals)).toEqual([]);
    world.skipTo('2026-11-04T10:05:00.000Z');
    world.terminal.restart();
    world.attach();
    world.terminal.quote('EURUSD', 1.1005);
    await world.runFor(10_000);
    world.terminal.close(position, 1.1002);
    await world.runFor(10_000);
    const closing = fake.deals().find((d) => d.entry === 'out')!;
    expect(excursionsOf(closing)).toEqual([0, 50, 0, 50]);
  });

  it('nettingReversal: the inout deal carries the long lot’s excursions, the last out the short’s', async () => {
    const { calls } = await play('nettingReversal');
    const trades = sentDeals(calls).filter((d) => d.type === 'buy' || d.type === 'sell');
    // the long lot closed at +100 by the reversal (the deal's own price: +100 points); the short
    // lot it opened closed at +50; neither went against the trader
    expect(trades.map((d) => [d.entry, ...excursionsOf(d)])).toEqual([
      ['in', null, null, null, null],
      ['inout', 0, 100, 0, 100],
      ['out', 0, 50, 0, 50],
    ]);
  });

  it('partialClose: the out deal carries the position’s excursions so far, the lot still open its own', async () => {
    const { calls, fake } = await play('partialClose');
    const out = sentDeals(calls).find((d) => d.entry === 'out')!;
    expect(excursionsOf(out)).toEqual([0, 50, 0, 50]);
    // the lot left floats +50 (1.10050): the position's excursions go on
    expect(excursionsOf(fake.snapshots.at(-1)!.positions[0]!)).toEqual([0, 50, 0, 50]);
  });

  it('MT4: an order watched while open carries its excursions on its closing deal; one closed before the EA came, none', async () => {
    const { fake, world } = mt4({});
    world.terminal.setTicking(true);
    world.terminal.deposit(1000);
    const before = world.terminal.open('EURUSD', 'sell', 1, 1.1);
    world.terminal.close(before, 1.0995);
    world.attach();
    await world.runUntilSnapshot();
    const order = world.terminal.open('EURUSD', 'sell', 0.5, 1.1);
    await world.runFor(5000);
    world.terminal.quote('EURUSD', 1.1004);
    await world.runFor(5000);
    world.terminal.quote('EURUSD', 1.0992);
    await world.runUntilSnapshot();
    expect(excursionsOf(fake.snapshots.at(-1)!.positions[0]!)).toEqual([-20, 40, -40, 80]);
    world.terminal.close(order, 1.0999);
    await world.runFor(5000);
    const closings = fake.deals().filter((d) => d.entry === 'out');
    // a sell of 0.5 lot: a point is 0.50; it rose 40 points against it, fell 80 its way, closed +5
    expect(closings.map((d) => [d.profit, ...excursionsOf(d)])).toEqual([
      [50, null, null, null, null],
      [5, -20, 40, -40, 80],
    ]);
  });
});

/** An EA attached to a fresh MT5 terminal with a deposit, against the fake API. */
function attached(fakeOptions: Partial<FakeIngestOptions> = {}) {
  const fake = createFakeIngest({ key: KEY, login: LOGIN, ...fakeOptions });
  const world = createScenarioWorld({
    url: URL,
    key: KEY,
    login: LOGIN,
    transport: fake.transport,
  });
  world.terminal.setTicking(true);
  world.terminal.deposit(1000);
  const ea = world.attach();
  return { fake, world, ea };
}

/** An MT4 terminal against the fake API, the EA not attached yet. */
function mt4(options: { serverOffsetSec?: number; start?: string }) {
  const fake = createFakeIngest({ key: KEY, login: LOGIN });
  const world = createScenarioWorld({
    url: URL,
    key: KEY,
    login: LOGIN,
    platform: 'MT4',
    transport: fake.transport,
    ...options,
  });
  return { fake, world };
}

describe('the Expert Advisor 1.4', () => {
  it('backs off server errors 1, 2, 5, 15, 60, 60 s and waits out a 429 by its Retry-After', async () => {
    const { fake, world, ea } = attached();
    for (let i = 0; i < 6; i += 1) fake.failNext('hello', 503);
    fake.failNext('hello', 429, { 'retry-after': '7' });
    await world.runUntil(() => ea.accepted('hello') === 1, 10 * 60_000, 'hello');
    const hellos = ea.calls.filter((c) => c.path === 'hello');
    const gaps = hellos.slice(1).map((c, i) => (c.at - hellos[i]!.at) / 1000);
    expect(statuses(hellos)).toEqual([503, 503, 503, 503, 503, 503, 429, 200]);
    expect(gaps).toEqual([1, 2, 5, 15, 60, 60, 7]);
  });

  it('halves a deals batch on 413, and sets aside only a malformed batch (the rest goes on)', async () => {
    const { fake, world, ea } = attached();
    for (let i = 0; i < 29; i += 1) world.terminal.deposit(10 + i);
    fake.failNext('deals', 413);
    fake.failNext('deals', 413);
    await world.runUntil(() => ea.accepted('deals') > 0, 10_000, 'the first batch');
    // 30 deals: 413 at 30, 413 at 15, then batches of 7
    expect(ea.batchSize).toBe(7);
    expect(
      ea.calls
        .filter((c) => c.path === 'deals')
        .map((c) => (c.sent as { deals: unknown[] }).deals.length),
    ).toEqual([30, 15, 7, 7, 7, 7, 2]);
    expect(fake.deals()).toHaveLength(30);

    for (let i = 0; i < 10; i += 1) world.terminal.deposit(100 + i);
    fake.failNext('deals', 422, {}, { code: 'VALIDATION' });
    await world.runFor(5000);
    // the first 7 of the 10 new ones set aside, the other 3 stored, publishing goes on
    expect(ea.setAside.map((b) => b.length)).toEqual([7]);
    expect(fake.deals()).toHaveLength(33);
    expect(ea.status).toContain('set aside');
    const stored = ea.accepted('snapshot');
    await world.runFor(20_000);
    expect(ea.accepted('snapshot')).toBeGreaterThan(stored);
  });

  it('drops a malformed snapshot (400/422) and sends the next on time; on 413 sends fewer positions and their count', async () => {
    const { fake, world, ea } = attached({ snapshotLimit: 64 * 1024 });
    await world.runUntilSnapshot();
    fake.failNext('snapshot', 400);
    await world.runFor(10_000);
    expect(ea.status).toContain('the next one follows');
    await world.runFor(10_000);
    const sent = ea.calls.filter((c) => c.path === 'snapshot');
    expect(sent.map((c) => c.status)).toEqual([200, 400, 200]);
    expect(sent[2]!.at - sent[1]!.at).toBe(10_000);
    // more positions than 64 KiB hold: 413 at 400 (1,000 at most), 413 at 400 (500 at most),
    // then 250 of them with positions_total 400
    for (let i = 0; i < 400; i += 1) world.terminal.open('EURUSD', 'buy', 0.01, 1.1);
    await world.runUntilSnapshot();
    expect(ea.calls.slice(-3).map((c) => c.status)).toEqual([413, 413, 200]);
    expect(fake.snapshots.at(-1)!.positions).toHaveLength(250);
    expect(fake.snapshots.at(-1)!.positions_total).toBe(400);
  });

  it('sends at most 1,000 positions, with positions_total when more are open', async () => {
    const { fake, world } = attached();
    for (let i = 0; i < 1003; i += 1) world.terminal.open('EURUSD', 'sell', 0.01, 1.1);
    await world.runUntilSnapshot();
    const snapshot = fake.snapshots.at(-1)!;
    expect(snapshot.positions).toHaveLength(1000);
    expect(snapshot.positions_total).toBe(1003);
    expect(ingestSnapshotSchema.safeParse(snapshot).success).toBe(true);
  });

  it('sends equity_before only for a deposit seen within 10 s, and never for one from before it was attached', async () => {
    const { fake, world, ea } = attached();
    await world.runUntilSnapshot();
    // seen live: the terminal was disconnected, and the EA notices it locally meanwhile
    world.terminal.deposit(500);
    await world.runFor(3000);
    // made while the EA was not running (the terminal closed): re-attached later
    world.terminal.disconnect();
    world.terminal.withdraw(200);
    const later = createExpertAdvisor({
      terminal: world.terminal,
      clock: world.clock,
      key: KEY,
      url: URL,
      transport: fake.transport,
    });
    world.clock.advance(60_000);
    world.terminal.connect();
    for (let i = 0; i < 5; i += 1) {
      world.clock.advance(1000);
      await later.onTimer();
    }
    expect(fake.deals().map((d) => [d.profit, d.equity_before])).toEqual([
      [1000, null],
      [500, 1000],
      [-200, null],
    ]);
    expect(ea.status).toMatch(/^publishing/);
  });

  it('MT4 never says hello without an offset worked out from a fresh tick', async () => {
    const { world } = mt4({ serverOffsetSec: 10_800 });
    world.terminal.setTicking(false);
    world.clock.advance(3_600_000);
    const ea = world.attach();
    await world.runFor(120_000);
    expect(ea.calls).toHaveLength(0);
    expect(ea.status).toContain("waiting for the trade server's time");
    expect(ea.serverOffsetSec).toBeNull();
    world.terminal.setTicking(true);
    await world.runUntilSnapshot();
    expect(ea.calls[0]!.sent).toMatchObject({ server_time_offset_sec: 10_800 });
  });

  it('MT4 keeps the offset it worked out: attached again over a weekend, it says hello at once', async () => {
    const { world } = mt4({ start: '2026-11-06T21:00:00.000Z' });
    world.terminal.setTicking(true);
    world.terminal.deposit(1000);
    world.attach();
    await world.runUntilSnapshot();
    expect(world.ea.serverOffsetSec).toBe(7200);
    world.terminal.setTicking(false);
    world.skipTo('2026-11-08T12:00:00.000Z');
    world.terminal.restart();
    const again = world.attach();
    await world.runFor(1000);
    expect(again.calls[0]).toMatchObject({
      at: Date.parse('2026-11-08T12:00:01.000Z'),
      path: 'hello',
      status: 200,
      sent: { server_time_offset_sec: 7200 },
    });
  });

  it('tells the ping only while connected and measured, rounded half up; and both trade permissions', async () => {
    const { fake, world } = attached();
    world.terminal.networkPing(12.5);
    world.terminal.allowEaTrading(false);
    await world.runUntilSnapshot();
    expect(fake.snapshots.at(-1)).toMatchObject({
      terminal_connected: true,
      ping_ms: 13,
      trade_allowed: true,
      ea_trade_allowed: false,
    });
    // offline, TERMINAL_PING_LAST still holds the last one: an old figure, not told
    world.terminal.disconnect();
    await world.runUntilSnapshot();
    expect(fake.snapshots.at(-1)).toMatchObject({ terminal_connected: false, ping_ms: null });
    // just after a start none is measured yet (0)
    world.terminal.restart(20_000);
    expect(world.terminal.pingLast()).toBe(0);
    await world.runFor(25_000);
    world.terminal.networkPing(0.4);
    await world.runUntilSnapshot();
    expect(fake.snapshots.at(-1)).toMatchObject({ terminal_connected: true, ping_ms: 0 });
    expect(fake.snapshots.every((s) => ingestSnapshotSchema.safeParse(s).success)).toBe(true);
  });

  it('a key too short to be one waits on the chart for the trader to paste one', async () => {
    const clock = createVirtualClock('2026-11-04T10:00:00.000Z');
    const terminal = createTerminalModel({ clock, platform: 'MT5', login: LOGIN });
    const ea = createExpertAdvisor({ terminal, clock, key: '  ', url: URL });
    clock.advance(1000);
    await ea.onTimer();
    expect(ea.calls).toHaveLength(0);
    expect(ea.status).toContain('paste the activation key');
    expect(iso(clock.ms())).toBe('2026-11-04T10:00:01.000Z');
  });
});
