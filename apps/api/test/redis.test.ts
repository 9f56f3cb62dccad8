import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collector, settle } from '../src/integrations/pubsub/pubsub-contract.ts';
import type { Redis } from '../src/lib/redis.ts';
import { unknownEmailKeys } from '../src/modules/auth/unknown-email-throttles.ts';
import { PASSWORD, startTestApp, useTestApp, type TestApp } from './helpers.ts';
import {
  cleanUpRedis,
  keysUnder,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  unreachableRedisUrl,
  warnWithoutRedis,
} from './test-redis.ts';

warnWithoutRedis('the tests of rate limits and pub/sub shared by instances through Redis');

const TOO_MANY = { message: 'Too much requests - try later ...', code: 'TOO_MANY_REQUESTS' };
const LIMITS = { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_USER_MAX: '4' };
const LOGIN = '/api/user/auth/login';
const ghost = { email: 'ghost@example.com', password: PASSWORD };
/**
 * Another e-mail without an account: sign-in limits each e-mail too (the 5th failure in a row
 * waits a second), so tries past the 4th on one instance use this one.
 */
const ghost2 = { email: 'ghost-2@example.com', password: PASSWORD };

const logged = (t: TestApp, text: string) =>
  t.logs.filter((line) => (JSON.parse(line) as { msg?: string }).msg?.startsWith(text));

describe.runIf(TEST_REDIS_URL)('two instances sharing a Redis', () => {
  const prefix = testRedisPrefix();
  const env = { ...LIMITS, REDIS_URL: TEST_REDIS_URL ?? '', REDIS_PREFIX: prefix };
  const a = useTestApp({ env });
  const b = useTestApp({ env });
  let raw: Redis;
  beforeAll(async () => {
    raw = await rawRedis();
  });
  afterAll(async () => cleanUpRedis(raw, prefix));

  it('allow N requests on a route across both instances together, then refuse the next on either', async () => {
    for (const t of [a, b, a]) expect((await t.api.post(LOGIN, ghost)).status).toBe(401);
    for (const t of [b, a]) {
      const refused = await t.api.post(LOGIN, ghost);
      expect(refused).toMatchObject({ status: 429, body: TOO_MANY });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // another route keeps its own count, shared as well
    for (const t of [b, a, b, a]) expect((await t.api.get('/api/user/auth')).status).toBe(401);
    expect(await b.api.get('/api/user/auth')).toMatchObject({ status: 429, body: TOO_MANY });
    expect(await a.api.get('/api/user/auth')).toMatchObject({ status: 429, body: TOO_MANY });
  });

  it('keep their counters in Redis under the prefix, expiring with their window', async () => {
    const keys = await keysUnder(raw, prefix);
    const login = `${prefix}rate-limit:POST${LOGIN}-127.0.0.1`;
    expect(keys).toEqual(
      expect.arrayContaining([login, `${prefix}rate-limit:GET/api/user/auth-127.0.0.1`]),
    );
    // beside them, only the ghost's failed sign-ins (kept under a hash of the e-mail)
    const others = keys.filter((key) => !key.startsWith(`${prefix}rate-limit:`));
    expect(others).toEqual([unknownEmailKeys(prefix, a.config.jwtSecret)(ghost.email)]);
    expect(Number(await raw.get(login))).toBe(5);
    const ttl = await raw.pttl(login);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('count apart from an installation with another prefix on the same Redis', async () => {
    const other = await startTestApp({ env: { ...env, REDIS_PREFIX: testRedisPrefix() } });
    try {
      expect(await a.api.post(LOGIN, ghost)).toMatchObject({ status: 429 });
      expect((await other.api.post(LOGIN, ghost)).status).toBe(401);
      await cleanUpRedis(await rawRedis(), other.config.redis!.prefix);
    } finally {
      await other.close();
    }
  });

  it('deliver what one instance publishes to the subscribers of the other (app.pubsub)', async () => {
    const onA = collector();
    const onB = collector();
    await a.app.pubsub.subscribe('user:1', onA.handler);
    const unsubscribe = await b.app.pubsub.subscribe('user:1', onB.handler);
    await a.app.pubsub.publish('user:1', { balanceCents: 1500 });
    await b.app.pubsub.publish('user:1', { balanceCents: 2500 });
    const both = [{ balanceCents: 1500 }, { balanceCents: 2500 }];
    expect(await onB.received(2)).toEqual(both);
    expect(await onA.received(2)).toEqual(both);
    await unsubscribe();
    await a.app.pubsub.publish('user:1', { balanceCents: 0 });
    await settle(a.app.pubsub, b.app.pubsub);
    expect(onB.messages).toEqual(both);
    // a channel of the app is `<prefix>pubsub:<name>` in Redis
    expect(await raw.pubsub('NUMSUB', `${prefix}pubsub:user:1`)).toEqual([
      `${prefix}pubsub:user:1`,
      1,
    ]);
  });
});

describe.runIf(TEST_REDIS_URL)('an instance whose Redis goes away and comes back', () => {
  const prefix = testRedisPrefix();
  let proxy: TcpProxy;
  let t: TestApp;
  let raw: Redis;
  beforeAll(async () => {
    raw = await rawRedis();
    proxy = await startTcpProxy(new URL(TEST_REDIS_URL!));
    t = await startTestApp({
      env: {
        ...LIMITS,
        RATE_LIMIT_AUTH_MAX: '2',
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        REDIS_PREFIX: prefix,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await cleanUpRedis(raw, prefix);
  });

  it('lets requests through uncounted while Redis is away, logging it, and counts again once back', async () => {
    for (let i = 0; i < 2; i += 1) expect((await t.api.post(LOGIN, ghost)).status).toBe(401);
    expect((await t.api.post(LOGIN, ghost)).status).toBe(429);

    await proxy.stop();
    await vi.waitFor(() => expect(t.app.redis!.status).not.toBe('ready'));
    for (let i = 0; i < 3; i += 1) expect((await t.api.post(LOGIN, ghost2)).status).toBe(401);
    expect(logged(t, 'rate limits: the shared counters (Redis) did not answer')).toHaveLength(1);
    expect(logged(t, 'redis (shared): the connection was lost')).toHaveLength(1);
    // live updates are dropped meanwhile, and said so; subscribing is refused
    await t.app.pubsub.publish('user:1', { balanceCents: 1 });
    expect(logged(t, 'pub/sub: a message could not be published')).toHaveLength(1);
    await expect(t.app.pubsub.subscribe('user:1', () => {})).rejects.toThrow(/could not subscribe/);

    await proxy.start();
    await vi.waitFor(() => expect(t.app.redis!.status).toBe('ready'), { timeout: 10_000 });
    expect(logged(t, 'redis (shared): connected again')).toHaveLength(1);
    // the counter kept in Redis still says the limit is reached
    expect(await t.api.post(LOGIN, ghost)).toMatchObject({ status: 429, body: TOO_MANY });
    expect(Number(await raw.get(`${prefix}rate-limit:POST${LOGIN}-127.0.0.1`))).toBe(4);
  });
});

describe('two instances without REDIS_URL', () => {
  const a = useTestApp({ env: LIMITS });
  const b = useTestApp({ env: LIMITS });

  it('count each alone, as one instance does, and keep their publications to themselves', async () => {
    expect(a.app.redis).toBeUndefined();
    for (let i = 0; i < 3; i += 1) {
      expect((await a.api.post(LOGIN, ghost)).status).toBe(401);
      expect((await b.api.post(LOGIN, ghost)).status).toBe(401);
    }
    expect(await a.api.post(LOGIN, ghost)).toMatchObject({ status: 429, body: TOO_MANY });
    expect(await b.api.post(LOGIN, ghost)).toMatchObject({ status: 429, body: TOO_MANY });

    const onA = collector();
    const onB = collector();
    await a.app.pubsub.subscribe('user:1', onA.handler);
    await b.app.pubsub.subscribe('user:1', onB.handler);
    await a.app.pubsub.publish('user:1', { balanceCents: 1 });
    expect(await onA.received(1)).toEqual([{ balanceCents: 1 }]);
    await settle(b.app.pubsub, b.app.pubsub);
    expect(onB.messages).toEqual([]);
  });
});

describe('an instance whose REDIS_URL does not answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { ...LIMITS, RATE_LIMIT_AUTH_MAX: '1', REDIS_URL: await unreachableRedisUrl() },
    });
  });
  afterAll(async () => t?.close());

  it('starts, lets limited requests through uncounted and logs the failure once', async () => {
    for (let i = 0; i < 3; i += 1) expect((await t.api.post(LOGIN, ghost)).status).toBe(401);
    expect((await t.api.get('/api/user/auth')).status).toBe(401);
    expect(logged(t, 'redis (shared): connect ECONNREFUSED')).toHaveLength(1);
    const failures = logged(t, 'rate limits: the shared counters (Redis) did not answer');
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0]!)).toMatchObject({ level: 50, failuresNotLogged: 0 });
  });

  it('drops (and logs) what it publishes, and refuses subscriptions', async () => {
    await expect(t.app.pubsub.publish('user:1', { balanceCents: 1 })).resolves.toBeUndefined();
    expect(logged(t, 'pub/sub: a message could not be published')).toHaveLength(1);
    await expect(t.app.pubsub.subscribe('user:1', () => {})).rejects.toThrow(/could not subscribe/);
  });
});

interface TcpProxy {
  port: number;
  /** Accepts connections again, on the same port. */
  start(): Promise<void>;
  /** Refuses new connections and cuts the open ones: Redis is gone, as far as the app can tell. */
  stop(): Promise<void>;
}

/** A TCP relay to the test Redis that the test can take away and bring back. */
async function startTcpProxy(target: URL): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  await listen();
  return {
    port,
    start: listen,
    async stop() {
      if (!server) return;
      const closing = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closing;
      server = undefined;
    },
  };
}
