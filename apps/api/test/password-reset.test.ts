import { describe, expect, it } from 'vitest';
import {
  createVerifiedUser,
  resetCodeOf,
  signIn,
  signupBody,
  useTestApp,
  verifyTokenOf,
  XHR,
} from './helpers.ts';

const t = useTestApp();

const FORGOT = '/api/user/auth/forgot-password-code';
const CHECK = '/api/user/auth/check-forgot-otp';
const RESET = '/api/user/auth/reset-password-with-code';
const NEW_PASSWORD = 'brand new pass 2';
const CODE_INVALID = {
  message: 'Code is invalid or expired',
  code: 'CODE_INVALID',
  errors: { code: ['Code is invalid or expired'] },
};

/** Asks for a code and returns it as mailed. */
async function requestCode(email: string): Promise<string> {
  const before = t.smtp.to(email).length;
  const res = await t.api.post(FORGOT, { email });
  expect(res.status).toBe(200);
  return resetCodeOf(await t.smtp.next(email, before));
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const resetBody = (email: string, code: string, password = NEW_PASSWORD) => ({
  email,
  code,
  password,
  password_confirmation: password,
});

describe('POST /api/user/auth/forgot-password-code', () => {
  it('mails a 6-digit code over SMTP and answers 200', async () => {
    const { email } = await createVerifiedUser(t, { name: 'Forgetful' });
    const before = t.smtp.to(email).length;
    const res = await t.api.post(FORGOT, { email: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'A 6-digit code has been sent to your e-mail',
      code: 'RESET_CODE_SENT',
    });
    const mail = await t.smtp.next(email, before);
    expect(mail.subject).toBe('TradeHost: your password reset code');
    expect(mail.text).toContain('Hello Forgetful');
    expect(mail.text).toMatch(/Your password reset code: \d{6}\n/);
    expect(mail.html).toContain(resetCodeOf(mail));

    const { rows } = await t.sql.query(
      'select code_hash, attempts, expires_at - created_at as ttl from password_reset_codes where user_id = (select id from users where email = $1)',
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].ttl).toMatchObject({ minutes: 10 });
  });

  it('writes the code mail in the account language', async () => {
    const { email } = await createVerifiedUser(t, { name: 'Ольга', language: 'ru' });
    const before = t.smtp.to(email).length;
    await t.api.post(FORGOT, { email });
    const mail = await t.smtp.next(email, before);
    expect(mail.subject).toBe('TradeHost: код для сброса пароля');
    expect(mail.text).toMatch(/Ваш код для сброса пароля: \d{6}/);
  });

  it('answers an unknown e-mail as a known one (200) and mails nothing; 422 for an invalid one', async () => {
    const unknown = await t.api.post(FORGOT, { email: 'ghost@example.com' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({
      message: 'A 6-digit code has been sent to your e-mail',
      code: 'RESET_CODE_SENT',
    });
    // a known account's code, asked for after, arrives; nothing ever went to the unknown one
    const { email } = await createVerifiedUser(t);
    await requestCode(email);
    expect(t.smtp.to('ghost@example.com')).toEqual([]);
    expect(
      (
        await t.sql.query('select 1 from security_events where kind = $1 and user_id = 0', [
          'password_reset_requested',
        ])
      ).rows,
    ).toEqual([]);
    const invalid = await t.api.post(FORGOT, { email: 'ghost' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('EMAIL_INVALID');
  });
});

describe('POST /api/user/auth/check-forgot-otp', () => {
  it('accepts the right code without using it up', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    for (let i = 0; i < 2; i += 1) {
      const res = await t.api.post(CHECK, { email, code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'The code is correct', code: 'CODE_VALID' });
    }
  });

  it('answers 400 CODE_INVALID for a wrong code, and the same for an unknown e-mail', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    expect(await t.api.post(CHECK, { email, code: wrongCode(code) })).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
    const unknown = await t.api.post(CHECK, { email: 'ghost@example.com', code });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(CODE_INVALID);
  });

  it('answers 400 CODE_INVALID when no code was ever asked for', async () => {
    const { email } = await createVerifiedUser(t);
    expect(await t.api.post(CHECK, { email, code: '123456' })).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
  });

  it('answers 422 CODE_FORMAT for a code that is not 6 digits', async () => {
    const res = await t.api.post(CHECK, { email: 'a@example.com', code: '12ab' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The code must be 6 digits',
      code: 'CODE_FORMAT',
      errors: { code: ['The code must be 6 digits'] },
    });
  });

  it('locks the code after 5 wrong attempts: even the right code is refused afterwards', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    for (let i = 0; i < 4; i += 1)
      expect((await t.api.post(CHECK, { email, code: wrongCode(code) })).status).toBe(400);
    expect((await t.api.post(CHECK, { email, code })).status).toBe(200); // 4 wrong: still alive
    expect((await t.api.post(CHECK, { email, code: wrongCode(code) })).status).toBe(400); // the 5th
    expect(await t.api.post(CHECK, { email, code })).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
    expect(await t.api.post(RESET, resetBody(email, code))).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
  });

  it('counts concurrent wrong guesses one by one (never more than 5 are checked)', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, () => t.client().post(CHECK, { email, code: wrongCode(code) })),
    );
    expect(guesses.every((g) => g.status === 400)).toBe(true);
    const { rows } = await t.sql.query(
      'select attempts from password_reset_codes where user_id = (select id from users where email = $1)',
      [email],
    );
    expect(rows[0].attempts).toBe(5);
  });

  it('refuses the code after 10 minutes', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    t.clock.advance(10 * 60_000 + 1000);
    try {
      expect(await t.api.post(CHECK, { email, code })).toMatchObject({
        status: 400,
        body: CODE_INVALID,
      });
      expect(await t.api.post(RESET, resetBody(email, code))).toMatchObject({
        status: 400,
        body: CODE_INVALID,
      });
    } finally {
      t.clock.advance(-(10 * 60_000 + 1000));
    }
  });

  it('accepts the code just under 10 minutes', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    t.clock.advance(9 * 60_000);
    try {
      expect((await t.api.post(CHECK, { email, code })).status).toBe(200);
    } finally {
      t.clock.advance(-9 * 60_000);
    }
  });

  it('a new request makes the older code stop working', async () => {
    const { email } = await createVerifiedUser(t);
    const first = await requestCode(email);
    let second = await requestCode(email);
    while (second === first) second = await requestCode(email); // one chance in a million
    expect(await t.api.post(CHECK, { email, code: first })).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
    expect((await t.api.post(CHECK, { email, code: second })).status).toBe(200);
  });
});

describe('POST /api/user/auth/reset-password-with-code', () => {
  it('sets the new password, uses up the code, ends every session and answers 200', async () => {
    const { email, password, browser } = await signIn(t);
    const code = await requestCode(email);
    const res = await t.api.post(RESET, resetBody(email, code));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Your password has been changed. You can sign in now.',
      code: 'PASSWORD_RESET',
    });

    expect((await t.api.post('/api/user/auth/login', { email, password })).status).toBe(401);
    expect(
      (await t.api.post('/api/user/auth/login', { email, password: NEW_PASSWORD })).status,
    ).toBe(200);
    expect(
      (await browser.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
    ).toBe(401);

    // single use
    expect(await t.api.post(RESET, resetBody(email, code, 'another pass 3'))).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
    expect(await t.api.post(CHECK, { email, code })).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
  });

  it('confirms an unconfirmed e-mail (the code proved control of it)', async () => {
    const body = signupBody();
    await t.api.post('/api/user/auth/create', body);
    const link = verifyTokenOf(await t.smtp.next(body.email));
    const code = await requestCode(body.email);
    expect((await t.api.post(RESET, resetBody(body.email, code))).status).toBe(200);
    expect(
      (await t.api.post('/api/user/auth/login', { email: body.email, password: NEW_PASSWORD }))
        .status,
    ).toBe(200);
    expect((await t.api.post('/api/user/auth/verify-email', { token: link })).body.code).toBe(
      'EMAIL_ALREADY_VERIFIED',
    );
  });

  it('counts a wrong code as an attempt', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    for (let i = 0; i < 5; i += 1) {
      expect(await t.api.post(RESET, resetBody(email, wrongCode(code)))).toMatchObject({
        status: 400,
        body: CODE_INVALID,
      });
    }
    expect(await t.api.post(RESET, resetBody(email, code))).toMatchObject({
      status: 400,
      body: CODE_INVALID,
    });
  });

  it('answers 422 for a short password or a confirmation that differs, without touching the code', async () => {
    const { email } = await createVerifiedUser(t);
    const code = await requestCode(email);
    const short = await t.api.post(RESET, resetBody(email, code, 'short'));
    expect(short.status).toBe(422);
    expect(short.body).toEqual({
      message: 'Password must be at least 8 characters',
      code: 'PASSWORD_TOO_SHORT',
      errors: { password: ['Password must be at least 8 characters'] },
    });
    const differs = await t.api.post(RESET, {
      ...resetBody(email, code),
      password_confirmation: 'something else',
    });
    expect(differs.status).toBe(422);
    expect(differs.body.errors).toEqual({ password_confirmation: ['Passwords do not match'] });
    expect((await t.api.post(CHECK, { email, code })).status).toBe(200);
  });

  it('answers 400 CODE_INVALID for an unknown e-mail, as for a wrong code', async () => {
    const res = await t.api.post(RESET, resetBody('ghost@example.com', '123456'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(CODE_INVALID);
  });
});
