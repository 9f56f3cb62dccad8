import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What a token must say besides a good signature. */
export interface Hs256Expectations {
  issuer: string;
  audience: string;
  /** Seconds since the epoch: the token must expire after it (and not start after it). */
  now: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The key a token's header names in its `kid` (undefined: no `kid`); undefined for none. */
export type Hs256KeyLookup = (kid: string | undefined) => Buffer | KeyObject | undefined;

/**
 * Checks a compact HS256 JWT synchronously and gives its claims, or null when anything is wrong:
 * not three base64url parts, another algorithm (`none` included) or a critical header, a `kid`
 * that names no key of `key` (when it is a lookup), a signature that is not exactly the key's
 * HMAC-SHA256 of the first two parts (compared in constant time), a claim set that is not a JSON
 * object, the wrong issuer or audience, no `exp`, an `exp` not after `now`, or an `nbf` after it.
 *
 * Every authenticated call checks a token, and Web Crypto's `subtle.verify` (what jose uses)
 * hands each HMAC to the thread pool and back through a promise: most of the token check's cost
 * for a 200-byte HMAC that takes a couple of microseconds here. Signing stays with jose.
 */
export function verifyHs256(
  token: string,
  key: Buffer | KeyObject | Hs256KeyLookup,
  expect: Hs256Expectations,
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const head = decodeJson(header);
  if (head?.alg !== 'HS256' || 'crit' in head) return null;
  const kid = head.kid;
  if (kid !== undefined && typeof kid !== 'string') return null;
  const signingKey = typeof key === 'function' ? key(kid) : key;
  if (!signingKey) return null;
  const expected = createHmac('sha256', signingKey)
    .update(`${header}.${payload}`)
    .digest('base64url');
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
    return null;

  const claims = decodeJson(payload);
  if (!claims || claims.iss !== expect.issuer) return null;
  const audience = claims.aud;
  if (
    audience !== expect.audience &&
    !(Array.isArray(audience) && audience.includes(expect.audience))
  )
    return null;
  if (typeof claims.exp !== 'number' || claims.exp <= expect.now) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > expect.now))
    return null;
  return claims;
}
