import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, deriveSecret, KEY_LABELS, keyId, namedKey } from './keys.ts';

const SECRET = 's'.repeat(32);

describe('keys', () => {
  it('derives HKDF-SHA256 of the setting with the label as its info (RFC 5869)', () => {
    const expected = Buffer.from(
      hkdfSync('sha256', SECRET, Buffer.alloc(0), KEY_LABELS.vpsPasswords, 32),
    );
    expect(deriveKey(SECRET, KEY_LABELS.vpsPasswords)).toEqual(expected);
    expect(deriveSecret(SECRET, KEY_LABELS.vpsPasswords)).toBe(expected.toString('base64url'));
  });

  it('gives every purpose its own key, none equal to the setting or to the old HMACs', () => {
    const derived = Object.values(KEY_LABELS).map((label) => deriveSecret(SECRET, label));
    expect(new Set(derived).size).toBe(Object.keys(KEY_LABELS).length);
    for (const value of derived) {
      expect(value).not.toBe(SECRET);
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    const oldVps = createHmac('sha256', SECRET).update('tradehost vps secrets').digest('base64url');
    expect(derived).not.toContain(oldVps);
  });

  it('gives another key for another setting, and the same for the same', () => {
    expect(deriveKey(SECRET, KEY_LABELS.accessTokens)).toEqual(
      deriveKey(SECRET, KEY_LABELS.accessTokens),
    );
    expect(deriveKey(SECRET, KEY_LABELS.accessTokens)).not.toEqual(
      deriveKey('t'.repeat(32), KEY_LABELS.accessTokens),
    );
  });

  it('names a key by 8 characters of a hash, which differ between keys', () => {
    const a = namedKey(SECRET, KEY_LABELS.accessTokens);
    const b = namedKey('t'.repeat(32), KEY_LABELS.accessTokens);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(a.id).toBe(keyId(a.key));
    expect(a.id).not.toBe(b.id);
    expect(a.key.toString('base64url')).not.toContain(a.id);
  });

  it('refuses an empty setting', () => {
    expect(() => deriveKey('', KEY_LABELS.accessTokens)).toThrow(/no secret/);
  });
});
