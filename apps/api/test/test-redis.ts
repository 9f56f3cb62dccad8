import { randomBytes } from 'node:crypto';
import { closeRedis, connectRedis, createRedisClient, type Redis } from '../src/lib/redis.ts';
import { freePort } from './global-setup.ts';

/**
 * The Redis of the tests that need a real one: TEST_REDIS_URL (CI sets it when a Redis answers on
 * 127.0.0.1:6379). Unset, those tests do not run, and say so.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** Says loudly that `what` did not run for want of a Redis (call at the top of the test file). */
export function warnWithoutRedis(what: string): void {
  if (TEST_REDIS_URL) return;
  console.warn(
    `NOT RUN: ${what} (they need a real Redis: set TEST_REDIS_URL, e.g. TEST_REDIS_URL=redis://127.0.0.1:6379)`,
  );
}

/** A key prefix of its own per call, so test runs sharing a Redis never meet. */
export const testRedisPrefix = () => `th-test-${randomBytes(5).toString('hex')}:`;

/** The address of a Redis that does not answer (nothing listens there). */
export async function unreachableRedisUrl(): Promise<string> {
  return `redis://127.0.0.1:${await freePort()}`;
}

const quiet = { error() {}, info() {}, debug() {} };

/** A connected client of the test Redis, for looking around the code under test. */
export async function rawRedis(): Promise<Redis> {
  const client = createRedisClient(TEST_REDIS_URL!, quiet, 'test-raw');
  await connectRedis(client);
  return client;
}

/** Every key starting with `prefix`. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}

/** Deletes every key starting with `prefix`, then closes the client. */
export async function cleanUpRedis(client: Redis | undefined, prefix: string): Promise<void> {
  if (!client) return;
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(...keys);
  await closeRedis(client);
}
