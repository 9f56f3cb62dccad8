import { userSchema } from '@tradehost/contracts';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fund, signIn, useTestApp, XHR, type ApiClient } from './helpers.ts';

const t = useTestApp();

const REFRESH = '/api/user/auth/refresh-token';
const LOGOUT = '/api/user/auth/logout';
const ME = '/api/user/auth';
const SESSION_EXPIRED = {
  message: 'The session has expired, please sign in again',
  code: 'SESSION_EXPIRED',
};
const UNAUTHORIZED = { message: 'Unauthorized', code: 'UNAUTHORIZED' };

const refreshCookieOf = (browser: ApiClient) => browser.cookies.get('th_rt')?.value;
const clearsCookie = (headers: Headers) =>
  headers.getSetCookie().some((c) => /^th_rt=;/.test(c) && c.includes('Path=/api/user/auth'));

describe('GET /api/user/auth', () => {
  it('returns the signed-in user per the contract, money in dollars', async () => {
    const { browser, token, email } = await signIn(t, { name: 'Money Maker' });
    const { rows } = await t.sql.query('select id from users where email = $1', [email]);
    await fund(t, Number(rows[0].id), 123456);
    await fund(t, Number(rows[0].id), 5, 'balance_partner');
    const res = await browser.get(ME, { token });
    expect(res.status).toBe(200);
    expect(z.strictObject(userSchema.shape).parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      email,
      name: 'Money Maker',
      language: 'en',
      role: 'user',
      balance: 1234.56,
      balance_partner: 0.05,
      photo_path: null,
      telegram_link: null,
      telegram_mon_link: null,
    });
    expect(res.body.email_verified_at).not.toBeNull();
    expect(res.body).not.toHaveProperty('password_hash');
  });

  it('answers 401 UNAUTHORIZED without a token, with a forged one and with an expired one', async () => {
    expect(await t.api.get(ME)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await t.api.get(ME, { token: 'not.a.jwt' })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });

    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('tradehost')
      .setAudience('tradehost-console')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expect(await t.api.get(ME, { token: forged })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });

    const { token } = await signIn(t);
    // accepted first (the server remembers a verified token): its expiry still holds afterwards
    expect((await t.api.get(ME, { token })).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
    try {
      expect(await t.api.get(ME, { token })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    } finally {
      t.clock.advance(-(15 * 60_000 + 1000));
    }
  });

  it('answers 401 for a valid token of a deleted account', async () => {
    const { token, email } = await signIn(t);
    await t.sql.query('delete from users where email = $1', [email]);
    expect(await t.api.get(ME, { token })).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });
});

describe('POST /api/user/auth/refresh-token', () => {
  it('rotates the cookie and returns a new access token', async () => {
    const { browser } = await signIn(t);
    const first = refreshCookieOf(browser);
    t.clock.advance(2000); // a later iat gives a different JWT
    try {
      const res = await browser.post(REFRESH, undefined, { headers: XHR });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['expires', 'token']);
      expect(refreshCookieOf(browser)).toBeDefined();
      expect(refreshCookieOf(browser)).not.toBe(first);
      expect((await browser.get(ME, { token: res.body.token })).status).toBe(200);

      const { rows } = await t.sql.query(
        'select family_id, rotated_at, token_hash from refresh_tokens where family_id = (select family_id from refresh_tokens order by id desc limit 1) order by id',
      );
      expect(rows).toHaveLength(2);
      expect(rows[0].rotated_at).not.toBeNull();
      expect(rows[1].rotated_at).toBeNull();
      for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      t.clock.advance(-2000);
    }
  });

  it('accepts an empty JSON body', async () => {
    const { browser } = await signIn(t);
    const res = await browser.post(REFRESH, '', {
      headers: { ...XHR, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });

  it('revokes the whole family when a rotated token is used again: the newest token fails too', async () => {
    const { browser } = await signIn(t);
    const stolen = refreshCookieOf(browser)!;
    expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);

    const attacker = t.client();
    attacker.cookies.set('th_rt', { value: stolen, path: '/api/user/auth' });
    const reuse = await attacker.post(REFRESH, undefined, { headers: XHR });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual(SESSION_EXPIRED);
    expect(clearsCookie(reuse.headers)).toBe(true);

    const victim = await browser.post(REFRESH, undefined, { headers: XHR });
    expect(victim.status).toBe(401);
    expect(victim.body).toEqual(SESSION_EXPIRED);
    expect(refreshCookieOf(browser)).toBeUndefined();
  });

  it('lets exactly one of two concurrent refreshes with the same cookie succeed', async () => {
    const { browser } = await signIn(t);
    const cookie = refreshCookieOf(browser)!;
    const tabs = [t.client(), t.client()];
    for (const tab of tabs) tab.cookies.set('th_rt', { value: cookie, path: '/api/user/auth' });
    const results = await Promise.all(
      tabs.map((tab) => tab.post(REFRESH, undefined, { headers: XHR })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  describe('a refresh sent again with its X-Refresh-Attempt (its answer lost with a reloaded page)', () => {
    const ATTEMPT = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    const withAttempt = (attempt: string) => ({
      headers: { ...XHR, 'x-refresh-attempt': attempt },
    });
    /** A browser holding `cookie` (the spent one the next page sends). */
    const holding = (cookie: string) => {
      const tab = t.client();
      tab.cookies.set('th_rt', { value: cookie, path: '/api/user/auth' });
      return tab;
    };

    it('gets a session of the family of its own; both answers refresh on, and nothing is revoked', async () => {
      const { browser, email } = await signIn(t);
      const spent = refreshCookieOf(browser)!;
      expect((await browser.post(REFRESH, undefined, withAttempt(ATTEMPT))).status).toBe(200);
      const reloaded = holding(spent);
      const again = await reloaded.post(REFRESH, undefined, withAttempt(ATTEMPT));
      expect(again.status).toBe(200);
      expect(Object.keys(again.body).sort()).toEqual(['expires', 'token']);
      expect((await reloaded.get(ME, { token: again.body.token })).status).toBe(200);
      const second = refreshCookieOf(reloaded)!;
      expect(second).not.toBe(refreshCookieOf(browser));
      expect((await reloaded.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
      expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
      const { rows } = await t.sql.query(
        `select count(*)::int as members, count(revoked_at)::int as revoked,
                count(distinct family_id)::int as families
           from refresh_tokens where user_id = (select id from users where email = $1)`,
        [email],
      );
      // the login's, the first answer's and the retry's, each refreshed once more
      expect(rows[0]).toEqual({ members: 5, revoked: 0, families: 1 });
    });

    it('lets both of two concurrent refreshes with one cookie and one attempt succeed (two tabs)', async () => {
      const { browser } = await signIn(t);
      const cookie = refreshCookieOf(browser)!;
      const tabs = [holding(cookie), holding(cookie)];
      const results = await Promise.all(
        tabs.map((tab) => tab.post(REFRESH, undefined, withAttempt(ATTEMPT))),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200]);
    });

    it('is reuse with another attempt, with none, or after a minute: the family is revoked', async () => {
      for (const [name, retry, wait] of [
        ['another attempt', withAttempt('f'.repeat(32)), 0],
        ['no attempt', { headers: XHR }, 0],
        ['the same attempt after a minute', withAttempt(ATTEMPT), 60_000],
      ] as const) {
        const { browser } = await signIn(t);
        const spent = refreshCookieOf(browser)!;
        expect((await browser.post(REFRESH, undefined, withAttempt(ATTEMPT))).status, name).toBe(
          200,
        );
        t.clock.advance(wait);
        try {
          const reuse = await holding(spent).post(REFRESH, undefined, retry);
          expect(reuse, name).toMatchObject({ status: 401, body: SESSION_EXPIRED });
          // the answer the browser did get dies with its family
          expect((await browser.post(REFRESH, undefined, { headers: XHR })).status, name).toBe(401);
        } finally {
          t.clock.advance(-wait);
        }
      }
    });

    it('does not bring back a family revoked for reuse, or signed out', async () => {
      const { browser } = await signIn(t);
      const spent = refreshCookieOf(browser)!;
      expect((await browser.post(REFRESH, undefined, withAttempt(ATTEMPT))).status).toBe(200);
      expect((await holding(spent).post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
      expect(await holding(spent).post(REFRESH, undefined, withAttempt(ATTEMPT))).toMatchObject({
        status: 401,
        body: SESSION_EXPIRED,
      });
    });

    it('answers 400 REFRESH_ATTEMPT_INVALID to an attempt that is not one, and keeps the session', async () => {
      const { browser } = await signIn(t);
      const cookie = refreshCookieOf(browser);
      for (const attempt of ['short', 'x'.repeat(65), 'has spaces in it, see?!', '']) {
        const res = await browser.post(REFRESH, undefined, withAttempt(attempt));
        expect(res, JSON.stringify(attempt)).toMatchObject({
          status: 400,
          body: {
            code: 'REFRESH_ATTEMPT_INVALID',
            message: 'The X-Refresh-Attempt header is invalid',
          },
        });
        expect(refreshCookieOf(browser)).toBe(cookie);
      }
      expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
    });
  });

  it('answers 401 SESSION_EXPIRED without a cookie, with an unknown one and with an expired one', async () => {
    const none = await t.client().post(REFRESH, undefined, { headers: XHR });
    expect(none).toMatchObject({ status: 401, body: SESSION_EXPIRED });
    expect(clearsCookie(none.headers)).toBe(true);

    const unknown = t.client();
    unknown.cookies.set('th_rt', { value: 'made-up', path: '/api/user/auth' });
    expect(await unknown.post(REFRESH, undefined, { headers: XHR })).toMatchObject({
      status: 401,
      body: SESSION_EXPIRED,
    });

    const { browser } = await signIn(t);
    t.clock.advance(30 * 24 * 3600_000 + 1000);
    try {
      expect(await browser.post(REFRESH, undefined, { headers: XHR })).toMatchObject({
        status: 401,
        body: SESSION_EXPIRED,
      });
    } finally {
      t.clock.advance(-(30 * 24 * 3600_000 + 1000));
    }
  });

  it('answers 403 ORIGIN_REJECTED without X-Requested-With or from a foreign Origin, keeping the session', async () => {
    const { browser } = await signIn(t);
    const rejected = {
      status: 403,
      body: { message: 'The request origin is not allowed', code: 'ORIGIN_REJECTED' },
    };
    expect(await browser.post(REFRESH)).toMatchObject(rejected);
    expect(
      await browser.post(REFRESH, undefined, { headers: { 'x-requested-with': 'fetch' } }),
    ).toMatchObject(rejected);
    expect(
      await browser.post(REFRESH, undefined, {
        headers: { ...XHR, origin: 'https://evil.example' },
      }),
    ).toMatchObject(rejected);
    expect(
      await browser.post(REFRESH, undefined, { headers: { ...XHR, origin: 'null' } }),
    ).toMatchObject(rejected);

    // PUBLIC_URL's origin and the request's own host are both ours
    expect(
      (
        await browser.post(REFRESH, undefined, {
          headers: { ...XHR, origin: 'http://localhost:5173' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await browser.post(REFRESH, undefined, { headers: { ...XHR, origin: t.url } })).status,
    ).toBe(200);
  });
});

describe('POST /api/user/auth/logout', () => {
  it('revokes the session, clears the cookie and answers 200', async () => {
    const { browser, token } = await signIn(t);
    const res = await browser.post(LOGOUT, undefined, { token, headers: XHR });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'You have signed out', code: 'LOGGED_OUT' });
    expect(clearsCookie(res.headers)).toBe(true);
    expect(refreshCookieOf(browser)).toBeUndefined();

    const { rows } = await t.sql.query(
      'select count(*)::int as live from refresh_tokens where revoked_at is null and user_id = (select user_id from refresh_tokens order by id desc limit 1)',
    );
    expect(rows[0].live).toBe(0);
  });

  it('makes the old refresh cookie useless', async () => {
    const { browser, token } = await signIn(t);
    const cookie = refreshCookieOf(browser)!;
    await browser.post(LOGOUT, undefined, { token, headers: XHR });
    const replay = t.client();
    replay.cookies.set('th_rt', { value: cookie, path: '/api/user/auth' });
    expect(await replay.post(REFRESH, undefined, { headers: XHR })).toMatchObject({
      status: 401,
      body: SESSION_EXPIRED,
    });
  });

  it('keeps the user’s other sessions', async () => {
    const first = await signIn(t);
    const second = t.client();
    const login = await second.post('/api/user/auth/login', {
      email: first.email,
      password: first.password,
    });
    await first.browser.post(LOGOUT, undefined, { token: first.token, headers: XHR });
    expect((await second.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
    expect(login.status).toBe(200);
  });

  it('signs out with the refresh cookie alone, and answers 403 without X-Requested-With', async () => {
    const { browser, token } = await signIn(t);
    expect(await browser.post(LOGOUT, undefined, { token })).toMatchObject({
      status: 403,
      body: { code: 'ORIGIN_REJECTED' },
    });
    expect((await browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200); // still signed in
    const res = await browser.post(LOGOUT, undefined, { headers: XHR });
    expect(res).toMatchObject({ status: 200, body: { code: 'LOGGED_OUT' } });
    expect(clearsCookie(res.headers)).toBe(true);
    // the sign-in has ended: its access token too, at once
    expect(await browser.get(ME, { token })).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it('does not revoke a session of another user whose cookie it carries', async () => {
    const victim = await signIn(t);
    const other = await signIn(t);
    const carrier = t.client();
    carrier.cookies.set('th_rt', {
      value: refreshCookieOf(victim.browser)!,
      path: '/api/user/auth',
    });
    expect(
      (await carrier.post(LOGOUT, undefined, { token: other.token, headers: XHR })).status,
    ).toBe(200);
    expect((await victim.browser.post(REFRESH, undefined, { headers: XHR })).status).toBe(200);
  });
});
