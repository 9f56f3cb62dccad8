import { describe, expect, it } from 'vitest';
import { passwordStats } from '../src/lib/password.ts';
import { PASSWORD, signupBody, useTestApp, XHR } from './helpers.ts';

const t = useTestApp({ env: { RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_USER_MAX: '4' } });

const TOO_MANY = { message: 'Too much requests - try later ...', code: 'TOO_MANY_REQUESTS' };

describe('rate limits', () => {
  it('answers 429 with the spec text once an IP exceeds the login limit, before any password hashing', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect(
        (
          await t.api.post('/api/user/auth/login', {
            email: 'ghost@example.com',
            password: PASSWORD,
          })
        ).status,
      ).toBe(401);
    }
    const before = { ...passwordStats };
    const limited = await t.api.post('/api/user/auth/login', {
      email: 'ghost@example.com',
      password: PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(TOO_MANY);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(passwordStats).toEqual(before);
  });

  it('limits each auth route separately and refuses a sign-up flood without hashing', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await t.api.post('/api/user/auth/create', signupBody())).status).toBe(201);
    const before = { ...passwordStats };
    const res = await t.api.post('/api/user/auth/create', signupBody());
    expect(res).toMatchObject({ status: 429, body: TOO_MANY });
    expect(passwordStats).toEqual(before);
  });

  it('answers 429 before reading the body, even an invalid one', async () => {
    for (let i = 0; i < 3; i += 1)
      await t.api.post('/api/user/auth/forgot-password-code', { email: 'x' });
    const res = await t.api.post('/api/user/auth/forgot-password-code', '{not json', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 429, body: TOO_MANY });
  });

  it('limits the refresh call, the reset calls and the click call', async () => {
    for (const [path, body, headers] of [
      ['/api/user/auth/refresh-token', undefined, XHR],
      ['/api/user/auth/check-forgot-otp', { email: 'a@example.com', code: '123456' }, {}],
      ['/api/user/auth/reset-password-with-code', {}, {}],
      ['/api/user/auth/verify-email', { token: 'x' }, {}],
      ['/api/clicks/create', { referral_code: 'NOPE' }, {}],
    ] as const) {
      for (let i = 0; i < 3; i += 1)
        expect((await t.api.post(path, body, { headers })).status).not.toBe(429);
      expect(await t.api.post(path, body, { headers })).toMatchObject({
        status: 429,
        body: TOO_MANY,
      });
    }
  });

  it('limits GET /api/user/auth with its own, larger limit (429 even without a token)', async () => {
    for (let i = 0; i < 4; i += 1) expect((await t.api.get('/api/user/auth')).status).toBe(401);
    expect(await t.api.get('/api/user/auth')).toMatchObject({ status: 429, body: TOO_MANY });
  });
});
