import { describe, expect, it } from 'vitest';
import { ID_MAX, idParamsSchema, idSchema, isStorableText } from './input.ts';

describe('isStorableText', () => {
  it('takes any text PostgreSQL can store, characters beyond the BMP included', () => {
    for (const text of ['', 'Trader', 'Трейдер', '🙂 ok', 'a\tb\nc', '\u202e', '\ud83d\ude42'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
  });

  it('refuses NUL and lone surrogates, wherever they are', () => {
    for (const text of ['\u0000', 'a\u0000', '\ud800', 'a\ud800b', '\udfff', 'x\ude42', '\ud83d'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
  });
});

describe('idSchema', () => {
  it('takes 1 up to what the column holds, from a path string or a number', () => {
    expect(idSchema('serial').parse('2147483647')).toBe(2_147_483_647);
    expect(idParamsSchema.parse({ id: String(ID_MAX.bigserial) })).toEqual({
      id: Number.MAX_SAFE_INTEGER,
    });
  });

  it('refuses with its code what the column cannot hold or no row can have', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '2147483648', 2 ** 31, '1e400']) {
      const result = idSchema('serial', 'RATE_NOT_FOUND').safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('RATE_NOT_FOUND');
    }
    expect(idSchema('bigserial').safeParse(2 ** 53).success).toBe(false);
  });
});
