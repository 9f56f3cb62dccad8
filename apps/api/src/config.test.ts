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
    expect(problemsOf({ NODE_ENV: 'production' })).toHaveLength(3);
  });
});
