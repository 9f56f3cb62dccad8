import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountSchema, parseSignedCents } from './balance.ts';
import { centsToDollars, formatCents, MAX_AMOUNT_CENTS, parseAmountToCents } from './money.ts';
import * as z from 'zod/mini';

const cents = fc.integer({ min: 1, max: MAX_AMOUNT_CENTS });

describe('parseAmountToCents', () => {
  it('reads back every amount formatted with two decimals', () => {
    fc.assert(fc.property(cents, (c) => parseAmountToCents(formatCents(c)) === c));
  });

  it('reads the dollars the API sends as JSON numbers', () => {
    fc.assert(fc.property(cents, (c) => parseAmountToCents(centsToDollars(c)) === c));
  });

  it('reads amounts with one decimal, none, a comma, or surrounding spaces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 9 }), (d, f) => {
        expect(parseAmountToCents(`${d}`)).toBe(d * 100);
        expect(parseAmountToCents(`${d}.${f}`)).toBe(d * 100 + f * 10);
        expect(parseAmountToCents(` ${d},${f}0 `)).toBe(d * 100 + f * 10);
      }),
    );
  });

  it('refuses more than two decimals', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 9 }), (c, extra) => {
        expect(parseAmountToCents(`${formatCents(c)}${extra}`)).toBeNull();
      }),
    );
  });

  it('refuses zero, negatives, and anything above the maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT_CENTS, max: 0 }), (c) => {
        expect(parseAmountToCents(formatCents(c))).toBeNull();
        expect(parseAmountToCents(c / 100)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX_AMOUNT_CENTS + 1, max: Number.MAX_SAFE_INTEGER }), (c) => {
        expect(parseAmountToCents(formatCents(c))).toBeNull();
      }),
    );
  });

  it('never returns anything but null or a whole number of cents in range, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.anything()), (input) => {
        const result = parseAmountToCents(input);
        return (
          result === null ||
          (Number.isSafeInteger(result) && result > 0 && result <= MAX_AMOUNT_CENTS)
        );
      }),
    );
  });

  it('refuses the classic float traps and notations', () => {
    for (const input of [
      0.1 + 0.2,
      1e21,
      '1e3',
      '0x10',
      'NaN',
      'Infinity',
      '',
      ' ',
      '.5',
      '5.',
      '1 000',
      '+5',
      Number.NaN,
      null,
      true,
      [5],
    ]) {
      expect(parseAmountToCents(input), String(input)).toBeNull();
    }
    expect(parseAmountToCents(0.3)).toBe(30);
    expect(parseAmountToCents('000012.30')).toBe(1230);
  });
});

describe('amountSchema and parseSignedCents', () => {
  it('turn an accepted amount into the same cents as the parser', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(z.parse(amountSchema, formatCents(c))).toBe(c);
        expect(parseSignedCents(`-${formatCents(c)}`)).toBe(-c);
        expect(parseSignedCents(-centsToDollars(c))).toBe(-c);
      }),
    );
  });

  it('reports AMOUNT_INVALID for a bad amount', () => {
    const result = z.safeParse(amountSchema, '12.345');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('AMOUNT_INVALID');
    expect(parseSignedCents('--5')).toBeNull();
    expect(parseSignedCents('0')).toBeNull();
  });
});
