import { createHash, hkdfSync } from 'node:crypto';

/**
 * The keys of the server, each of one purpose: HKDF-SHA256 (RFC 5869) of the setting it comes
 * from, with the purpose's label as HKDF's info, so one setting can feed several purposes and a
 * key of one (a leaked HMAC key, say) tells nothing of another. A label's version turns when its
 * derivation changes, never for a rotation (that is a new setting).
 */
export const KEY_LABELS = {
  /** Outside production without VPS_SECRET_KEY: the setting itself, from JWT_SECRET. */
  vpsSecret: 'tradehost/vps-secret-key/v1',
  /** Seals the servers' passwords (vps_servers.password_enc). */
  vpsPasswords: 'tradehost/vps-passwords/v1',
  /** Seals the monitoring subscriptions' activation keys (monitoring_subscriptions.key_sealed). */
  monitoringKeys: 'tradehost/monitoring-keys/v1',
  /** Keys the daily salt the public pages' views are counted by. */
  monitoringViews: 'tradehost/monitoring-views/v1',
  /** Seals the authenticator apps' TOTP secrets (user_totp.secret), of the JWT secret. */
  totpSecrets: 'tradehost/totp-secrets/v1',
  /** Signs the access tokens (HS256). */
  accessTokens: 'tradehost/access-tokens/v1',
  /** Keys the hash a referral click's visitor is counted by. */
  referralVisitors: 'tradehost/referral-visitors/v1',
  /** Outside production without TELEGRAM_WEBHOOK_SECRET: the webhook's secret token. */
  telegramWebhook: 'tradehost/telegram-webhook/v1',
  /** Outside production without SANDBOX_GATEWAY_SECRET: the sandbox gateway's HMAC key. */
  sandboxGateway: 'tradehost/sandbox-gateway/v1',
} as const;

const KEY_BYTES = 32;

/** The 256-bit key of `label`'s purpose, from the setting `secret`. */
export function deriveKey(secret: string, label: string): Buffer {
  if (!secret) throw new Error(`no secret to derive the key of ${label} from`);
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), label, KEY_BYTES));
}

/** The same as text (base64url, 43 characters), for what takes a string. */
export const deriveSecret = (secret: string, label: string): string =>
  deriveKey(secret, label).toString('base64url');

/**
 * A key's public name, written beside what it sealed or signed (8 base64url characters, 48 bits
 * of a hash of the key): picks the key to open or verify with, and tells nothing of the key.
 */
export const keyId = (key: Buffer): string =>
  createHash('sha256').update('tradehost/key-id\0').update(key).digest('base64url').slice(0, 8);

/** A key and its id. */
export interface NamedKey {
  id: string;
  key: Buffer;
}

/** `label`'s key of the setting `secret`, with its id. */
export function namedKey(secret: string, label: string): NamedKey {
  const key = deriveKey(secret, label);
  return { id: keyId(key), key };
}
