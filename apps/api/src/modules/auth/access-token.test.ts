import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { KEY_LABELS, namedKey } from '../../lib/keys.ts';
import { createAccessTokens } from './access-token.ts';

const OLD = 'the secret before the rotation, 32+ characters';
const NEW = 'the secret after the rotation, also 32+ chars';
const at = new Date('2030-01-01T00:00:00Z');
const clock = () => at;

const headerOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

/** A token as the release before key ids signed it: no kid, the secret's raw bytes. */
const legacyToken = (secret: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('5')
    .setIssuer('tradehost')
    .setAudience('tradehost-console')
    .setIssuedAt(Math.floor(at.getTime() / 1000))
    .setExpirationTime(Math.floor(at.getTime() / 1000) + 60)
    .sign(Buffer.from(secret));

describe('access tokens', () => {
  it('names the key in kid and signs with the key derived for them, never the secret itself', async () => {
    const { token } = await createAccessTokens(NEW, 60, clock).sign(5, 'sid-1');
    const kid = namedKey(NEW, KEY_LABELS.accessTokens).id;
    expect(headerOf(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid });
    expect(await createAccessTokens(NEW, 60, clock).verify(token)).toEqual({
      userId: 5,
      sessionId: 'sid-1',
    });
    // the same claims signed with the raw secret under the same kid are refused
    const forged = await new SignJWT({ sid: 'sid-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
      .setSubject('5')
      .setIssuer('tradehost')
      .setAudience('tradehost-console')
      .setExpirationTime(Math.floor(at.getTime() / 1000) + 60)
      .sign(Buffer.from(NEW));
    expect(await createAccessTokens(NEW, 60, clock).verify(forged)).toBeNull();
  });

  it('verifies the previous secret’s tokens during a rotation, and signs with the current one', async () => {
    const { token: old } = await createAccessTokens(OLD, 60, clock).sign(5);
    const rotating = createAccessTokens(NEW, 60, clock, OLD);
    expect(await rotating.verify(old)).toEqual({ userId: 5, sessionId: null });
    const { token: fresh } = await rotating.sign(6);
    expect(headerOf(fresh).kid).toBe(namedKey(NEW, KEY_LABELS.accessTokens).id);
    // once the previous secret is gone, its tokens are refused; the current ones still pass
    const rotated = createAccessTokens(NEW, 60, clock);
    expect(await rotated.verify(old)).toBeNull();
    expect(await rotated.verify(fresh)).toEqual({ userId: 6, sessionId: null });
  });

  it('refuses a kid that names no key of its own', async () => {
    const { token } = await createAccessTokens(OLD, 60, clock).sign(5);
    const [, payload, signature] = token.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'unknown0' }));
    const renamed = `${header.toString('base64url')}.${payload}.${signature}`;
    expect(await createAccessTokens(OLD, 60, clock).verify(renamed)).toBeNull();
    expect(await createAccessTokens(NEW, 60, clock).verify(token)).toBeNull();
  });

  it('accepts a token of the release before key ids under the current secret only', async () => {
    expect(await createAccessTokens(NEW, 60, clock).verify(await legacyToken(NEW))).toEqual({
      userId: 5,
      sessionId: null,
    });
    expect(await createAccessTokens(NEW, 60, clock, OLD).verify(await legacyToken(OLD))).toBeNull();
  });
});
