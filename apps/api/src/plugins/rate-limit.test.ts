import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { errorHandlerPlugin } from './error-handler.ts';
import { LocalCounters, perMinute, rateLimitPlugin } from './rate-limit.ts';
import { redisPlugin } from './redis.ts';

describe('LocalCounters', () => {
  it('counts a fixed window from a key’s first request, and starts the next once it is over', () => {
    let now = 1_000;
    const counters = new LocalCounters(100, () => now);
    expect(counters.count('a', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    now += 59_999;
    expect(counters.count('a', 60_000)).toEqual({ current: 2, ttl: 1 });
    expect(counters.count('b', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    now += 1; // a's window ends at 61,000
    expect(counters.count('a', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    expect(counters.count('b', 60_000)).toEqual({ current: 2, ttl: 59_999 });
  });

  it('forgets windows that are over as new ones start, and keeps at most its maximum of keys', () => {
    let now = 0;
    const counters = new LocalCounters(3, () => now);
    for (const key of ['a', 'b', 'c']) counters.count(key, 10);
    expect(counters.size).toBe(3);
    // full: the oldest window goes, over or not
    expect(counters.count('d', 10)).toEqual({ current: 1, ttl: 10 });
    expect(counters.size).toBe(3);
    expect(counters.count('a', 10)).toEqual({ current: 1, ttl: 10 });
    now = 100; // every window is over: each new one forgets up to two
    counters.count('e', 10);
    expect(counters.size).toBe(2);
    counters.count('f', 10);
    expect(counters.size).toBe(2);
  });

  it('counts as a fixed window per key would, whatever the keys and the clock do', () => {
    const step = fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), wait: fc.nat(40) });
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        (steps, w) => {
          let now = 0;
          const counters = new LocalCounters(100, () => now);
          const model = new Map<string, { current: number; endsAt: number }>();
          for (const { key, wait } of steps) {
            now += wait;
            let window = model.get(key);
            if (!window || window.endsAt <= now)
              model.set(key, (window = { current: 0, endsAt: now + w }));
            window.current += 1;
            expect(counters.count(key, w)).toEqual({
              current: window.current,
              ttl: window.endsAt - now,
            });
            expect(counters.size).toBeLessThanOrEqual(4);
          }
        },
      ),
    );
  });
});

describe('rateLimitPlugin, counters in this process', () => {
  async function limitedApp(max: number) {
    const app = Fastify();
    const config = { redis: undefined } as Config;
    await app.register(errorHandlerPlugin);
    await app.register(redisPlugin, { config });
    await app.register(rateLimitPlugin, { config });
    app.get('/limited', { config: perMinute(max) }, async () => ({ ok: true }));
    app.get('/other', { config: perMinute(max) }, async () => ({ ok: true }));
    app.get('/free', async () => ({ ok: true }));
    return app;
  }

  it('says the limit, what remains and when it resets; past the limit, 429 with Retry-After', async () => {
    const app = await limitedApp(2);
    const first = await app.inject('/limited');
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '60',
    });
    expect((await app.inject('/limited')).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await app.inject('/limited');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too much requests - try later ...',
      code: 'TOO_MANY_REQUESTS',
    });
    expect(refused.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'retry-after': '60' });
    // each route counts apart; a route without a limit is not counted
    expect((await app.inject('/other')).statusCode).toBe(200);
    const free = await app.inject('/free');
    expect(free.statusCode).toBe(200);
    expect(free.headers['x-ratelimit-limit']).toBeUndefined();
    await app.close();
  });

  it('counts a route’s own limiter apart from its routes', async () => {
    const app = await limitedApp(1);
    const counter = app.rateLimiter({ max: 1, timeWindow: 60_000, keyGenerator: () => 'user-1' });
    await app.ready();
    const request = {} as Parameters<typeof counter>[0];
    expect(await counter(request)).toEqual({ isExceeded: false, ttlInSeconds: 60 });
    expect(await counter(request)).toEqual({ isExceeded: true, ttlInSeconds: 60 });
    expect((await app.inject('/limited')).statusCode).toBe(200);
    await app.close();
  });
});
