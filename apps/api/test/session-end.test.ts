import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  PASSWORD,
  resetCodeOf,
  signIn,
  startTestApp,
  useTestApp,
  XHR,
  type TestApp,
} from './helpers.ts';
import { cleanUpRedis, rawRedis, TEST_REDIS_URL, testRedisPrefix } from './test-redis.ts';

/**
 * Issue 41, "sessions end when they should": logout, a password change or reset, ending one or
 * all other sessions and a detected token reuse stop that sign-in's access tokens at once (not
 * 15 minutes later), on every instance; a sign-in has an absolute lifetime and an idle limit,
 * shorter for operators; "sign out everywhere" and a reset unlink the Telegram chats; and every
 * end is written to the account's security log, which nothing can rewrite.
 */

const t = useTestApp();

const ME = '/api/user/auth';
const LOGIN = '/api/user/auth/login';
const REFRESH = '/api/user/auth/refresh-token';
const LOGOUT = '/api/user/auth/logout';
const SESSIONS = '/api/user/sessions';
const SIGN_OUT_OTHERS = '/api/user/sessions/sign_out_others';
const ACTIVITY = '/api/user/activity';
const DAY = 24 * 3600_000;

const refreshCookieOf = (browser: ApiClient) => browser.cookies.get('th_rt')?.value;

/** A second sign-in of the same account, from another browser. */
async function secondDevice(app: TestApp, email: string) {
  const browser = app.client();
  const login = await browser.post(LOGIN, { email, password: PASSWORD });
  expect(login.status).toBe(200);
  return { browser, token: login.body.token as string };
}

async function userIdOf(app: TestApp, email: string): Promise<number> {
  const { rows } = await app.sql.query('select id from users where email = $1', [email]);
  return Number(rows[0].id);
}

async function linkTelegram(app: TestApp, userId: number) {
  await app.sql.query(
    `insert into telegram_chats (user_id, purpose, chat_id, title, linked_at)
     values ($1, 'account', $2, 'Trader', now()), ($1, 'monitoring', $2, 'Trader', now())`,
    [userId, 7_000_000 + userId],
  );
}

async function chatsOf(app: TestApp, userId: number): Promise<number> {
  const { rows } = await app.sql.query(
    'select count(*)::int as n from telegram_chats where user_id = $1',
    [userId],
  );
  return rows[0].n as number;
}

async function kindsOf(app: TestApp, userId: number): Promise<string[]> {
  const { rows } = await app.sql.query(
    'select kind from security_events where user_id = $1 order by id',
    [userId],
  );
  return rows.map((row) => row.kind as string);
}

/** Moves the test clock by `ms` for `run`, then back. */
async function later<T>(app: TestApp, ms: number, run: () => Promise<T>): Promise<T> {
  app.clock.advance(ms);
  try {
    return await run();
  } finally {
    app.clock.advance(-ms);
  }
}

describe('an ended sign-in’s access token stops at once', () => {
  it('after logout, with the bearer token', async () => {
    const { browser, token, email } = await signIn(t);
    const other = await secondDevice(t, email);
    expect((await browser.post(LOGOUT, undefined, { token, headers: XHR })).status).toBe(200);
    expect((await browser.get(ME, { token })).status).toBe(401);
    // the other sign-in goes on
    expect((await other.browser.get(ME, { token: other.token })).status).toBe(200);
    expect(await kindsOf(t, await userIdOf(t, email))).toEqual(['sign_in', 'sign_in', 'sign_out']);
  });

  it('after logout with the refresh cookie alone (no bearer), which also kills the cookie', async () => {
    const { browser, token } = await signIn(t);
    const cookie = refreshCookieOf(browser)!;
    const res = await browser.post(LOGOUT, undefined, { headers: XHR });
    expect(res).toMatchObject({ status: 200, body: { code: 'LOGGED_OUT' } });
    expect((await browser.get(ME, { token })).status).toBe(401);
    const replay = t.client();
    replay.cookies.set('th_rt', { value: cookie, path: '/api/user/auth' });
    expect((await replay.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
  });

  it('after a password change, for every other sign-in, while this one goes on', async () => {
    const { browser, token, email } = await signIn(t);
    const other = await secondDevice(t, email);
    const change = await browser.post(
      '/api/user/change_password',
      {
        current_password: PASSWORD,
        password: 'a new long pass 2',
        password_confirmation: 'a new long pass 2',
      },
      { token },
    );
    expect(change.status).toBe(200);
    expect((await other.browser.get(ME, { token: other.token })).status).toBe(401);
    // its refresh is refused at once too (and again, as a console retrying would)
    expect((await other.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect((await other.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect((await browser.get(ME, { token })).status).toBe(200);
    expect(await kindsOf(t, await userIdOf(t, email))).toContain('password_changed');
  });

  it('after a password reset, for every sign-in, and the Telegram chats are unlinked', async () => {
    const { browser, token, email } = await signIn(t);
    const userId = await userIdOf(t, email);
    await linkTelegram(t, userId);
    const before = t.smtp.to(email).length;
    expect((await t.api.post('/api/user/auth/forgot-password-code', { email })).status).toBe(200);
    const code = resetCodeOf(await t.smtp.next(email, before));
    const reset = await t.api.post('/api/user/auth/reset-password-with-code', {
      email,
      code,
      password: 'another pass 3',
      password_confirmation: 'another pass 3',
    });
    expect(reset.status).toBe(200);
    expect((await browser.get(ME, { token })).status).toBe(401);
    expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect(await chatsOf(t, userId)).toBe(0);
    const { rows } = await t.sql.query(
      'select telegram_link, telegram_mon_link from users where id = $1',
      [userId],
    );
    expect(rows[0]).toEqual({ telegram_link: null, telegram_mon_link: null });
  });

  it('after "sign out everywhere else": the others stop, this one goes on, the chats are unlinked', async () => {
    const { browser, token, email } = await signIn(t);
    const userId = await userIdOf(t, email);
    const other = await secondDevice(t, email);
    await linkTelegram(t, userId);
    const res = await browser.post(SIGN_OUT_OTHERS, undefined, { token });
    expect(res).toMatchObject({ status: 200, body: { code: 'SESSIONS_REVOKED', revoked: 1 } });
    expect((await other.browser.get(ME, { token: other.token })).status).toBe(401);
    expect((await browser.get(ME, { token })).status).toBe(200);
    expect(await chatsOf(t, userId)).toBe(0);
    const { rows } = await t.sql.query(
      `select detail from security_events where user_id = $1 and kind = 'sessions_ended'`,
      [userId],
    );
    expect(rows).toEqual([{ detail: { signed_out: 1, telegram_unlinked: 2 } }]);
  });

  it('after a refresh-token reuse: the family ends, its access token too, and the owner is mailed', async () => {
    const { browser, token, email } = await signIn(t, { language: 'ru' });
    const stolen = refreshCookieOf(browser)!;
    const refreshed = await browser.post(REFRESH, undefined, { headers: XHR });
    expect(refreshed.status).toBe(200);
    const before = t.smtp.to(email).length;
    const attacker = t.client();
    attacker.cookies.set('th_rt', { value: stolen, path: '/api/user/auth' });
    expect((await attacker.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect((await browser.get(ME, { token })).status).toBe(401);
    expect((await browser.get(ME, { token: refreshed.body.token })).status).toBe(401);
    const mail = await t.smtp.next(email, before);
    expect(mail.subject).toContain('сеанс завершён для защиты');
    expect(mail.text).toContain('/forgot-password');
    expect(await kindsOf(t, await userIdOf(t, email))).toContain('token_reuse');
    // the same stolen token again changes nothing more: no second mail
    const again = t.client();
    again.cookies.set('th_rt', { value: stolen, path: '/api/user/auth' });
    expect((await again.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect(t.smtp.to(email).length).toBe(before + 1);
  });
});

describe('DELETE /api/user/sessions/:id', () => {
  it('ends one sign-in of the account: its token stops, its cookie is dead, the list shrinks', async () => {
    const { browser, token, email } = await signIn(t);
    const other = await secondDevice(t, email);
    const list = await browser.get(SESSIONS, { token });
    expect(list.body.meta.total).toBe(2);
    const otherId = list.body.data.find((s: { current: boolean }) => !s.current).id as string;

    const res = await browser.request('DELETE', `${SESSIONS}/${otherId}`, { token });
    expect(res).toMatchObject({
      status: 200,
      body: { code: 'SESSION_ENDED', message: 'The session has been ended' },
    });
    expect((await other.browser.get(ME, { token: other.token })).status).toBe(401);
    expect((await other.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    expect((await browser.get(SESSIONS, { token })).body.meta.total).toBe(1);
    // ended already: 404, and nothing more is logged
    expect((await browser.request('DELETE', `${SESSIONS}/${otherId}`, { token })).status).toBe(404);
    expect(
      (await kindsOf(t, await userIdOf(t, email))).filter((k) => k === 'session_ended'),
    ).toHaveLength(1);
  });

  it('cannot end another user’s sign-in (404, it goes on) and refuses a malformed id', async () => {
    const victim = await signIn(t);
    const victimSession = (await victim.browser.get(SESSIONS, { token: victim.token })).body.data[0]
      .id as string;
    const { browser, token } = await signIn(t);
    expect(
      (await browser.request('DELETE', `${SESSIONS}/${victimSession}`, { token })).status,
    ).toBe(404);
    expect((await browser.request('DELETE', `${SESSIONS}/${randomUUID()}`, { token })).status).toBe(
      404,
    );
    expect((await browser.request('DELETE', `${SESSIONS}/not-a-session`, { token })).status).toBe(
      404,
    );
    expect((await victim.browser.get(ME, { token: victim.token })).status).toBe(200);
  });

  it('asks for a fresh proof first once the sign-in’s proof is older than 5 minutes', async () => {
    const { browser, token, email } = await signIn(t);
    await secondDevice(t, email);
    const list = await browser.get(SESSIONS, { token });
    const otherId = list.body.data.find((s: { current: boolean }) => !s.current).id as string;
    // the access token lives 15 minutes: 6 minutes on it is still good, the proof is not
    const res = await later(t, 6 * 60_000, () =>
      browser.request('DELETE', `${SESSIONS}/${otherId}`, { token }),
    );
    expect(res).toMatchObject({ status: 403, body: { code: 'STEP_UP_REQUIRED' } });
    expect((await browser.get(SESSIONS, { token })).body.meta.total).toBe(2);
  });
});

describe('a sign-in’s lifetime', () => {
  it('ends after the idle limit without a refresh, though it was refreshed before', async () => {
    const { browser } = await signIn(t);
    await later(t, 13 * DAY, async () => {
      expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
    });
    await later(t, 13 * DAY + 14 * DAY + 60_000, async () => {
      expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    });
  });

  it('ends SESSION_MAX_AGE after it began, however often it is used', async () => {
    const { browser } = await signIn(t);
    let used = 0;
    for (const day of [6, 12, 18, 24, 29]) {
      await later(t, day * DAY, async () => {
        const res = await browser.post(REFRESH, undefined, { headers: XHR });
        if (res.status === 200) used += 1;
      });
    }
    expect(used).toBe(5);
    // the last refresh (day 29) gave a token that ends with the sign-in, at day 30
    const cookie = browser.cookies.get('th_rt');
    expect(cookie).toBeDefined();
    await later(t, 30 * DAY + 60_000, async () => {
      expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    });
  });

  it('is shorter for an operator: 12 hours idle', async () => {
    const { email } = await signIn(t);
    await t.sql.query(
      `insert into operator_roles (user_id, role) select id, 'admin' from users where email = $1`,
      [email],
    );
    // a fresh sign-in, as an operator
    const operator = await secondDevice(t, email);
    await later(t, 11 * 3600_000, async () => {
      expect((await operator.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
    });
    await later(t, 11 * 3600_000 + 12 * 3600_000 + 60_000, async () => {
      expect((await operator.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
    });
  });
});

describe('GET /api/user/activity', () => {
  it('lists the account’s security events newest first, paged, with the address and device', async () => {
    const { browser, token, email } = await signIn(t);
    const other = await secondDevice(t, email);
    await other.browser.post(LOGOUT, undefined, { token: other.token, headers: XHR });
    const page = await browser.get(`${ACTIVITY}?per_page=2`, { token });
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ page: 1, per_page: 2, total: 3 });
    expect(page.body.data.map((e: { kind: string }) => e.kind)).toEqual(['sign_out', 'sign_in']);
    expect(page.body.data[0]).toMatchObject({
      ip: '127.0.0.1',
      current_session: false,
    });
    const rest = await browser.get(`${ACTIVITY}?per_page=2&page=2`, { token });
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.data[0]).toMatchObject({ kind: 'sign_in', current_session: true });
    // another user sees none of it
    const stranger = await signIn(t);
    const theirs = await stranger.browser.get(ACTIVITY, { token: stranger.token });
    expect(theirs.body.data.map((e: { kind: string }) => e.kind)).toEqual(['sign_in']);
  });

  it('refuses a bad page with a clear error', async () => {
    const { browser, token } = await signIn(t);
    expect((await browser.get(`${ACTIVITY}?page=0`, { token })).status).toBe(422);
    expect((await browser.get(`${ACTIVITY}?per_page=abc`, { token })).status).toBe(422);
    expect((await t.api.get(ACTIVITY)).status).toBe(401);
  });

  it('is append-only: the database refuses to change or remove an event', async () => {
    const { email } = await signIn(t);
    const userId = await userIdOf(t, email);
    await expect(
      t.sql.query(`update security_events set kind = 'sign_out' where user_id = $1`, [userId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.sql.query('delete from security_events where user_id = $1', [userId]),
    ).rejects.toThrow(/append-only/);
    expect(await kindsOf(t, userId)).toEqual(['sign_in']);
  });
});

describe('two instances: an end on one stops the token on the other', () => {
  let a: TestApp;
  let b: TestApp | undefined;
  const prefix = testRedisPrefix();

  beforeAll(async () => {
    a = await startTestApp({
      env: TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {},
    });
  }, 30_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (TEST_REDIS_URL) await cleanUpRedis(await rawRedis(), prefix);
  }, 30_000);

  const second = () =>
    startTestApp({
      env: {
        ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {}),
        DATABASE_URL: a.config.databaseUrl ?? '',
        SMTP_URL: a.smtp.url,
      },
    });

  it('an instance started after the end refuses the token from its first request', async () => {
    const { browser, token } = await signIn(a);
    expect((await browser.post(LOGOUT, undefined, { token, headers: XHR })).status).toBe(200);
    b = await second();
    const onB = new ApiClient(b.url);
    expect((await onB.get(ME, { token })).status).toBe(401);
  });

  it.runIf(TEST_REDIS_URL)(
    'a running instance refuses the token as soon as the end has been answered (Redis pub/sub)',
    async () => {
      b ??= await second();
      const { browser, token, email } = await signIn(a);
      const onB = new ApiClient(b.url);
      // B has checked this token before: it is in B's cache of verified tokens
      expect((await onB.get(ME, { token })).status).toBe(200);
      const other = await secondDevice(a, email);
      expect((await onB.get(ME, { token: other.token })).status).toBe(200);
      expect((await browser.post(LOGOUT, undefined, { token, headers: XHR })).status).toBe(200);
      // no wait: the logout answers once its message has come back through Redis
      expect((await onB.get(ME, { token })).status).toBe(401);
      expect((await onB.get(ME, { token: other.token })).status).toBe(200);
    },
  );
});
