import type { Platform } from '@tradehost/contracts';
import { createVirtualClock, type VirtualClock } from './clock.ts';
import {
  createExpertAdvisor,
  EA_VERSION_BEFORE_EXCURSIONS,
  type EaVersion,
  type ExpertAdvisor,
  type Transport,
} from './expert-advisor.ts';
import { createTerminalModel, type MarginMode, type TerminalModel } from './terminal-model.ts';

/**
 * The terminal's awkward habits, each a named script a test runs against a server (the real API,
 * or a fake): what the terminal and the trader do, second by second of a virtual clock, with the
 * publisher Expert Advisor (1.4) attached. A scenario acts; the test asserts what the trader then
 * sees. Where the fix is the trader's in the console (add the account, renew, a new key), the
 * scenario asks its `trader`; `checkpoint` lets the test look in between.
 */

export interface ScenarioTrader {
  /** Adds the account in the console (Online monitoring > Add account). */
  addAccount(): Promise<void>;
  /** Renews the ended subscription. */
  renewSubscription(): Promise<void>;
  /** The key the console shows after "Regenerate": what the trader pastes into the inputs. */
  newKey(): Promise<string>;
  /** The test looks at what the trader sees at this moment of the scenario. */
  checkpoint(name: string, world: ScenarioWorld): Promise<void>;
}

/** What the server holds when the scenario starts. */
export interface ScenarioServer {
  /** The account is added before the Expert Advisor starts ('added') or by `addAccount`. */
  account: 'added' | 'later';
  /** The subscription runs, or has ended until `renewSubscription`. */
  subscription: 'running' | 'ended';
  /** The Expert Advisor's key is the current one, or was regenerated in the console. */
  key: 'current' | 'regenerated';
}

export interface Scenario {
  name: ScenarioName;
  /** What happens, in a sentence a trader would recognise. */
  summary: string;
  platform: Platform;
  marginMode: MarginMode;
  /** The virtual clock's start (UTC). */
  start: string;
  server: ScenarioServer;
  run(world: ScenarioWorld, trader: ScenarioTrader): Promise<void>;
}

export interface ScenarioWorld {
  /** The key and URL the test gave, as the trader copied them from the console. */
  inputs: { key: string; url: string };
  clock: VirtualClock;
  terminal: TerminalModel;
  /** The Expert Advisor once attached (the last one, after a detach). */
  readonly ea: ExpertAdvisor;
  /**
   * Attaches the Expert Advisor with the inputs (the test's key and URL unless changed), of the
   * current version unless an older one is said.
   */
  attach(inputs?: { key?: string; url?: string; version?: EaVersion }): ExpertAdvisor;
  /**
   * The Expert Advisor stops (removed from its chart, the terminal closed): its OnDeinit runs,
   * then nothing of it until attached again.
   */
  detach(): void;
  /** Moves the clock to `at` (UTC) without the Expert Advisor: history before it was attached. */
  skipTo(at: string): void;
  /** `ms` of the terminal's life, a second at a time: a quote, then the EA's timer. */
  runFor(ms: number): Promise<void>;
  /** Runs until `done`, or fails after `withinMs` of virtual time, saying what the EA says. */
  runUntil(done: () => boolean, withinMs: number, what: string): Promise<void>;
  /** Runs until the server has stored one more snapshot than now. */
  runUntilSnapshot(withinMs?: number): Promise<void>;
}

export interface WorldOptions {
  /** The server's origin and the activation key, as the trader would paste them. */
  url: string;
  key: string;
  login: number;
  platform?: Platform;
  marginMode?: MarginMode;
  start?: string;
  transport?: Transport;
  serverOffsetSec?: number;
}

const SECOND = 1000;

export function createScenarioWorld(options: WorldOptions): ScenarioWorld {
  const clock = createVirtualClock(options.start ?? '2026-11-04T10:00:00.000Z');
  const terminal = createTerminalModel({
    clock,
    platform: options.platform ?? 'MT5',
    login: options.login,
    ...(options.marginMode ? { marginMode: options.marginMode } : {}),
    ...(options.serverOffsetSec === undefined ? {} : { serverOffsetSec: options.serverOffsetSec }),
  });
  let ea: ExpertAdvisor | undefined;
  let running = false;

  const world: ScenarioWorld = {
    inputs: { key: options.key, url: options.url },
    clock,
    terminal,
    get ea() {
      if (!ea) throw new Error('the Expert Advisor is not attached yet');
      return ea;
    },
    attach(inputs = {}) {
      ea = createExpertAdvisor({
        terminal,
        clock,
        key: inputs.key ?? options.key,
        url: inputs.url ?? options.url,
        ...(inputs.version ? { version: inputs.version } : {}),
        ...(options.transport ? { transport: options.transport } : {}),
      });
      running = true;
      return ea;
    },
    detach() {
      world.ea.deinit();
      running = false;
    },
    skipTo(at) {
      const target = Date.parse(at);
      if (target < clock.ms()) throw new Error(`${at} is in the scenario's past`);
      clock.advance(target - clock.ms());
    },
    async runFor(ms) {
      for (let elapsed = 0; elapsed < ms; elapsed += SECOND) {
        clock.advance(SECOND);
        terminal.step();
        if (running) await ea?.onTimer();
      }
    },
    async runUntil(done, withinMs, what) {
      for (let elapsed = 0; !done(); elapsed += SECOND) {
        if (elapsed >= withinMs)
          throw new Error(
            `${what}: not within ${withinMs / SECOND} s (the chart says: ${ea?.status ?? 'no EA'})`,
          );
        await world.runFor(SECOND);
      }
    },
    async runUntilSnapshot(withinMs = 60 * SECOND) {
      const stored = world.ea.accepted('snapshot');
      await world.runUntil(
        () => world.ea.accepted('snapshot') > stored,
        withinMs,
        'a snapshot stored',
      );
    },
  };
  return world;
}

const running: ScenarioServer = { account: 'added', subscription: 'running', key: 'current' };
const MINUTE = 60 * SECOND;
/** Most scenarios: an MT5 hedging account on a Wednesday morning, its console ready. */
const mt5Hedging = {
  platform: 'MT5',
  marginMode: 'hedging',
  start: '2026-11-04T10:00:00.000Z',
  server: running,
} as const;

/** The market open (quotes every second) and a first deposit. */
function opened(world: ScenarioWorld, deposit: number) {
  world.terminal.setTicking(true);
  world.terminal.deposit(deposit);
}

/** A deposit of 1,000 at 11:59:00, the EA attached at 11:59:30. */
async function publishingSince1159(world: ScenarioWorld) {
  opened(world, 1000);
  world.skipTo('2026-11-04T11:59:30.000Z');
  world.attach();
}

/** A deposit of 1,000, the EA attached, published: where most scenarios start. */
async function depositAndPublish(world: ScenarioWorld, inputs?: { key?: string; url?: string }) {
  opened(world, 1000);
  world.attach(inputs);
  await world.runUntilSnapshot();
}

/**
 * The excursions' scenarios: deposit 1,000, the EA attached (`version`) and published, at
 * 10:00:10 a buy of 1 lot EURUSD at 1.10000 (a point 0.00001 is 1.00 on 1 lot).
 */
async function boughtOneLot(world: ScenarioWorld, version?: EaVersion) {
  opened(world, 1000);
  world.attach(version ? { version } : {});
  await world.runFor(10 * SECOND);
  return world.terminal.open('EURUSD', 'buy', 1, 1.1);
}

export const SCENARIO_NAMES = [
  'loginZeroAtStart',
  'weekendFrozenTick',
  'accountAddedLater',
  'manyPositions',
  'depositEarlyInMinute',
  'depositWhileOffline',
  'nettingReversal',
  'partialClose',
  'historyLimitedToMonth',
  'keyWithTrailingSpace',
  'urlWithTrailingSlash',
  'renewedSubscription',
  'regeneratedKey',
  'webRequestNotAllowed',
  'algoTradingOff',
  'pingClimbs',
  'dipThenRally',
  'olderPublisher',
  'eaRestartedMidPosition',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  /**
   * A VPS reboots: for 20 s after its start the terminal is disconnected and reports login 0.
   * The EA waits for a connected terminal with a real login before its hello (1.1 sent the
   * hello with login 0, was refused with 422, and stopped).
   */
  loginZeroAtStart: {
    name: 'loginZeroAtStart',
    summary: 'the terminal reports login 0, disconnected, for 20 s after it starts',
    platform: 'MT4',
    marginMode: 'hedging',
    start: '2026-11-04T08:00:00.000Z',
    server: running,
    async run(world) {
      opened(world, 1000);
      world.skipTo('2026-11-04T09:00:00.000Z');
      world.terminal.restart(20 * SECOND);
      world.attach();
      await world.runFor(20 * SECOND);
      await world.runUntilSnapshot();
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * MT4 over a weekend: the last tick came on Friday at 21:59:58 UTC, and until the first tick
   * on Sunday evening TimeCurrent() stands there. The terminal restarts on Sunday at 12:00 UTC;
   * 1.1 took TimeCurrent() - TimeGMT() (about -36 h: out of range, 422, stopped, and over
   * the whole weekend deal times off by days). 1.2 waits for the first tick (22:00:05) to work
   * out the offset (+2 h), says hello with it, and sends Friday's deposit and trade at their
   * true times: deposit 1,000 at 09:00, a buy of 1 lot EURUSD at 1.10000 at 10:00 closed at
   * 1.10100 at 15:30 (+100).
   */
  weekendFrozenTick: {
    name: 'weekendFrozenTick',
    summary:
      "MT4: from Sunday 00:00 UTC to the first Sunday tick, TimeCurrent() stands at Friday's last tick",
    platform: 'MT4',
    marginMode: 'hedging',
    start: '2026-11-06T09:00:00.000Z',
    server: running,
    async run(world) {
      const { terminal } = world;
      opened(world, 1000);
      world.skipTo('2026-11-06T10:00:00.000Z');
      const order = terminal.open('EURUSD', 'buy', 1, 1.1);
      world.skipTo('2026-11-06T15:30:00.000Z');
      terminal.close(order, 1.101);
      world.skipTo('2026-11-06T21:59:58.000Z');
      terminal.quote('EURUSD', 1.1012);
      terminal.setTicking(false);
      world.skipTo('2026-11-08T12:00:00.000Z');
      terminal.restart();
      world.attach();
      await world.runFor(10 * 60 * MINUTE + 5 * SECOND);
      terminal.setTicking(true);
      await world.runUntilSnapshot();
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * The trader attached the EA before adding the account in the console: 404 "Account N is not
   * added", kept on the chart and tried again every 3 minutes; five minutes in, the trader adds
   * the account, and the next try publishes, with no restart.
   */
  accountAddedLater: {
    name: 'accountAddedLater',
    summary:
      '404 until the trader adds the account in the console, then publishing resumes by itself',
    ...mt5Hedging,
    server: { ...running, account: 'later' },
    async run(world, trader) {
      opened(world, 1000);
      world.attach();
      await world.runFor(5 * MINUTE);
      await trader.checkpoint('refused', world);
      await trader.addAccount();
      await world.runUntilSnapshot(4 * MINUTE);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * 400 open positions: buys of 0.01 lot EURUSD at 1.10000, quoted at 1.10100 (+1.00 each, so
   * equity 10,000 + 400 = 10,400). The snapshot is over 64 KiB (1.1's were refused with 413).
   */
  manyPositions: {
    name: 'manyPositions',
    summary: '400 open positions: a snapshot of more than 64 KiB',
    ...mt5Hedging,
    async run(world) {
      const { terminal } = world;
      opened(world, 10_000);
      for (let i = 0; i < 400; i += 1) terminal.open('EURUSD', 'buy', 0.01, 1.1);
      terminal.quote('EURUSD', 1.101);
      world.attach();
      await world.runUntilSnapshot();
      await world.runFor(20 * SECOND);
    },
  },

  /**
   * Publishing every 10 s (snapshots at hh:mm:01, :11, ...), with no position open, a second
   * deposit of 1,000 comes at 12:00:02: the EA sees it live (equity_before 1,000), restarts its
   * equity low and high at 2,000 and sends a snapshot at once, at 12:00:03 (then :13, :23, ...).
   * The minute 12:00 holds snapshots of 1,000 and of 2,000.
   */
  depositEarlyInMinute: {
    name: 'depositEarlyInMinute',
    summary: 'a deposit at hh:mm:02 while publishing every 10 s',
    ...mt5Hedging,
    start: '2026-11-04T11:59:00.000Z',
    async run(world) {
      await publishingSince1159(world);
      await world.runFor(32 * SECOND);
      world.terminal.deposit(1000);
      await world.runFor(68 * SECOND);
    },
  },

  /**
   * Publishing every 10 s (snapshots at hh:mm:01, :11, ...) with 1,000 and nothing open, the
   * terminal loses its connection at 12:01:10; the snapshots go on, disconnected, with the
   * equity it last knew (1,000). A deposit of 1,000 is made on the server at 12:02:02 (from the
   * broker's cabinet); the terminal, back at 12:02:32, learns of it 30 s late: not seen live, no
   * equity_before. The snapshots of 12:02:11, :21 and :31 come after the deposit by the clock
   * but say 1,000 (the terminal did not count it yet); the one at once, 12:02:33, says 2,000.
   */
  depositWhileOffline: {
    name: 'depositWhileOffline',
    summary: 'a deposit the terminal, offline, learns of 30 s after it was made',
    ...mt5Hedging,
    start: '2026-11-04T11:59:00.000Z',
    async run(world) {
      await publishingSince1159(world);
      await world.runFor(100 * SECOND);
      world.terminal.disconnect();
      await world.runFor(82 * SECOND);
      world.terminal.connect();
      world.terminal.deposit(1000, 'Deposit', Date.parse('2026-11-04T12:02:02.000Z'));
      await world.runFor(40 * SECOND);
    },
  },

  /**
   * MT5 netting, deposit 10,000: buy 1 lot EURUSD at 1.10000; sell 2 at 1.10100 (an `inout`
   * deal on the same position id: the long lot closed at +100, a short lot opened); buy 1 at
   * 1.10050 (the short closed at +50).
   */
  nettingReversal: {
    name: 'nettingReversal',
    summary: 'MT5 netting: buy 1, sell 2 (a reversal), buy 1',
    platform: 'MT5',
    marginMode: 'netting',
    start: '2026-11-04T10:00:00.000Z',
    server: running,
    async run(world) {
      const { terminal } = world;
      opened(world, 10_000);
      world.attach();
      await world.runFor(10 * SECOND);
      terminal.trade('EURUSD', 'buy', 1, 1.1);
      await world.runFor(MINUTE);
      terminal.trade('EURUSD', 'sell', 2, 1.101);
      await world.runFor(MINUTE);
      terminal.trade('EURUSD', 'buy', 1, 1.1005);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * Deposit 1,000; buy 2 lots EURUSD at 1.10000; at 1.10050 close 1 lot (+50); the other lot
   * stays open, floating +50.
   */
  partialClose: {
    name: 'partialClose',
    summary: 'buy 2 lots, close 1 at +50, the other still open',
    ...mt5Hedging,
    async run(world) {
      const { terminal } = world;
      opened(world, 1000);
      world.attach();
      await world.runFor(10 * SECOND);
      const position = terminal.open('EURUSD', 'buy', 2, 1.1);
      await world.runFor(MINUTE);
      terminal.close(position, 1.1005, 1);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * MT4 with the Account History tab set to the last month: a deposit of 10,000 on 1 September,
   * a trade of +200 on 10 September (buy 1 lot EURUSD 1.10000 -> 1.10200), one of +300 on
   * 20 October (sell 1 lot 1.10500 -> 1.10200); the EA is attached on 10 November and sees only
   * October's trade. It says on the chart that the first deposit is missing; the trader then
   * widens the tab to All History, the history count jumps, and the EA sends it all.
   */
  historyLimitedToMonth: {
    name: 'historyLimitedToMonth',
    summary: 'MT4 Account History tab set to the last month: the first deposit is not visible',
    platform: 'MT4',
    marginMode: 'hedging',
    start: '2026-09-01T08:00:00.000Z',
    server: running,
    async run(world, trader) {
      const { terminal } = world;
      opened(world, 10_000);
      world.skipTo('2026-09-10T10:00:00.000Z');
      const first = terminal.open('EURUSD', 'buy', 1, 1.1);
      world.skipTo('2026-09-10T14:00:00.000Z');
      terminal.close(first, 1.102);
      world.skipTo('2026-10-20T10:00:00.000Z');
      const second = terminal.open('EURUSD', 'sell', 1, 1.105);
      world.skipTo('2026-10-20T14:00:00.000Z');
      terminal.close(second, 1.102);
      world.skipTo('2026-11-10T09:00:00.000Z');
      terminal.showHistory(Date.parse('2026-10-10T09:00:00.000Z'));
      world.attach();
      await world.runUntilSnapshot();
      await world.runFor(20 * SECOND);
      await trader.checkpoint('a month shown', world);
      terminal.showHistory('all');
      await world.runUntil(
        () => world.ea.calls.filter((c) => c.path === 'deals').length > 1,
        MINUTE,
        'the whole history sent',
      );
      await world.runUntilSnapshot();
    },
  },

  /** The key pasted with a trailing space: trimmed (1.1 sent it, 401, stopped). */
  keyWithTrailingSpace: {
    name: 'keyWithTrailingSpace',
    summary: 'the activation key pasted with a trailing space',
    ...mt5Hedging,
    async run(world) {
      await depositAndPublish(world, { key: `${world.inputs.key} ` });
    },
  },

  /** The server URL typed with a trailing '/': trimmed (1.1 called //api/..., 404, stopped). */
  urlWithTrailingSlash: {
    name: 'urlWithTrailingSlash',
    summary: "the server URL typed with a trailing '/'",
    ...mt5Hedging,
    async run(world) {
      await depositAndPublish(world, { url: `${world.inputs.url}/` });
    },
  },

  /**
   * The subscription ended: 402 with its message on the chart, tried every 3 minutes; a minute
   * in, the trader renews it, and the next try publishes.
   */
  renewedSubscription: {
    name: 'renewedSubscription',
    summary: '402 until the trader renews the subscription',
    ...mt5Hedging,
    server: { ...running, subscription: 'ended' },
    async run(world, trader) {
      opened(world, 1000);
      world.attach();
      await world.runFor(MINUTE);
      await trader.checkpoint('refused', world);
      await trader.renewSubscription();
      await world.runUntilSnapshot(4 * MINUTE);
    },
  },

  /**
   * The trader regenerated the key in the console: the EA's old key is refused (401) and tried
   * every 3 minutes until the trader pastes the new one into its inputs (the terminal restarts
   * the EA with them).
   */
  regeneratedKey: {
    name: 'regeneratedKey',
    summary: '401 until the trader pastes the new key',
    ...mt5Hedging,
    server: { ...running, key: 'regenerated' },
    async run(world, trader) {
      opened(world, 1000);
      world.attach();
      await world.runFor(MINUTE);
      await trader.checkpoint('refused', world);
      world.ea.reattach({ key: await trader.newKey() });
      await world.runUntilSnapshot();
    },
  },

  /**
   * The URL is not yet in Tools > Options > Expert Advisors > Allow WebRequest: WebRequest fails
   * (4014 in MT5, 4060 in MT4), tried every 30 s with the fix on the chart; the trader adds
   * the URL and the next try publishes.
   */
  webRequestNotAllowed: {
    name: 'webRequestNotAllowed',
    summary: 'the server URL not allowed for WebRequest until the trader lists it',
    ...mt5Hedging,
    async run(world, trader) {
      opened(world, 1000);
      world.terminal.listWebRequestUrls('https://example.com');
      world.attach();
      await world.runFor(2 * MINUTE);
      await trader.checkpoint('refused', world);
      world.terminal.listWebRequestUrls(world.inputs.url);
      await world.runUntilSnapshot(2 * MINUTE);
    },
  },

  /**
   * Publishing every 10 s (snapshots at hh:mm:01, :11, ...), Algo Trading is switched off in the
   * terminal at 12:00:30 (its toolbar button, pressed by the trader or by MetaTrader itself
   * where its options say so on an account or profile change) and on again at 12:02:00. The
   * Expert Advisors still run: the publisher goes on, its snapshots of 12:00:31 to 12:01:51 say
   * trade_allowed false (its own "Allow Algo Trading" stays on).
   */
  algoTradingOff: {
    name: 'algoTradingOff',
    summary: 'Algo Trading switched off in the terminal for 90 s while publishing',
    ...mt5Hedging,
    start: '2026-11-04T11:59:00.000Z',
    async run(world, trader) {
      await publishingSince1159(world);
      await world.runFor(60 * SECOND);
      world.terminal.switchAlgoTrading(false);
      await world.runFor(90 * SECOND);
      await trader.checkpoint('off', world);
      world.terminal.switchAlgoTrading(true);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * Publishing every 10 s (snapshots at hh:mm:01, :11, ...) with a ping of 20 ms in minute 11:59,
   * the path to the trade server grows slower each minute from 12:00: 80, 140, 200, then 260 ms
   * in minute 12:03 (a congested route, a VPS far from its broker). A ping point a minute: 20,
   * 80, 140, 200, 260.
   */
  pingClimbs: {
    name: 'pingClimbs',
    summary: 'the ping to the trade server climbs from 20 to 260 ms over four minutes',
    ...mt5Hedging,
    start: '2026-11-04T11:59:00.000Z',
    async run(world) {
      world.terminal.networkPing(20);
      await publishingSince1159(world);
      await world.runFor(30 * SECOND);
      for (const ms of [80, 140, 200, 260]) {
        world.terminal.networkPing(ms);
        await world.runFor(MINUTE);
      }
    },
  },

  /**
   * A buy of 1 lot EURUSD at 1.10000 falls 30 points (1.09970: -30.00) and rises 50 (1.10050:
   * +50.00), each price held 10 s, then closes at 1.10020 (+20). The snapshots' position tells
   * its excursions so far (after the fall: mae -30, mfe 0); the closing deal MAE -30 and MFE +50,
   * -30 and +50 points.
   */
  dipThenRally: {
    name: 'dipThenRally',
    summary: 'a buy falls 30 points, rises 50, and is closed at +20',
    ...mt5Hedging,
    async run(world, trader) {
      const { terminal } = world;
      const position = await boughtOneLot(world);
      await world.runFor(10 * SECOND);
      terminal.quote('EURUSD', 1.0997);
      await world.runFor(10 * SECOND);
      await trader.checkpoint('fallen', world);
      terminal.quote('EURUSD', 1.1005);
      await world.runFor(10 * SECOND);
      terminal.close(position, 1.1002);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * The trader still runs publisher 1.3.0, which tells no excursions: the same trade as
   * dipThenRally (1.10000, down to 1.09970, up to 1.10050, closed at 1.10020), and neither its
   * positions nor its closing deal carry any: the console says so.
   */
  olderPublisher: {
    name: 'olderPublisher',
    summary: 'publisher 1.3.0: the same trade as dipThenRally, without excursions',
    ...mt5Hedging,
    async run(world) {
      const { terminal } = world;
      const position = await boughtOneLot(world, EA_VERSION_BEFORE_EXCURSIONS);
      await world.runFor(10 * SECOND);
      terminal.quote('EURUSD', 1.0997);
      await world.runFor(10 * SECOND);
      terminal.quote('EURUSD', 1.1005);
      await world.runFor(10 * SECOND);
      terminal.close(position, 1.1002);
      await world.runFor(30 * SECOND);
    },
  },

  /**
   * The buy of dipThenRally falls 30 points (1.09970, seen by the EA); at 10:01 the terminal is
   * closed (the EA's OnDeinit keeps the extremes in the terminal's global variables). While it
   * is closed the price falls to 1.09900 (-100 points) and comes back to 1.10000; at 10:10 the
   * terminal starts again and the EA goes on from what it kept. The price rises to 1.10050
   * (+50) and the position is closed at 1.10020 (+20): MAE -30 and MFE +50, -30 and +50 points;
   * the fall to -100 while nothing ran is missed (the terminal's own path knows it).
   */
  eaRestartedMidPosition: {
    name: 'eaRestartedMidPosition',
    summary: 'the terminal closed mid-position while the price makes its low, then started again',
    ...mt5Hedging,
    async run(world, trader) {
      const { terminal } = world;
      const position = await boughtOneLot(world);
      await world.runFor(10 * SECOND);
      terminal.quote('EURUSD', 1.0997);
      await world.runFor(30 * SECOND);
      world.detach();
      world.skipTo('2026-11-04T10:05:00.000Z');
      terminal.quote('EURUSD', 1.099);
      world.skipTo('2026-11-04T10:08:00.000Z');
      terminal.quote('EURUSD', 1.1);
      await trader.checkpoint('closed', world);
      world.skipTo('2026-11-04T10:10:00.000Z');
      terminal.restart();
      world.attach();
      await world.runUntilSnapshot();
      terminal.quote('EURUSD', 1.1005);
      await world.runFor(10 * SECOND);
      await trader.checkpoint('restarted', world);
      terminal.close(position, 1.1002);
      await world.runFor(30 * SECOND);
    },
  },
};

/** A trader who does nothing in the console: a scenario that needs it fails saying so. */
const absentTrader: ScenarioTrader = {
  addAccount: () => Promise.reject(new Error('this scenario needs trader.addAccount')),
  renewSubscription: () =>
    Promise.reject(new Error('this scenario needs trader.renewSubscription')),
  newKey: () => Promise.reject(new Error('this scenario needs trader.newKey')),
  checkpoint: async () => {},
};

/**
 * Runs a scenario from its start against the server at `url` (or `transport`): its world, to
 * read what the terminal and the EA did.
 */
export async function runScenario(
  name: ScenarioName,
  options: Omit<WorldOptions, 'platform' | 'marginMode' | 'start'>,
  trader: Partial<ScenarioTrader> = {},
): Promise<ScenarioWorld> {
  const scenario = SCENARIOS[name];
  const world = createScenarioWorld({
    ...options,
    platform: scenario.platform,
    marginMode: scenario.marginMode,
    start: scenario.start,
  });
  await scenario.run(world, { ...absentTrader, ...trader });
  return world;
}
