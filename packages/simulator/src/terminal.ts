import type { Platform } from '@tradehost/contracts';
import { generateHistory, random, snapshotAt, type History } from './history.ts';
import { createPublisher, type PublisherOptions } from './publisher.ts';
import { DAY_MS } from '@tradehost/contracts';

/**
 * A whole terminal: says hello, publishes its history from where the server's last ticket
 * ends, then a stream of snapshots. `speed` compresses the stream's time (60: a minute of
 * snapshots every second).
 */

export interface TerminalOptions extends PublisherOptions {
  login: number;
  platform?: Platform;
  server?: string;
  company?: string;
  seed?: number;
  /** Months of history ending now. */
  months?: number;
  /** Trades per weekday on average. */
  tradesPerDay?: number;
  now?: () => Date;
  log?: (line: string) => void;
  /** The ping to the trade server its snapshots tell (ms; null: none): 24 unless said. */
  pingMs?: number | null;
}

export function createTerminal(options: TerminalOptions) {
  const publisher = createPublisher(options);
  const now = options.now ?? (() => new Date());
  const platform = options.platform ?? 'MT5';
  const log = options.log ?? (() => {});
  const to = now();
  const history: History = generateHistory({
    seed: options.seed ?? options.login,
    platform,
    from: new Date(to.getTime() - (options.months ?? 6) * 30.4375 * DAY_MS),
    to,
    ...(options.tradesPerDay === undefined ? {} : { tradesPerDay: options.tradesPerDay }),
  });
  const rnd = random((options.seed ?? options.login) ^ 0x5eed);

  return {
    history,
    publisher,

    /** hello, then the deals the server does not have yet. */
    async publishHistory() {
      const hello = await publisher.hello({
        platform,
        login: options.login,
        server: options.server ?? 'TradeHost-Demo',
        company: options.company ?? 'TradeHost Demo Broker',
        currency: 'USD',
        leverage: 100,
        trade_mode: 'demo',
        margin_mode: 'hedging',
        server_time_offset_sec: 7200,
        ea_version: 'simulator-1.0',
      });
      const sent = await publisher.deals(
        options.login,
        history.deals,
        hello.full_resync ? null : hello.last_ticket,
      );
      log(
        `account ${options.login}: ${sent.accepted} deals stored, ${sent.duplicate} already there (monitoring id ${hello.monitoring_id})`,
      );
      return { hello, ...sent };
    },

    /** `count` snapshots, `everyMs` of simulated time apart, sent `everyMs / speed` apart. */
    async streamSnapshots(count: number, everyMs = 10_000, speed = 1) {
      const start = now().getTime();
      for (let i = 0; i < count; i += 1) {
        const time = new Date(start + i * everyMs);
        await publisher.snapshot({
          ...snapshotAt(history, options.login, time, rnd),
          // what a publisher 1.3 tells of its terminal
          ping_ms: options.pingMs === undefined ? 24 : options.pingMs,
          trade_allowed: true,
          ea_trade_allowed: true,
        });
        if (i < count - 1) await new Promise((resolve) => setTimeout(resolve, everyMs / speed));
      }
      log(`account ${options.login}: ${count} snapshots sent`);
    },
  };
}
