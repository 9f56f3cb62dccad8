import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The API's settings, read once from the environment at start-up. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  /** The console's address as users reach it, without a trailing slash; used in e-mail links. */
  publicUrl: string;
  dataDir: string;
  /** Unset: an embedded PostgreSQL is started in `${dataDir}/postgres`. */
  databaseUrl: string | undefined;
  embeddedPgPort: number;
  /** Unset (development only): mail goes to the development mailbox at /api/dev/mailbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string;
  /** Seconds. */
  accessTokenTtl: number;
  /** Seconds. */
  refreshTokenTtl: number;
  webDist: string;
  rateLimitAuthMax: number;
  rateLimitUserMax: number;
  trustProxy: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export const JWT_SECRET_MIN = 32;
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().positive();
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    EMBEDDED_PG_PORT: port.default(54_329),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default('TradeHost <no-reply@localhost>'),
    JWT_SECRET: z.string().min(JWT_SECRET_MIN).optional(),
    ACCESS_TOKEN_TTL: positiveInt.default(900),
    REFRESH_TOKEN_TTL: positiveInt.default(30 * 24 * 3600),
    WEB_DIST: z.string().min(1).optional(),
    RATE_LIMIT_AUTH_MAX: positiveInt.default(10),
    RATE_LIMIT_USER_MAX: positiveInt.default(120),
    TRUST_PROXY: flag.default(false),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    const refuse = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if (!env.JWT_SECRET)
      refuse('JWT_SECRET', `is required in production (at least ${JWT_SECRET_MIN} characters)`);
    if (!env.SMTP_URL)
      refuse('SMTP_URL', 'is required in production (the development mailbox never runs there)');
    if (!env.DATABASE_URL)
      refuse(
        'DATABASE_URL',
        'is required in production (the embedded PostgreSQL is for development)',
      );
  });

type Env = Record<string, string | undefined>;

/**
 * Parses the environment and fails fast with every problem at once. In
 * development a missing JWT_SECRET is generated once into DATA_DIR/jwt-secret.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  // an empty variable (as docker-compose and .env files like to write them) means unset
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const dataDir = resolve(cwd, e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET ?? readOrCreateSecret(join(dataDir, 'jwt-secret')),
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    webDist: e.WEB_DIST ? resolve(cwd, e.WEB_DIST) : DEFAULT_WEB_DIST,
    rateLimitAuthMax: e.RATE_LIMIT_AUTH_MAX,
    rateLimitUserMax: e.RATE_LIMIT_USER_MAX,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
  };
}

/** A random secret kept in `file` (mode 0600), created on first use. */
export function readOrCreateSecret(file: string, minLength = JWT_SECRET_MIN): string {
  let existing: string | undefined;
  try {
    existing = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing !== undefined) {
    if (existing.length < minLength) {
      throw new ConfigError([
        `${file}: the stored secret is shorter than ${minLength} characters; delete the file`,
      ]);
    }
    return existing;
  }
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
