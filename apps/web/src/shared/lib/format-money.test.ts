import { describe, expect, it, vi } from 'vitest';
import { formatMoney, numberFormat } from './format-money';

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
    expect(formatMoney(-20, 'en', { signed: true })).toBe('\u2212$20.00');
    expect(formatMoney(-20, 'en')).toBe('\u2212$20.00');
  });
});

/** The characters of a text, so that a hyphen and a minus, or two spaces, tell apart. */
const codes = (text: string) => [...text].map((c) => `U+${c.codePointAt(0)!.toString(16)}`);

describe('the console’s numbers', () => {
  const percent = (language: string) =>
    numberFormat(language, 'test-percent', {
      style: 'percent',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });

  it('write a negative number with the minus sign U+2212 in English and Russian', () => {
    expect(formatMoney(-55.38, 'en')).toBe('\u2212$55.38');
    expect(codes(formatMoney(-55.38, 'ru'))).toEqual(codes('\u221255,38\u00a0$'));
    expect(percent('en').format(-0.02)).toBe('\u22122.00%');
    expect(codes(percent('ru').format(-0.02))).toEqual(codes('\u22122,00\u00a0%'));
    expect(numberFormat('ru', 'test-n2', { minimumFractionDigits: 2 }).format(-1234.5)).toBe(
      '\u22121\u00a0234,50',
    );
    // never a hyphen-minus, whichever sign the browser's Intl writes
    for (const text of [formatMoney(-1, 'ru'), percent('en').format(-1), formatMoney(-1, 'en')])
      expect(text).not.toContain('-');
  });

  it('write no sign for what rounds to zero', () => {
    expect(percent('en').format(-0.00001)).toBe('0.00%');
    expect(percent('en').format(-0)).toBe('0.00%');
    expect(formatMoney(-0.001, 'en')).toBe('$0.00');
    expect(formatMoney(-0.001, 'en', { signed: true })).toBe('$0.00');
    expect(percent('en').format(0.05)).toBe('5.00%');
  });

  it('keep "%" and a currency with their number: no-break spaces only', () => {
    expect(codes(percent('ru').format(0.02))).toEqual(codes('2,00\u00a0%'));
    expect(percent('en').format(0.02)).toBe('2.00%');
    for (const text of [
      percent('ru').format(-0.1234),
      formatMoney(-1234.5, 'ru', { signed: true }),
      numberFormat('en', 'test-eur', { style: 'currency', currency: 'EUR' }).format(-2),
      // a code Intl writes apart from the number with a plain space
      numberFormat('en', 'test-code', {
        style: 'currency',
        currency: 'XYZ',
        currencyDisplay: 'code',
      }).format(-2),
    ])
      expect(text).not.toMatch(/[^\S\u00a0\u202f]/u);
  });

  it('are written the same whatever sign and space the browser’s Intl data give', () => {
    // ICU versions differ: a hyphen-minus or "−", a plain or a no-break space before "%"
    for (const [sign, space] of [
      ['-', ' '],
      ['\u2212', '\u00a0'],
    ]) {
      const parts = vi.spyOn(Intl.NumberFormat.prototype, 'formatToParts').mockReturnValue([
        { type: 'minusSign', value: sign! },
        { type: 'integer', value: '2' },
        { type: 'decimal', value: ',' },
        { type: 'fraction', value: '00' },
        { type: 'literal', value: space! },
        { type: 'percentSign', value: '%' },
      ]);
      expect(codes(percent('ru').format(-0.02))).toEqual(codes('\u22122,00\u00a0%'));
      parts.mockRestore();
    }
  });
});
