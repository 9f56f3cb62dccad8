import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney } from './format-money';

/** Intl's spaces (no-break, narrow no-break) as plain ones, to compare. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it('writes US dollars with two decimals in the reader’s language', () => {
    expect(formatMoney(1234.5, 'en')).toBe('$1,234.50');
    expect(formatMoney(0, 'en')).toBe('$0.00');
    expect(plain(formatMoney(1234.5, 'ru'))).toBe('1 234,50 $');
  });

  it('shows the sign of credits and debits when asked', () => {
    expect(formatMoney(7.5, 'en', { signed: true })).toBe('+$7.50');
    expect(formatMoney(-20, 'en', { signed: true })).toBe('-$20.00');
    expect(formatMoney(-20, 'en')).toBe('-$20.00');
  });
});

describe('formatDateTime', () => {
  it('writes the date and the time in the reader’s language', () => {
    const iso = '2026-11-20T09:15:00.000Z';
    const local = new Date(iso);
    expect(formatDateTime(iso, 'en')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(local),
    );
    expect(formatDateTime(iso, 'en')).toMatch(/Nov 20, 2026/);
    expect(formatDateTime(iso, 'ru')).toMatch(/20 нояб\. 2026/);
  });
});
