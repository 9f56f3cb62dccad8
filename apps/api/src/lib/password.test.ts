import { describe, expect, it } from 'vitest';
import { parseOptions } from '@node-rs/argon2';
import {
  ARGON2_OPTIONS,
  DUMMY_HASH,
  hashPassword,
  passwordStats,
  verifyDummyPassword,
  verifyPassword,
} from './password.ts';

describe('password hashing', () => {
  it('hashes with argon2id at the OWASP parameters and a random salt', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horsE')).toBe(false);
  });

  it('handles non-ASCII passwords', async () => {
    const hash = await hashPassword('пароль-🔑');
    expect(await verifyPassword(hash, 'пароль-🔑')).toBe(true);
  });

  it('treats a malformed hash as a mismatch instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });

  it('counts every computation, the dummy check included', async () => {
    const before = { ...passwordStats };
    const hash = await hashPassword('x'.repeat(8));
    await verifyPassword(hash, 'y'.repeat(8));
    await verifyDummyPassword('z'.repeat(8));
    expect(passwordStats).toEqual({ hashes: before.hashes + 1, verifies: before.verifies + 2 });
  });

  it('checks unknown accounts against a dummy hash made with the same parameters', () => {
    const dummy = parseOptions(DUMMY_HASH);
    expect(dummy).toMatchObject({
      algorithm: 2, // argon2id
      memoryCost: ARGON2_OPTIONS.memoryCost,
      timeCost: ARGON2_OPTIONS.timeCost,
      parallelism: ARGON2_OPTIONS.parallelism,
    });
  });
});
