import type { WithdrawalMethodId } from '@tradehost/contracts';
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  CRYPTO_CONFIRMATIONS_FORMS,
  CRYPTO_EXPLORER_FORMS,
  EXPLORER_TIMEOUT_MS,
  parseConfirmations,
  parseCryptoExplorer,
  type ExplorerSettings,
} from './integrations/explorers/settings.ts';
import type { ProxmoxSettings } from './integrations/hypervisor/proxmox.ts';
import type { S3StorageOptions } from './integrations/storage/s3.ts';
import { sealingKeys, type SealingKeys } from './lib/crypto-box.ts';
import { deriveSecret, KEY_LABELS } from './lib/keys.ts';
import { estimatedSecretBits, SECRET_BITS_MIN } from './lib/secret-strength.ts';

/** The API's settings, read once from the environment at start-up. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  /** HOST; unset: every interface in production, this machine's loopback only otherwise. */
  host: string;
  /** The console's address as users reach it, without a trailing slash; used in e-mail links. */
  publicUrl: string;
  dataDir: string;
  /** Unset: an embedded PostgreSQL is started in `${dataDir}/postgres`. */
  databaseUrl: string | undefined;
  /**
   * The owner's connection, for the migrations (DATABASE_MIGRATION_URL); unset, DATABASE_URL's
   * role migrates too (see db/roles.ts).
   */
  databaseMigrationUrl: string | undefined;
  embeddedPgPort: number;
  /** Unset (development only): mail goes to the development mailbox at /api/dev/mailbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS: during a rotation, verifies the tokens it signed (never signs). */
  jwtSecretPrevious: string | undefined;
  /** Seconds. */
  accessTokenTtl: number;
  /** Seconds: a sign-in ends this long after it began, however busy (SESSION_MAX_AGE). */
  sessionMaxAge: number;
  /** Seconds: a sign-in unused this long ends (SESSION_IDLE_LIMIT). */
  sessionIdleLimit: number;
  /** Seconds: the same for an operator's sign-in (OPERATOR_SESSION_IDLE_LIMIT). */
  operatorSessionIdleLimit: number;
  /**
   * Cents: an operator's balance adjustment or partner payout above this waits for a second
   * operator's approval (OPERATOR_APPROVAL_ABOVE, dollars).
   */
  operatorApprovalAboveCents: number;
  /** Cents: the most an operator may adjust in 24 hours, credits and debits alike (OPERATOR_DAILY_ADJUST_MAX, dollars). */
  operatorDailyAdjustMaxCents: number;
  /** Cents: a transfer above this needs a fresh proof of the owner (STEP_UP_TRANSFER_ABOVE, dollars). */
  stepUpTransferAboveCents: number;
  webDist: string;
  rateLimitAuthMax: number;
  rateLimitUserMax: number;
  /**
   * The check of new passwords against breaches (PASSWORD_BREACH_CHECK=hibp): the Pwned Passwords
   * range API at `url` (PWNED_PASSWORDS_URL); undefined (off, the default) otherwise. The list of
   * the 100,000 most common passwords is always checked (offline).
   */
  passwordBreachCheck: { url: string } | undefined;
  /** Per minute, per activation key, per ingestion route. */
  ingestRateLimitMax: number;
  /** Whom Fastify believes about X-Forwarded-For (TRUST_PROXY, see `parseTrustProxy`). */
  trustProxy: TrustProxy;
  /**
   * Outside production: the development mailbox and the sandbox gateway answer other machines
   * too (DEV_ROUTES_PUBLIC); by default only clients on this machine.
   */
  devRoutesPublic: boolean;
  /** The OpenAPI document and its UI at /api/docs: always outside production, there with DOCS_PUBLIC. */
  docsServed: boolean;
  payments: PaymentsConfig;
  vps: VpsConfig;
  monitoring: {
    /** Seal the subscriptions' activation keys (of the VPS secret key and its previous one). */
    activationKeys: SealingKeys;
    /** Keys the daily salt the public pages' views are counted by (of the VPS secret key). */
    viewsKey: string;
    /** Days an ended subscription's accounts and data are kept before a job deletes them. */
    retentionDays: number;
  };
  partner: PartnerConfig;
  /** The chat-bot; undefined (the feature is off) without TELEGRAM_BOT_TOKEN. */
  telegram: TelegramConfig | undefined;
  /** The bucket of uploaded files; undefined (the local disk, DATA_DIR/files) without S3_BUCKET. */
  s3: S3StorageOptions | undefined;
  /** Shared rate limits and publish/subscribe; undefined (both in this process) without REDIS_URL. */
  redis: RedisConfig | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export interface PartnerConfig {
  /** Days a reward stays pending before it reaches the partner balance (PARTNER_HOLD_DAYS). */
  holdDays: number;
  /** Keys the hash a referral click is counted by (derived from the JWT secret). */
  visitorKey: string;
  /** The withdrawal methods offered, in order, each with its minimum (PARTNER_WITHDRAWAL_METHODS). */
  withdrawalMethods: Array<{ id: WithdrawalMethodId; minimumCents: number }>;
}

export interface TelegramConfig {
  /** The bot of account notifications, and of monitoring too unless it has its own. */
  botToken: string;
  /** The optional second bot, for monitoring's alerts and reports (TELEGRAM_MON_BOT_TOKEN). */
  monitoringBotToken: string | undefined;
  /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token (derived from JWT_SECRET unless set). */
  webhookSecret: string;
  /** The Bot API server, without a trailing slash (an emulator in tests and development). */
  apiRoot: string;
}

export interface RedisConfig {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` (TLS). */
  url: string;
  /** Starts every key and channel name, so installations (or test runs) can share a Redis. */
  prefix: string;
}

export type GatewayId = 'sandbox' | 'payeer';
export const GATEWAY_IDS = ['sandbox', 'payeer'] as const;

export interface PaymentsConfig {
  /** The card/e-wallet gateways switched on, in order of preference. */
  drivers: GatewayId[];
  /** Where gateways send their notifications: `${notifyBaseUrl}/api/payments/webhook/<driver>`. */
  notifyBaseUrl: string;
  /** The minimum top-up of each method, in cents. */
  minimumCents: Record<'card' | 'ewallet' | 'crypto' | 'balance', number>;
  /**
   * Hours after which a card/e-wallet payment still Processing (no notification came) becomes
   * Not paid (modules/balance/balance.jobs.ts); a late successful notification still credits it.
   */
  expireAfterHours: number;
  /** The provider's wallet of each crypto network: [network id, display name, address]. */
  cryptoWallets: { id: string; name: string; address: string }[];
  /** The chain explorers that check crypto payments (CRYPTO_EXPLORER; none: operators do). */
  explorers: ExplorerSettings;
  sandbox: {
    /** HMAC key of the sandbox gateway's signatures (derived from JWT_SECRET unless set). */
    secret: string;
    /** How long the sandbox waits before it sends its notification. */
    delayMs: number;
  };
  payeer:
    | {
        shopId: string;
        secretKey: string;
        merchantUrl: string;
        /** Notifications are accepted from these addresses only (empty: from any). */
        allowedIps: string[];
      }
    | undefined;
}

export type HypervisorDriver = 'simulated' | 'proxmox';

export interface VpsConfig {
  /** Which hypervisor runs the servers (HYPERVISOR_DRIVER). */
  hypervisor: HypervisorDriver;
  /** How long the simulated hypervisor takes for a slow call (create, start, shutdown, ...). */
  simDelayMs: { min: number; max: number };
  /** The Proxmox VE node and where its machines' RDP ports are reached; set with the driver. */
  proxmox: (ProxmoxSettings & { rdpHost: string; rdpPortBase: number }) | undefined;
  /** Days a Blocked server keeps its machine before it is Revoked. */
  graceDays: number;
  /** Days an approved test server runs. */
  trialDays: number;
  /** Snapshots a server may keep (VPS_SNAPSHOTS_MAX). */
  snapshotsMax: number;
  /** Minutes after which a queued or running operation counts as stuck. */
  stuckMinutes: number;
  /**
   * VPS_SECRET_KEY, or outside production one derived from JWT_SECRET: what the keys of the
   * servers' passwords and of the monitoring keys derive from (lib/keys.ts).
   */
  secretKey: string;
  /** Seal and open the servers' passwords (lib/crypto-box.ts); VPS_SECRET_KEY_PREVIOUS's open. */
  passwordKeys: SealingKeys;
  /** The Windows account the login details name. */
  rdpUsername: string;
  /** Whether this process runs the operation workers and the lifecycle schedule (pg-boss). */
  jobs: boolean;
}

export const VPS_SECRET_MIN = 32;

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: `false` (X-Forwarded-For is ignored), a number
 * of proxies in front of the API (the client is the address the farthest of them saw), or the
 * proxies' addresses and networks (the client is the first address, from the right, that is not
 * one of them). `true` believes the whole header, which the client itself writes: refused in
 * production.
 */
export type TrustProxy = boolean | number | string[];

/** What proxy-addr names besides addresses and CIDRs. */
const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_HOPS_MAX = 10;

/** TRUST_PROXY's text as a `TrustProxy`; undefined when it is none of the forms. */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= TRUST_PROXY_HOPS_MAX ? hops : undefined;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

/** An address, a CIDR network (10.0.0.0/8, fd00::/8) or one of proxy-addr's names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

const TRUST_PROXY_FORMS =
  'false, the number of proxies in front of the API (1 behind one nginx), or their addresses and networks, such as 10.0.0.5,10.0.1.0/24';
export const HYPERVISOR_DRIVERS = ['simulated', 'proxmox'] as const;
/** The simulated hypervisor's default: a slow call takes 1-2 minutes, like a real one. */
export const DEFAULT_SIM_DELAY_MS = { min: 60_000, max: 120_000 };

/** Payeer's documented notification addresses. */
export const PAYEER_IPS = ['185.71.65.92', '185.71.65.189', '149.202.17.210'];

/**
 * Development defaults: addresses of the documentation examples, never a real wallet. Production
 * has no crypto method until CRYPTO_WALLETS names the provider's own wallets.
 */
export const EXAMPLE_CRYPTO_WALLETS =
  'USDT-TRC20=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE,BTC=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const CRYPTO_NAMES: Record<string, string> = {
  'USDT-TRC20': 'USDT (TRC-20)',
  'USDT-ERC20': 'USDT (ERC-20)',
  'USDT-BEP20': 'USDT (BEP-20)',
  BTC: 'Bitcoin',
  ETH: 'Ethereum',
  LTC: 'Litecoin',
  TRX: 'TRON',
};

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
/** "123456789:AAH...": the bot's id, a colon, its secret. */
const TELEGRAM_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
const positiveInt = z.coerce.number().int().positive();
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** `redis://` or `rediss://` (TLS), with a host: what ioredis takes. */
function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(8080),
    HOST: z.string().min(1).optional(),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_MIGRATION_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    EMBEDDED_PG_PORT: port.default(54_329),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default('TradeHost <no-reply@localhost>'),
    JWT_SECRET: z.string().min(JWT_SECRET_MIN).optional(),
    JWT_SECRET_PREVIOUS: z.string().min(JWT_SECRET_MIN).optional(),
    ACCESS_TOKEN_TTL: positiveInt.default(900),
    SESSION_MAX_AGE: positiveInt.default(30 * 24 * 3600),
    SESSION_IDLE_LIMIT: positiveInt.default(14 * 24 * 3600),
    OPERATOR_SESSION_IDLE_LIMIT: positiveInt.default(12 * 3600),
    OPERATOR_APPROVAL_ABOVE: z.coerce.number().min(0).max(1_000_000).default(500),
    OPERATOR_DAILY_ADJUST_MAX: z.coerce.number().min(0).max(100_000_000).default(5_000),
    STEP_UP_TRANSFER_ABOVE: z.coerce.number().min(0).max(1_000_000).default(500),
    WEB_DIST: z.string().min(1).optional(),
    RATE_LIMIT_AUTH_MAX: positiveInt.default(10),
    RATE_LIMIT_USER_MAX: positiveInt.default(120),
    PASSWORD_BREACH_CHECK: z.enum(['off', 'hibp'], { error: 'one of off, hibp' }).default('off'),
    PWNED_PASSWORDS_URL: z.url({ protocol: /^https?$/ }).default('https://api.pwnedpasswords.com'),
    INGEST_RATE_LIMIT_MAX: positiveInt.default(600),
    MONITORING_RETENTION_DAYS: positiveInt.default(90),
    PARTNER_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
    PARTNER_WITHDRAWAL_METHODS: z
      .string()
      .regex(
        /^(USDT-TRC20|BTC|PAYEER)=\d+(\.\d{1,2})?(,(USDT-TRC20|BTC|PAYEER)=\d+(\.\d{1,2})?)*$/,
        'a comma list such as USDT-TRC20=20,BTC=50,PAYEER=10 (methods and their minimums in dollars)',
      )
      .default('USDT-TRC20=20,BTC=50,PAYEER=10'),
    TRUST_PROXY: z
      .string()
      .refine((value) => parseTrustProxy(value) !== undefined, TRUST_PROXY_FORMS)
      .optional(),
    DEV_ROUTES_PUBLIC: flag.default(false),
    DOCS_PUBLIC: flag.default(false),
    PAYMENT_DRIVERS: z
      .string()
      .regex(/^(sandbox|payeer)(,(sandbox|payeer))*$/, 'a comma list of sandbox, payeer')
      .optional(),
    PAYMENT_NOTIFY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    TOPUP_MINIMUMS: z
      .string()
      .regex(
        /^(card|ewallet|crypto|balance)=\d+(\.\d{1,2})?(,(card|ewallet|crypto|balance)=\d+(\.\d{1,2})?)*$/,
        'a comma list such as card=10,ewallet=5,crypto=20,balance=1 (dollars)',
      )
      .optional(),
    CRYPTO_WALLETS: z
      .string()
      .regex(
        /^[A-Z0-9]{2,10}(-[A-Z0-9]{2,10})?=[A-Za-z0-9:_-]{16,128}(,[A-Z0-9]{2,10}(-[A-Z0-9]{2,10})?=[A-Za-z0-9:_-]{16,128})*$/,
        'a comma list of NETWORK=address, such as USDT-TRC20=T...',
      )
      .optional(),
    CRYPTO_EXPLORER: z
      .string()
      .refine((value) => parseCryptoExplorer(value) !== null, CRYPTO_EXPLORER_FORMS)
      .optional(),
    CRYPTO_CONFIRMATIONS: z
      .string()
      .refine((value) => parseConfirmations(value) !== null, CRYPTO_CONFIRMATIONS_FORMS)
      .optional(),
    TRONGRID_API_KEY: z
      .string()
      .regex(/^[A-Za-z0-9-]{8,64}$/, 'a TronGrid API key')
      .optional(),
    PAYMENT_EXPIRE_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    SANDBOX_GATEWAY_SECRET: z.string().min(JWT_SECRET_MIN).optional(),
    SANDBOX_GATEWAY_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1500),
    PAYEER_SHOP_ID: z.string().regex(/^\d+$/, 'the shop id, digits').optional(),
    PAYEER_SECRET_KEY: z.string().min(8).optional(),
    PAYEER_MERCHANT_URL: z.url({ protocol: /^https?$/ }).default('https://payeer.com/merchant/'),
    PAYEER_ALLOWED_IPS: z.string().optional(),
    HYPERVISOR_DRIVER: z
      .enum(HYPERVISOR_DRIVERS, { error: 'one of simulated, proxmox' })
      .optional(),
    HYPERVISOR_SIM_DELAY_MS: z
      .string()
      .regex(/^\d{1,7}(-\d{1,7})?$/, 'milliseconds, one number or a range such as 60000-120000')
      .refine((value) => {
        const [min, max = min] = value.split('-').map(Number) as [number, number?];
        return !(min > max); // NaN: the regex has said it
      }, 'the range must not end before it starts')
      .optional(),
    PROXMOX_URL: z.url({ protocol: /^https?$/ }).optional(),
    PROXMOX_TOKEN_ID: z
      .string()
      .regex(/^[^@!=\s]+@[^@!=\s]+![^@!=\s]+$/, 'USER@REALM!TOKENID, as Proxmox names API tokens')
      .optional(),
    PROXMOX_TOKEN_SECRET: z.string().min(8).optional(),
    PROXMOX_NODE: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, 'the node name')
      .optional(),
    PROXMOX_DISK: z
      .string()
      .regex(/^(scsi|virtio|sata|ide)\d+$/, 'a disk such as scsi0')
      .optional(),
    PROXMOX_RDP_HOST: z
      .string()
      .regex(/^[A-Za-z0-9.:-]+$/, 'a host name or address')
      .optional(),
    PROXMOX_RDP_PORT_BASE: z.coerce.number().int().min(1).max(65_000).optional(),
    VPS_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    VPS_TRIAL_DAYS: z.coerce.number().int().min(1).max(90).default(3),
    VPS_SNAPSHOTS_MAX: z.coerce.number().int().min(0).max(20).default(2),
    VPS_STUCK_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
    VPS_SECRET_KEY: z.string().min(VPS_SECRET_MIN).optional(),
    VPS_SECRET_KEY_PREVIOUS: z.string().min(VPS_SECRET_MIN).optional(),
    VPS_RDP_USERNAME: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,20}$/, 'a Windows user name (letters, digits, . _ -)')
      .default('Administrator'),
    JOBS_ENABLED: flag.default(true),
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(TELEGRAM_TOKEN, 'a bot token as @BotFather gives it (digits:letters)')
      .optional(),
    TELEGRAM_MON_BOT_TOKEN: z
      .string()
      .regex(TELEGRAM_TOKEN, 'a bot token as @BotFather gives it (digits:letters)')
      .optional(),
    TELEGRAM_WEBHOOK_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,256}$/, '16 to 256 letters, digits, _ or - (what Telegram allows)')
      .optional(),
    TELEGRAM_API_ROOT: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    // no defaults here: whether a setting was given is what says S3_BUCKET is missing
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'a region name such as us-east-1')
      .optional(),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        '3 to 63 lower-case letters, digits, dots and hyphens (an S3 bucket name)',
      )
      .optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: flag.optional(),
    S3_PREFIX: z
      .string()
      .max(200)
      .regex(
        /^\/?[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/?$/,
        'slash-separated segments of letters, digits, _ and -, such as tradehost/files',
      )
      .optional(),
    REDIS_URL: z.string().refine(isRedisUrl, 'a redis:// or rediss:// URL with a host').optional(),
    REDIS_PREFIX: z
      .string()
      .max(64, 'at most 64 characters')
      .regex(
        /^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)*:?$/,
        'colon-separated words of letters, digits, _ . and -, such as th: or th:staging:',
      )
      .optional(),
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
    if (env.PAYMENT_DRIVERS?.split(',').includes('sandbox'))
      refuse('PAYMENT_DRIVERS', 'the sandbox gateway never runs in production');
    if (!env.HYPERVISOR_DRIVER)
      refuse(
        'HYPERVISOR_DRIVER',
        'is required in production (proxmox, or simulated to run without real servers)',
      );
    if (env.TELEGRAM_BOT_TOKEN && !env.TELEGRAM_WEBHOOK_SECRET)
      refuse('TELEGRAM_WEBHOOK_SECRET', 'is required in production when a bot token is set');
    if (!env.VPS_SECRET_KEY)
      refuse(
        'VPS_SECRET_KEY',
        `is required in production (at least ${VPS_SECRET_MIN} characters; it seals the servers' passwords)`,
      );
    if (!env.PUBLIC_URL)
      refuse(
        'PUBLIC_URL',
        "is required in production: the console's https:// address as users reach it (mail links, Secure cookies and HSTS follow it)",
      );
    else if (!env.PUBLIC_URL.startsWith('https:'))
      refuse('PUBLIC_URL', 'must be https:// in production (cookies and tokens travel over it)');
    if (parseCryptoExplorer(env.CRYPTO_EXPLORER)?.some(({ url }) => !url.startsWith('https:')))
      refuse('CRYPTO_EXPLORER', 'must name https:// explorers in production');
    if (env.PROXMOX_URL && !env.PROXMOX_URL.startsWith('https:'))
      refuse('PROXMOX_URL', 'must be https:// in production (it carries the API token)');
    if (env.TRUST_PROXY !== undefined && parseTrustProxy(env.TRUST_PROXY) === true)
      refuse(
        'TRUST_PROXY',
        `true lets any client choose its own address with X-Forwarded-For; set ${TRUST_PROXY_FORMS}`,
      );
    for (const problem of secretProblems(env)) refuse(problem.name, problem.message);
  })
  .superRefine((env, ctx) => {
    if (env.TELEGRAM_MON_BOT_TOKEN && !env.TELEGRAM_BOT_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['TELEGRAM_MON_BOT_TOKEN'],
        message: 'needs TELEGRAM_BOT_TOKEN (the account bot) too',
      });
    if (env.TELEGRAM_MON_BOT_TOKEN && env.TELEGRAM_MON_BOT_TOKEN === env.TELEGRAM_BOT_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['TELEGRAM_MON_BOT_TOKEN'],
        message: 'must be another bot than TELEGRAM_BOT_TOKEN (leave it unset to use one bot)',
      });
  })
  .superRefine((env, ctx) => {
    const drivers = env.PAYMENT_DRIVERS?.split(',') ?? [];
    if (drivers.includes('payeer') && (!env.PAYEER_SHOP_ID || !env.PAYEER_SECRET_KEY))
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_DRIVERS'],
        message: 'payeer needs PAYEER_SHOP_ID and PAYEER_SECRET_KEY',
      });
  })
  .superRefine((env, ctx) => {
    const settings = [
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
    ] as const;
    if (!env.S3_BUCKET) {
      // files would silently go to the local disk of this instance alone
      const given = settings.filter((name) => env[name] !== undefined);
      if (given.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: ['S3_BUCKET'],
          message: `is required with ${given.join(', ')} (unset all S3_* to keep files on the local disk)`,
        });
      return;
    }
    const needed = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
    const missing = needed.filter((name) => env[name] === undefined);
    if (missing.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: `needs ${missing.join(', ')}`,
      });
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_MIGRATION_URL && !env.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_MIGRATION_URL'],
        message:
          "needs DATABASE_URL (the application's role); the embedded PostgreSQL makes both roles itself",
      });
  })
  .superRefine((env, ctx) => {
    // a prefix alone would mean nothing: limits and updates stay in this process without REDIS_URL
    if (env.REDIS_PREFIX !== undefined && !env.REDIS_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message: 'is required with REDIS_PREFIX (unset REDIS_PREFIX to run without Redis)',
      });
  })
  .superRefine((env, ctx) => {
    if (env.HYPERVISOR_DRIVER !== 'proxmox') return;
    const needed = [
      'PROXMOX_URL',
      'PROXMOX_TOKEN_ID',
      'PROXMOX_TOKEN_SECRET',
      'PROXMOX_NODE',
      'PROXMOX_RDP_HOST',
      'PROXMOX_RDP_PORT_BASE',
    ] as const;
    const missing = needed.filter((name) => env[name] === undefined);
    if (missing.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['HYPERVISOR_DRIVER'],
        message: `proxmox needs ${missing.join(', ')}`,
      });
  });

/**
 * The secrets of the settings, in the order a reuse is reported (the later one is named). A
 * previous secret (a rotation's, see README "Rotating secrets") must differ from every other
 * too: the rotation is over once the current one alone is left.
 */
const SECRET_SETTINGS = [
  'JWT_SECRET',
  'JWT_SECRET_PREVIOUS',
  'VPS_SECRET_KEY',
  'VPS_SECRET_KEY_PREVIOUS',
  'TELEGRAM_WEBHOOK_SECRET',
  'SANDBOX_GATEWAY_SECRET',
  'PAYEER_SECRET_KEY',
  'PROXMOX_TOKEN_SECRET',
  'S3_SECRET_ACCESS_KEY',
] as const;
/**
 * The secrets we choose (the others come from a provider, as the provider makes them); a
 * previous one is not judged: a guessable secret is what a rotation takes away.
 */
const CHOSEN_SECRETS = new Set<string>(['JWT_SECRET', 'VPS_SECRET_KEY', 'TELEGRAM_WEBHOOK_SECRET']);

/**
 * Production's rules for secrets: each purpose its own (a leak of one must not open the others),
 * and ours hard to guess (`estimatedSecretBits`).
 */
function secretProblems(
  env: Partial<Record<(typeof SECRET_SETTINGS)[number], string>>,
): { name: string; message: string }[] {
  const problems: { name: string; message: string }[] = [];
  const seen = new Map<string, string>();
  for (const name of SECRET_SETTINGS) {
    const value = env[name];
    if (value === undefined) continue;
    const first = seen.get(value);
    if (first)
      problems.push({
        name,
        message: `is the same as ${first}: each purpose needs its own secret (openssl rand -hex 32)`,
      });
    else seen.set(value, name);
    const bits = estimatedSecretBits(value);
    if (CHOSEN_SECRETS.has(name) && bits < SECRET_BITS_MIN)
      problems.push({
        name,
        message: `looks guessable (about ${Math.floor(bits)} bits of the ${SECRET_BITS_MIN} needed): generate one with openssl rand -hex 32`,
      });
  }
  return problems;
}

/** Proxmox: how often a task is read, and how long one call may take before it is a timeout. */
const PROXMOX_POLL_MS = 2000;
const PROXMOX_TIMEOUT_MS = 10 * 60_000;

/** The VPS secret key and the one before it (see `vpsSecrets`). */
interface VpsSecrets {
  current: string;
  /** During a rotation. */
  previous: string | undefined;
  /** What v1 sealed values were sealed under the sha256 of (lib/crypto-box.ts), current first. */
  legacy: string[];
}

/**
 * VPS_SECRET_KEY and VPS_SECRET_KEY_PREVIOUS, or outside production (without VPS_SECRET_KEY)
 * derived from JWT_SECRET and JWT_SECRET_PREVIOUS, so a development rotation of the JWT secret
 * turns these too. v1 (before key ids) took the setting, or the old HMAC of JWT_SECRET.
 */
function vpsSecrets(
  e: z.infer<typeof envSchema>,
  jwtSecret: string,
  jwtSecretPrevious: string | undefined,
): VpsSecrets {
  const of = (derive: (jwt: string) => string) => ({
    current: e.VPS_SECRET_KEY ?? derive(jwtSecret),
    previous:
      e.VPS_SECRET_KEY_PREVIOUS ??
      (e.VPS_SECRET_KEY === undefined && jwtSecretPrevious !== undefined
        ? derive(jwtSecretPrevious)
        : undefined),
  });
  const v1 = of((jwt) =>
    createHmac('sha256', jwt).update('tradehost vps secrets').digest('base64url'),
  );
  return {
    ...of((jwt) => deriveSecret(jwt, KEY_LABELS.vpsSecret)),
    legacy: [v1.current, v1.previous].filter((secret) => secret !== undefined),
  };
}

function vpsConfig(e: z.infer<typeof envSchema>, secrets: VpsSecrets): VpsConfig {
  let simDelayMs = DEFAULT_SIM_DELAY_MS;
  if (e.HYPERVISOR_SIM_DELAY_MS) {
    const [min, max = min] = e.HYPERVISOR_SIM_DELAY_MS.split('-').map(Number) as [number, number?];
    simDelayMs = { min, max };
  }
  const proxmox =
    e.HYPERVISOR_DRIVER === 'proxmox'
      ? {
          baseUrl: e.PROXMOX_URL!.replace(/\/+$/, ''),
          tokenId: e.PROXMOX_TOKEN_ID!,
          tokenSecret: e.PROXMOX_TOKEN_SECRET!,
          node: e.PROXMOX_NODE!,
          pollIntervalMs: PROXMOX_POLL_MS,
          timeoutMs: PROXMOX_TIMEOUT_MS,
          ...(e.PROXMOX_DISK ? { disk: e.PROXMOX_DISK } : {}),
          rdpHost: e.PROXMOX_RDP_HOST!,
          rdpPortBase: e.PROXMOX_RDP_PORT_BASE!,
        }
      : undefined;
  return {
    hypervisor: e.HYPERVISOR_DRIVER ?? 'simulated',
    simDelayMs,
    proxmox,
    graceDays: e.VPS_GRACE_DAYS,
    trialDays: e.VPS_TRIAL_DAYS,
    snapshotsMax: e.VPS_SNAPSHOTS_MAX,
    stuckMinutes: e.VPS_STUCK_MINUTES,
    secretKey: secrets.current,
    passwordKeys: sealingKeys(
      KEY_LABELS.vpsPasswords,
      secrets.current,
      secrets.previous,
      secrets.legacy,
    ),
    rdpUsername: e.VPS_RDP_USERNAME,
    jobs: e.JOBS_ENABLED,
  };
}

function telegramConfig(
  e: z.infer<typeof envSchema>,
  jwtSecret: string,
): TelegramConfig | undefined {
  if (!e.TELEGRAM_BOT_TOKEN) return undefined;
  return {
    botToken: e.TELEGRAM_BOT_TOKEN,
    monitoringBotToken: e.TELEGRAM_MON_BOT_TOKEN,
    webhookSecret: e.TELEGRAM_WEBHOOK_SECRET ?? deriveSecret(jwtSecret, KEY_LABELS.telegramWebhook),
    apiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
  };
}

function s3Config(e: z.infer<typeof envSchema>): S3StorageOptions | undefined {
  if (!e.S3_BUCKET) return undefined;
  const prefix = e.S3_PREFIX?.replace(/^\/+|\/+$/g, '');
  return {
    endpoint: e.S3_ENDPOINT!.replace(/\/+$/, ''),
    region: e.S3_REGION ?? 'us-east-1',
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? true,
    ...(prefix ? { prefix } : {}),
  };
}

/** The prefix of every key and channel when REDIS_PREFIX is unset. */
export const DEFAULT_REDIS_PREFIX = 'th:';

function redisConfig(e: z.infer<typeof envSchema>): RedisConfig | undefined {
  if (!e.REDIS_URL) return undefined;
  const prefix = e.REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX;
  return { url: e.REDIS_URL, prefix: prefix.endsWith(':') ? prefix : `${prefix}:` };
}

function paymentsConfig(
  e: z.infer<typeof envSchema>,
  publicUrl: string,
  jwtSecret: string,
): PaymentsConfig {
  const drivers = [
    ...new Set(
      (e.PAYMENT_DRIVERS ?? (e.NODE_ENV === 'production' ? '' : 'sandbox'))
        .split(',')
        .filter(Boolean) as GatewayId[],
    ),
  ];
  const minimumCents = { card: 1000, ewallet: 500, crypto: 2000, balance: 100 };
  for (const pair of e.TOPUP_MINIMUMS?.split(',') ?? []) {
    const [method, dollars] = pair.split('=') as [keyof typeof minimumCents, string];
    minimumCents[method] = Math.round(Number(dollars) * 100);
  }
  const wallets = e.CRYPTO_WALLETS ?? (e.NODE_ENV === 'production' ? '' : EXAMPLE_CRYPTO_WALLETS);
  const cryptoWallets = wallets
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const [id, address] = pair.split('=') as [string, string];
      return { id, name: CRYPTO_NAMES[id] ?? id, address };
    });
  return {
    drivers,
    notifyBaseUrl: (e.PAYMENT_NOTIFY_BASE_URL ?? publicUrl).replace(/\/+$/, ''),
    minimumCents,
    expireAfterHours: e.PAYMENT_EXPIRE_HOURS,
    cryptoWallets,
    explorers: {
      drivers: parseCryptoExplorer(e.CRYPTO_EXPLORER) ?? [],
      tronGridApiKey: e.TRONGRID_API_KEY,
      confirmations: parseConfirmations(e.CRYPTO_CONFIRMATIONS)!,
      timeoutMs: EXPLORER_TIMEOUT_MS,
    },
    sandbox: {
      secret: e.SANDBOX_GATEWAY_SECRET ?? deriveSecret(jwtSecret, KEY_LABELS.sandboxGateway),
      delayMs: e.SANDBOX_GATEWAY_DELAY_MS,
    },
    payeer:
      e.PAYEER_SHOP_ID && e.PAYEER_SECRET_KEY
        ? {
            shopId: e.PAYEER_SHOP_ID,
            secretKey: e.PAYEER_SECRET_KEY,
            merchantUrl: e.PAYEER_MERCHANT_URL,
            allowedIps:
              e.PAYEER_ALLOWED_IPS === undefined
                ? PAYEER_IPS
                : e.PAYEER_ALLOWED_IPS.split(',')
                    .map((ip) => ip.trim())
                    .filter(Boolean),
          }
        : undefined,
  };
}

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
  const jwtSecret = e.JWT_SECRET ?? readOrCreateSecret(join(dataDir, 'jwt-secret'));
  const vpsKeys = vpsSecrets(e, jwtSecret, e.JWT_SECRET_PREVIOUS);
  const vps = vpsConfig(e, vpsKeys);
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : 'localhost'),
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseMigrationUrl: e.DATABASE_MIGRATION_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret,
    jwtSecretPrevious: e.JWT_SECRET_PREVIOUS,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    sessionMaxAge: e.SESSION_MAX_AGE,
    sessionIdleLimit: Math.min(e.SESSION_IDLE_LIMIT, e.SESSION_MAX_AGE),
    operatorSessionIdleLimit: Math.min(e.OPERATOR_SESSION_IDLE_LIMIT, e.SESSION_MAX_AGE),
    operatorApprovalAboveCents: Math.round(e.OPERATOR_APPROVAL_ABOVE * 100),
    operatorDailyAdjustMaxCents: Math.round(e.OPERATOR_DAILY_ADJUST_MAX * 100),
    stepUpTransferAboveCents: Math.round(e.STEP_UP_TRANSFER_ABOVE * 100),
    webDist: e.WEB_DIST ? resolve(cwd, e.WEB_DIST) : DEFAULT_WEB_DIST,
    rateLimitAuthMax: e.RATE_LIMIT_AUTH_MAX,
    rateLimitUserMax: e.RATE_LIMIT_USER_MAX,
    passwordBreachCheck:
      e.PASSWORD_BREACH_CHECK === 'hibp' ? { url: e.PWNED_PASSWORDS_URL } : undefined,
    ingestRateLimitMax: e.INGEST_RATE_LIMIT_MAX,
    trustProxy: e.TRUST_PROXY === undefined ? false : parseTrustProxy(e.TRUST_PROXY)!,
    devRoutesPublic: e.DEV_ROUTES_PUBLIC,
    docsServed: e.NODE_ENV !== 'production' || e.DOCS_PUBLIC,
    payments: paymentsConfig(e, publicUrl, jwtSecret),
    vps,
    monitoring: {
      activationKeys: sealingKeys(
        KEY_LABELS.monitoringKeys,
        vpsKeys.current,
        vpsKeys.previous,
        // v1 sealed them under an HMAC of the VPS secret key
        vpsKeys.legacy.map((secret) =>
          createHmac('sha256', secret).update('tradehost monitoring keys').digest('base64url'),
        ),
      ),
      viewsKey: deriveSecret(vpsKeys.current, KEY_LABELS.monitoringViews),
      retentionDays: e.MONITORING_RETENTION_DAYS,
    },
    partner: {
      holdDays: e.PARTNER_HOLD_DAYS,
      visitorKey: deriveSecret(jwtSecret, KEY_LABELS.referralVisitors),
      withdrawalMethods: [
        ...new Map(
          e.PARTNER_WITHDRAWAL_METHODS.split(',').map((pair) => {
            const [id, dollars] = pair.split('=') as [WithdrawalMethodId, string];
            return [id, { id, minimumCents: Math.round(Number(dollars) * 100) }] as const;
          }),
        ).values(),
      ],
    },
    telegram: telegramConfig(e, jwtSecret),
    s3: s3Config(e),
    redis: redisConfig(e),
    logLevel: e.LOG_LEVEL,
  };
}

/** HOST values that keep the server to this machine. */
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/;

/**
 * The loud line a development server prints when it listens beyond this machine (HOST set to an
 * interface others reach): everything in it is meant for its developer alone, and what
 * DEV_ROUTES_PUBLIC opens is said by name. Undefined in production or on the loopback.
 */
export function developmentExposure(config: Config): string | undefined {
  if (config.isProduction || LOOPBACK_HOSTS.test(config.host)) return undefined;
  const opened = config.devRoutesPublic
    ? 'DEV_ROUTES_PUBLIC=true: the development mailbox (every sign-up and reset code) and the sandbox gateway (anyone can "pay") answer them too'
    : 'the development mailbox and the sandbox gateway still answer this machine only (DEV_ROUTES_PUBLIC)';
  return (
    `!!! NOT FOR PRODUCTION: a ${config.nodeEnv} server listening on ${config.host}:${config.port}, ` +
    `so other machines reach it; ${opened}. Set NODE_ENV=production for a real installation, ` +
    'or unset HOST to stay on this machine.'
  );
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
