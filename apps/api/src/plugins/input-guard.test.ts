import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, unstorableTextAt } from './input-guard.ts';

describe('jsonDepthExceeds', () => {
  it('counts the nesting of arrays and objects', () => {
    expect(jsonDepthExceeds('{"periods":[{"months":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"periods":[{"months":[1]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds('['.repeat(100_000), 16)).toBe(true);
    expect(jsonDepthExceeds('1', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(50)}"}`, 1)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\"[[[[","b":"\\\\"}`, 1)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\\","b":[[1]]}`, 2)).toBe(true);
  });
});

describe('unstorableTextAt', () => {
  it('names the path of the first text holding NUL or a lone surrogate', () => {
    expect(unstorableTextAt({ name: 'ok', periods: [{ note: 'fine' }, { note: 'a\u0000' }] })).toBe(
      'periods.1.note',
    );
    expect(unstorableTextAt({ reason: 'x\ud800' })).toBe('reason');
    expect(unstorableTextAt('\udfff')).toBe('');
    expect(unstorableTextAt({ nested: { 'bad\u0000key': 1 } })).toBe('nested');
  });

  it('finds nothing in storable values', () => {
    expect(unstorableTextAt({ a: '🙂', b: [1, true, null], c: { d: 'Трейдер' } })).toBeUndefined();
    expect(unstorableTextAt(undefined)).toBeUndefined();
  });
});
