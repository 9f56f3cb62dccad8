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
  const key = new TextEncoder().encode(secret);
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
        .sign(key);
      return { token, expires: new Date(expiresAt * 1000) };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
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
