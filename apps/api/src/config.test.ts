import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
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
  VPS_SECRET_KEY: 'v'.repeat(40),
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
      host: '0.0.0.0',
      publicUrl: 'http://localhost:8080',
      dataDir: join(cwd, 'data'),
      databaseUrl: undefined,
      embeddedPgPort: 54329,
      smtpUrl: undefined,
      mailFrom: 'TradeHost <no-reply@localhost>',
      accessTokenTtl: 900,
      refreshTokenTtl: 2_592_000,
      rateLimitAuthMax: 10,
      rateLimitUserMax: 120,
      trustProxy: false,
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
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'debug',
      },
      tempDir(),
    );
    expect(config).toMatchObject({
      port: 3000,
      accessTokenTtl: 60,
      rateLimitAuthMax: 5,
      trustProxy: true,
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
      jwtSecret: SECRET,
      publicUrl: 'https://console.example.com',
    });
  });

  it.each([
    ['JWT_SECRET', /JWT_SECRET: is required in production/],
    ['SMTP_URL', /SMTP_URL: is required in production/],
    ['DATABASE_URL', /DATABASE_URL: is required in production/],
    ['HYPERVISOR_DRIVER', /HYPERVISOR_DRIVER: is required in production/],
    ['VPS_SECRET_KEY', /VPS_SECRET_KEY: is required in production/],
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
    expect(problemsOf({ NODE_ENV: 'production' })).toHaveLength(5);
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
  it('has development defaults: the simulated hypervisor at 1-2 minutes, jobs on', () => {
    const config = loadConfig({ JWT_SECRET: SECRET }, tempDir());
    expect(config.vps).toEqual({
      hypervisor: 'simulated',
      simDelayMs: { min: 60_000, max: 120_000 },
      proxmox: undefined,
      graceDays: 7,
      trialDays: 3,
      stuckMinutes: 15,
      secretKey: expect.any(String),
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
    expect(config.vps.secretKey).toBe('v'.repeat(40));
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
