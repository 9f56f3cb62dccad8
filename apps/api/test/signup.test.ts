import { ERROR_MESSAGES, SUCCESS_MESSAGES } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { PASSWORD, signupBody, uniqueEmail, useTestApp, verifyTokenOf } from './helpers.ts';

const t = useTestApp();

const SIGNUP = '/api/user/auth/create';

describe('POST /api/user/auth/create', () => {
  it('creates the account, answers 201 and mails a working confirmation link over SMTP', async () => {
    const body = signupBody({ name: 'Alice Trader' });
    const res = await t.api.post(SIGNUP, body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: SUCCESS_MESSAGES.SIGNUP_DONE, code: 'SIGNUP_DONE' });

    const mail = await t.smtp.next(body.email);
    expect(mail.from).toBe('no-reply@localhost');
    expect(mail.subject).toBe('TradeHost: confirm your e-mail');
    expect(mail.text).toContain('Hello Alice Trader');
    expect(mail.text).toMatch(/http:\/\/localhost:5173\/login\?verify=[A-Za-z0-9_-]{43}/);
    expect(mail.html).toContain(`href="http://localhost:5173/login?verify=${verifyTokenOf(mail)}"`);

    const verified = await t.api.post('/api/user/auth/verify-email', {
      token: verifyTokenOf(mail),
    });
    expect(verified.status).toBe(200);

    const { rows } = await t.sql.query('select * from users where email = $1', [body.email]);
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe('Alice Trader');
    expect(rows[0].language).toBe('en');
    expect(rows[0].role).toBe('user');
    expect(rows[0].referral_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0].email_verified_at).not.toBeNull();
  });

  it('stores the e-mail lower-cased and only a hash of the confirmation token', async () => {
    const email = uniqueEmail('MiXeD').replace('example', 'EXAMPLE');
    expect((await t.api.post(SIGNUP, signupBody({ email }))).status).toBe(201);
    const mail = await t.smtp.next(email.toLowerCase());
    const { rows } = await t.sql.query(
      'select u.email, v.token_hash, v.expires_at - v.created_at as ttl from users u join email_verifications v on v.user_id = u.id where u.email = $1',
      [email.toLowerCase()],
    );
    expect(rows[0].email).toBe(email.toLowerCase());
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(verifyTokenOf(mail));
    expect(rows[0].ttl).toMatchObject({ days: 2 });
  });

  it('writes the mail in Russian for a Russian sign-up and keeps the language', async () => {
    const body = signupBody({ name: 'Иван', language: 'ru' });
    expect((await t.api.post(SIGNUP, body)).status).toBe(201);
    const mail = await t.smtp.next(body.email);
    expect(mail.subject).toBe('TradeHost: подтвердите e-mail');
    expect(mail.text).toContain('Здравствуйте, Иван!');
    expect(mail.text).toContain('/login?verify=');
    const { rows } = await t.sql.query('select language, name from users where email = $1', [
      body.email,
    ]);
    expect(rows[0]).toEqual({ language: 'ru', name: 'Иван' });
  });

  it('refuses an e-mail already used, in any letter case (422 EMAIL_TAKEN)', async () => {
    const body = signupBody();
    expect((await t.api.post(SIGNUP, body)).status).toBe(201);
    const again = await t.api.post(SIGNUP, signupBody({ email: body.email.toUpperCase() }));
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      message: 'E-mail is already used',
      code: 'EMAIL_TAKEN',
      errors: { email: ['E-mail is already used'] },
    });
  });

  it('lets only one of two simultaneous sign-ups with one e-mail through', async () => {
    const body = signupBody();
    const results = await Promise.all([
      t.client().post(SIGNUP, body),
      t.client().post(SIGNUP, { ...body, email: body.email.toUpperCase() }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)?.body.code).toBe('EMAIL_TAKEN');
  });

  it('links the new account to the partner whose code it gives, in any letter case', async () => {
    const partner = signupBody();
    await t.api.post(SIGNUP, partner);
    const { rows: p } = await t.sql.query('select id, referral_code from users where email = $1', [
      partner.email,
    ]);
    const referral = signupBody({ partner_code: ` ${p[0].referral_code.toLowerCase()} ` });
    expect((await t.api.post(SIGNUP, referral)).status).toBe(201);
    const { rows } = await t.sql.query('select referrer_id from users where email = $1', [
      referral.email,
    ]);
    expect(Number(rows[0].referrer_id)).toBe(Number(p[0].id));
  });

  it('treats an empty partner code as none', async () => {
    const body = signupBody({ partner_code: '' });
    expect((await t.api.post(SIGNUP, body)).status).toBe(201);
    const { rows } = await t.sql.query('select referrer_id from users where email = $1', [
      body.email,
    ]);
    expect(rows[0].referrer_id).toBeNull();
  });

  it('refuses an unknown partner code (422 Invalid partner code) and creates nothing', async () => {
    const body = signupBody({ partner_code: 'NOPE2345' });
    const res = await t.api.post(SIGNUP, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'Invalid partner code',
      code: 'PARTNER_CODE_INVALID',
      errors: { partner_code: ['Invalid partner code'] },
    });
    const { rowCount } = await t.sql.query('select 1 from users where email = $1', [body.email]);
    expect(rowCount).toBe(0);
  });

  it('reports a taken e-mail and a bad partner code together, e-mail first', async () => {
    const body = signupBody();
    await t.api.post(SIGNUP, body);
    const res = await t.api.post(
      SIGNUP,
      signupBody({ email: body.email, partner_code: 'NOPE2345' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('EMAIL_TAKEN');
    expect(res.body.errors).toEqual({
      email: ['E-mail is already used'],
      partner_code: ['Invalid partner code'],
    });
  });

  it.each([
    ['a missing name', { name: '' }, 'name', 'NAME_REQUIRED'],
    ['a blank name', { name: '   ' }, 'name', 'NAME_REQUIRED'],
    ['an invalid e-mail', { email: 'not-an-email' }, 'email', 'EMAIL_INVALID'],
    [
      'a password under 8 characters',
      { password: 'short7!', password_confirmation: 'short7!' },
      'password',
      'PASSWORD_TOO_SHORT',
    ],
    ['consent not given', { consent: false }, 'consent', 'CONSENT_REQUIRED'],
    [
      'a confirmation that differs',
      { password_confirmation: `${PASSWORD}x` },
      'password_confirmation',
      'PASSWORDS_DIFFER',
    ],
  ] as const)('refuses %s with 422 and the field text', async (_case, overrides, field, code) => {
    const res = await t.api.post(SIGNUP, signupBody(overrides));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: ERROR_MESSAGES[code],
      code,
      errors: { [field]: [ERROR_MESSAGES[code]] },
    });
  });

  it('lists every invalid field of an empty form, the first one as the message', async () => {
    const res = await t.api.post(SIGNUP, {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'Name is required',
      code: 'NAME_REQUIRED',
      errors: {
        name: ['Name is required'],
        email: ['E-mail is invalid'],
        password: ['Password must be at least 8 characters'],
        password_confirmation: ['Passwords do not match'],
        consent: ['You must accept the offer and the privacy policy'],
      },
    });
  });
});

describe('sign-up when the mail server is down', () => {
  // port 9 (discard) on localhost: nothing listens there, the connection is refused at once
  const down = useTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });

  it('still answers 201, keeps the account and logs the failure', async () => {
    const body = signupBody();
    const res = await down.api.post(SIGNUP, body);
    expect(res.status).toBe(201);
    expect(down.logs.some((line) => line.includes('could not send the confirmation e-mail'))).toBe(
      true,
    );
    const { rowCount } = await down.sql.query('select 1 from users where email = $1', [body.email]);
    expect(rowCount).toBe(1);
  });
});
