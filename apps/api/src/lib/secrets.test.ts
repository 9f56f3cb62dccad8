import { describe, expect, it } from 'vitest';
import {
  hmacHex,
  randomDigits,
  randomReferralCode,
  randomToken,
  REFERRAL_ALPHABET,
  sameHex,
  sha256Hex,
} from './secrets.ts';

describe('secrets', () => {
  it('makes 8-character referral codes without look-alike characters', () => {
    expect(REFERRAL_ALPHABET).not.toMatch(/[ILO01]/);
    for (let i = 0; i < 200; i += 1)
      expect(randomReferralCode()).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
  });

  it('makes 6-digit codes, leading zeros kept', () => {
    const codes = Array.from({ length: 500 }, () => randomDigits(6));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(490);
  });

  it('makes URL-safe 256-bit tokens', () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(randomToken());
  });

  it('hashes and compares digests', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hmacHex('k', 'v')).not.toBe(hmacHex('other', 'v'));
    expect(sameHex(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(sameHex(sha256Hex('a'), sha256Hex('b'))).toBe(false);
    expect(sameHex(sha256Hex('a'), 'abcd')).toBe(false);
  });
});
