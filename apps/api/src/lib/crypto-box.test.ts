import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, SealedSecretError } from './crypto-box.ts';

const KEY = 'k'.repeat(40);

/** Flips one bit of the base64url field `index` (1 iv, 2 tag, 3 ciphertext). */
function flip(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('crypto-box', () => {
  it('opens what it sealed, unicode included', () => {
    for (const secret of ['Pa$$w0rd!', '', 'пароль Ω 🔑', 'x'.repeat(1000)]) {
      expect(openSecret(KEY, sealSecret(KEY, secret))).toBe(secret);
    }
  });

  it('writes v1.<iv>.<tag>.<ciphertext> in base64url without the plaintext', () => {
    const sealed = sealSecret(KEY, 'Secret-Password-1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('Secret');
    expect(Buffer.from(sealed.split('.')[3]!, 'base64url').toString()).not.toContain('Secret');
  });

  it('uses a fresh IV each time, so one password never seals the same twice', () => {
    const a = sealSecret(KEY, 'same');
    const b = sealSecret(KEY, 'same');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('refuses the wrong key', () => {
    const sealed = sealSecret(KEY, 'secret');
    expect(() => openSecret('another key of enough length 0123456789', sealed)).toThrow(
      SealedSecretError,
    );
  });

  it.each([
    ['the IV', 1],
    ['the tag', 2],
    ['the ciphertext', 3],
  ])('refuses a change to %s', (_what, index) => {
    const sealed = sealSecret(KEY, 'secret');
    expect(() => openSecret(KEY, flip(sealed, index))).toThrow(/altered or sealed under another/);
  });

  it.each([
    ['plain text', 'secret'],
    ['another version', sealSecret(KEY, 'secret').replace(/^v1/, 'v2')],
    ['a missing part', sealSecret(KEY, 'secret').split('.').slice(0, 3).join('.')],
    ['a short tag', sealSecret(KEY, 'secret').replace(/^(v1\.[^.]+\.)[^.]{4}/, '$1')],
    ['non-base64url characters', 'v1.a+b.c/d.e=f'],
  ])('refuses %s', (_what, sealed) => {
    expect(() => openSecret(KEY, sealed)).toThrow(SealedSecretError);
  });

  it('refuses an empty key', () => {
    expect(() => sealSecret('', 'secret')).toThrow(SealedSecretError);
  });
});
