import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyHs256 } from './jwt-hs256.ts';

const key = Buffer.from('a secret of the tests, long enough for HS256 at 32+');
const now = 1_800_000_000;
const expect_ = { issuer: 'tradehost', audience: 'tradehost-console', now };
const claims = { sub: '7', iss: 'tradehost', aud: 'tradehost-console', iat: now, exp: now + 60 };

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token put together by hand, so each piece can be wrong on its own. */
function token(
  payload: unknown,
  { header = { alg: 'HS256', typ: 'JWT' } as unknown, signingKey = key, hash = 'sha256' } = {},
) {
  const signed = `${part(header)}.${part(payload)}`;
  return `${signed}.${createHmac(hash, signingKey).update(signed).digest('base64url')}`;
}

describe('verifyHs256', () => {
  it('gives the claims of a token jose signed with the key', async () => {
    const signed = await new SignJWT({ sid: 'abc' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('42')
      .setIssuer('tradehost')
      .setAudience('tradehost-console')
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(key);
    expect(verifyHs256(signed, key, expect_)).toMatchObject({ sub: '42', sid: 'abc' });
  });

  it('accepts an audience list that names the console', () => {
    const listed = token({ ...claims, aud: ['other', 'tradehost-console'] });
    expect(verifyHs256(listed, key, expect_)).toMatchObject({ sub: '7' });
  });

  it('refuses another key, a changed claim and a changed signature', () => {
    expect(
      verifyHs256(token(claims, { signingKey: Buffer.from('another key') }), key, expect_),
    ).toBeNull();
    const [header, , signature] = token(claims).split('.');
    expect(
      verifyHs256(`${header}.${part({ ...claims, sub: '1' })}.${signature}`, key, expect_),
    ).toBeNull();
    const good = token(claims);
    const flipped = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
    expect(verifyHs256(flipped, key, expect_)).toBeNull();
  });

  it('refuses alg none, another algorithm and a critical header', () => {
    expect(verifyHs256(`${part({ alg: 'none' })}.${part(claims)}.`, key, expect_)).toBeNull();
    const none = token(claims, { header: { alg: 'none' } });
    expect(verifyHs256(none, key, expect_)).toBeNull();
    const hs512 = token(claims, { header: { alg: 'HS512' }, hash: 'sha512' });
    expect(verifyHs256(hs512, key, expect_)).toBeNull();
    const crit = token(claims, { header: { alg: 'HS256', crit: ['exp'] } });
    expect(verifyHs256(crit, key, expect_)).toBeNull();
  });

  it('verifies with the key its kid names, and refuses a kid that names none', () => {
    const other: typeof key = Buffer.from('the key of the previous secret, also 32+ characters');
    const keys = new Map([
      ['now', key],
      ['old', other],
    ]);
    const lookup = (kid: string | undefined) => (kid === undefined ? undefined : keys.get(kid));
    const signed = (kid: unknown, signingKey: typeof key) =>
      token(claims, { header: { alg: 'HS256', kid }, signingKey });
    expect(verifyHs256(signed('now', key), lookup, expect_)).toMatchObject({ sub: '7' });
    expect(verifyHs256(signed('old', other), lookup, expect_)).toMatchObject({ sub: '7' });
    // a kid names its key: another key's signature under it is refused
    expect(verifyHs256(signed('now', other), lookup, expect_)).toBeNull();
    expect(verifyHs256(signed('gone', key), lookup, expect_)).toBeNull();
    expect(verifyHs256(signed(undefined, key), lookup, expect_)).toBeNull();
    expect(verifyHs256(signed(7, key), () => key, expect_)).toBeNull();
    expect(verifyHs256(signed(['now'], key), () => key, expect_)).toBeNull();
  });

  it('refuses an expired token (at its exp second too) and one not valid yet', () => {
    expect(verifyHs256(token({ ...claims, exp: now + 1 }), key, expect_)).not.toBeNull();
    expect(verifyHs256(token({ ...claims, exp: now }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, exp: undefined }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, exp: String(now + 60) }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, nbf: now + 5 }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, nbf: now }), key, expect_)).not.toBeNull();
  });

  it('refuses the wrong issuer or audience', () => {
    expect(verifyHs256(token({ ...claims, iss: 'someone' }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, aud: 'tradehost-admin' }), key, expect_)).toBeNull();
    expect(verifyHs256(token({ ...claims, aud: undefined }), key, expect_)).toBeNull();
  });

  it('refuses malformed tokens: parts, padding, characters, claims that are not an object', () => {
    const good = token(claims);
    for (const bad of [
      '',
      'a.b',
      `${good}.x`,
      `${good}=`,
      good.replace('.', '.+'),
      token([claims]),
      token('a string'),
      `${part({ alg: 'HS256' })}.bm90IGpzb24.${createHmac('sha256', key)
        .update(`${part({ alg: 'HS256' })}.bm90IGpzb24`)
        .digest('base64url')}`,
    ])
      expect(verifyHs256(bad, key, expect_), bad).toBeNull();
  });

  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (a, b, c) => {
        expect(verifyHs256(`${a}.${b}.${c}`, key, expect_)).toBeNull();
      }),
    );
  });
});
