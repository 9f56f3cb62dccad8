import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { verifyHs256 } from '../../lib/jwt-hs256.ts';
import { KEY_LABELS, namedKey } from '../../lib/keys.ts';

const ISSUER = 'tradehost';
const AUDIENCE = 'tradehost-console';

/** Who an access token speaks for. */
export interface AccessClaims {
  userId: number;
  /** The sign-in (refresh-token family) it was issued to, in its `sid` claim; null without one. */
  sessionId: string | null;
}

export interface AccessTokens {
  /** A signed HS256 JWT for `userId` (of the sign-in `sessionId`) and the moment it expires. */
  sign(userId: number, sessionId?: string): Promise<{ token: string; expires: Date }>;
  /** Its claims, or null for a missing, forged, malformed or expired token. */
  verify(token: string): Promise<AccessClaims | null>;
}

/** Verified tokens remembered at most (about 400 bytes each); all are forgotten when full. */
const VERIFIED_MAX = 10_000;

/**
 * The tokens of JWT_SECRET (`secret`): signed HS256 under its key (lib/keys.ts, KEY_LABELS
 * .accessTokens), whose id is the header's `kid`. During a rotation, `previousSecret`
 * (JWT_SECRET_PREVIOUS) verifies the tokens it signed until they expire; a `kid` of neither is
 * refused. A token without `kid` is of the release before key ids, signed with the raw bytes of
 * the secret: accepted under those of the current one, so the consoles signed in across the
 * upgrade keep working until their next refresh (ACCESS_TOKEN_TTL); the next release refuses it.
 */
export function createAccessTokens(
  secret: string,
  ttlSeconds: number,
  now: () => Date,
  previousSecret?: string,
): AccessTokens {
  const current = namedKey(secret, KEY_LABELS.accessTokens);
  const previous =
    previousSecret === undefined ? undefined : namedKey(previousSecret, KEY_LABELS.accessTokens);
  // checked synchronously (lib/jwt-hs256.ts); for jose's signing, imported once: given the raw
  // bytes, jose imports a key for every token it signs
  const verifyKeys = new Map<string, KeyObject>([[current.id, createSecretKey(current.key)]]);
  if (previous) verifyKeys.set(previous.id, createSecretKey(previous.key));
  const legacyKey = createSecretKey(Buffer.from(secret));
  const keyOf = (kid: string | undefined) => (kid === undefined ? legacyKey : verifyKeys.get(kid));
  // tokens whose signature and claims passed, with the times that bound them (only good ones:
  // a forged or malformed token is checked in full every time)
  const verified = new Map<
    string,
    { claims: AccessClaims; exp: number; nbf: number | undefined }
  >();
  const key = crypto.subtle.importKey(
    'raw',
    new Uint8Array(current.key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return {
    async sign(userId, sessionId) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      // the sign-in lets the profile tell "this device" and keep it when others are signed out
      const token = await new SignJWT(sessionId ? { sid: sessionId } : {})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: current.id })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(await key);
      return { token, expires: new Date(expiresAt * 1000) };
    },
    async verify(token) {
      const at = Math.floor(now().getTime() / 1000);
      // a token checked before needs no HMAC or JSON again, only its times against the clock
      const known = verified.get(token);
      if (known) {
        if (known.exp > at && (known.nbf === undefined || known.nbf <= at)) return known.claims;
        verified.delete(token);
      }
      const payload = verifyHs256(token, keyOf, { issuer: ISSUER, audience: AUDIENCE, now: at });
      const userId = Number(payload?.sub);
      if (!payload || !Number.isSafeInteger(userId) || userId <= 0) return null;
      const claims = { userId, sessionId: typeof payload.sid === 'string' ? payload.sid : null };
      if (verified.size >= VERIFIED_MAX) verified.clear();
      verified.set(token, {
        claims,
        exp: payload.exp as number,
        nbf: typeof payload.nbf === 'number' ? payload.nbf : undefined,
      });
      return claims;
    },
  };
}
