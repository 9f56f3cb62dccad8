import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordStats } from '../src/lib/password.ts';
import type { Redis } from '../src/lib/redis.ts';
import { unknownEmailKeys } from '../src/modules/auth/unknown-email-throttles.ts';
import {
  createVerifiedUser,
  refusal,
  startTestApp,
  uniqueEmail,
  type ApiResponse,
  type TestApp,
} from './helpers.ts';
import {
  cleanUpRedis,
  keysUnder,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  unreachableRedisUrl,
  warnWithoutRedis,
} from './test-redis.ts';

/**
 * Sign-in must not tell whether an e-mail has an account, behind several instances too (issue
 * 41): an unknown e-mail's failures are counted in Redis, shared as an account's row is, so an
 * address locked through one instance answers 429 LOGIN_LOCKED on another whether it has an
 * account or not. A Redis that does not answer leaves the count to each instance's memory, and
 * no sign-in fails for it.
 */

warnWithoutRedis('the sign-in limit of unknown e-mails shared by two instances');

const LOGIN = '/api/user/auth/login';
const WRONG = 'not the password 9';
const SECOND = 1000;
const LOCKED = refusal('LOGIN_LOCKED');

let lastIp = 0;
/** A new address for each try: the attacker rotates them. */
const nextIp = () => {
  lastIp += 1;
  return `198.51.100.${lastIp % 250}`;
};

const tryLogin = (app: TestApp, email: string, password = WRONG) =>
  app.client().post(LOGIN, { email, password }, { headers: { 'x-forwarded-for': nextIp() } });

/** What a refusal shows the caller. */
const shown = (res: ApiResponse) => ({
  status: res.status,
  body: res.body,
  retryAfter: res.headers.get('retry-after'),
});

/**
 * The same answer: status and body, and Retry-After within a second (the e-mails' tries are made
 * one after the other, so their waits may round apart).
 */
function expectAlike(answer: ReturnType<typeof shown>, other: ReturnType<typeof shown>) {
  expect({ ...answer, retryAfter: null }).toEqual({ ...other, retryAfter: null });
  expect(answer.retryAfter === null).toBe(other.retryAfter === null);
  expect(Math.abs(Number(answer.retryAfter) - Number(other.retryAfter))).toBeLessThanOrEqual(1);
}

/**
 * Fails sign-ins of `emails` through `app` side by side, try for try, until each has failed
 * `count` times, waiting (on the clocks of `apps`, all moved together) whatever a refusal's
 * Retry-After asks; every try's answers must be alike for every e-mail. Returns how far the
 * clocks were moved.
 */
async function failSideBySide(app: TestApp, apps: TestApp[], emails: string[], count: number) {
  let moved = 0;
  for (let failures = 0; failures < count;) {
    const answers = [];
    for (const email of emails) answers.push(shown(await tryLogin(app, email)));
    for (const answer of answers) expectAlike(answer, answers[0]!);
    const [first] = answers;
    if (first?.status === 429 && first.body.code === 'LOGIN_THROTTLED') {
      const wait = Math.max(...answers.map((answer) => Number(answer.retryAfter))) * SECOND;
      for (const each of apps) each.clock.advance(wait);
      moved += wait;
      continue;
    }
    failures += 1;
  }
  return moved;
}

describe.runIf(TEST_REDIS_URL)('two instances sharing a Redis', () => {
  const prefix = testRedisPrefix();
  let a: TestApp;
  let b: TestApp;
  let raw: Redis;

  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL!, REDIS_PREFIX: prefix, TRUST_PROXY: '1' };
    a = await startTestApp({ env });
    b = await startTestApp({
      env: { ...env, DATABASE_URL: a.config.databaseUrl ?? '', SMTP_URL: a.smtp.url },
    });
    raw = await rawRedis();
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await cleanUpRedis(raw, prefix);
  }, 30_000);

  it('an unknown e-mail locked through A is locked on B, exactly as an account', async () => {
    const { email } = await createVerifiedUser(a);
    const unknown = uniqueEmail('nobody');
    const moved = await failSideBySide(a, [a, b], [email, unknown], 10);
    try {
      const onA = [shown(await tryLogin(a, email)), shown(await tryLogin(a, unknown))];
      const onB = [shown(await tryLogin(b, email)), shown(await tryLogin(b, unknown))];
      for (const answer of [...onA, ...onB]) {
        expect(answer).toMatchObject({ status: 429, body: LOCKED });
        expect(Number(answer.retryAfter)).toBeGreaterThan(895);
      }
      expectAlike(onB[1]!, onB[0]!);
      // once the lock is over, one more failure (through B) locks both again at once
      for (const app of [a, b]) app.clock.advance(15 * 60 * SECOND);
      try {
        const again = [shown(await tryLogin(b, email)), shown(await tryLogin(b, unknown))];
        expect(again[0]).toEqual({ status: 429, body: LOCKED, retryAfter: '900' });
        // both are the answers of the locking tries themselves: the full 15 minutes
        expect(again[1]).toEqual(again[0]);
        expect(shown(await tryLogin(a, unknown))).toMatchObject({ status: 429, body: LOCKED });
      } finally {
        for (const app of [a, b]) app.clock.advance(-15 * 60 * SECOND);
      }
    } finally {
      for (const app of [a, b]) app.clock.advance(-moved);
    }
  });

  it('keeps in Redis only a keyed hash of the unknown e-mail, for a day; an account’s tries write nothing', async () => {
    const { email } = await createVerifiedUser(a);
    const unknown = uniqueEmail('Nobody');
    const keyOf = unknownEmailKeys(prefix, a.config.jwtSecret);
    expect((await tryLogin(a, email)).status).toBe(401);
    expect((await tryLogin(b, unknown)).status).toBe(401);
    expect(await raw.exists(keyOf(email))).toBe(0);
    const stored = await raw.get(keyOf(unknown.toLowerCase()));
    expect(stored).toMatch(/^1:\d+:$/);
    expect(await raw.pttl(keyOf(unknown))).toBeGreaterThan(23 * 3600 * SECOND);
    const keys = await keysUnder(raw, prefix);
    const local = unknown.split('@')[0]!.toLowerCase();
    expect(keys.filter((key) => key.toLowerCase().includes(local))).toEqual([]);
    // the same e-mail in other letters is the same count, on either instance
    expect((await tryLogin(a, unknown.toUpperCase())).status).toBe(401);
    expect(await raw.get(keyOf(unknown))).toMatch(/^2:\d+:$/);
  });

  it('counts a burst of an unknown e-mail’s tries through both instances one by one', async () => {
    const unknown = uniqueEmail('burst');
    const before = passwordStats.verifies;
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => tryLogin(i % 2 ? a : b, unknown)),
    );
    const checked = passwordStats.verifies - before;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((res) => res.status === 401)).toHaveLength(checked);
    expect(answers.every((res) => res.status === 401 || res.status === 429)).toBe(true);
    const failures = Number(
      (await raw.get(unknownEmailKeys(prefix, a.config.jwtSecret)(unknown)))?.split(':')[0],
    );
    expect(failures).toBe(checked);
  });
});

describe('an instance whose Redis does not answer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: { REDIS_URL: await unreachableRedisUrl(), TRUST_PROXY: '1' },
    });
  }, 60_000);
  afterAll(async () => t?.close());

  it('counts unknown e-mails in its memory, locking them as accounts, and warns', async () => {
    const { email } = await createVerifiedUser(t);
    const unknown = uniqueEmail('nobody');
    const moved = await failSideBySide(t, [t], [email, unknown], 10);
    try {
      const locked = [shown(await tryLogin(t, email)), shown(await tryLogin(t, unknown))];
      expect(locked[0]).toMatchObject({ status: 429, body: LOCKED });
      expectAlike(locked[1]!, locked[0]!);
      expect(
        t.logs.some(
          (line) =>
            line.includes('"level":40') &&
            line.includes('the shared counts of unknown e-mails (Redis) did not answer'),
        ),
      ).toBe(true);
    } finally {
      t.clock.advance(-moved);
    }
  });
});
