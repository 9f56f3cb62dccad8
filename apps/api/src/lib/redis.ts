import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/** What the connections log with (the app's logger). */
export type RedisLog = Pick<FastifyBaseLogger, 'error' | 'info' | 'debug'>;

/** How long opening a connection may take before it counts as failed (then retried in the background). */
export const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** How long one command may wait for its answer: a request never waits longer on Redis. */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * An ioredis client as the API uses it: it connects only when `connect()` is called (or on first
 * use), gives up a connection attempt after REDIS_CONNECT_TIMEOUT_MS and keeps retrying in the
 * background (at most every 2 s). While it is not connected a command fails at once rather than
 * wait in a queue (`enableOfflineQueue: false`), and a connected command fails after
 * REDIS_COMMAND_TIMEOUT_MS: callers decide what a failure means (the rate limiter lets the request
 * through, a publication is dropped). Errors are logged, once per outage, and never thrown as
 * events, so an unreachable Redis cannot crash the process.
 */
export function createRedisClient(url: string, log: RedisLog, name: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // re-subscription after a reconnection is the pub/sub driver's own (it logs its failures)
    autoResubscribe: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    connectionName: `tradehost-${name}`,
  });
  watchRedisClient(client, log, name);
  return client;
}

const MEANWHILE = 'rate limits are not shared and live updates are not delivered meanwhile';

/** Logs a client's connection failures once per outage (an error, or a lost connection), and its recovery. */
export function watchRedisClient(client: Redis, log: RedisLog, name: string): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) {
      log.debug({ err: error }, `redis (${name}): still unreachable`);
      return;
    }
    down = true;
    log.error(
      { err: error },
      `redis (${name}): ${error.message}; retrying in the background (${MEANWHILE})`,
    );
  });
  // a connection closed by the other side is no error event, only this
  client.on('reconnecting', () => {
    if (down) return;
    down = true;
    log.error(
      `redis (${name}): the connection was lost; reconnecting in the background (${MEANWHILE})`,
    );
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info(`redis (${name}): connected again`);
  });
}

const firstConnections = new WeakMap<Redis, Promise<void>>();

/**
 * Opens the client's connection if it was never opened, waiting at most the connect timeout (the
 * callers of one first connection share it). A failure is logged (by watchRedisClient), never
 * thrown: the client keeps trying in the background, and meanwhile its commands fail at once.
 */
export function connectRedis(client: Redis): Promise<void> {
  if (client.status === 'wait') {
    const opening = client.connect().then(
      () => {},
      () => {},
    );
    firstConnections.set(client, opening);
    void opening.then(() => firstConnections.delete(client));
    return opening;
  }
  return firstConnections.get(client) ?? Promise.resolve();
}

/** Closes the client: politely (QUIT, then its socket's end) when connected, else at once; never throws. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    const ended = new Promise((resolve) => client.once('end', resolve));
    try {
      await client.quit();
      await ended;
      return;
    } catch {
      // fall through: drop the connection
    }
  }
  // not connected (or QUIT failed): no more reconnection attempts, the socket (if any) dropped
  client.disconnect();
}
