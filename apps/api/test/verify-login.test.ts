import { SUCCESS_MESSAGES, tokenResponseSchema } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { passwordStats } from '../src/lib/password.ts';
import { createVerifiedUser, PASSWORD, signupBody, useTestApp, verifyTokenOf } from './helpers.ts';

const t = useTestApp();

const VERIFY = '/api/user/auth/verify-email';
const LOGIN = '/api/user/auth/login';
const HOUR = 3600_000;

/** Signs up and returns the e-mail and the mailed confirmation token. */
async function signupPending(overrides: Record<string, unknown> = {}) {
  const body = signupBody(overrides);
  expect((await t.api.post('/api/user/auth/create', body)).status).toBe(201);
  return { email: body.email, token: verifyTokenOf(await t.smtp.next(body.email)) };
}

describe('POST /api/user/auth/verify-email', () => {
  it('confirms the e-mail once (200), then says it is already confirmed (422)', async () => {
    const { email, token } = await signupPending();
    const first = await t.api.post(VERIFY, { token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: SUCCESS_MESSAGES.EMAIL_VERIFIED,
      code: 'EMAIL_VERIFIED',
    });
    const { rows } = await t.sql.query('select email_verified_at from users where email = $1', [
      email,
    ]);
    expect(rows[0].email_verified_at).toBeInstanceOf(Date);

    const second = await t.api.post(VERIFY, { token });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({
      message: 'The e-mail is already confirmed',
      code: 'EMAIL_ALREADY_VERIFIED',
    });
  });

  it('answers 404 VERIFY_LINK_INVALID for an unknown token', async () => {
    const res = await t.api.post(VERIFY, { token: 'x'.repeat(43) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: 'The confirmation link is invalid',
      code: 'VERIFY_LINK_INVALID',
    });
  });

  it('answers 422 for a missing token', async () => {
    const res = await t.api.post(VERIFY, {});
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VERIFY_LINK_INVALID');
  });

  it('answers 422 VERIFY_LINK_EXPIRED after 48 hours and leaves the e-mail unconfirmed', async () => {
    const { email, token } = await signupPending();
    t.clock.advance(48 * HOUR + 1000);
    try {
      const res = await t.api.post(VERIFY, { token });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'The confirmation link has expired',
        code: 'VERIFY_LINK_EXPIRED',
      });
      const { rows } = await t.sql.query('select email_verified_at from users where email = $1', [
        email,
      ]);
      expect(rows[0].email_verified_at).toBeNull();
    } finally {
      t.clock.advance(-(48 * HOUR + 1000));
    }
  });
});

describe('POST /api/user/auth/login', () => {
  it('answers 200 with a token and its expiry, and sets the refresh cookie', async () => {
    const user = await createVerifiedUser(t);
    const browser = t.client();
    const res = await browser.post(LOGIN, { email: user.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(tokenResponseSchema.parse(res.body)).toEqual(res.body);
    const expiresIn = new Date(res.body.expires).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(890_000);
    expect(expiresIn).toBeLessThanOrEqual(900_000);

    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('th_rt='));
    expect(setCookie).toMatch(
      /^th_rt=[A-Za-z0-9_-]{43}; Max-Age=1209600; Path=\/api\/user\/auth; HttpOnly; SameSite=Strict$/,
    );
    expect(setCookie).not.toContain('Secure'); // PUBLIC_URL is http in tests

    const me = await browser.get('/api/user/auth', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
  });

  it('answers 401 LOGIN_NOT_FOUND for a wrong password', async () => {
    const user = await createVerifiedUser(t);
    const res = await t.api.post(LOGIN, { email: user.email, password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Login or password not found', code: 'LOGIN_NOT_FOUND' });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers an unknown e-mail as a wrong password (401 LOGIN_NOT_FOUND) after a dummy password check', async () => {
    const before = passwordStats.verifies;
    const res = await t.api.post(LOGIN, { email: 'nobody@example.com', password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Login or password not found', code: 'LOGIN_NOT_FOUND' });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(passwordStats.verifies).toBe(before + 1);
  });

  it('answers 422 for an invalid e-mail or an empty password', async () => {
    const bad = await t.api.post(LOGIN, { email: 'nope', password: PASSWORD });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: 'E-mail is invalid',
      code: 'EMAIL_INVALID',
      errors: { email: ['E-mail is invalid'] },
    });
    const empty = await t.api.post(LOGIN, { email: 'a@example.com', password: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ password: ['This field is required'] });
  });

  it('answers 403 EMAIL_NOT_VERIFIED before confirmation, mailing a fresh link at most every 5 minutes', async () => {
    const { email } = await signupPending();
    const mailsAfterSignup = t.smtp.to(email).length;

    const res = await t.api.post(LOGIN, { email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Email not verified', code: 'EMAIL_NOT_VERIFIED' });
    expect(t.smtp.to(email)).toHaveLength(mailsAfterSignup); // the sign-up mail is under 5 minutes old

    t.clock.advance(5 * 60_000);
    try {
      expect((await t.api.post(LOGIN, { email, password: PASSWORD })).status).toBe(403);
      const fresh = await t.smtp.next(email, mailsAfterSignup);
      expect((await t.api.post(LOGIN, { email, password: PASSWORD })).status).toBe(403);
      expect(t.smtp.to(email)).toHaveLength(mailsAfterSignup + 1); // not again within 5 minutes

      expect((await t.api.post(VERIFY, { token: verifyTokenOf(fresh) })).status).toBe(200);
      const after = await t.api.post(LOGIN, { email, password: PASSWORD });
      expect(after.status).toBe(200);
    } finally {
      t.clock.advance(-5 * 60_000);
    }
  });

  it('answers 401, not 403, for a wrong password on an unconfirmed account and sends nothing', async () => {
    const { email } = await signupPending();
    t.clock.advance(10 * 60_000);
    try {
      const mails = t.smtp.to(email).length;
      const res = await t.api.post(LOGIN, { email, password: 'wrong password' });
      expect(res.status).toBe(401);
      expect(t.smtp.to(email)).toHaveLength(mails);
    } finally {
      t.clock.advance(-10 * 60_000);
    }
  });
});
