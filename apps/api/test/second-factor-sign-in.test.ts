import { describe, expect, it } from 'vitest';
import { addPasskey, enrolTotp, totpCode } from './factor-helpers.ts';
import {
  fieldRefusal,
  refusal,
  signIn,
  useTestApp,
  XHR,
  type ApiClient,
  type TestApp,
} from './helpers.ts';

const t: TestApp = useTestApp();

/** A user with the authenticator on (and its recovery codes), signed out: a fresh browser. */
async function totpUser() {
  const user = await signIn(t);
  const { secret, recoveryCodes } = await enrolTotp(t, user.browser, user.token);
  return { ...user, secret, recoveryCodes, browser: t.client() };
}

async function passwordStep(browser: ApiClient, user: { email: string; password: string }) {
  const answer = await browser.post('/api/user/auth/login', {
    email: user.email,
    password: user.password,
  });
  expect(answer.status).toBe(200);
  return answer;
}

const kindsOf = async (email: string) =>
  (
    await t.sql.query(
      `select kind from security_events where user_id = (select id from users where email = $1) order by id`,
      [email],
    )
  ).rows.map((row: { kind: string }) => row.kind);

describe('sign-in with a second factor', () => {
  it('a thief who knows the password meets the account lock: the half-sessions count as failed tries until a factor succeeds', async () => {
    const user = await totpUser();
    const thief = t.client();
    // four half-sessions opened and abandoned: free tries; from the fifth on, the waits apply
    for (let i = 0; i < 4; i += 1) await passwordStep(thief, user);
    const fifth = await thief.post('/api/user/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(fifth).toMatchObject({ status: 429, body: { code: 'LOGIN_THROTTLED' } });
    // the owner, after the wait, signs in with the code: the count is forgotten
    t.clock.advance(2000);
    try {
      const owner = await passwordStep(user.browser, user);
      const done = await user.browser.post('/api/user/auth/second-factor', {
        token: owner.body.second_factor.token,
        code: await totpCode(user.secret, t.clock.now()),
      });
      expect(done.status).toBe(200);
      for (let i = 0; i < 4; i += 1) await passwordStep(thief, user);
    } finally {
      t.clock.advance(-2000);
    }
  });

  it('without one, the password alone signs in as before', async () => {
    const { email, password } = await signIn(t);
    const browser = t.client();
    const answer = await passwordStep(browser, { email, password });
    expect(answer.body).toEqual({ token: expect.any(String), expires: expect.any(String) });
    expect(browser.cookies.has('th_rt')).toBe(true);
  });

  it('the password opens a half-session that reaches nothing, then a code signs in', async () => {
    const user = await totpUser();
    const first = await passwordStep(user.browser, user);
    expect(first.body).toEqual({
      second_factor: {
        token: expect.any(String),
        methods: ['totp', 'recovery_code'],
        expires: new Date(Date.parse(first.body.second_factor.expires)).toISOString(),
      },
    });
    expect(Date.parse(first.body.second_factor.expires) - t.clock.now().getTime()).toBeGreaterThan(
      4 * 60_000,
    );
    const half = first.body.second_factor.token as string;
    // no refresh cookie, and the half-session's token is no access token
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(user.browser.cookies.size).toBe(0);
    expect((await user.browser.get('/api/user/auth', { token: half })).status).toBe(401);
    expect((await user.browser.get('/api/user/factors', { token: half })).status).toBe(401);
    expect(
      (await user.browser.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
    ).toBe(401);

    const done = await user.browser.post('/api/user/auth/second-factor', {
      token: half,
      code: await totpCode(user.secret, t.clock.now()),
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ token: expect.any(String), expires: expect.any(String) });
    expect(user.browser.cookies.has('th_rt')).toBe(true);
    const me = await user.browser.get('/api/user/auth', { token: done.body.token });
    expect(me.body.email).toBe(user.email);
    // the session refreshes like any other
    expect(
      (await user.browser.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
    ).toBe(200);

    // the half-session is spent
    expect(
      (
        await user.browser.post('/api/user/auth/second-factor', {
          token: half,
          code: await totpCode(user.secret, t.clock.now()),
        })
      ).body,
    ).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
    expect((await kindsOf(user.email)).at(-1)).toBe('sign_in');
  });

  it('a code works once: the next sign-in in the same 30 seconds cannot use it again', async () => {
    const user = await totpUser();
    const code = await totpCode(user.secret, t.clock.now());
    const first = await passwordStep(user.browser, user);
    expect(
      (
        await user.browser.post('/api/user/auth/second-factor', {
          token: first.body.second_factor.token,
          code,
        })
      ).status,
    ).toBe(200);
    const second = await passwordStep(t.client(), user);
    const again = await t
      .client()
      .post('/api/user/auth/second-factor', { token: second.body.second_factor.token, code });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(fieldRefusal('code', 'SECOND_FACTOR_INVALID'));
  });

  it('allows 5 tries: wrong ones are recorded, the fifth ends the half-session', async () => {
    const user = await totpUser();
    const half = (await passwordStep(user.browser, user)).body.second_factor.token;
    const right = await totpCode(user.secret, t.clock.now());
    const wrong = right === '000000' ? '000001' : '000000';
    const attempt = (body: Record<string, unknown>) =>
      user.browser.post('/api/user/auth/second-factor', { token: half, ...body });
    for (let i = 1; i <= 4; i += 1) {
      const answer = await attempt({ code: wrong });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual(fieldRefusal('code', 'SECOND_FACTOR_INVALID'));
    }
    expect((await attempt({ code: wrong })).body).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
    // the right code comes too late
    expect((await attempt({ code: right })).body).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
    expect(user.browser.cookies.size).toBe(0);
    const kinds = await kindsOf(user.email);
    expect(kinds.filter((kind) => kind === 'second_factor_failed')).toHaveLength(5);
  });

  it('the half-session lives 5 minutes', async () => {
    const user = await totpUser();
    const half = (await passwordStep(user.browser, user)).body.second_factor.token;
    t.clock.advance(5 * 60_000 + 1000);
    const late = await user.browser.post('/api/user/auth/second-factor', {
      token: half,
      code: await totpCode(user.secret, t.clock.now()),
    });
    expect(late.status).toBe(401);
    expect(late.body).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
    expect(
      (
        await user.browser.post('/api/user/auth/second-factor', {
          token: 'made-up',
          code: '123456',
        })
      ).body,
    ).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
  });

  it('takes exactly one proof', async () => {
    const user = await totpUser();
    const half = (await passwordStep(user.browser, user)).body.second_factor.token;
    for (const body of [
      { token: half },
      { token: half, code: '123456', recovery_code: user.recoveryCodes[0] },
    ]) {
      const answer = await user.browser.post('/api/user/auth/second-factor', body);
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('SECOND_FACTOR_PROOF_REQUIRED');
    }
  });

  it('a lost device: a recovery code signs in once, and the profile shows how many are left', async () => {
    const user = await totpUser();
    const [code] = user.recoveryCodes;
    const half = (await passwordStep(user.browser, user)).body.second_factor.token;
    const done = await user.browser.post('/api/user/auth/second-factor', {
      token: half,
      recovery_code: code!.toUpperCase(),
    });
    expect(done.status).toBe(200);
    const factors = await user.browser.get('/api/user/factors', { token: done.body.token });
    expect(factors.body.recovery_codes.left).toBe(9);
    expect(await kindsOf(user.email)).toContain('recovery_code_used');

    const other = t.client();
    const again = await other.post('/api/user/auth/second-factor', {
      token: (await passwordStep(other, user)).body.second_factor.token,
      recovery_code: code,
    });
    expect(again.body).toEqual(fieldRefusal('recovery_code', 'SECOND_FACTOR_INVALID'));
  });

  it('a passkey signs in through the half-session’s options', async () => {
    const user = await signIn(t);
    const { soft, passkey } = await addPasskey(t, user.browser, user.token);
    const browser = t.client();
    const first = await passwordStep(browser, user);
    // the first passkey came with recovery codes: a lost device is not a locked account
    expect(first.body.second_factor.methods).toEqual(['passkey', 'recovery_code']);
    const half = first.body.second_factor.token;

    expect(
      (await browser.post('/api/user/auth/second-factor/passkey-options', { token: 'made-up' }))
        .body,
    ).toEqual(refusal('SIGN_IN_PENDING_EXPIRED'));
    const options = await browser.post('/api/user/auth/second-factor/passkey-options', {
      token: half,
    });
    expect(options.status).toBe(200);
    expect(options.body.rpId).toBe('localhost');
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.id]);

    const foreign = await browser.post('/api/user/auth/second-factor', {
      token: half,
      passkey: soft.authenticate(passkey, options.body.challenge, {
        origin: 'https://evil.example',
      }),
    });
    expect(foreign.body).toEqual(fieldRefusal('passkey', 'SECOND_FACTOR_INVALID'));

    const fresh = await browser.post('/api/user/auth/second-factor/passkey-options', {
      token: half,
    });
    const done = await browser.post('/api/user/auth/second-factor', {
      token: half,
      passkey: soft.authenticate(passkey, fresh.body.challenge),
    });
    expect(done.status).toBe(200);
    expect(browser.cookies.has('th_rt')).toBe(true);
    const list = await browser.get('/api/user/factors', { token: done.body.token });
    expect(list.body.passkeys[0].last_used_at).not.toBeNull();
  });
});
