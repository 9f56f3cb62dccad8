import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUpRedis,
  keysUnder,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  unreachableRedisUrl,
  warnWithoutRedis,
} from '../../../test/test-redis.ts';
import { closeRedis, connectRedis, createRedisClient, type Redis } from '../../lib/redis.ts';
import { NO_FAILURES, SIGN_IN_FAILURE_MEMORY_MS, type ThrottleState } from './sign-in-guard.ts';
import {
  memoryThrottles,
  sharedThrottles,
  UNKNOWN_EMAIL_KEYS,
  unknownEmailKeys,
} from './unknown-email-throttles.ts';

warnWithoutRedis('the shared counts of unknown e-mails’ sign-ins on a Redis');

const SECRET = 'test-secret-test-secret-test-secret-0123456789';
const T0 = new Date('2025-06-01T12:00:00Z');
const failed = (failures: number, ms = 0): ThrottleState => ({
  failures,
  lastFailureAt: new Date(T0.getTime() + ms),
  lockedUntil: null,
});

/** What the connections log with: nothing (their failures are the point here). */
const quiet = { error() {}, info() {}, debug() {} };

/** A logger that keeps its warnings. */
function recordingLog() {
  const warnings: string[] = [];
  return { warnings, warn: (_detail: unknown, message?: string) => void warnings.push(message!) };
}

describe('in this process (without REDIS_URL)', () => {
  it('sets a state only if it is still the one seen; an account’s claim writes nothing', async () => {
    const throttles = memoryThrottles();
    const tally = throttles.tally('Someone@Example.com');
    expect(await tally.claim(NO_FAILURES, failed(1))).toBe(true);
    expect(await tally.claim(NO_FAILURES, failed(1, 5))).toBe(false);
    expect(await throttles.tally('someone@example.COM').read()).toEqual(failed(1));
    const account = throttles.tally('owner@example.com');
    expect(await account.claim(null, failed(1))).toBe(false);
    expect(await account.read()).toBe(NO_FAILURES);
  });
});

describe.runIf(TEST_REDIS_URL)('in Redis', () => {
  const prefix = testRedisPrefix();
  const keyOf = unknownEmailKeys(prefix, SECRET);
  const clients: Redis[] = [];
  let raw: Redis;

  /** The store as an instance of the product has it: a connection of its own. */
  async function instance() {
    const client = createRedisClient(TEST_REDIS_URL!, quiet, 'test-instance');
    clients.push(client);
    await connectRedis(client);
    const log = recordingLog();
    return { throttles: sharedThrottles({ redis: client, prefix, secret: SECRET, log }), log };
  }

  beforeAll(async () => {
    raw = await rawRedis();
  });
  afterAll(async () => {
    for (const client of clients) await closeRedis(client);
    await cleanUpRedis(raw, prefix);
  });

  it('of concurrent claims from one state through two instances, exactly one wins', async () => {
    const [a, b] = [await instance(), await instance()];
    const email = 'raced@example.com';
    const claims = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).throttles.tally(email).claim(NO_FAILURES, failed(1, i)),
    );
    const won = await Promise.all(claims);
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = won.indexOf(true);
    expect(await b.throttles.tally(email).read()).toEqual(failed(1, winner));
    expect(await a.throttles.tally(email).read()).toEqual(failed(1, winner));
    // the next claim must start from the winner's state
    expect(await a.throttles.tally(email).claim(NO_FAILURES, failed(2))).toBe(false);
    expect(await a.throttles.tally(email).claim(failed(1, winner), failed(2))).toBe(true);
    expect(a.log.warnings).toEqual([]);
  });

  it('keeps a state a day under a keyed hash of the lowercased e-mail; an account’s claim writes nothing', async () => {
    const { throttles } = await instance();
    const locked: ThrottleState = { ...failed(10), lockedUntil: new Date(T0.getTime() + 900_000) };
    expect(await throttles.tally('Hidden.Person@Example.com').claim(NO_FAILURES, locked)).toBe(
      true,
    );
    expect(await throttles.tally('hidden.person@example.com').read()).toEqual(locked);
    const key = keyOf('hidden.person@example.com');
    expect(key).toMatch(new RegExp(`^${prefix}${UNKNOWN_EMAIL_KEYS}[0-9a-f]{64}$`));
    expect(await raw.get(key)).not.toContain('hidden');
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(SIGN_IN_FAILURE_MEMORY_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SIGN_IN_FAILURE_MEMORY_MS);

    const account = throttles.tally('owner@example.com');
    expect(await account.read()).toBe(NO_FAILURES);
    expect(await account.claim(null, failed(1))).toBe(false);
    const keys = await keysUnder(raw, prefix);
    expect(keys).not.toContain(keyOf('owner@example.com'));
    expect(keys.some((k) => /hidden|owner|example/i.test(k))).toBe(false);
  });
});

describe('when Redis does not answer', () => {
  it('counts the try in this process, with the same compare and set, and warns once a minute', async () => {
    const client = createRedisClient(await unreachableRedisUrl(), quiet, 'test');
    try {
      await connectRedis(client);
      const log = recordingLog();
      const throttles = sharedThrottles({
        redis: client,
        prefix: 'th-test-x:',
        secret: SECRET,
        log,
      });
      const tally = throttles.tally('nobody@example.com');
      expect(await tally.read()).toBe(NO_FAILURES);
      expect(await tally.claim(NO_FAILURES, failed(1))).toBe(true);
      const next = throttles.tally('nobody@example.com');
      expect(await next.read()).toEqual(failed(1));
      expect(await next.claim(NO_FAILURES, failed(2))).toBe(false);
      expect(await next.claim(failed(1), failed(2))).toBe(true);
      expect(await throttles.tally('owner@example.com').claim(null, failed(1))).toBe(false);
      expect(log.warnings).toEqual([
        'sign-in: the shared counts of unknown e-mails (Redis) did not answer; counted in this instance meanwhile',
      ]);
    } finally {
      await closeRedis(client);
    }
  });
});
