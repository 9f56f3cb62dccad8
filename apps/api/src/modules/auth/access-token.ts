import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'tradehost';
const AUDIENCE = 'tradehost-console';

export interface AccessTokens {
  /** A signed HS256 JWT for `userId` and the moment it expires. */
  sign(userId: number): Promise<{ token: string; expires: Date }>;
  /** The user id, or null for a missing, forged, malformed or expired token. */
  verify(token: string): Promise<number | null>;
}

export function createAccessTokens(
  secret: string,
  ttlSeconds: number,
  now: () => Date,
): AccessTokens {
  // imported once: given the raw bytes, jose imports a key for every token it signs or checks
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async sign(userId) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(await key);
      return { token, expires: new Date(expiresAt * 1000) };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: now(),
          requiredClaims: ['sub', 'exp'],
        });
        const id = Number(payload.sub);
        return Number.isSafeInteger(id) && id > 0 ? id : null;
      } catch {
        return null;
      }
    },
  };
}
