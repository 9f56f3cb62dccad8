import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isStale,
  open,
  seal,
  SealedSecretError,
  sealingKeys,
  type SealedPlace,
} from './crypto-box.ts';
import { KEY_LABELS } from './keys.ts';

const SETTING = 'k'.repeat(40);
const NEXT = 'n'.repeat(40);
const LABEL = KEY_LABELS.vpsPasswords;
const keys = sealingKeys(LABEL, SETTING, undefined, [SETTING]);
const HERE: SealedPlace = { table: 'vps_servers', column: 'password_enc', id: 7 };

/** What v1 wrote: AES-256-GCM under sha256(setting), "v1.<iv>.<tag>.<ciphertext>", nothing bound. */
function sealV1(setting: string, plaintext: string): string {
  const iv = randomBytes(12);
  const key = createHash('sha256').update(setting).digest();
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url')).join('.');
}

/** Flips one bit of the base64url field `index` (2 iv, 3 ciphertext, 4 tag). */
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
      expect(open(keys, HERE, seal(keys, HERE, secret))).toBe(secret);
    }
  });

  it('writes v2.<kid>.<iv>.<ciphertext>.<tag> in base64url without the plaintext', () => {
    const sealed = seal(keys, HERE, 'Secret-Password-1');
    expect(sealed).toMatch(
      /^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/,
    );
    expect(sealed.split('.')[1]).toBe(keys.current.id);
    expect(sealed).not.toContain('Secret');
    expect(Buffer.from(sealed.split('.')[3]!, 'base64url').toString()).not.toContain('Secret');
  });

  it('uses a fresh IV each time, so one password never seals the same twice', () => {
    const a = seal(keys, HERE, 'same');
    const b = seal(keys, HERE, 'same');
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
  });

  it.each([
    ['another row', { ...HERE, id: 8 }],
    ['another column', { ...HERE, column: 'comment' }],
    ['another table', { ...HERE, table: 'monitoring_subscriptions' }],
    ['a row id that only reads alike', { ...HERE, id: '7 ' }],
  ])('refuses a value moved to %s', (_what, elsewhere) => {
    const sealed = seal(keys, HERE, 'secret');
    expect(() => open(keys, elsewhere, sealed)).toThrow(
      /altered or belongs to another row than .* (8|7 )?/,
    );
  });

  it('refuses a key of another purpose, though it comes from the same setting', () => {
    const monitoring = sealingKeys(KEY_LABELS.monitoringKeys, SETTING, undefined, []);
    expect(monitoring.current.id).not.toBe(keys.current.id);
    expect(() => open(monitoring, HERE, seal(keys, HERE, 'secret'))).toThrow(
      /neither the current key/,
    );
  });

  it('opens the previous key while the next one seals, and tells which are stale', () => {
    const old = seal(keys, HERE, 'before');
    const rotating = sealingKeys(LABEL, NEXT, SETTING, [NEXT, SETTING]);
    expect(open(rotating, HERE, old)).toBe('before');
    expect(isStale(rotating, old)).toBe(true);
    const fresh = seal(rotating, HERE, 'after');
    expect(fresh.split('.')[1]).toBe(rotating.current.id);
    expect(isStale(rotating, fresh)).toBe(false);
    // once the previous key is gone, its values no longer open
    const rotated = sealingKeys(LABEL, NEXT, undefined, [NEXT]);
    expect(open(rotated, HERE, fresh)).toBe('after');
    expect(() => open(rotated, HERE, old)).toThrow(SealedSecretError);
    expect(() => open(rotated, HERE, old)).toThrow(/sealed under the key .* neither/);
  });

  it('refuses a value whose key id was rewritten to the current one', () => {
    const rotating = sealingKeys(LABEL, NEXT, SETTING, []);
    const parts = seal(keys, HERE, 'secret').split('.');
    parts[1] = rotating.current.id;
    expect(() => open(rotating, HERE, parts.join('.'))).toThrow(/altered or belongs/);
  });

  it('opens a value the release before key ids sealed', () => {
    // sealSecret('k'.repeat(40), 'legacy password') of that release
    const sealed = 'v1.jNTQrHlqR-iUCBQz.LCvomCocUcvTitpGDbP26w.u2rotG7kFqwgJJFhGzZV';
    expect(open(keys, HERE, sealed)).toBe('legacy password');
  });

  it('opens a v1 value under a legacy key, wherever it is, and calls it stale', () => {
    const v1 = sealV1(SETTING, 'legacy password');
    expect(open(keys, HERE, v1)).toBe('legacy password');
    expect(open(keys, { ...HERE, id: 99 }, v1)).toBe('legacy password');
    expect(isStale(keys, v1)).toBe(true);
    const rotating = sealingKeys(LABEL, NEXT, SETTING, [NEXT, SETTING]);
    expect(open(rotating, HERE, v1)).toBe('legacy password');
    expect(() => open(sealingKeys(LABEL, SETTING, undefined, [NEXT]), HERE, v1)).toThrow(
      /none of the legacy keys/,
    );
  });

  it.each([
    ['the IV', 2],
    ['the ciphertext', 3],
    ['the tag', 4],
  ])('refuses a change to %s', (_what, index) => {
    const sealed = seal(keys, HERE, 'secret');
    expect(() => open(keys, HERE, flip(sealed, index))).toThrow(/altered or belongs/);
  });

  it.each([
    ['plain text', 'secret'],
    ['another version', seal(keys, HERE, 'secret').replace(/^v2/, 'v3')],
    ['a missing part', seal(keys, HERE, 'secret').split('.').slice(0, 4).join('.')],
    ['a short tag', seal(keys, HERE, 'secret').replace(/[^.]{4}$/, '')],
    ['non-base64url characters', 'v2.a+b.c/d.e=f.g'],
    ['a v1 value of five parts', `${sealV1(SETTING, 'x')}.x`],
  ])('refuses %s', (_what, sealed) => {
    expect(() => open(keys, HERE, sealed)).toThrow(SealedSecretError);
  });

  it('refuses an empty setting', () => {
    expect(() => sealingKeys(LABEL, '', undefined, [])).toThrow(/no secret/);
  });
});
