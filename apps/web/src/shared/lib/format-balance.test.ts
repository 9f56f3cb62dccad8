import { describe, expect, it } from 'vitest';
import { formatBalance } from './format-balance';

const en = (amount: number | string | null | undefined) => formatBalance(amount, 'en');
const ru = (amount: number | string | null | undefined) => formatBalance(amount, 'ru');

describe('formatBalance', () => {
  it('shows $0 for an empty or zero balance', () => {
    expect(en(undefined)).toBe('$0');
    expect(en(null)).toBe('$0');
    expect(en('')).toBe('$0');
    expect(en(Number.NaN)).toBe('$0');
    expect(en(0)).toBe('$0');
    expect(ru(0)).toBe('$0');
  });

  it('floors amounts below 1000 to one decimal, never showing more money than there is', () => {
    expect(en(0.04)).toBe('$0');
    expect(en(0.09)).toBe('$0');
    expect(en(0.1)).toBe('$0.1');
    expect(en(0.5)).toBe('$0.5');
    expect(en(12.5)).toBe('$12.5');
    expect(en(12.46)).toBe('$12.4');
    expect(en(12.34)).toBe('$12.3');
    expect(en(769.25)).toBe('$769.2');
    expect(en(769.29)).toBe('$769.2');
    expect(en(999.94)).toBe('$999.9');
  });

  it('drops a trailing .0 below 1000', () => {
    expect(en(12)).toBe('$12');
    expect(en(12.01)).toBe('$12');
    expect(en(12.09)).toBe('$12');
  });

  it('keeps 999.95 to 999.99 in the one-decimal tier', () => {
    expect(en(999.95)).toBe('$999.9');
    expect(en(999.99)).toBe('$999.9');
  });

  it('shows whole dollars from 1000 to below 10000, rounding down', () => {
    expect(en(1000)).toBe('$1000');
    expect(en(1234.99)).toBe('$1234');
    expect(en(9999.99)).toBe('$9999');
  });

  it('shows thousands with K from 10000, one decimal below 100K', () => {
    expect(en(10000)).toBe('$10K');
    expect(en(12345)).toBe('$12.3K');
    expect(en(12399.99)).toBe('$12.3K');
    expect(en(99999.99)).toBe('$99.9K');
  });

  it('shows whole thousands from 100K', () => {
    expect(en(100000)).toBe('$100K');
    expect(en(999999)).toBe('$999K');
    expect(en(1234567)).toBe('$1234K');
  });

  it('reads amounts sent as strings', () => {
    expect(en('12345.00')).toBe('$12.3K');
    expect(en('769.25')).toBe('$769.2');
    expect(en('abc')).toBe('$0');
  });

  it('writes the decimal separator of the reader’s language, "$" in front and "K" as they are', () => {
    expect(ru(769.25)).toBe('$769,2');
    expect(ru(12.5)).toBe('$12,5');
    expect(ru(12)).toBe('$12');
    expect(ru(999.99)).toBe('$999,9');
    expect(ru(1234.99)).toBe('$1234');
    expect(ru(12345)).toBe('$12,3K');
    expect(ru(1234567)).toBe('$1234K');
    expect(ru(-12.31)).toBe('\u2212$12,4');
  });

  it('shows a debt with the console’s minus sign, never smaller than it is: its magnitude rounds up', () => {
    expect(en(-12.5)).toBe('\u2212$12.5');
    expect(en(-12.31)).toBe('\u2212$12.4');
    expect(en(-769.25)).toBe('\u2212$769.3');
    expect(en(-0.01)).toBe('\u2212$0.1');
    expect(en(-12)).toBe('\u2212$12');
    expect(en(-12.01)).toBe('\u2212$12.1');
    expect(en('-0.5')).toBe('\u2212$0.5');
  });

  it('moves a debt to the tier of its rounded-up magnitude', () => {
    expect(en(-999.9)).toBe('\u2212$999.9');
    expect(en(-999.91)).toBe('\u2212$1000');
    expect(en(-1000.01)).toBe('\u2212$1001');
    expect(en(-9999.01)).toBe('\u2212$10K');
    expect(en(-12301)).toBe('\u2212$12.4K');
    expect(en(-99900.01)).toBe('\u2212$100K');
    expect(en(-100000.01)).toBe('\u2212$101K');
  });
});
