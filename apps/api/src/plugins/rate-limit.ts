import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { rateLimitKeyOf } from '../lib/client-address.ts';
import { AppError } from '../lib/errors.ts';
import type { Redis } from '../lib/redis.ts';
// `app.redis`, wherever this file is compiled from (the scripts too)
import type {} from './redis.ts';

/**
 * Rate limits, only on routes that set `config.rateLimit` (see `perMinute`). Each such route has
 * its own counters keyed by client (or what the route's keyGenerator says), checked in
 * onRequest: before the body is parsed and before any password hashing. A client is its address
 * as TRUST_PROXY lets Fastify read it, an IPv6 one by its /64 (`rateLimitKeyOf`).
 *
 * Without REDIS_URL the counters live in this process. With it they live in Redis
 * (`<REDIS_PREFIX>rate-limit:<METHOD><route>-<key>`, expiring with their window), so a limit of N
 * holds for all the instances together. When Redis does not answer (unreachable, or no reply
 * within the command timeout) the request is let through uncounted and the failure logged (once a
 * minute at most): an outage of Redis must not lock every user out, and the limits only guard
 * against floods.
 */
export const rateLimitPlugin = fp(
  async (app, { config }: { config: Config }) => {
    const shared = config.redis && app.redis;
    await app.register(rateLimit, {
      global: false,
      hook: 'onRequest',
      keyGenerator: (request) => rateLimitKeyOf(request.ip),
      errorResponseBuilder: (_request, context) =>
        context.ban ? new AppError(403, 'FORBIDDEN') : new AppError(429, 'TOO_MANY_REQUESTS'),
      ...(shared
        ? {
            store: redisStore(shared, `${config.redis!.prefix}rate-limit:`, app.log),
            skipOnError: true,
          }
        : {}),
    });
  },
  { name: 'tradehost-rate-limit', dependencies: ['tradehost-redis'] },
);

/** Once a minute at most: a Redis outage would otherwise log every request. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * The plugin's own Redis store (what its `redis` and `nameSpace` options make), whose failures
 * are logged before the plugin skips them (`skipOnError`, which alone would say nothing).
 */
function redisStore(
  redis: Redis,
  nameSpace: string,
  log: FastifyBaseLogger,
): FastifyRateLimitStoreCtor {
  let loggedAt = -Infinity;
  let unlogged = 0;
  const failed = (error: Error) => {
    const now = Date.now();
    if (now - loggedAt < FAILURE_LOG_INTERVAL_MS) {
      unlogged += 1;
      return;
    }
    log.error(
      { err: error, failuresNotLogged: unlogged },
      'rate limits: the shared counters (Redis) did not answer; requests pass uncounted meanwhile',
    );
    loggedAt = now;
    unlogged = 0;
  };

  class LoggedStore implements FastifyRateLimitStore {
    readonly inner: RedisStore;
    constructor(inner: RedisStore) {
      this.inner = inner;
    }
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
      max?: number,
    ) {
      this.inner.incr(
        key,
        (error, result) => {
          if (error) failed(error);
          callback(error, result);
        },
        timeWindow,
        max,
      );
    }
    child(routeOptions: object) {
      return new LoggedStore(this.inner.child(routeOptions));
    }
  }

  return class extends LoggedStore {
    // what the plugin passes: its options with their defaults filled in
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const { continueExceeding = false, exponentialBackoff = false } = options;
      super(new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace));
    }
  };
}

/** Route config for at most `max` requests per minute per IP on that route. */
export function perMinute(max: number) {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
