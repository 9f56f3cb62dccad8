import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { estimatedSecretBits, SECRET_BITS_MIN } from './secret-strength.ts';

describe('estimatedSecretBits', () => {
  it('is length times the entropy of the character frequencies (hand-computed)', () => {
    // two characters, equally often: 1 bit each
    expect(estimatedSecretBits('abba')).toBeCloseTo(4, 10);
    // four characters, equally often: 2 bits each
    expect(estimatedSecretBits('abcddcba')).toBeCloseTo(16, 10);
    // a:2, b:1, c:1 of 4: 0.5*1 + 2*(0.25*2) = 1.5 bits each
    expect(estimatedSecretBits('abac')).toBeCloseTo(6, 10);
  });

  it('scores nothing for an empty secret or one short piece repeated', () => {
    expect(estimatedSecretBits('')).toBe(0);
    expect(estimatedSecretBits('s'.repeat(32))).toBe(0);
    expect(estimatedSecretBits('abc'.repeat(11))).toBe(0);
    expect(estimatedSecretBits('password1234password1234password')).toBe(0);
  });

  it('passes what openssl rand gives and refuses what people type', () => {
    for (let i = 0; i < 50; i += 1) {
      expect(estimatedSecretBits(randomBytes(48).toString('base64'))).toBeGreaterThan(300);
      expect(estimatedSecretBits(randomBytes(32).toString('hex'))).toBeGreaterThan(SECRET_BITS_MIN);
    }
    expect(estimatedSecretBits('my-company-jwt-secret-2026')).toBeLessThan(SECRET_BITS_MIN);
    expect(estimatedSecretBits('qwertyuiopasdfghjkl;')).toBeLessThan(SECRET_BITS_MIN);
    expect(estimatedSecretBits('changeme-changeme-changeme-changeme')).toBe(0);
  });
});
