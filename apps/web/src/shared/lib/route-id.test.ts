import { describe, expect, it } from 'vitest';
import { routeIdOf } from './route-id';

describe('routeIdOf', () => {
  it('reads the digits of an address as its number', () => {
    expect(routeIdOf('12')).toBe(12);
    expect(routeIdOf('0012')).toBe(12);
    expect(routeIdOf('9999999999')).toBe(9_999_999_999);
  });

  it('takes nothing else for a number', () => {
    for (const value of [undefined, '', '0', 'abc', '12.5', '1e3', ' 12', '-3', '12345678901'])
      expect(routeIdOf(value), String(value)).toBeNull();
  });
});
