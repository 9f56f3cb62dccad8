import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { rateLimitKeyOf } from '../lib/client-address.ts';
import { AppError } from '../lib/errors.ts';
import type { Redis } from '../lib/redis.ts';
// `app.redis`, wherever this file is compiled from (the scripts too)
import type {} from './redis.ts';

/** At most `max` requests in `timeWindow` ms per client, or per what `keyGenerator` says. */
export interface RateLimit {
  max: number;
  timeWindow: number;
  keyGenerator?: (request: FastifyRequest) => string;
}

/** Where a key stands once a request is counted: the count in its window, the ms left of it. */
export interface Counted {
  current: number;
  ttl: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's limit, checked in onRequest (see `perMinute`). */
    rateLimit?: RateLimit;
  }
  interface FastifyInstance {
    /**
     * A limit counted where the route decides (after the token check, say), in the same store as
     * the routes' limits: `await counter(request)` counts the request and tells whether it went
     * past `max`, and when its window ends.
     */
    rateLimiter(
      limit: Required<RateLimit>,
    ): (request: FastifyRequest) => Promise<{ isExceeded: boolean; ttlInSeconds: number }>;
  }
}

/**
 * Counts one request under `key` and calls back with where the key stands, or with the error of
 * a store that did not answer. The counters of this process call back at once.
 */
type Counter = (
  key: string,
  limit: RateLimit,
  done: (error: Error | null, counted?: Counted) => void,
) => void;

/**
 * Rate limits, only on routes that set `config.rateLimit` (see `perMinute`). Each such route has
 * its own counters keyed by client (or what the route's keyGenerator says), checked in
 * onRequest: before the body is parsed and before any password hashing (the auth plugin's token
 * check is added after it). A client is its address as TRUST_PROXY lets Fastify read it, an IPv6
 * one by its /64 (`rateLimitKeyOf`). Every counted answer says `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` (seconds); past the limit it is 429
 * TOO_MANY_REQUESTS with `retry-after` as well.
 *
 * Without REDIS_URL the counters live in this process (`LocalCounters`). With it they live in
 * Redis (`<REDIS_PREFIX>rate-limit:<METHOD><route>-<key>`, expiring with their window, counted by
 * @fastify/rate-limit's own Redis script), so a limit of N holds for all the instances together.
 * When Redis does not answer (unreachable, or no reply within the command timeout) the request
 * is let through uncounted and the failure logged (once a minute at most): an outage of Redis
 * must not lock every user out, and the limits only guard against floods.
 *
 * The hook is a callback, not a promise: with the counters in this process a request passes it
 * without a turn of the microtask queue (the plugin this replaces awaited five times a request).
 */
export const rateLimitPlugin = fp(
  async (app, { config }: { config: Config }) => {
    const shared = config.redis && app.redis;
    const store = shared
      ? redisCounters(shared, `${config.redis!.prefix}rate-limit:`, app.log)
      : localCounters;

    app.addHook('onRoute', (route) => {
      const limit = route.config?.rateLimit;
      if (!limit) return;
      const hook = limitHook(store(`${route.method}${route.url}-`), limit);
      const own = route.onRequest;
      route.onRequest = own === undefined ? [hook] : [own, hook].flat();
    });

    app.decorate('rateLimiter', (limit: Required<RateLimit>) => {
      const count = store('');
      return (request: FastifyRequest) =>
        new Promise((resolve) => {
          count(limit.keyGenerator(request), limit, (error, counted) =>
            resolve(
              error || !counted
                ? { isExceeded: false, ttlInSeconds: 0 }
                : { isExceeded: counted.current > limit.max, ttlInSeconds: secondsOf(counted) },
            ),
          );
        });
    });
  },
  { name: 'tradehost-rate-limit', dependencies: ['tradehost-redis'] },
);

/** The onRequest hook of a route limited by `limit`, counting with `count`. */
function limitHook(count: Counter, limit: RateLimit): onRequestHookHandler {
  const keyOf = limit.keyGenerator ?? ((request: FastifyRequest) => rateLimitKeyOf(request.ip));
  const { max } = limit;
  return (request, reply, done) => {
    count(keyOf(request), limit, (error, counted) => {
      // a store that did not answer lets the request through (it has logged why)
      if (error || !counted) return done();
      const seconds = secondsOf(counted);
      // one by one: `reply.headers` would build and walk an object for every request
      void reply
        .header('x-ratelimit-limit', max)
        .header('x-ratelimit-remaining', Math.max(0, max - counted.current))
        .header('x-ratelimit-reset', seconds);
      if (counted.current <= max) return done();
      void reply.header('retry-after', seconds);
      done(new AppError(429, 'TOO_MANY_REQUESTS'));
    });
  };
}

function secondsOf(counted: Counted): number {
  return Math.ceil(counted.ttl / 1000);
}

/** The most keys one route's counters in this process keep: past it, the oldest window goes. */
export const LOCAL_KEYS_MAX = 10_000;

/**
 * Counters in this process, one fixed window per key: the first request of a key starts its
 * window, and the first one after it ends starts the next. A Map's order is the order its keys
 * were set, and a key is set anew with each window, so the first keys are the oldest windows:
 * each new window forgets up to two that are over, and the oldest one, over or not, once there
 * are `keysMax`.
 */
export class LocalCounters {
  readonly #windows = new Map<string, { current: number; endsAt: number }>();
  readonly #keysMax: number;
  readonly #now: () => number;

  constructor(keysMax = LOCAL_KEYS_MAX, now: () => number = Date.now) {
    this.#keysMax = keysMax;
    this.#now = now;
  }

  /** How many keys are kept. */
  get size(): number {
    return this.#windows.size;
  }

  /** Counts one request under `key`, whose windows last `timeWindow` ms. */
  count(key: string, timeWindow: number): Counted {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      this.#windows.delete(key);
      this.#forgetOver(now);
      window = { current: 0, endsAt: now + timeWindow };
      this.#windows.set(key, window);
    }
    window.current += 1;
    return { current: window.current, ttl: window.endsAt - now };
  }

  #forgetOver(now: number) {
    let forgotten = 0;
    for (const [key, window] of this.#windows) {
      const full = this.#windows.size >= this.#keysMax;
      if (!full && (forgotten === 2 || window.endsAt > now)) return;
      this.#windows.delete(key);
      forgotten += 1;
    }
  }
}

/** A route's counters in this process. */
function localCounters(): Counter {
  const counters = new LocalCounters();
  return (key, limit, done) => done(null, counters.count(key, limit.timeWindow));
}

/** Once a minute at most: a Redis outage would otherwise log every request. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Counters in Redis under `nameSpace` and a route's prefix, counted by @fastify/rate-limit's
 * Redis store; a failure is logged (once a minute at most) and passed on.
 */
function redisCounters(
  redis: Redis,
  nameSpace: string,
  log: FastifyBaseLogger,
): (prefix: string) => Counter {
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
  return (prefix) => {
    const store = new RedisStore(false, false, redis, `${nameSpace}${prefix}`);
    return (key, limit, done) =>
      store.incr(
        key,
        (error, counted) => {
          if (error) failed(error);
          done(error, counted);
        },
        limit.timeWindow,
        limit.max,
      );
  };
}

/** Route config for at most `max` requests per minute per IP on that route. */
export function perMinute(max: number) {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
