import { describe, expect, it } from 'vitest';
import { formatPrice } from './format-price';

describe('formatPrice', () => {
  it("prints a price with its symbol's digits, trailing zeros kept, in English", () => {
    expect(formatPrice(1.085, 5, 'en')).toBe('1.08500');
    expect(formatPrice(151.234, 3, 'en')).toBe('151.234');
    expect(formatPrice(2345.67, 2, 'en')).toBe('2,345.67');
    expect(formatPrice(2345.6, 2, 'en')).toBe('2,345.60');
  });

  it('uses a comma in Russian, the same digits', () => {
    expect(formatPrice(1.085, 5, 'ru')).toBe('1,08500');
    expect(formatPrice(151.234, 3, 'ru')).toBe('151,234');
    expect(formatPrice(2345.6, 2, 'ru')).toBe('2\u00a0345,60');
  });

  it('rounds away float noise (a weighted average price)', () => {
    expect(formatPrice(1.0850000000000002, 5, 'en')).toBe('1.08500');
    expect(formatPrice(1.0850000000000002, 5, 'ru')).toBe('1,08500');
    expect(formatPrice(0.1 + 0.2, 2, 'en')).toBe('0.30');
  });

  it('without known digits rounds to at most 5 decimals, trailing zeros trimmed', () => {
    expect(formatPrice(1.0850000000000002, null, 'en')).toBe('1.085');
    expect(formatPrice(1.0850000000000002, null, 'ru')).toBe('1,085');
    expect(formatPrice(1.123456789, undefined, 'en')).toBe('1.12346');
    expect(formatPrice(2345.6, null, 'ru')).toBe('2\u00a0345,6');
    expect(formatPrice(150, null, 'en')).toBe('150');
  });
});
