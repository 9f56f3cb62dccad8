import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, developmentExposure, loadConfig } from './config.ts';
import { open, seal } from './lib/crypto-box.ts';
import { deriveSecret, KEY_LABELS } from './lib/keys.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'th-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SECRET = 's'.repeat(32);
/** Secrets of the production fixture: made up, of the kind `openssl rand` gives (160 bits by the estimate). */
const STRONG_JWT_SECRET = 'Zq3vT8xK1mW6rB0nY4hF7jL2cP9sD5gA';
const STRONG_VPS_SECRET = 'h7Gk2NwQ9rXc4Vb8Mz1Lp6Td3Sy0Fj5E';
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: STRONG_JWT_SECRET,
  SMTP_URL: 'smtp://mail.example.com:587',
  DATABASE_URL: 'postgres://app:pw@db.example.com:5432/tradehost',
  PUBLIC_URL: 'https://console.example.com',
  HYPERVISOR_DRIVER: 'proxmox',
  PROXMOX_URL: 'https://pve.example.com:8006/api2/json/',
  PROXMOX_TOKEN_ID: 'tradehost@pve!console',
  PROXMOX_TOKEN_SECRET: '0b6a1e2c-3d4f-4a5b-8c9d-0e1f2a3b4c5d',
  PROXMOX_NODE: 'pve1',
  PROXMOX_RDP_HOST: 'rdp.example.com',
  PROXMOX_RDP_PORT_BASE: '40000',
  VPS_SECRET_KEY: STRONG_VPS_SECRET,
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, tempDir());
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has working development defaults', () => {
    const cwd = tempDir();
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      isProduction: false,
      port: 8080,
      host: 'localhost',
      publicUrl: 'http://localhost:8080',
      dataDir: join(cwd, 'data'),
      databaseUrl: undefined,
      embeddedPgPort: 54329,
      smtpUrl: undefined,
      mailFrom: 'TradeHost <no-reply@localhost>',
      accessTokenTtl: 900,
      sessionMaxAge: 2_592_000,
      sessionIdleLimit: 1_209_600,
      operatorSessionIdleLimit: 43_200,
      stepUpTransferAboveCents: 50_000,
      rateLimitAuthMax: 10,
      rateLimitUserMax: 120,
      trustProxy: false,
      devRoutesPublic: false,
      docsServed: true,
      logLevel: 'info',
    });
    expect(config.webDist).toMatch(/apps[\\/]web[\\/]dist$/);
  });

  it('derives PUBLIC_URL from PORT and drops a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '9000' }, tempDir()).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://x.example.com/' }, tempDir()).publicUrl).toBe(
      'https://x.example.com',
    );
  });

  it('generates the development JWT secret once into DATA_DIR/jwt-secret with mode 0600', () => {
    const cwd = tempDir();
    const first = loadConfig({ DATA_DIR: 'state' }, cwd).jwtSecret;
    const file = join(cwd, 'state', 'jwt-secret');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: 'state' }, cwd).jwtSecret).toBe(first);
  });

  it('refuses a stored secret that is too short', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'jwt-secret'), 'short');
    expect(() => loadConfig({ DATA_DIR: '.' }, cwd)).toThrow(/shorter than 32/);
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ SMTP_URL: '', DATABASE_URL: '', PORT: '' }, tempDir());
    expect(config.smtpUrl).toBeUndefined();
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(8080);
  });

  it('parses numbers and flags', () => {
    const config = loadConfig(
      {
        PORT: '3000',
        ACCESS_TOKEN_TTL: '60',
        RATE_LIMIT_AUTH_MAX: '5',
        TRUST_PROXY: '1',
        LOG_LEVEL: 'debug',
      },
      tempDir(),
    );
    expect(config).toMatchObject({
      port: 3000,
      accessTokenTtl: 60,
      rateLimitAuthMax: 5,
      trustProxy: 1,
      logLevel: 'debug',
    });
  });

  it('fails fast on invalid values, naming each variable', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      SMTP_URL: 'http://mail',
      RATE_LIMIT_AUTH_MAX: '0',
      JWT_SECRET: 'short',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual(
      expect.arrayContaining(['PORT', 'SMTP_URL', 'RATE_LIMIT_AUTH_MAX', 'JWT_SECRET']),
    );
  });

  it('accepts a complete production environment', () => {
    const config = loadConfig(PRODUCTION, tempDir());
    expect(config).toMatchObject({
      isProduction: true,
      host: '0.0.0.0',
      jwtSecret: STRONG_JWT_SECRET,
      publicUrl: 'https://console.example.com',
      docsServed: false,
    });
  });

  it.each([
    ['JWT_SECRET', /JWT_SECRET: is required in production/],
    ['SMTP_URL', /SMTP_URL: is required in production/],
    ['DATABASE_URL', /DATABASE_URL: is required in production/],
    ['HYPERVISOR_DRIVER', /HYPERVISOR_DRIVER: is required in production/],
    ['VPS_SECRET_KEY', /VPS_SECRET_KEY: is required in production/],
    ['PUBLIC_URL', /PUBLIC_URL: is required in production: the console's https:\/\/ address/],
  ])('refuses production without %s', (variable, message) => {
    const env: Record<string, string> = { ...PRODUCTION };
    delete env[variable];
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('never generates a JWT secret in production', () => {
    const cwd = tempDir();
    const { JWT_SECRET: _omit, ...env } = PRODUCTION;
    expect(() => loadConfig({ ...env, DATA_DIR: '.' }, cwd)).toThrow(ConfigError);
    expect(() => statSync(join(cwd, 'jwt-secret'))).toThrow();
  });

  it('lists every production refusal at once', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toHaveLength(6);
  });

  it.each([
    [{ PUBLIC_URL: 'http://console.example.com' }, 'PUBLIC_URL: must be https:// in production'],
    [{ PROXMOX_URL: 'http://pve.example.com:8006/api2/json' }, 'PROXMOX_URL: must be https://'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY: true lets any client choose its own address'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY: true lets any client choose its own address'],
    [{ VPS_SECRET_KEY: STRONG_JWT_SECRET }, 'VPS_SECRET_KEY: is the same as JWT_SECRET'],
    [
      { TELEGRAM_BOT_TOKEN: '1:a', TELEGRAM_WEBHOOK_SECRET: STRONG_VPS_SECRET },
      'TELEGRAM_WEBHOOK_SECRET: is the same as VPS_SECRET_KEY',
    ],
    [{ PAYEER_SECRET_KEY: STRONG_JWT_SECRET }, 'PAYEER_SECRET_KEY: is the same as JWT_SECRET'],
    [{ JWT_SECRET: SECRET }, 'JWT_SECRET: looks guessable (about 0 bits of the 128 needed)'],
    [{ VPS_SECRET_KEY: 'our-vps-secret-key-for-production' }, 'VPS_SECRET_KEY: looks guessable'],
    [{ JWT_SECRET_PREVIOUS: STRONG_JWT_SECRET }, 'JWT_SECRET_PREVIOUS: is the same as JWT_SECRET'],
    [
      { VPS_SECRET_KEY_PREVIOUS: STRONG_VPS_SECRET },
      'VPS_SECRET_KEY_PREVIOUS: is the same as VPS_SECRET_KEY',
    ],
    [
      { VPS_SECRET_KEY_PREVIOUS: STRONG_JWT_SECRET },
      'VPS_SECRET_KEY_PREVIOUS: is the same as JWT_SECRET',
    ],
    [
      { JWT_SECRET_PREVIOUS: STRONG_VPS_SECRET },
      'VPS_SECRET_KEY: is the same as JWT_SECRET_PREVIOUS',
    ],
  ])('refuses in production %o', (change, message) => {
    const problems = problemsOf({ ...PRODUCTION, ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
    // and says what to set instead
    expect(problems[0]).toMatch(/https:\/\/|set |openssl rand|its own secret/);
  });

  it('accepts a proxy setting that names the proxies, and serves the docs when told', () => {
    const config = loadConfig(
      {
        ...PRODUCTION,
        TRUST_PROXY: '10.0.0.5, 10.0.1.0/24',
        DOCS_PUBLIC: 'true',
        HOST: '10.0.0.9',
      },
      tempDir(),
    );
    expect(config).toMatchObject({
      trustProxy: ['10.0.0.5', '10.0.1.0/24'],
      docsServed: true,
      host: '10.0.0.9',
    });
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.5,10.0.1.0/24', ['10.0.0.5', '10.0.1.0/24']],
    [' 127.0.0.1 , fd00::/8 , uniquelocal ', ['127.0.0.1', 'fd00::/8', 'uniquelocal']],
  ])('reads %s outside production', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }, tempDir()).trustProxy).toEqual(expected);
  });

  it.each([
    '11',
    '-1',
    '1.5',
    'proxy.example.com',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0.1/8/2',
    ',',
  ])('refuses %s, saying what it takes', (value) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([
      'TRUST_PROXY: false, the number of proxies in front of the API (1 behind one nginx), or their addresses and networks, such as 10.0.0.5,10.0.1.0/24',
    ]);
  });
});

describe('loadConfig: payments', () => {
  it('expires Processing payments after 24 hours unless PAYMENT_EXPIRE_HOURS says otherwise', () => {
    expect(loadConfig({}, tempDir()).payments.expireAfterHours).toBe(24);
    expect(loadConfig({ PAYMENT_EXPIRE_HOURS: '1' }, tempDir()).payments.expireAfterHours).toBe(1);
    expect(loadConfig({ PAYMENT_EXPIRE_HOURS: '720' }, tempDir()).payments.expireAfterHours).toBe(
      720,
    );
    expect(loadConfig({ PAYMENT_EXPIRE_HOURS: '' }, tempDir()).payments.expireAfterHours).toBe(24);
  });

  it.each(['0', '721', '-5', '1.5', 'a day'])('refuses PAYMENT_EXPIRE_HOURS=%s', (value) => {
    const problems = problemsOf({ PAYMENT_EXPIRE_HOURS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PAYMENT_EXPIRE_HOURS: /);
  });
});

describe('loadConfig: VPS', () => {
  it('keeps VPS_SNAPSHOTS_MAX snapshots a server (0 turns them off), and refuses what is not 0-20', () => {
    expect(
      loadConfig({ JWT_SECRET: SECRET, VPS_SNAPSHOTS_MAX: '0' }, tempDir()).vps.snapshotsMax,
    ).toBe(0);
    expect(
      loadConfig({ JWT_SECRET: SECRET, VPS_SNAPSHOTS_MAX: '20' }, tempDir()).vps.snapshotsMax,
    ).toBe(20);
    for (const value of ['-1', '21', '1.5', 'two']) {
      const problems = problemsOf({ VPS_SNAPSHOTS_MAX: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^VPS_SNAPSHOTS_MAX: /);
    }
  });

  it('has development defaults: the simulated hypervisor at 1-2 minutes, jobs on', () => {
    const config = loadConfig({ JWT_SECRET: SECRET }, tempDir());
    expect(config.vps).toEqual({
      hypervisor: 'simulated',
      simDelayMs: { min: 60_000, max: 120_000 },
      proxmox: undefined,
      graceDays: 7,
      trialDays: 3,
      snapshotsMax: 2,
      stuckMinutes: 15,
      secretKey: expect.any(String),
      passwordKeys: expect.any(Object),
      rdpUsername: 'Administrator',
      jobs: true,
    });
  });

  it('derives the secret key from JWT_SECRET outside production, never equal to it', () => {
    const a = loadConfig({ JWT_SECRET: SECRET }, tempDir()).vps.secretKey;
    const b = loadConfig({ JWT_SECRET: SECRET }, tempDir()).vps.secretKey;
    const other = loadConfig({ JWT_SECRET: 't'.repeat(32) }, tempDir()).vps.secretKey;
    expect(a).toBe(b);
    expect(a).not.toBe(other);
    expect(a).not.toBe(SECRET);
    expect(a).toBe(deriveSecret(SECRET, KEY_LABELS.vpsSecret));
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ VPS_SECRET_KEY: 'k'.repeat(32) }, tempDir()).vps.secretKey).toBe(
      'k'.repeat(32),
    );
  });

  it('reads one delay or a range, and the numbers and the flag', () => {
    const one = loadConfig({ HYPERVISOR_SIM_DELAY_MS: '250' }, tempDir()).vps;
    expect(one.simDelayMs).toEqual({ min: 250, max: 250 });
    const config = loadConfig(
      {
        HYPERVISOR_SIM_DELAY_MS: '5-40',
        VPS_GRACE_DAYS: '0',
        VPS_TRIAL_DAYS: '5',
        VPS_STUCK_MINUTES: '30',
        VPS_RDP_USERNAME: 'trader',
        JOBS_ENABLED: 'false',
      },
      tempDir(),
    ).vps;
    expect(config).toMatchObject({
      simDelayMs: { min: 5, max: 40 },
      graceDays: 0,
      trialDays: 5,
      stuckMinutes: 30,
      rdpUsername: 'trader',
      jobs: false,
    });
  });

  it('refuses bad VPS values, naming each variable', () => {
    const problems = problemsOf({
      HYPERVISOR_DRIVER: 'vmware',
      HYPERVISOR_SIM_DELAY_MS: 'fast',
      VPS_GRACE_DAYS: '-1',
      VPS_TRIAL_DAYS: '0',
      VPS_STUCK_MINUTES: 'soon',
      VPS_SECRET_KEY: 'short',
      VPS_RDP_USERNAME: 'bad name!',
      JOBS_ENABLED: 'maybe',
      PROXMOX_TOKEN_ID: 'root',
      PROXMOX_RDP_PORT_BASE: '70000',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      [
        'HYPERVISOR_DRIVER',
        'HYPERVISOR_SIM_DELAY_MS',
        'JOBS_ENABLED',
        'PROXMOX_RDP_PORT_BASE',
        'PROXMOX_TOKEN_ID',
        'VPS_GRACE_DAYS',
        'VPS_RDP_USERNAME',
        'VPS_SECRET_KEY',
        'VPS_STUCK_MINUTES',
        'VPS_TRIAL_DAYS',
      ].sort(),
    );
    expect(problems.find((p) => p.startsWith('HYPERVISOR_DRIVER'))).toMatch(/simulated, proxmox/);
  });

  it('refuses a delay range that ends before it starts', () => {
    expect(problemsOf({ HYPERVISOR_SIM_DELAY_MS: '200-100' })).toEqual([
      'HYPERVISOR_SIM_DELAY_MS: the range must not end before it starts',
    ]);
  });

  it('reads the Proxmox settings with the driver', () => {
    const config = loadConfig(PRODUCTION, tempDir());
    expect(config.vps.hypervisor).toBe('proxmox');
    expect(config.vps.secretKey).toBe(STRONG_VPS_SECRET);
    expect(config.vps.proxmox).toMatchObject({
      baseUrl: 'https://pve.example.com:8006/api2/json',
      tokenId: 'tradehost@pve!console',
      tokenSecret: '0b6a1e2c-3d4f-4a5b-8c9d-0e1f2a3b4c5d',
      node: 'pve1',
      rdpHost: 'rdp.example.com',
      rdpPortBase: 40_000,
    });
    expect(config.vps.proxmox!.pollIntervalMs).toBeGreaterThan(0);
    expect(config.vps.proxmox!.timeoutMs).toBeGreaterThan(0);
  });

  it('refuses proxmox without its settings, listing the missing ones', () => {
    const { PROXMOX_NODE: _node, PROXMOX_RDP_PORT_BASE: _port, ...env } = PRODUCTION;
    expect(problemsOf(env)).toEqual([
      'HYPERVISOR_DRIVER: proxmox needs PROXMOX_NODE, PROXMOX_RDP_PORT_BASE',
    ]);
  });

  it('accepts the simulated hypervisor in production only when named', () => {
    const {
      PROXMOX_URL: _u,
      PROXMOX_TOKEN_ID: _i,
      PROXMOX_TOKEN_SECRET: _s,
      PROXMOX_NODE: _n,
      PROXMOX_RDP_HOST: _h,
      PROXMOX_RDP_PORT_BASE: _p,
      ...rest
    } = PRODUCTION;
    const config = loadConfig({ ...rest, HYPERVISOR_DRIVER: 'simulated' }, tempDir());
    expect(config.vps.hypervisor).toBe('simulated');
    expect(config.vps.proxmox).toBeUndefined();
  });
});

describe('the secrets of a rotation', () => {
  const OLD_JWT = 'Xr7Lm2Qa9Wd4Kc1Vn8Bt5Hy0Gs3Fj6Pe';
  const OLD_VPS = 'p4Tz8Rk1Ym6Wq3Nc9Vb2Lx7Hd0Sg5FjA';
  const place = { table: 'vps_servers', column: 'password_enc', id: 1 };

  it('has none by default', () => {
    const config = loadConfig(PRODUCTION, tempDir());
    expect(config.jwtSecretPrevious).toBeUndefined();
    expect(config.vps.passwordKeys.previous).toBeUndefined();
    expect(config.monitoring.activationKeys.previous).toBeUndefined();
  });

  it('opens with the previous VPS key what it sealed, while the current one seals', () => {
    const before = loadConfig({ ...PRODUCTION, VPS_SECRET_KEY: OLD_VPS }, tempDir());
    const during = loadConfig({ ...PRODUCTION, VPS_SECRET_KEY_PREVIOUS: OLD_VPS }, tempDir());
    const sealed = seal(before.vps.passwordKeys, place, 'password');
    expect(open(during.vps.passwordKeys, place, sealed)).toBe('password');
    expect(during.vps.passwordKeys.current).toEqual(
      loadConfig(PRODUCTION, tempDir()).vps.passwordKeys.current,
    );
    expect(during.vps.passwordKeys.previous).toEqual(before.vps.passwordKeys.current);
    expect(during.monitoring.activationKeys.previous).toEqual(
      before.monitoring.activationKeys.current,
    );
  });

  it('takes JWT_SECRET_PREVIOUS, and in development turns the keys derived from it too', () => {
    expect(
      loadConfig({ ...PRODUCTION, JWT_SECRET_PREVIOUS: OLD_JWT }, tempDir()).jwtSecretPrevious,
    ).toBe(OLD_JWT);
    const before = loadConfig({ JWT_SECRET: OLD_JWT }, tempDir());
    const during = loadConfig({ JWT_SECRET: SECRET, JWT_SECRET_PREVIOUS: OLD_JWT }, tempDir());
    expect(during.vps.passwordKeys.previous).toEqual(before.vps.passwordKeys.current);
    expect(during.vps.passwordKeys.current).toEqual(
      loadConfig({ JWT_SECRET: SECRET }, tempDir()).vps.passwordKeys.current,
    );
    // an explicit VPS_SECRET_KEY is not turned by the JWT secret's rotation
    const own = { VPS_SECRET_KEY: 'k'.repeat(32) };
    expect(
      loadConfig({ ...own, JWT_SECRET: SECRET, JWT_SECRET_PREVIOUS: OLD_JWT }, tempDir()).vps
        .passwordKeys.previous,
    ).toBeUndefined();
  });

  it('keeps the v1 keys: the setting, or outside production the HMAC of JWT_SECRET', () => {
    const legacy = (secret: string) => createHash('sha256').update(secret).digest();
    const vpsV1 = createHmac('sha256', SECRET).update('tradehost vps secrets').digest('base64url');
    expect(loadConfig({ JWT_SECRET: SECRET }, tempDir()).vps.passwordKeys.legacy).toEqual([
      legacy(vpsV1),
    ]);
    const production = loadConfig({ ...PRODUCTION, VPS_SECRET_KEY_PREVIOUS: OLD_VPS }, tempDir());
    expect(production.vps.passwordKeys.legacy).toEqual([
      legacy(STRONG_VPS_SECRET),
      legacy(OLD_VPS),
    ]);
    const monitoringV1 = createHmac('sha256', STRONG_VPS_SECRET)
      .update('tradehost monitoring keys')
      .digest('base64url');
    expect(production.monitoring.activationKeys.legacy[0]).toEqual(legacy(monitoringV1));
  });

  it('accepts a guessable previous secret in production: taking it away is the rotation', () => {
    const weak = 'our-old-vps-secret-key-for-production';
    expect(problemsOf({ ...PRODUCTION, VPS_SECRET_KEY_PREVIOUS: weak })).toEqual([]);
    expect(problemsOf({ ...PRODUCTION, JWT_SECRET_PREVIOUS: SECRET })).toEqual([]);
  });

  it('refuses previous secrets shorter than the current ones may be', () => {
    expect(problemsOf({ JWT_SECRET_PREVIOUS: 'short', VPS_SECRET_KEY_PREVIOUS: 'short' })).toEqual([
      'JWT_SECRET_PREVIOUS: Too small: expected string to have >=32 characters',
      'VPS_SECRET_KEY_PREVIOUS: Too small: expected string to have >=32 characters',
    ]);
  });

  it('derives each purpose with HKDF from its setting outside production', () => {
    const config = loadConfig({ JWT_SECRET: SECRET, TELEGRAM_BOT_TOKEN: '1:a' }, tempDir());
    expect(config.partner.visitorKey).toBe(deriveSecret(SECRET, KEY_LABELS.referralVisitors));
    expect(config.telegram!.webhookSecret).toBe(deriveSecret(SECRET, KEY_LABELS.telegramWebhook));
    expect(config.payments.sandbox.secret).toBe(deriveSecret(SECRET, KEY_LABELS.sandboxGateway));
    expect(config.monitoring.viewsKey).toBe(
      deriveSecret(config.vps.secretKey, KEY_LABELS.monitoringViews),
    );
    const values = [
      config.partner.visitorKey,
      config.telegram!.webhookSecret,
      config.payments.sandbox.secret,
      config.monitoring.viewsKey,
      config.vps.secretKey,
    ];
    expect(new Set(values).size).toBe(values.length);
    expect(values).not.toContain(SECRET);
  });
});

describe('the chat-bot settings', () => {
  it('is off without a token, and on with one (Telegram’s API root unless told)', () => {
    expect(loadConfig({}, tempDir()).telegram).toBeUndefined();
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: '123:abc', JWT_SECRET: SECRET }, tempDir());
    expect(config.telegram).toMatchObject({
      botToken: '123:abc',
      monitoringBotToken: undefined,
      apiRoot: 'https://api.telegram.org',
      webhookSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const emulated = loadConfig(
      { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/' },
      tempDir(),
    );
    expect(emulated.telegram!.apiRoot).toBe('http://127.0.0.1:8081');
  });

  it('refuses malformed tokens and secrets, a second bot alone or the same twice', () => {
    expect(problemsOf({ TELEGRAM_BOT_TOKEN: 'no-colon' })).toEqual([
      'TELEGRAM_BOT_TOKEN: a bot token as @BotFather gives it (digits:letters)',
    ]);
    expect(problemsOf({ TELEGRAM_BOT_TOKEN: '1:a', TELEGRAM_WEBHOOK_SECRET: 'short' })).toEqual([
      'TELEGRAM_WEBHOOK_SECRET: 16 to 256 letters, digits, _ or - (what Telegram allows)',
    ]);
    expect(problemsOf({ TELEGRAM_MON_BOT_TOKEN: '2:b' })).toEqual([
      'TELEGRAM_MON_BOT_TOKEN: needs TELEGRAM_BOT_TOKEN (the account bot) too',
    ]);
    expect(problemsOf({ TELEGRAM_BOT_TOKEN: '1:a', TELEGRAM_MON_BOT_TOKEN: '1:a' })).toEqual([
      'TELEGRAM_MON_BOT_TOKEN: must be another bot than TELEGRAM_BOT_TOKEN (leave it unset to use one bot)',
    ]);
  });

  it('requires the webhook secret in production when a token is set', () => {
    expect(problemsOf({ ...PRODUCTION, TELEGRAM_BOT_TOKEN: '1:a' })).toEqual([
      'TELEGRAM_WEBHOOK_SECRET: is required in production when a bot token is set',
    ]);
    const secret = 'Tg5Wk2Hq8Zr1Nc7Vx4Bm0Js6Pd3Fy9La';
    const config = loadConfig(
      { ...PRODUCTION, TELEGRAM_BOT_TOKEN: '1:a', TELEGRAM_WEBHOOK_SECRET: secret },
      tempDir(),
    );
    expect(config.telegram!.webhookSecret).toBe(secret);
  });
});

describe('the file storage settings', () => {
  const S3 = {
    S3_ENDPOINT: 'https://s3.example.com/',
    S3_BUCKET: 'tradehost-files',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example-key',
  };

  it('keeps files on the local disk without S3_BUCKET (empty counts as unset)', () => {
    expect(loadConfig({}, tempDir()).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: '', S3_PREFIX: '' }, tempDir()).s3).toBeUndefined();
  });

  it('reads the bucket with its defaults: us-east-1, path-style addressing, no prefix', () => {
    expect(loadConfig(S3, tempDir()).s3).toEqual({
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      bucket: 'tradehost-files',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret-example-key',
      forcePathStyle: true,
    });
  });

  it('reads the region, the addressing style and the prefix', () => {
    const config = loadConfig(
      {
        ...S3,
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'false',
        S3_PREFIX: '/tradehost/files/',
      },
      tempDir(),
    );
    expect(config.s3).toMatchObject({
      region: 'eu-central-1',
      forcePathStyle: false,
      prefix: 'tradehost/files',
    });
  });

  it('refuses S3_BUCKET without the endpoint or the keys, listing the missing ones', () => {
    expect(problemsOf({ S3_BUCKET: 'files' })).toEqual([
      'S3_BUCKET: needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    ]);
    const { S3_SECRET_ACCESS_KEY: _secret, ...env } = S3;
    expect(problemsOf(env)).toEqual(['S3_BUCKET: needs S3_SECRET_ACCESS_KEY']);
  });

  it('refuses S3 settings without S3_BUCKET rather than keep files on this disk alone', () => {
    const { S3_BUCKET: _bucket, ...env } = S3;
    expect(problemsOf({ ...env, S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      'S3_BUCKET: is required with S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE (unset all S3_* to keep files on the local disk)',
    ]);
    expect(problemsOf({ S3_PREFIX: 'tradehost' })).toHaveLength(1);
  });

  it('refuses bad S3 values, naming each variable', () => {
    const problems = problemsOf({
      ...S3,
      S3_ENDPOINT: 'ftp://s3.example.com',
      S3_BUCKET: 'My_Bucket',
      S3_REGION: 'EU West',
      S3_FORCE_PATH_STYLE: 'maybe',
      S3_PREFIX: '../files',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX', 'S3_REGION'].sort(),
    );
    expect(problems.find((p) => p.startsWith('S3_BUCKET'))).toMatch(/an S3 bucket name/);
    expect(problemsOf({ ...S3, S3_PREFIX: 'a//b' })).toEqual([
      'S3_PREFIX: slash-separated segments of letters, digits, _ and -, such as tradehost/files',
    ]);
  });

  it('takes a bucket in production, and keeps its other rules there', () => {
    expect(loadConfig({ ...PRODUCTION, ...S3 }, tempDir()).s3?.bucket).toBe('tradehost-files');
    expect(problemsOf({ ...PRODUCTION, S3_BUCKET: 'files' })).toEqual([
      'S3_BUCKET: needs S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    ]);
  });
});

describe('the Redis settings', () => {
  it('keeps rate limits and publish/subscribe in the process without REDIS_URL (empty counts as unset)', () => {
    expect(loadConfig({}, tempDir()).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '', REDIS_PREFIX: '' }, tempDir()).redis).toBeUndefined();
  });

  it('reads the URL, with the th: prefix unless told, ending every prefix with a colon', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }, tempDir()).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      prefix: 'th:',
    });
    const tls = 'rediss://:secret@redis.example.com:6380/2';
    expect(loadConfig({ REDIS_URL: tls, REDIS_PREFIX: 'th:staging' }, tempDir()).redis).toEqual({
      url: tls,
      prefix: 'th:staging:',
    });
    expect(
      loadConfig({ REDIS_URL: tls, REDIS_PREFIX: 'tradehost-2.a_b:' }, tempDir()).redis?.prefix,
    ).toBe('tradehost-2.a_b:');
  });

  it('refuses a URL that is not redis:// or rediss:// with a host, and a malformed prefix', () => {
    for (const url of [
      'http://redis.example.com',
      'redis://',
      'redis.example.com:6379',
      'nonsense',
    ])
      expect(problemsOf({ REDIS_URL: url }), url).toEqual([
        'REDIS_URL: a redis:// or rediss:// URL with a host',
      ]);
    for (const prefix of ['a b', 'th::x', ':th', '::', 'ключ', 'th/x'])
      expect(problemsOf({ REDIS_URL: 'redis://h', REDIS_PREFIX: prefix }), prefix).toEqual([
        'REDIS_PREFIX: colon-separated words of letters, digits, _ . and -, such as th: or th:staging:',
      ]);
    expect(problemsOf({ REDIS_URL: 'redis://h', REDIS_PREFIX: 'x'.repeat(65) })).toEqual([
      'REDIS_PREFIX: at most 64 characters',
    ]);
  });

  it('refuses REDIS_PREFIX without REDIS_URL rather than ignore it', () => {
    expect(problemsOf({ REDIS_PREFIX: 'th:' })).toEqual([
      'REDIS_URL: is required with REDIS_PREFIX (unset REDIS_PREFIX to run without Redis)',
    ]);
  });

  it('takes Redis in production, where it stays optional', () => {
    expect(loadConfig(PRODUCTION, tempDir()).redis).toBeUndefined();
    expect(
      loadConfig({ ...PRODUCTION, REDIS_URL: 'rediss://redis.example.com' }, tempDir()).redis,
    ).toEqual({ url: 'rediss://redis.example.com', prefix: 'th:' });
  });
});

describe('developmentExposure', () => {
  it('is silent on the loopback and in production, loud otherwise', () => {
    expect(developmentExposure(loadConfig({}, tempDir()))).toBeUndefined();
    expect(developmentExposure(loadConfig({ HOST: '127.0.0.1' }, tempDir()))).toBeUndefined();
    expect(developmentExposure(loadConfig({ HOST: '::1' }, tempDir()))).toBeUndefined();
    expect(developmentExposure(loadConfig(PRODUCTION, tempDir()))).toBeUndefined();
    const lan = developmentExposure(loadConfig({ HOST: '0.0.0.0' }, tempDir()));
    expect(lan).toMatch(
      /^!!! NOT FOR PRODUCTION: a development server listening on 0\.0\.0\.0:8080/,
    );
    expect(lan).toContain('still answer this machine only');
    const open = developmentExposure(
      loadConfig({ HOST: '0.0.0.0', DEV_ROUTES_PUBLIC: 'true' }, tempDir()),
    );
    expect(open).toContain('DEV_ROUTES_PUBLIC=true: the development mailbox');
  });
});
