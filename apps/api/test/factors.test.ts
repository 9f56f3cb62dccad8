import { describe, expect, it } from 'vitest';
import { secondFactor, secondFactorSettings } from '../src/db/second-factor.ts';
import {
  addPasskey,
  enrolTotp,
  freshProof,
  softAuthenticatorOf,
  totpCode,
} from './factor-helpers.ts';
import { fieldRefusal, refusal, signIn, useTestApp, type TestApp } from './helpers.ts';

const t: TestApp = useTestApp();
const STEP_UP_STALE_MS = 6 * 60_000;

async function eventsOf(email: string): Promise<{ kind: string; detail: unknown }[]> {
  const { rows } = await t.sql.query(
    `select kind, detail from security_events
      where user_id = (select id from users where email = $1) order by id`,
    [email],
  );
  return rows;
}
const factorKinds = async (email: string) =>
  (await eventsOf(email))
    .map((e) => e.kind)
    .filter((kind) => !['sign_in', 'step_up'].includes(kind));

describe('the authenticator app', () => {
  it('enrols with a QR of TradeHost and the e-mail, and a code confirms it', async () => {
    const { browser, token, email } = await signIn(t);
    const before = await browser.get('/api/user/factors', { token });
    expect(before.body).toEqual({
      totp: { enabled: false, since: null },
      passkeys: [],
      recovery_codes: { left: 0, created_at: null },
    });

    const started = await browser.post('/api/user/factors/totp', undefined, { token });
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const { secret, uri, qr } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(decodeURIComponent(parsed.pathname)).toBe(`/TradeHost:${email}`);
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe('TradeHost');
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    // started, not on: no factor yet
    expect((await browser.get('/api/user/factors', { token })).body.totp.enabled).toBe(false);

    const confirmed = await browser.post(
      '/api/user/factors/totp/confirm',
      { code: await totpCode(secret, t.clock.now()) },
      { token },
    );
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const after = await browser.get('/api/user/factors', { token });
    expect(after.body.totp.enabled).toBe(true);
    expect(after.body.totp.since).not.toBeNull();
    expect(after.body.recovery_codes.left).toBe(10);
    expect(await factorKinds(email)).toEqual(['totp_enabled', 'recovery_codes_created']);
    // stored sealed, and the codes as HMACs
    const { rows } = await t.sql.query(
      `select t.secret, (select array_agg(code_hash) from recovery_codes r where r.user_id = t.user_id) hashes
         from user_totp t join users u on u.id = t.user_id where u.email = $1`,
      [email],
    );
    expect(rows[0].secret).toMatch(/^v2\./);
    expect(rows[0].secret).not.toContain(secret);
    expect(rows[0].hashes.some((h: string) => codes.some((c) => h.includes(c)))).toBe(false);

    expect((await browser.post('/api/user/factors/totp', undefined, { token })).body).toMatchObject(
      refusal('TOTP_ALREADY_ON'),
    );
  });

  it('refuses a wrong code and changes nothing; a restart replaces the secret', async () => {
    const { browser, token, email } = await signIn(t);
    expect(
      (await browser.post('/api/user/factors/totp/confirm', { code: '123456' }, { token })).body,
    ).toEqual(refusal('TOTP_NOT_STARTED'));

    const first = (await browser.post('/api/user/factors/totp', undefined, { token })).body;
    const right = await totpCode(first.secret, t.clock.now());
    const wrong = await browser.post(
      '/api/user/factors/totp/confirm',
      { code: right === '000000' ? '000001' : '000000' },
      { token },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(fieldRefusal('code', 'SECOND_FACTOR_INVALID'));
    const malformed = await browser.post(
      '/api/user/factors/totp/confirm',
      { code: '12ab' },
      { token },
    );
    expect(malformed.status).toBe(422);
    expect(malformed.body.code).toBe('CODE_FORMAT');
    expect((await browser.get('/api/user/factors', { token })).body.totp.enabled).toBe(false);
    expect(await factorKinds(email)).toEqual([]);

    const second = (await browser.post('/api/user/factors/totp', undefined, { token })).body;
    expect(second.secret).not.toBe(first.secret);
    const stale = await browser.post(
      '/api/user/factors/totp/confirm',
      { code: await totpCode(first.secret, t.clock.now()) },
      { token },
    );
    // the first secret's code may by chance be the second's: one in a million
    if (stale.status !== 200) expect(stale.status).toBe(422);
  });

  it('makes new recovery codes only after a fresh proof, and the old ones stop working', async () => {
    const { browser, token, email } = await signIn(t);
    expect(
      (await browser.post('/api/user/factors/recovery-codes', undefined, { token })).body,
    ).toEqual(refusal('RECOVERY_CODES_NEED_FACTOR'));
    const { recoveryCodes } = await enrolTotp(t, browser, token);

    t.clock.advance(STEP_UP_STALE_MS);
    const refused = await browser.post('/api/user/factors/recovery-codes', undefined, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('STEP_UP_REQUIRED');

    await freshProof(t, token);
    const renewed = await browser.post('/api/user/factors/recovery-codes', undefined, { token });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    const { rows } = await t.sql.query('select id from users where email = $1', [email]);
    const owner = Number(rows[0].id);
    const settings = secondFactorSettings(t.config);
    const at = t.clock.now();
    expect(
      await secondFactor.verify(
        t.app.db,
        owner,
        { recovery_code: recoveryCodes[0]! },
        at,
        settings,
      ),
    ).toBeNull();
    expect(
      await secondFactor.verify(
        t.app.db,
        owner,
        { recovery_code: renewed.body.recovery_codes[0] },
        at,
        settings,
      ),
    ).toBe('recovery_code');
    expect((await browser.get('/api/user/factors', { token })).body.recovery_codes.left).toBe(9);
  });
});

describe('removing a factor', () => {
  it('the last one needs the password and a current code, and takes the recovery codes along', async () => {
    const { browser, token, email, password } = await signIn(t);
    const { secret } = await enrolTotp(t, browser, token);
    const disable = (body: unknown) =>
      browser.post('/api/user/factors/totp/disable', body, { token });

    expect((await disable({})).body).toEqual(
      fieldRefusal('password', 'SECOND_FACTOR_REQUIRED_TO_REMOVE'),
    );
    expect((await disable({ password })).body).toEqual(
      fieldRefusal('code', 'SECOND_FACTOR_REQUIRED_TO_REMOVE'),
    );
    const code = await totpCode(secret, t.clock.now());
    expect((await disable({ password: 'wrong password', code })).body).toEqual(
      fieldRefusal('password', 'CURRENT_PASSWORD_WRONG'),
    );
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await disable({ password, code: wrong })).body).toEqual(
      fieldRefusal('code', 'SECOND_FACTOR_INVALID'),
    );
    expect((await disable({ password, code, recovery_code: 'x' })).body.code).toBe(
      'SECOND_FACTOR_PROOF_REQUIRED',
    );
    expect((await browser.get('/api/user/factors', { token })).body.totp.enabled).toBe(true);

    const done = await disable({ password, code });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      totp: { enabled: false, since: null },
      passkeys: [],
      recovery_codes: { left: 0, created_at: null },
    });
    // each wrong proof was a step-up strike too
    expect(await factorKinds(email)).toEqual([
      'totp_enabled',
      'recovery_codes_created',
      'step_up_failed',
      'second_factor_failed',
      'step_up_failed',
      'totp_disabled',
    ]);
    expect((await disable({ password, code })).body).toEqual(refusal('TOTP_NOT_ON'));
  });

  it('counts wrong passwords and codes as step-up strikes: the 5th in a row ends the sign-in', async () => {
    const { browser, token, email, password } = await signIn(t);
    const { secret } = await enrolTotp(t, browser, token);
    const disable = (body: unknown) =>
      browser.post('/api/user/factors/totp/disable', body, { token });
    const code = await totpCode(secret, t.clock.now());
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 2; i += 1)
      expect((await disable({ password: 'wrong password', code })).body).toEqual(
        fieldRefusal('password', 'CURRENT_PASSWORD_WRONG'),
      );
    for (let i = 0; i < 2; i += 1)
      expect((await disable({ password, code: wrong })).body).toEqual(
        fieldRefusal('code', 'SECOND_FACTOR_INVALID'),
      );
    const fifth = await disable({ password: 'wrong password', code });
    expect(fifth).toMatchObject({ status: 401, body: refusal('SESSION_EXPIRED') });
    // the sign-in is over at once, and the factor stayed
    expect((await browser.get('/api/user/factors', { token })).status).toBe(401);
    const { rows } = await t.sql.query(
      `select count(*)::int as n from user_totp t join users u on u.id = t.user_id
        where u.email = $1 and t.confirmed_at is not null`,
      [email],
    );
    expect(rows[0].n).toBe(1);
    expect((await eventsOf(email)).filter((e) => e.kind === 'step_up_failed')).toHaveLength(5);
  });

  it('one of several needs a fresh step-up, and the rest stay', async () => {
    const { browser, token, email } = await signIn(t);
    await enrolTotp(t, browser, token);
    const { id } = await addPasskey(t, browser, token, 'Phone');
    t.clock.advance(STEP_UP_STALE_MS);
    const refused = await browser.post(`/api/user/factors/passkeys/${id}/remove`, {}, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('STEP_UP_REQUIRED');

    await freshProof(t, token);
    const removed = await browser.post(`/api/user/factors/passkeys/${id}/remove`, {}, { token });
    expect(removed.status).toBe(200);
    expect(removed.body.passkeys).toEqual([]);
    expect(removed.body.totp.enabled).toBe(true);
    expect(removed.body.recovery_codes.left).toBe(10);
    const events = await eventsOf(email);
    expect(events.at(-1)).toEqual({ kind: 'passkey_removed', detail: { name: 'Phone' } });
    expect(
      (await browser.post(`/api/user/factors/passkeys/${id}/remove`, {}, { token })).body,
    ).toEqual(refusal('PASSKEY_NOT_FOUND'));
  });

  it('the last passkey goes with the password and that passkey', async () => {
    const { browser, token, password } = await signIn(t);
    const { id, soft, passkey } = await addPasskey(t, browser, token);
    const options = await browser.post('/api/user/factors/passkeys/assertion-options', undefined, {
      token,
    });
    expect(options.body.allowCredentials).toEqual([
      expect.objectContaining({ id: passkey.id, type: 'public-key' }),
    ]);
    const removed = await browser.post(
      `/api/user/factors/passkeys/${id}/remove`,
      { password, passkey: soft.authenticate(passkey, options.body.challenge) },
      { token },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.passkeys).toEqual([]);
  });
});

describe('passkeys', () => {
  it('registers several named passkeys, lists, renames them and records it', async () => {
    const { browser, token, email } = await signIn(t);
    const options = await browser.post('/api/user/factors/passkeys/options', undefined, {
      token,
    });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { id: 'localhost', name: 'TradeHost' },
      user: { name: email },
      attestation: 'none',
      excludeCredentials: [],
    });

    const first = await addPasskey(t, browser, token, '  MacBook Touch ID ');
    const second = await addPasskey(t, browser, token, 'YubiKey');
    const list = (await browser.get('/api/user/factors', { token })).body;
    expect(list.passkeys.map((p: { name: string }) => p.name)).toEqual([
      'MacBook Touch ID',
      'YubiKey',
    ]);
    expect(list.passkeys[0]).toEqual({
      id: first.id,
      name: 'MacBook Touch ID',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const again = await browser.post('/api/user/factors/passkeys/options', undefined, { token });
    expect(again.body.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      first.passkey.id,
      second.passkey.id,
    ]);

    const renamed = await browser.request('PATCH', `/api/user/factors/passkeys/${second.id}`, {
      body: { name: 'Key on the ring' },
      token,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Key on the ring');
    const stranger = await signIn(t);
    expect(
      (
        await stranger.browser.request('PATCH', `/api/user/factors/passkeys/${second.id}`, {
          body: { name: 'Mine' },
          token: stranger.token,
        })
      ).body,
    ).toEqual(refusal('PASSKEY_NOT_FOUND'));
    expect(
      (
        await stranger.browser.post(
          `/api/user/factors/passkeys/${second.id}/remove`,
          {},
          {
            token: stranger.token,
          },
        )
      ).body,
    ).toEqual(refusal('PASSKEY_NOT_FOUND'));
    expect((await eventsOf(email)).filter((e) => e.kind === 'passkey_added')).toEqual([
      { kind: 'passkey_added', detail: { name: 'MacBook Touch ID' } },
      { kind: 'passkey_added', detail: { name: 'YubiKey' } },
    ]);
  });

  it('the first one brings ten recovery codes, shown once, that sign in without the device', async () => {
    const { browser, token, email, password } = await signIn(t);
    const soft = softAuthenticatorOf(t);
    const options = await browser.post('/api/user/factors/passkeys/options', undefined, {
      token,
    });
    const added = await browser.post(
      '/api/user/factors/passkeys',
      { name: 'Phone', response: soft.register(options.body.challenge).response },
      { token },
    );
    expect(added.status).toBe(201);
    expect(added.headers.get('cache-control')).toBe('no-store');
    expect(added.body).toEqual({
      id: expect.any(Number),
      name: 'Phone',
      created_at: expect.any(String),
      last_used_at: null,
      recovery_codes: expect.any(Array),
    });
    const codes: string[] = added.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const left = async () =>
      (await browser.get('/api/user/factors', { token })).body.recovery_codes.left;
    expect(await left()).toBe(10);

    // a second passkey turns nothing on: no new set, the first one stays good
    const second = await addPasskey(t, browser, token, 'Key');
    expect(second.recoveryCodes).toBeUndefined();
    expect(await left()).toBe(10);
    expect(await factorKinds(email)).toEqual([
      'passkey_added',
      'recovery_codes_created',
      'passkey_added',
    ]);

    // the devices are lost: the password and a recovery code still sign in
    const stranded = t.client();
    const login = await stranded.post('/api/user/auth/login', { email, password });
    expect(login.body.second_factor.methods).toEqual(['passkey', 'recovery_code']);
    const done = await stranded.post('/api/user/auth/second-factor', {
      token: login.body.second_factor.token,
      recovery_code: codes[0],
    });
    expect(done.status).toBe(200);
    expect(await left()).toBe(9);
  });

  it('beside the authenticator app it brings no codes; after the last factor went, it does again', async () => {
    const { browser, token, password } = await signIn(t);
    const { recoveryCodes } = await enrolTotp(t, browser, token);
    const beside = await addPasskey(t, browser, token, 'Phone');
    expect(beside.recoveryCodes).toBeUndefined();
    expect((await browser.get('/api/user/factors', { token })).body.recovery_codes.left).toBe(10);

    // a passkey-only account: its codes go with its last passkey, and a new first passkey makes
    // a new set (the authenticator's codes are gone with it)
    await freshProof(t, token);
    const totpOff = await browser.post('/api/user/factors/totp/disable', {}, { token });
    expect(totpOff.body.recovery_codes.left).toBe(10);
    const options = await browser.post('/api/user/factors/passkeys/assertion-options', undefined, {
      token,
    });
    const removed = await browser.post(
      `/api/user/factors/passkeys/${beside.id}/remove`,
      { password, passkey: beside.soft.authenticate(beside.passkey, options.body.challenge) },
      { token },
    );
    expect(removed.body.recovery_codes).toEqual({ left: 0, created_at: null });
    const again = await addPasskey(t, browser, token, 'New phone');
    expect(again.recoveryCodes).toHaveLength(10);
    expect(again.recoveryCodes!.some((code) => recoveryCodes.includes(code))).toBe(false);
    expect((await browser.get('/api/user/factors', { token })).body.recovery_codes.left).toBe(10);
  });

  it('refuses a bad name, another origin, a spent or expired challenge, and changes nothing', async () => {
    const { browser, token } = await signIn(t);
    const soft = softAuthenticatorOf(t);
    const challenge = async () =>
      (await browser.post('/api/user/factors/passkeys/options', undefined, { token })).body
        .challenge as string;
    const add = (name: unknown, response: unknown) =>
      browser.post('/api/user/factors/passkeys', { name, response }, { token });

    expect((await add('', soft.register(await challenge()).response)).body).toEqual(
      fieldRefusal('name', 'PASSKEY_NAME_REQUIRED'),
    );
    expect((await add('a'.repeat(65), soft.register(await challenge()).response)).body).toEqual(
      fieldRefusal('name', 'PASSKEY_NAME_TOO_LONG'),
    );
    expect((await add('Two\nlines', soft.register(await challenge()).response)).body).toEqual(
      fieldRefusal('name', 'TEXT_NOT_SINGLE_LINE'),
    );
    expect(
      (
        await add(
          'Evil',
          soft.register(await challenge(), { origin: 'https://evil.example' }).response,
        )
      ).body,
    ).toEqual(fieldRefusal('response', 'PASSKEY_INVALID'));
    expect(
      (await add('Other RP', soft.register(await challenge(), { rpID: 'evil.example' }).response))
        .body,
    ).toEqual(fieldRefusal('response', 'PASSKEY_INVALID'));
    expect((await add('Made up', soft.register('bm90LWEtY2hhbGxlbmdl').response)).body).toEqual(
      fieldRefusal('response', 'PASSKEY_INVALID'),
    );
    const once = await challenge();
    expect((await add('Once', soft.register(once).response)).status).toBe(201);
    expect((await add('Twice', soft.register(once).response)).body).toEqual(
      fieldRefusal('response', 'PASSKEY_INVALID'),
    );
    const late = await challenge();
    t.clock.advance(5 * 60_000 + 1000);
    expect((await add('Late', soft.register(late).response)).body).toEqual(
      fieldRefusal('response', 'PASSKEY_INVALID'),
    );
    const names = (await browser.get('/api/user/factors', { token })).body.passkeys.map(
      (p: { name: string }) => p.name,
    );
    expect(names).toEqual(['Once']);
  });
});
