import { describe, expect, it } from 'vitest';
import { resetCodeOf, signIn, signupBody, useTestApp } from './helpers.ts';
import { PERMISSIONS_TTL_MS } from '../src/modules/front/front.service.ts';

const t = useTestApp();

describe('POST /api/user/change_language', () => {
  it('stores the language lower-case; later e-mails use it', async () => {
    const { token, email } = await signIn(t);
    const res = await t.api.post('/api/user/change_language', { language: 'RU' }, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'The language has been changed',
      code: 'LANGUAGE_CHANGED',
    });
    expect((await t.api.get('/api/user/auth', { token })).body.language).toBe('ru');

    const before = t.smtp.to(email).length;
    await t.api.post('/api/user/auth/forgot-password-code', { email });
    const mail = await t.smtp.next(email, before);
    expect(mail.subject).toBe('TradeHost: код для сброса пароля');
    expect(resetCodeOf(mail)).toMatch(/^\d{6}$/);

    expect(
      (await t.api.post('/api/user/change_language', { language: 'EN' }, { token })).status,
    ).toBe(200);
    expect((await t.api.get('/api/user/auth', { token })).body.language).toBe('en');
  });

  it('answers 422 for a language other than EN or RU and 401 without a token', async () => {
    const { token } = await signIn(t);
    const bad = await t.api.post('/api/user/change_language', { language: 'de' }, { token });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: 'The data is invalid',
      code: 'VALIDATION',
      errors: { language: ['The data is invalid'] },
    });
    const anonymous = await t.api.post('/api/user/change_language', { language: 'RU' });
    expect(anonymous).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'Unauthorized' },
    });
  });
});

describe('GET /api/user/alert', () => {
  it('returns null without an active alert, then the newest one whose window covers now', async () => {
    const { token } = await signIn(t);
    expect(await t.api.get('/api/user/alert', { token })).toMatchObject({
      status: 200,
      body: { alert: null },
    });

    await t.sql.query(`
      insert into alerts (level, text_en, text_ru, active, starts_at, ends_at, created_at) values
        ('info',    'old',      'старое',   true,  now() - interval '2 days', null,                        now() - interval '2 days'),
        ('danger',  'inactive', 'выключено', false, now() - interval '1 hour', null,                        now()),
        ('warning', 'future',   'будущее',  true,  now() + interval '1 day',  null,                        now()),
        ('danger',  'ended',    'прошло',   true,  now() - interval '3 days', now() - interval '1 hour',   now())`);
    const res = await t.api.get('/api/user/alert', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      alert: { id: expect.any(Number), level: 'info', text_en: 'old', text_ru: 'старое' },
    });

    // starting a second ago: the database's clock counts microseconds and the API's milliseconds,
    // so a window starting at the database's now() may still be ahead of the API's now
    await t.sql.query(
      `insert into alerts (level, text_en, text_ru, starts_at) values ('warning', 'Maintenance tonight', 'Сегодня техработы', now() - interval '1 second')`,
    );
    expect((await t.api.get('/api/user/alert', { token })).body.alert).toMatchObject({
      level: 'warning',
      text_en: 'Maintenance tonight',
      text_ru: 'Сегодня техработы',
    });
  });

  it('answers 401 without a token', async () => {
    expect(await t.api.get('/api/user/alert')).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
  });
});

describe('GET /api/front/permissions', () => {
  it('returns the seeded flags, with or without a bearer token', async () => {
    expect(await t.api.get('/api/front/permissions')).toMatchObject({
      status: 200,
      body: { partner: true, monitoring: true },
    });
    const { token } = await signIn(t);
    expect(await t.api.get('/api/front/permissions', { token })).toMatchObject({
      status: 200,
      body: { partner: true, monitoring: true },
    });
  });

  it('follows the settings row and defaults a missing flag or row to true', async () => {
    // a change of the row shows once the instance's read of it is PERMISSIONS_TTL_MS old
    const change = async (statement: string) => {
      await t.sql.query(statement);
      t.clock.advance(PERMISSIONS_TTL_MS);
      return (await t.api.get('/api/front/permissions')).body;
    };
    expect(
      await change(
        `update settings set value = '{"partner": false, "monitoring": true}' where key = 'permissions'`,
      ),
    ).toEqual({ partner: false, monitoring: true });
    expect(
      await change(`update settings set value = '{"monitoring": false}' where key = 'permissions'`),
    ).toEqual({ partner: true, monitoring: false });
    expect(await change(`delete from settings where key = 'permissions'`)).toEqual({
      partner: true,
      monitoring: true,
    });
    expect(
      await change(`insert into settings (key, value) values ('permissions', '"garbage"')`),
    ).toEqual({ partner: true, monitoring: true });
  });

  it('answers from its last read for PERMISSIONS_TTL_MS, then reads the row again', async () => {
    await t.sql.query(`delete from settings where key = 'permissions'`);
    t.clock.advance(PERMISSIONS_TTL_MS);
    expect((await t.api.get('/api/front/permissions')).body).toEqual({
      partner: true,
      monitoring: true,
    });
    await t.sql.query(
      `insert into settings (key, value) values ('permissions', '{"partner": false}')`,
    );
    // (the test clock is the wall's plus an offset: half the time, with room to spare)
    t.clock.advance(PERMISSIONS_TTL_MS / 2);
    expect((await t.api.get('/api/front/permissions')).body).toEqual({
      partner: true,
      monitoring: true,
    });
    t.clock.advance(PERMISSIONS_TTL_MS / 2);
    expect((await t.api.get('/api/front/permissions')).body).toEqual({
      partner: false,
      monitoring: true,
    });
  });
});

describe('POST /api/clicks/create', () => {
  it('records one click for a known code in any letter case (201)', async () => {
    const partner = signupBody();
    await t.api.post('/api/user/auth/create', partner);
    const { rows: p } = await t.sql.query('select id, referral_code from users where email = $1', [
      partner.email,
    ]);
    const res = await t.api.post(
      '/api/clicks/create',
      { referral_code: p[0].referral_code.toLowerCase() },
      {
        headers: { 'user-agent': 'TestBrowser/1.0' },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'The click has been recorded', code: 'CLICK_RECORDED' });
    // the visitor is a keyed hash of address and browser: neither is stored
    const { rows } = await t.sql.query(
      'select day, visitor from partner_clicks where partner_id = $1',
      [p[0].id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].visitor).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(rows)).not.toMatch(/127\.0\.0\.1|TestBrowser/);
    // the same visitor again that day: answered alike, counted once
    const again = await t.api.post(
      '/api/clicks/create',
      { referral_code: p[0].referral_code },
      { headers: { 'user-agent': 'TestBrowser/1.0' } },
    );
    expect(again.status).toBe(201);
    const { rows: after } = await t.sql.query(
      'select count(*)::int as n from partner_clicks where partner_id = $1',
      [p[0].id],
    );
    expect(after[0].n).toBe(1);
  });

  it('answers 422 Invalid partner code for an unknown or empty code', async () => {
    const invalid = {
      message: 'Invalid partner code',
      code: 'PARTNER_CODE_INVALID',
      errors: { referral_code: ['Invalid partner code'] },
    };
    expect(await t.api.post('/api/clicks/create', { referral_code: 'ZZZZZZZZ' })).toMatchObject({
      status: 422,
      body: invalid,
    });
    expect(await t.api.post('/api/clicks/create', { referral_code: '' })).toMatchObject({
      status: 422,
      body: invalid,
    });
    expect(await t.api.post('/api/clicks/create', {})).toMatchObject({
      status: 422,
      body: invalid,
    });
  });
});
