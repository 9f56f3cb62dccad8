import { describe, expect, it } from 'vitest';
import { commonPasswords, isCommonPassword } from './common-passwords.ts';

describe('the list of the 100,000 most common passwords', () => {
  it('refuses the most common ones, as typed or in another case', async () => {
    for (const password of [
      'password',
      '12345678',
      'qwertyuiop',
      'iloveyou',
      'PASSWORD',
      'Password1',
    ])
      expect(await isCommonPassword(password), password).toBe(true);
  });

  it('refuses the list down to its 100,000th entry, and nothing of what the file has after it', async () => {
    expect(await isCommonPassword('07051968')).toBe(true); // line 99,982 of the shipped file
    expect(await isCommonPassword('tikbalang1')).toBe(false); // past line 100,000 only
    for (const password of [
      'correct horse 1',
      'brand new pass 2',
      'Tr4d3h0st-vps!',
      'пароль-надёжный',
    ])
      expect(await isCommonPassword(password), password).toBe(false);
  });

  it('keeps only what a password may be (8 characters or more): about 40,000 strings, loaded once', async () => {
    const list = await commonPasswords();
    expect(await commonPasswords()).toBe(list);
    expect(list.size).toBeGreaterThan(35_000);
    expect(list.size).toBeLessThan(45_000);
    expect([...list].every((entry) => entry.length >= 8)).toBe(true);
  });
});
