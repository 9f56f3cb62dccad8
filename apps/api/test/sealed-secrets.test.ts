import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { generateSecret } from 'otplib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/client.ts';
import { openIn, resealAll, SEALED, sealIn } from '../src/db/sealed.ts';
import { openTotpSecret, sealTotpSecret, secondFactorSettings } from '../src/db/second-factor.ts';
import { SealedSecretError } from '../src/lib/crypto-box.ts';
import { deriveKey, KEY_LABELS, namedKey } from '../src/lib/keys.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { quickUser, refusal, useTestApp, type TestApp } from './helpers.ts';
import { seedServer } from './vps-fixtures.ts';

/** The secrets startTestApp sets, and the next ones of a rotation. */
const OLD_JWT = 'test-secret-test-secret-test-secret-0123456789';
const NEW_JWT = 'the jwt secret after the rotation, 0123456789';
const OLD_VPS = 'test-vps-key-test-vps-key-test-vps-key-0123';
const NEW_VPS = 'the vps key after the rotation, 0123456789abc';

const ME = '/api/user/auth';
const CREDENTIALS = (id: number) => `/api/user/vps/servers/${id}/credentials`;
const FREE = '/api/user/monitoring/subscriptions/free';
const KEY = (id: number) => `/api/user/monitoring/subscriptions/${id}/key`;
const ADMIN_CLI = fileURLToPath(new URL('../src/cli/admin.ts', import.meta.url));

type Who = { id: number; token: string; sessionId: string };

/** An Active server of `who`'s whose password is `password`, sealed for its row. */
async function serverWith(t: TestApp, who: Who, password: string): Promise<number> {
  const paidUntil = new Date(t.clock.now().getTime() + 30 * 86_400_000);
  const { id } = await seedServer(t, { userId: who.id, paidUntil });
  await t.sql.query('update vps_servers set password_enc = $2 where id = $1', [
    id,
    sealIn(t.config, SEALED.vpsPassword, id, password),
  ]);
  return id;
}

const reveal = (t: TestApp, who: Who, id: number) =>
  t.api.post(CREDENTIALS(id), undefined, { token: who.token });

/** What the release before key ids (crypto-box v1) sealed under OLD_VPS: 'Legacy-Password-9'. */
const LEGACY_V1 = 'v1.8tDEykx8tajqChcK.h4XNxqd3ThDWWA0261J-eA.FTaDsahfQdSloZwCP0Js0CE';

/** Until `test` holds for a line of the app's log (it is written a moment after the answer). */
async function logged(t: TestApp, test: (line: string) => boolean): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const line = t.logs.find(test);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no such log line');
}

describe('a sealed value opens in its own row only', () => {
  const t = useTestApp();

  it('refuses a server password moved to another server: unavailable, logged, never shown', async () => {
    const owner = await quickUser(t);
    const a = await serverWith(t, owner, 'Password-Of-A-1');
    const b = await serverWith(t, owner, 'Password-Of-B-2');
    expect((await reveal(t, owner, a)).body.password).toBe('Password-Of-A-1');

    await t.sql.query(
      'update vps_servers set password_enc = (select password_enc from vps_servers where id = $1) where id = $2',
      [a, b],
    );
    const moved = await reveal(t, owner, b);
    expect(moved).toMatchObject({ status: 409, body: refusal('SERVER_PASSWORD_UNAVAILABLE') });
    expect(moved.text).not.toContain('Password-Of-A-1');
    const line = await logged(t, (l) => l.includes('a server password does not open'));
    expect(JSON.parse(line)).toMatchObject({ level: 50, serverId: b });
    expect(line).toContain('belongs to another row than vps_servers.password_enc');
    const { rows } = await t.sql.query(
      "select count(*)::int as n from audit_log where action = 'vps.credentials_revealed' and subject_id = $1",
      [String(b)],
    );
    expect(rows[0].n).toBe(0);
    // the server and its neighbour go on
    expect((await reveal(t, owner, a)).body.password).toBe('Password-Of-A-1');
    expect((await t.api.get(`/api/user/vps/servers/${b}`, { token: owner.token })).status).toBe(
      200,
    );
  });

  it('refuses a monitoring key moved to another subscription; a new key is the way on', async () => {
    const [first, second] = [await quickUser(t), await quickUser(t)];
    const subscriptionOf = async (who: Who) =>
      (await t.api.post(FREE, undefined, { token: who.token })).body.subscription.id as number;
    const [one, two] = [await subscriptionOf(first), await subscriptionOf(second)];
    const shown = await t.api.post(KEY(one), undefined, { token: first.token });
    expect(shown.status).toBe(200);

    await t.sql.query(
      'update monitoring_subscriptions set key_sealed = (select key_sealed from monitoring_subscriptions where id = $1) where id = $2',
      [one, two],
    );
    const moved = await t.api.post(KEY(two), undefined, { token: second.token });
    expect(moved).toMatchObject({ status: 409, body: refusal('MONITORING_KEY_UNAVAILABLE') });
    expect(moved.text).not.toContain(shown.body.key);
    await logged(t, (l) => l.includes('a monitoring key does not open'));
    const revealed = await t.sql.query(
      "select count(*)::int as n from security_events where user_id = $1 and kind = 'monitoring_key_revealed'",
      [second.id],
    );
    expect(revealed.rows[0].n).toBe(0);

    const fresh = await t.api.post(`${KEY(two)}/regenerate`, undefined, { token: second.token });
    expect(fresh.status).toBe(200);
    expect((await t.api.post(KEY(two), undefined, { token: second.token })).body.key).toBe(
      fresh.body.key,
    );
  });

  it('refuses a server password copied into another table', async () => {
    const owner = await quickUser(t);
    const server = await serverWith(t, owner, 'Password-Of-C-3');
    const { rows } = await t.sql.query('select password_enc from vps_servers where id = $1', [
      server,
    ]);
    expect(() =>
      openIn(t.config, SEALED.monitoringKey, server, rows[0].password_enc as string),
    ).toThrow(SealedSecretError);
  });
});

describe('a rotation of VPS_SECRET_KEY and JWT_SECRET, and the reseal', () => {
  const t = useTestApp();

  /** The config of the next start on the same database, with `env`'s secrets. */
  const configWith = (
    env: { JWT_SECRET: string; VPS_SECRET_KEY: string } & Record<string, string>,
  ) =>
    loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:5173',
      DATABASE_URL: t.config.databaseUrl!,
      DATA_DIR: t.config.dataDir,
      SMTP_URL: 'smtp://127.0.0.1:9',
      WEB_DIST: '/nonexistent/tradehost-web-dist',
      JOBS_ENABLED: 'false',
      HYPERVISOR_DRIVER: 'simulated',
      LOG_LEVEL: 'silent',
      ...env,
    });
  const rotating = () =>
    configWith({
      JWT_SECRET: NEW_JWT,
      JWT_SECRET_PREVIOUS: OLD_JWT,
      VPS_SECRET_KEY: NEW_VPS,
      VPS_SECRET_KEY_PREVIOUS: OLD_VPS,
    });
  const rotated = () => configWith({ JWT_SECRET: NEW_JWT, VPS_SECRET_KEY: NEW_VPS });

  /** The sealed values of the database, by column, as SQL reads them. */
  async function stored() {
    const read = async (query: string) =>
      (await t.sql.query<{ id: string; sealed: string }>(query)).rows.map((r) => ({
        id: Number(r.id),
        sealed: r.sealed,
      }));
    return {
      servers: await read(
        'select id, password_enc as sealed from vps_servers where password_enc is not null order by id',
      ),
      subscriptions: await read(
        'select id, key_sealed as sealed from monitoring_subscriptions order by id',
      ),
      totp: await read('select user_id as id, secret as sealed from user_totp order by user_id'),
    };
  }

  const passwords = new Map<number, string>();
  const keys = new Map<number, string>();
  const totpSecrets = new Map<number, string>();
  let owner: Who;

  it('opens what the old keys sealed, v1 included, while the new ones are set', async () => {
    owner = await quickUser(t);
    for (let i = 0; i < 5; i += 1) {
      const password = `Server-Password-${i}`;
      passwords.set(await serverWith(t, owner, password), password);
    }
    // one of the release before key ids
    const legacy = await serverWith(t, owner, 'unused');
    await t.sql.query('update vps_servers set password_enc = $2 where id = $1', [
      legacy,
      LEGACY_V1,
    ]);
    passwords.set(legacy, 'Legacy-Password-9');
    const free = await t.api.post(FREE, undefined, { token: owner.token });
    const subscription = free.body.subscription.id as number;
    keys.set(
      subscription,
      (await t.api.post(KEY(subscription), undefined, { token: owner.token })).body.key,
    );
    const secret = generateSecret();
    await t.sql.query(
      'insert into user_totp (user_id, secret, created_at, confirmed_at) values ($1, $2, now(), now())',
      [owner.id, sealTotpSecret(secondFactorSettings(t.config), owner.id, secret)],
    );
    totpSecrets.set(owner.id, secret);

    const config = rotating();
    for (const { id, sealed } of (await stored()).servers)
      expect(openIn(config, SEALED.vpsPassword, id, sealed)).toBe(passwords.get(id));
    // and new values are sealed under the new key
    const sealedNow = sealIn(config, SEALED.vpsPassword, 1, 'x');
    expect(sealedNow.split('.')[1]).toBe(namedKey(NEW_VPS, KEY_LABELS.vpsPasswords).id);
  });

  it('reseals every value under the new keys in batches, and a second run changes nothing', async () => {
    const config = rotating();
    const before = await stored();
    const counts = await resealAll(createDb(t.sql), config, { batch: 2, warn: () => {} });
    expect(counts).toEqual([
      { table: 'vps_servers', column: 'password_enc', sealed: 6, resealed: 6, unopenable: 0 },
      {
        table: 'monitoring_subscriptions',
        column: 'key_sealed',
        sealed: 1,
        resealed: 1,
        unopenable: 0,
      },
      { table: 'user_totp', column: 'secret', sealed: 1, resealed: 1, unopenable: 0 },
    ]);
    const after = await stored();
    const kid = (label: string, secret: string) => namedKey(secret, label).id;
    for (const { sealed } of after.servers)
      expect(sealed.split('.').slice(0, 2)).toEqual(['v2', kid(KEY_LABELS.vpsPasswords, NEW_VPS)]);
    expect(after.subscriptions[0]!.sealed.split('.')[1]).toBe(
      kid(KEY_LABELS.monitoringKeys, NEW_VPS),
    );
    expect(after.totp[0]!.sealed.split('.')[1]).toBe(kid(KEY_LABELS.totpSecrets, NEW_JWT));
    expect(after.servers.map((s) => s.sealed)).not.toContain(before.servers[0]!.sealed);

    const again = await resealAll(createDb(t.sql), config, { batch: 2 });
    expect(again.map((c) => c.resealed)).toEqual([0, 0, 0]);
    expect(await stored()).toEqual(after);
  });

  it('opens every value with the new keys alone, and no longer with the old ones', async () => {
    const config = rotated();
    const now = await stored();
    for (const { id, sealed } of now.servers) {
      expect(openIn(config, SEALED.vpsPassword, id, sealed)).toBe(passwords.get(id));
      expect(() => openIn(t.config, SEALED.vpsPassword, id, sealed)).toThrow(
        /neither the current key/,
      );
    }
    for (const { id, sealed } of now.subscriptions)
      expect(openIn(config, SEALED.monitoringKey, id, sealed)).toBe(keys.get(id));
    for (const { id, sealed } of now.totp)
      expect(openTotpSecret(secondFactorSettings(config), id, sealed)).toBe(totpSecrets.get(id));

    // the product started with them shows the password and the key
    const app = buildApp(config);
    try {
      const { token } = await createAccessTokens(NEW_JWT, 600, () => new Date()).sign(
        owner.id,
        owner.sessionId,
      );
      const [server, password] = [...passwords][0]!;
      const shown = await app.inject({
        method: 'POST',
        url: CREDENTIALS(server),
        headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().password).toBe(password);
    } finally {
      await app.close();
    }
  });

  it('runs as npm run admin -- reseal: counts, a value no key opens named, exit 1 until it is gone', async () => {
    const env = (secrets: Record<string, string>) => ({
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: t.config.databaseUrl,
      DATA_DIR: t.config.dataDir,
      LOG_LEVEL: 'silent',
      ...secrets,
    });
    const run = (secrets: Record<string, string>) =>
      promisify(execFile)(process.execPath, [ADMIN_CLI, 'reseal'], { env: env(secrets) }).then(
        (done) => ({ code: 0, ...done }),
        (failed: { code: number; stdout: string; stderr: string }) => failed,
      );
    const broken = [...passwords.keys()][1]!;
    await t.sql.query("update vps_servers set password_enc = 'not sealed' where id = $1", [broken]);
    // the next rotation: the new keys become the previous ones
    const next = {
      JWT_SECRET: `${NEW_JWT}-2`,
      JWT_SECRET_PREVIOUS: NEW_JWT,
      VPS_SECRET_KEY: `${NEW_VPS}-2`,
      VPS_SECRET_KEY_PREVIOUS: NEW_VPS,
    };
    const first = await run(next);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toContain(
      'vps_servers.password_enc: 6 sealed, 5 resealed, 0 already under the current key, 1 unopenable',
    );
    expect(first.stdout).toContain('monitoring_subscriptions.key_sealed: 1 sealed, 1 resealed');
    expect(first.stdout).toContain('user_totp.secret: 1 sealed, 1 resealed');
    expect(first.stderr).toContain(`vps_servers.password_enc ${broken}: not a sealed secret`);
    expect(first.stderr).toContain('keep the previous key set');

    await t.sql.query('update vps_servers set password_enc = null where id = $1', [broken]);
    const second = await run(next);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      'vps_servers.password_enc: 5 sealed, 0 resealed, 5 already under the current key, 0 unopenable',
    );
  }, 60_000);
});

describe('the access tokens of a JWT_SECRET rotation', () => {
  const during = useTestApp({ env: { JWT_SECRET: NEW_JWT, JWT_SECRET_PREVIOUS: OLD_JWT } });
  const after = useTestApp({ env: { JWT_SECRET: NEW_JWT } });
  const tokenOf = async (secret: string, who: Who) =>
    (await createAccessTokens(secret, 600, () => new Date()).sign(who.id)).token;

  it('accepts a token of the previous secret during the rotation, and refuses it after', async () => {
    const one = await quickUser(during);
    expect((await during.api.get(ME, { token: await tokenOf(OLD_JWT, one) })).status).toBe(200);
    expect((await during.api.get(ME, { token: await tokenOf(NEW_JWT, one) })).status).toBe(200);
    // what the product signs during the rotation is of the new secret
    const header = JSON.parse(Buffer.from(one.token.split('.')[0]!, 'base64url').toString());
    expect(header.kid).toBe(namedKey(NEW_JWT, KEY_LABELS.accessTokens).id);

    const two = await quickUser(after);
    const old = await after.api.get(ME, { token: await tokenOf(OLD_JWT, two) });
    expect(old).toMatchObject({ status: 401, body: refusal('UNAUTHORIZED') });
    expect((await after.api.get(ME, { token: await tokenOf(NEW_JWT, two) })).status).toBe(200);
  });

  it('refuses a token whose kid names no key, though signed with the current one', async () => {
    const who = await quickUser(after);
    const at = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'nokey000' })
      .setSubject(String(who.id))
      .setIssuer('tradehost')
      .setAudience('tradehost-console')
      .setIssuedAt(at)
      .setExpirationTime(at + 600)
      .sign(deriveKey(NEW_JWT, KEY_LABELS.accessTokens));
    expect((await after.api.get(ME, { token })).status).toBe(401);
  });
});
