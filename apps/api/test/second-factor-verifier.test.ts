import { generate, generateSecret } from 'otplib';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import {
  randomRecoveryCode,
  recoveryCodeHash,
  secondFactor,
  sealTotpSecret,
  secondFactorSettings,
  type SecondFactorSettings,
} from '../src/db/second-factor.ts';
import { quickUser, useTestApp } from './helpers.ts';
import { SoftAuthenticator, type SoftPasskey } from './soft-authenticator.ts';

const t = useTestApp();
const settings = (): SecondFactorSettings => secondFactorSettings(t.config);
const epoch = (at: Date) => Math.floor(at.getTime() / 1000);
const codeAt = (secret: string, at: Date) => generate({ secret, epoch: epoch(at) });
const authenticator = () => new SoftAuthenticator(settings());

async function withTotp(confirmed = true) {
  const user = await quickUser(t);
  const secret = generateSecret();
  await t.sql.query(
    'insert into user_totp (user_id, secret, created_at, confirmed_at) values ($1, $2, now(), $3)',
    [user.id, sealTotpSecret(settings(), user.id, secret), confirmed ? new Date() : null],
  );
  return { ...user, secret };
}

async function withPasskey(userId?: number) {
  const user = userId === undefined ? await quickUser(t) : { id: userId };
  const soft = authenticator();
  const { passkey } = soft.register('unused');
  await t.sql.query(
    `insert into passkeys (user_id, credential_id, public_key, name, created_at)
     values ($1, $2, $3, 'Laptop', now())`,
    [user.id, passkey.id, passkey.publicKey],
  );
  return { ...user, soft, passkey };
}

async function answer(
  userId: number,
  soft: SoftAuthenticator,
  passkey: SoftPasskey,
  overrides: { origin?: string } = {},
) {
  const at = t.clock.now();
  const options = await secondFactor.passkeyRequestOptions(t.app.db, userId, at, settings());
  return soft.authenticate(
    passkey,
    options.challenge,
    overrides,
  ) as unknown as AuthenticationResponseJSON;
}

describe('secondFactor.verify: TOTP', () => {
  it('accepts the current code once, and the codes one step either side', async () => {
    const user = await withTotp();
    const at = t.clock.now();
    const verify = (code: string, when = at) =>
      secondFactor.verify(t.app.db, user.id, { code }, when, settings());

    expect(await verify(await codeAt(user.secret, new Date(at.getTime() - 30_000)))).toBe('totp');
    expect(await verify(await codeAt(user.secret, at))).toBe('totp');
    // the same code again: refused, and so is the step already passed
    expect(await verify(await codeAt(user.secret, at))).toBeNull();
    expect(await verify(await codeAt(user.secret, new Date(at.getTime() - 30_000)))).toBeNull();
    expect(await verify(await codeAt(user.secret, new Date(at.getTime() + 30_000)))).toBe('totp');
  });

  it('refuses a code two steps away, a wrong one, a malformed one and an unconfirmed enrolment', async () => {
    const user = await withTotp();
    const at = t.clock.now();
    const verify = (code: string) =>
      secondFactor.verify(t.app.db, user.id, { code }, at, settings());
    expect(await verify(await codeAt(user.secret, new Date(at.getTime() - 90_000)))).toBeNull();
    expect(await verify(await codeAt(user.secret, new Date(at.getTime() + 90_000)))).toBeNull();
    const right = await codeAt(user.secret, at);
    expect(await verify(right === '000000' ? '000001' : '000000')).toBeNull();
    expect(await verify('12345')).toBeNull();
    expect(await verify('abcdef')).toBeNull();
    const { rows } = await t.sql.query('select last_step from user_totp where user_id = $1', [
      user.id,
    ]);
    expect(rows[0].last_step).toBeNull();

    const pending = await withTotp(false);
    expect(
      await secondFactor.verify(
        t.app.db,
        pending.id,
        { code: await codeAt(pending.secret, at) },
        at,
        settings(),
      ),
    ).toBeNull();
  });

  it('takes a step once when two requests bring the same code at once', async () => {
    const user = await withTotp();
    const at = t.clock.now();
    const code = await codeAt(user.secret, at);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        secondFactor.verify(t.app.db, user.id, { code }, at, settings()),
      ),
    );
    expect(results.filter((r) => r === 'totp')).toHaveLength(1);
  });
});

describe('secondFactor.verify: recovery codes', () => {
  it('uses a code once, as typed in any case and without its dash, and records it', async () => {
    const user = await quickUser(t);
    const codes = [randomRecoveryCode(), randomRecoveryCode()];
    expect(codes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    for (const code of codes)
      await t.sql.query(
        'insert into recovery_codes (user_id, code_hash, created_at) values ($1, $2, now())',
        [user.id, recoveryCodeHash(settings(), user.id, code)],
      );
    const at = t.clock.now();
    const typed = ` ${codes[0]!.toUpperCase().replace('-', '')} `;
    const verify = (recovery_code: string) =>
      secondFactor.verify(t.app.db, user.id, { recovery_code }, at, settings(), {
        ip: '192.0.2.7',
      });
    expect(await verify(typed)).toBe('recovery_code');
    expect(await verify(codes[0]!)).toBeNull();
    expect(await verify('aaaaa-bbbbb')).toBeNull();

    const { rows } = await t.sql.query(
      "select ip, detail from security_events where user_id = $1 and kind = 'recovery_code_used'",
      [user.id],
    );
    expect(rows).toEqual([{ ip: '192.0.2.7', detail: { left: 1 } }]);
  });

  it("does not take another account's code", async () => {
    const owner = await quickUser(t);
    const other = await quickUser(t);
    const code = randomRecoveryCode();
    await t.sql.query(
      'insert into recovery_codes (user_id, code_hash, created_at) values ($1, $2, now())',
      [owner.id, recoveryCodeHash(settings(), owner.id, code)],
    );
    expect(
      await secondFactor.verify(
        t.app.db,
        other.id,
        { recovery_code: code },
        t.clock.now(),
        settings(),
      ),
    ).toBeNull();
  });
});

describe('secondFactor.verify: passkeys', () => {
  it('accepts a signed answer to its challenge once and notes the use', async () => {
    const { id, soft, passkey } = await withPasskey();
    const response = await answer(id, soft, passkey);
    const at = t.clock.now();
    expect(await secondFactor.verify(t.app.db, id, { passkey: response }, at, settings())).toBe(
      'passkey',
    );
    // the challenge is spent: the same answer replayed is refused
    expect(
      await secondFactor.verify(t.app.db, id, { passkey: response }, at, settings()),
    ).toBeNull();
    const { rows } = await t.sql.query(
      'select counter, last_used_at from passkeys where credential_id = $1',
      [passkey.id],
    );
    expect(Number(rows[0].counter)).toBe(1);
    expect(rows[0].last_used_at).not.toBeNull();
  });

  it('refuses another origin, an expired challenge, a made-up challenge and another account', async () => {
    const { id, soft, passkey } = await withPasskey();
    const verify = (response: AuthenticationResponseJSON, at = t.clock.now(), userId = id) =>
      secondFactor.verify(t.app.db, userId, { passkey: response }, at, settings());

    expect(
      await verify(await answer(id, soft, passkey, { origin: 'https://evil.example' })),
    ).toBeNull();
    const late = await answer(id, soft, passkey);
    expect(await verify(late, new Date(t.clock.now().getTime() + 5 * 60_000 + 1000))).toBeNull();
    expect(
      await verify(
        soft.authenticate(passkey, 'bm90LWEtY2hhbGxlbmdl') as unknown as AuthenticationResponseJSON,
      ),
    ).toBeNull();
    const other = await quickUser(t);
    await secondFactor.passkeyRequestOptions(t.app.db, other.id, t.clock.now(), settings());
    expect(await verify(await answer(id, soft, passkey), t.clock.now(), other.id)).toBeNull();
    // a signature by another key over the right challenge
    const stranger = await withPasskey(id);
    const forged = await answer(id, soft, stranger.passkey);
    (forged as { id: string }).id = passkey.id;
    (forged as { rawId: string }).rawId = passkey.id;
    expect(await verify(forged)).toBeNull();
  });

  it('offers the account’s passkeys with a challenge stored for five minutes', async () => {
    const { id, passkey } = await withPasskey();
    const at = t.clock.now();
    const options = await secondFactor.passkeyRequestOptions(t.app.db, id, at, settings());
    expect(options.rpId).toBe('localhost');
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([passkey.id]);
    const { rows } = await t.sql.query(
      'select purpose, expires_at from webauthn_challenges where user_id = $1 and challenge = $2',
      [id, options.challenge],
    );
    expect(rows).toEqual([
      { purpose: 'authenticate', expires_at: new Date(at.getTime() + 300_000) },
    ]);
  });
});

describe('secondFactor.methods', () => {
  it('names the factors an account has, none without any', async () => {
    const plain = await quickUser(t);
    expect(await secondFactor.methods(t.app.db, plain.id)).toEqual([]);
    expect(await secondFactor.isOn(t.app.db, plain.id)).toBe(false);
    const totp = await withTotp();
    expect(await secondFactor.methods(t.app.db, totp.id)).toEqual(['totp']);
    await withPasskey(totp.id);
    expect(await secondFactor.methods(t.app.db, totp.id)).toEqual(['totp', 'passkey']);
    expect(await secondFactor.isOn(t.app.db, (await withTotp(false)).id)).toBe(false);
  });
});
