import { describe, expect, it } from 'vitest';
import { formatBalance } from './format-balance';

describe('formatBalance', () => {
  it('shows $0 for an empty or zero balance', () => {
    expect(formatBalance(undefined)).toBe('$0');
    expect(formatBalance(null)).toBe('$0');
    expect(formatBalance('')).toBe('$0');
    expect(formatBalance(Number.NaN)).toBe('$0');
    expect(formatBalance(0)).toBe('$0');
  });

  it('rounds amounts below 1000 half up to one decimal', () => {
    expect(formatBalance(0.04)).toBe('$0');
    expect(formatBalance(0.05)).toBe('$0.1');
    expect(formatBalance(0.5)).toBe('$0.5');
    expect(formatBalance(12.5)).toBe('$12.5');
    expect(formatBalance(12.46)).toBe('$12.5');
    expect(formatBalance(999.94)).toBe('$999.9');
  });

  it('drops a trailing .0 below 1000', () => {
    expect(formatBalance(12)).toBe('$12');
    expect(formatBalance(12.01)).toBe('$12');
  });

  it('moves 999.95 up to the whole-dollar tier', () => {
    expect(formatBalance(999.95)).toBe('$1000');
  });

  it('shows whole dollars from 1000 to below 10000, rounding down', () => {
    expect(formatBalance(1000)).toBe('$1000');
    expect(formatBalance(1234.99)).toBe('$1234');
    expect(formatBalance(9999.99)).toBe('$9999');
  });

  it('shows thousands with K from 10000, one decimal below 100K', () => {
    expect(formatBalance(10000)).toBe('$10K');
    expect(formatBalance(12345)).toBe('$12.3K');
    expect(formatBalance(12399.99)).toBe('$12.3K');
    expect(formatBalance(99999.99)).toBe('$99.9K');
  });

  it('shows whole thousands from 100K', () => {
    expect(formatBalance(100000)).toBe('$100K');
    expect(formatBalance(999999)).toBe('$999K');
    expect(formatBalance(1234567)).toBe('$1234K');
  });

  it('reads amounts sent as strings', () => {
    expect(formatBalance('12345.00')).toBe('$12.3K');
    expect(formatBalance('abc')).toBe('$0');
  });

  it('keeps the sign of a negative amount, the console’s minus sign', () => {
    expect(formatBalance(-12.5)).toBe('\u2212$12.5');
    expect(formatBalance(-0.01)).toBe('$0');
  });
});
