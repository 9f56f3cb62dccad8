import { randomUUID } from 'node:crypto';
import { STEP_UP_WINDOW_MS } from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, generateSecret } from 'otplib';
import { recoveryCodeHash, sealTotpSecret, secondFactorSettings } from '../src/db/second-factor.ts';
import { SEALED, sealIn } from '../src/db/sealed.ts';
import {
  balancesOf,
  fieldRefusal,
  fund,
  refusal,
  signIn,
  startTestApp,
  XHR,
  type ApiClient,
  type ApiResponse,
  type TestApp,
} from './helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { startAppWithBot, type TelegramTestApp } from './telegram-app.ts';
import { seedServer } from './vps-fixtures.ts';

/**
 * Step-up (issue 41): before money or secrets leave, the sign-in must have proved its owner (a
 * sign-in is a proof; POST /api/user/auth/step-up is another) within the last 5 minutes; else
 * 403 STEP_UP_REQUIRED with the proofs the account can give, and nothing changes.
 */

const STEP_UP = '/api/user/auth/step-up';
const TRANSFER = '/api/user/balance/transfer';
const WITHDRAW = '/api/user/partner/createwithdrawal';
const FREE = '/api/user/monitoring/subscriptions/free';
const TRC20 = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const SERVER_PASSWORD = 'Xq7!step-up-horse-9';
/** Past the window of a proof. */
const STALE = STEP_UP_WINDOW_MS + 1_000;

const factorSettings = () => secondFactorSettings(t.config);
const authenticator = () => new SoftAuthenticator(factorSettings());

let app: TelegramTestApp;
let t: TestApp;

beforeAll(async () => {
  app = await startAppWithBot({
    token: '1000:step-up-telegram-token',
    username: 'tradehost_step_up_bot',
    secret: 'step-up-webhook-secret',
  });
  t = app.t;
});
afterAll(async () => app?.close());

interface Trader {
  id: number;
  email: string;
  password: string;
  token: string;
  browser: ApiClient;
}

/** A user signed in with their password (itself a proof, at the test clock's now). */
async function trader(): Promise<Trader> {
  const signed = await signIn(t);
  const { rows } = await t.sql.query('select id from users where email = $1', [signed.email]);
  return { ...signed, id: Number(rows[0].id) };
}

/** Past a proof's window, with a new access token of the same sign-in (a refresh proves nothing). */
async function later(who: Trader) {
  t.clock.advance(STALE);
  const refreshed = await who.browser.post('/api/user/auth/refresh-token', undefined, {
    headers: XHR,
  });
  expect(refreshed.status).toBe(200);
  who.token = refreshed.body.token as string;
}

const post = (who: Trader, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.api.post(path, body, { token: who.token, headers });

const stepUp = (who: Trader, body: unknown) => post(who, STEP_UP, body);

const STEP_UP_REQUIRED = {
  code: 'STEP_UP_REQUIRED',
  message: 'Confirm it is you to continue',
  methods: ['password'],
};

async function eventsOf(userId: number, kind: string) {
  const { rows } = await t.sql.query(
    'select kind, ip, session_id, detail from security_events where user_id = $1 and kind = $2 order by id',
    [userId, kind],
  );
  return rows;
}

/**
 * The answer to a fifth wrong proof in a row: the sign-in is over, its access token and its
 * refresh cookie stop at once.
 */
async function expectSignInEnded(who: Trader, answer: ApiResponse) {
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual(refusal('SESSION_EXPIRED'));
  expect(await eventsOf(who.id, 'session_ended')).toEqual([
    expect.objectContaining({ detail: { reason: 'step_up_failed' } }),
  ]);
  expect((await t.api.get('/api/user/auth', { token: who.token })).status).toBe(401);
  expect(
    (await who.browser.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
  ).toBe(401);
}

/** Turns on an authenticator app for the user; its secret, for codes computed here (totpNow). */
async function withTotp(who: Trader): Promise<string> {
  const secret = generateSecret();
  await t.sql.query(
    'insert into user_totp (user_id, secret, created_at, confirmed_at) values ($1, $2, now(), now())',
    [who.id, sealTotpSecret(factorSettings(), who.id, secret)],
  );
  return secret;
}

const totpNow = (secret: string) =>
  generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });

async function countOf(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await t.sql.query<{ n: string }>(sql, params);
  return Number(rows[0]!.n);
}

/** An Active server of the user's with its login details. */
async function serverOf(who: Trader): Promise<number> {
  const { id } = await seedServer(t, {
    userId: who.id,
    paidUntil: new Date(t.clock.now().getTime() + 30 * 86_400_000),
  });
  await t.sql.query('update vps_servers set password_enc = $2 where id = $1', [
    id,
    sealIn(t.config, SEALED.vpsPassword, id, SERVER_PASSWORD),
  ]);
  return id;
}

async function subscriptionOf(who: Trader): Promise<number> {
  const free = await post(who, FREE);
  expect(free.status).toBe(201);
  return free.body.subscription.id as number;
}

describe('a transfer', () => {
  it('above STEP_UP_TRANSFER_ABOVE waits for a fresh proof, and goes with the same key after it', async () => {
    expect(t.config.stepUpTransferAboveCents).toBe(50_000);
    const sender = await trader();
    const recipient = await trader();
    await fund(t, sender.id, 200_000);
    const body = { email: recipient.email, amount: '600' };

    // just signed in: the sign-in is the proof
    const first = await post(sender, TRANSFER, body, { 'idempotency-key': randomUUID() });
    expect(first.status).toBe(201);
    expect((await balancesOf(t, sender.id)).balance).toBe(140_000);

    t.clock.advance(STALE);
    const key = randomUUID();
    const refused = await post(sender, TRANSFER, body, { 'idempotency-key': key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(STEP_UP_REQUIRED);
    // nothing moved, and the key holds no answer: the same request may come again
    expect((await balancesOf(t, sender.id)).balance).toBe(140_000);
    expect((await balancesOf(t, recipient.id)).balance).toBe(60_000);
    expect(
      await countOf('select count(*) as n from idempotency_keys where user_id = $1 and key = $2', [
        sender.id,
        key,
      ]),
    ).toBe(0);

    const proved = await stepUp(sender, { password: sender.password });
    expect(proved.status).toBe(200);
    expect(proved.body).toEqual({ code: 'STEP_UP_DONE', message: 'Confirmed: you can continue' });
    expect(proved.headers.get('cache-control')).toBe('no-store');

    const retried = await post(sender, TRANSFER, body, { 'idempotency-key': key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await balancesOf(t, sender.id)).balance).toBe(80_000);
    expect((await balancesOf(t, recipient.id)).balance).toBe(120_000);
    // and a replay of it stays a replay, whatever the proof's age
    t.clock.advance(STALE);
    const replay = await post(sender, TRANSFER, body, { 'idempotency-key': key });
    expect(replay.status).toBe(403);
    expect((await balancesOf(t, sender.id)).balance).toBe(80_000);
  });

  it('at or below the threshold needs no fresh proof; a cent above does', async () => {
    const sender = await trader();
    const recipient = await trader();
    await fund(t, sender.id, 200_000);
    t.clock.advance(STALE);
    const send = (amount: string) =>
      post(
        sender,
        TRANSFER,
        { email: recipient.email, amount },
        { 'idempotency-key': randomUUID() },
      );
    expect((await send('500')).status).toBe(201);
    expect((await send('499.99')).status).toBe(201);
    const above = await send('500.01');
    expect(above.status).toBe(403);
    expect(above.body).toEqual(STEP_UP_REQUIRED);
    expect((await balancesOf(t, sender.id)).balance).toBe(200_000 - 50_000 - 49_999);
  });
});

describe('each guarded action', () => {
  it('a partner withdrawal: no request without a fresh proof, then one', async () => {
    const partner = await trader();
    await fund(t, partner.id, 5_000, 'balance_partner');
    t.clock.advance(STALE);
    const body = { method: 'USDT-TRC20', wallet: TRC20, amount: 30 };
    const key = randomUUID();
    const refused = await post(partner, WITHDRAW, body, { 'idempotency-key': key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(STEP_UP_REQUIRED);
    expect(
      await countOf('select count(*) as n from withdrawals where user_id = $1', [partner.id]),
    ).toBe(0);
    expect((await balancesOf(t, partner.id)).partner).toBe(5_000);

    expect((await stepUp(partner, { password: partner.password })).status).toBe(200);
    const made = await post(partner, WITHDRAW, body, { 'idempotency-key': key });
    expect(made.status).toBe(201);
    expect((await balancesOf(t, partner.id)).partner).toBe(2_000);
  });

  it('a server password: not in the answer without a fresh proof; revealed and logged after', async () => {
    const owner = await trader();
    const id = await serverOf(owner);
    const path = `/api/user/vps/servers/${id}/credentials`;
    t.clock.advance(STALE);
    const refused = await post(owner, path);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(STEP_UP_REQUIRED);
    expect(refused.text).not.toContain(SERVER_PASSWORD);
    expect(await eventsOf(owner.id, 'vps_password_revealed')).toEqual([]);

    expect((await stepUp(owner, { password: owner.password })).status).toBe(200);
    const revealed = await post(owner, path);
    expect(revealed.status).toBe(200);
    expect(revealed.body.password).toBe(SERVER_PASSWORD);
    expect(await eventsOf(owner.id, 'vps_password_revealed')).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', detail: { server_id: id } }),
    ]);

    // 5 minutes later it asks again
    t.clock.advance(STALE);
    expect((await post(owner, path)).status).toBe(403);
  });

  it('a monitoring key: revealing and regenerating wait for a fresh proof; the key stays', async () => {
    const owner = await trader();
    const subscription = await subscriptionOf(owner);
    const key = `/api/user/monitoring/subscriptions/${subscription}/key`;
    const first = await post(owner, key);
    expect(first.status).toBe(200);
    const before = await t.sql.query(
      'select key_hash from monitoring_subscriptions where id = $1',
      [subscription],
    );

    t.clock.advance(STALE);
    const reveal = await post(owner, key);
    expect(reveal.status).toBe(403);
    expect(reveal.text).not.toContain(first.body.key);
    const regenerate = await post(owner, `${key}/regenerate`);
    expect(regenerate.status).toBe(403);
    expect(regenerate.body).toEqual(STEP_UP_REQUIRED);
    const after = await t.sql.query('select key_hash from monitoring_subscriptions where id = $1', [
      subscription,
    ]);
    expect(after.rows).toEqual(before.rows);
    expect(await eventsOf(owner.id, 'monitoring_key_regenerated')).toEqual([]);

    expect((await stepUp(owner, { password: owner.password })).status).toBe(200);
    expect((await post(owner, key)).body).toEqual({ key: first.body.key });
    const fresh = await post(owner, `${key}/regenerate`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.key).not.toBe(first.body.key);
    expect((await eventsOf(owner.id, 'monitoring_key_revealed')).length).toBe(2);
    expect(await eventsOf(owner.id, 'monitoring_key_regenerated')).toEqual([
      expect.objectContaining({ detail: { subscription_id: subscription } }),
    ]);
  });

  it('a Telegram link: no deep link without a fresh proof; linking is logged', async () => {
    const owner = await trader();
    t.clock.advance(STALE);
    const refused = await post(owner, '/api/user/telegram/link', { purpose: 'account' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(STEP_UP_REQUIRED);
    expect(
      await countOf('select count(*) as n from telegram_link_tokens where user_id = $1', [
        owner.id,
      ]),
    ).toBe(0);

    expect((await stepUp(owner, { password: owner.password })).status).toBe(200);
    const link = await post(owner, '/api/user/telegram/link', { purpose: 'account' });
    expect(link.status).toBe(200);
    const chat = { id: 7_700_001, type: 'private' as const, first_name: 'Anna' };
    const token = new URL(link.body.link as string).searchParams.get('start')!;
    expect(await app.emulator.say(chat, `/start ${token}`)).toBe(200);
    expect(await eventsOf(owner.id, 'telegram_linked')).toEqual([
      expect.objectContaining({ detail: { purpose: 'account', chat: 'Anna' } }),
    ]);
  });

  it('signing out everywhere else: the other sign-ins stay until a fresh proof', async () => {
    const owner = await trader();
    const other = t.client();
    const second = await other.post('/api/user/auth/login', {
      email: owner.email,
      password: owner.password,
    });
    expect(second.status).toBe(200);
    t.clock.advance(STALE);
    const refused = await post(owner, '/api/user/sessions/sign_out_others');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(STEP_UP_REQUIRED);
    expect(
      (await other.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
    ).toBe(200);

    expect((await stepUp(owner, { password: owner.password })).status).toBe(200);
    const done = await post(owner, '/api/user/sessions/sign_out_others');
    expect(done.status).toBe(200);
    expect(
      (await other.post('/api/user/auth/refresh-token', undefined, { headers: XHR })).status,
    ).toBe(401);
  });
});

describe('the proof', () => {
  it('is refused when wrong, recorded, and the fifth wrong one in a row ends the sign-in', async () => {
    const owner = await trader();
    t.clock.advance(STALE);
    for (let i = 1; i <= 4; i += 1) {
      const wrong = await stepUp(owner, { password: `not it ${i}` });
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual(fieldRefusal('password', 'STEP_UP_PROOF_INVALID'));
    }
    // a right one in between starts the count again
    expect((await stepUp(owner, { password: owner.password })).status).toBe(200);
    for (let i = 1; i <= 4; i += 1)
      expect((await stepUp(owner, { password: 'still not it' })).status).toBe(422);
    const failed = await eventsOf(owner.id, 'step_up_failed');
    expect(failed).toHaveLength(8);
    expect(failed.at(-1)).toMatchObject({
      ip: '127.0.0.1',
      session_id: expect.any(String),
      detail: { method: 'password', failures: 4 },
    });
    expect(await eventsOf(owner.id, 'step_up')).toEqual([
      expect.objectContaining({ detail: { method: 'password' } }),
    ]);

    await expectSignInEnded(owner, await stepUp(owner, { password: 'still not it' }));
    expect((await stepUp(owner, { password: owner.password })).status).toBe(401);
    // the proof of before (within its 5 minutes) no longer counts either
    expect(
      await countOf(
        'select count(*) as n from session_proofs where user_id = $1 and session_id = $2',
        [owner.id, failed[0].session_id],
      ),
    ).toBe(0);
  });

  it('refuses a request without exactly one proof', async () => {
    const owner = await trader();
    for (const body of [{}, { password: '' }, { password: owner.password, code: '123456' }]) {
      const res = await stepUp(owner, body);
      expect(res.status).toBe(422);
    }
    expect((await stepUp(owner, { code: '12345' })).body).toEqual(
      fieldRefusal('code', 'CODE_FORMAT'),
    );
    // a factor's proof while none is on is not a kind the account takes
    expect((await stepUp(owner, { code: '123456' })).body).toEqual(
      fieldRefusal('code', 'STEP_UP_METHOD_NOT_ALLOWED'),
    );
    expect(await eventsOf(owner.id, 'step_up_failed')).toEqual([]);
    expect((await t.api.post(STEP_UP, { password: owner.password })).status).toBe(401);
  });

  it('is the second factor once one is on: the password alone is refused, and not counted', async () => {
    const owner = await trader();
    await t.sql.query(
      `insert into user_totp (user_id, secret, created_at, confirmed_at) values ($1, 'sealed', now(), now())`,
      [owner.id],
    );
    t.clock.advance(STALE);
    const server = await serverOf(owner);
    const refused = await post(owner, `/api/user/vps/servers/${server}/credentials`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ ...STEP_UP_REQUIRED, methods: ['totp'] });

    const password = await stepUp(owner, { password: owner.password });
    expect(password.status).toBe(422);
    expect(password.body).toEqual(fieldRefusal('password', 'STEP_UP_METHOD_NOT_ALLOWED'));
    expect(await eventsOf(owner.id, 'step_up')).toEqual([]);
    expect(await eventsOf(owner.id, 'step_up_failed')).toEqual([]);
    // still refused
    expect((await post(owner, `/api/user/vps/servers/${server}/credentials`)).status).toBe(403);

    // a password change asks for the factor too, the right current password notwithstanding
    const change = await post(owner, '/api/user/change_password', {
      current_password: owner.password,
      password: 'a new horse staple 7',
      password_confirmation: 'a new horse staple 7',
    });
    expect(change.status).toBe(403);
    expect(change.body).toEqual({ ...STEP_UP_REQUIRED, methods: ['totp'] });
    expect(await eventsOf(owner.id, 'password_changed')).toEqual([]);
  });

  it('with a second factor on: a TOTP code, a recovery code or a passkey proves, once each', async () => {
    const owner = await trader();
    const secret = await withTotp(owner);
    const recovery = 'abcde-23456';
    const { passkey } = authenticator().register('unused');
    await t.sql.query(
      'insert into recovery_codes (user_id, code_hash, created_at) values ($1, $2, now())',
      [owner.id, recoveryCodeHash(factorSettings(), owner.id, recovery)],
    );
    await t.sql.query(
      `insert into passkeys (user_id, credential_id, public_key, name, created_at)
       values ($1, $2, $3, 'Laptop', now())`,
      [owner.id, passkey.id, passkey.publicKey],
    );
    const server = await serverOf(owner);
    const reveal = () => post(owner, `/api/user/vps/servers/${server}/credentials`);
    await later(owner);
    expect((await reveal()).body).toEqual({
      ...STEP_UP_REQUIRED,
      methods: ['totp', 'passkey', 'recovery_code'],
    });

    // TOTP: a wrong code is counted, the right one proves, and works once
    const wrong = await stepUp(owner, { code: '000000' });
    expect(wrong.body).toEqual(fieldRefusal('code', 'STEP_UP_PROOF_INVALID'));
    const code = await totpNow(secret);
    expect((await stepUp(owner, { code })).status).toBe(200);
    expect((await reveal()).status).toBe(200);
    await later(owner);
    expect((await reveal()).status).toBe(403);
    expect((await stepUp(owner, { code })).status).toBe(422);

    // a recovery code, used up
    expect((await stepUp(owner, { recovery_code: 'ABCDE 23456' })).status).toBe(200);
    expect((await reveal()).status).toBe(200);
    await later(owner);
    // used up: a wrong proof now (the account has no other code)
    expect((await stepUp(owner, { recovery_code: recovery })).body).toEqual(
      fieldRefusal('recovery_code', 'STEP_UP_PROOF_INVALID'),
    );

    // a passkey, answering a challenge of the step-up's options
    const options = await post(owner, '/api/user/auth/step-up/passkey-options');
    expect(options.status).toBe(200);
    expect(options.body.allowCredentials).toEqual([
      expect.objectContaining({ id: passkey.id, type: 'public-key' }),
    ]);
    const signed = authenticator().authenticate(passkey, options.body.challenge as string);
    expect((await stepUp(owner, { passkey: signed })).status).toBe(200);
    expect((await reveal()).status).toBe(200);
    // the challenge is spent
    expect((await stepUp(owner, { passkey: signed })).status).toBe(422);

    expect((await eventsOf(owner.id, 'step_up')).map((e) => e.detail.method)).toEqual([
      'totp',
      'recovery_code',
      'passkey',
    ]);
    expect(await eventsOf(owner.id, 'recovery_code_used')).toHaveLength(1);
  });

  it('passkey options need a passkey', async () => {
    const owner = await trader();
    const options = await post(owner, '/api/user/auth/step-up/passkey-options');
    expect(options.status).toBe(422);
    expect(options.body).toEqual(fieldRefusal('passkey', 'STEP_UP_METHOD_NOT_ALLOWED'));
  });

  it('a password change without a second factor: the current password is the proof', async () => {
    const owner = await trader();
    t.clock.advance(STALE);
    const changed = await post(owner, '/api/user/change_password', {
      current_password: owner.password,
      password: 'a new horse staple 7',
      password_confirmation: 'a new horse staple 7',
    });
    expect(changed.status).toBe(200);
    // and it counts as one: a secret may leave for the next 5 minutes
    const server = await serverOf(owner);
    expect((await post(owner, `/api/user/vps/servers/${server}/credentials`)).status).toBe(200);
  });
});

describe('a password change’s current password', () => {
  const CHANGE_PASSWORD = '/api/user/change_password';
  const NEW_PASSWORD = 'a new horse staple 7';
  const change = (who: Trader, current: string) =>
    post(who, CHANGE_PASSWORD, {
      current_password: current,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
  const signsIn = async (email: string, password: string) =>
    (await t.client().post('/api/user/auth/login', { email, password })).status === 200;

  it('is a strike when wrong, as a step-up proof is: the fifth wrong one in a row ends the sign-in', async () => {
    const owner = await trader();
    for (let i = 1; i <= 4; i += 1) {
      const wrong = await change(owner, `guess ${i}`);
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual(fieldRefusal('current_password', 'CURRENT_PASSWORD_WRONG'));
    }
    const failed = await eventsOf(owner.id, 'step_up_failed');
    expect(failed.map((e) => e.detail)).toEqual(
      [1, 2, 3, 4].map((failures) => ({ method: 'password', failures })),
    );
    expect(failed.at(-1)).toMatchObject({ ip: '127.0.0.1', session_id: expect.any(String) });

    await expectSignInEnded(owner, await change(owner, 'guess 5'));
    // and the password stays what it was
    expect((await change(owner, owner.password)).status).toBe(401);
    expect(await signsIn(owner.email, owner.password)).toBe(true);
    expect(await eventsOf(owner.id, 'password_changed')).toEqual([]);
  });

  it('counts with the step-up’s wrong proofs, and a right one starts the count again', async () => {
    const owner = await trader();
    t.clock.advance(STALE);
    for (let i = 1; i <= 3; i += 1)
      expect((await stepUp(owner, { password: `not it ${i}` })).status).toBe(422);
    expect((await change(owner, 'not it either')).status).toBe(422);
    // the right one changes the password and, as the step-up's proof, starts the count again
    expect((await change(owner, owner.password)).status).toBe(200);
    expect((await eventsOf(owner.id, 'step_up')).map((e) => e.detail)).toEqual([
      { method: 'password' },
    ]);
    for (let i = 1; i <= 4; i += 1)
      expect((await stepUp(owner, { password: `wrong again ${i}` })).status).toBe(422);
    await expectSignInEnded(owner, await change(owner, 'wrong again 5'));
    expect((await eventsOf(owner.id, 'step_up_failed')).map((e) => e.detail.failures)).toEqual([
      1, 2, 3, 4, 1, 2, 3, 4, 5,
    ]);
  });

  it('with a second factor on: counted after the factor’s proof, and a right one proves nothing more', async () => {
    const owner = await trader();
    const secret = await withTotp(owner);
    await later(owner);
    expect((await stepUp(owner, { code: await totpNow(secret) })).status).toBe(200);
    for (let i = 1; i <= 2; i += 1)
      expect((await change(owner, `guess ${i}`)).body).toEqual(
        fieldRefusal('current_password', 'CURRENT_PASSWORD_WRONG'),
      );
    expect((await change(owner, owner.password)).status).toBe(200);
    // the factor was the proof: the password is no step-up once a factor is on
    expect((await eventsOf(owner.id, 'step_up')).map((e) => e.detail)).toEqual([
      { method: 'totp' },
    ]);
    for (let i = 3; i <= 4; i += 1) expect((await change(owner, `guess ${i}`)).status).toBe(422);
    await expectSignInEnded(owner, await change(owner, 'guess 5'));
    expect(await signsIn(owner.email, NEW_PASSWORD)).toBe(true);
  });
});

describe('the step-up endpoint', () => {
  it('is rate limited with the sign-in limit, before any token work', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_AUTH_MAX: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push(
          (await limited.api.post(STEP_UP, { password: 'x' }, { token: 'not-a-token' })).status,
        );
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
