import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AMOUNT_REQUIRED, amountFieldSchema, dollarsToCents } from './amount';

/** The first message of a failed parse, or the parsed cents. */
function parse(schema: ReturnType<typeof amountFieldSchema>, value: unknown) {
  const result = z.safeParse(schema, value);
  return result.success ? { cents: result.data } : { error: result.error.issues[0]?.message };
}

describe('amountFieldSchema', () => {
  const card = amountFieldSchema({ min: 10, max: 10000 });

  it('parses dollars as typed to cents, with a dot or a comma and spaces around', () => {
    expect(parse(card, '10')).toEqual({ cents: 1000 });
    expect(parse(card, ' 10.5 ')).toEqual({ cents: 1050 });
    expect(parse(card, '10,55')).toEqual({ cents: 1055 });
    expect(parse(card, '10000.00')).toEqual({ cents: 1_000_000 });
  });

  it('asks for an amount when the field is empty', () => {
    expect(parse(card, '')).toEqual({ error: AMOUNT_REQUIRED });
    expect(parse(card, '   ')).toEqual({ error: AMOUNT_REQUIRED });
    expect(parse(card, undefined)).toEqual({ error: AMOUNT_REQUIRED });
  });

  it('refuses what is not dollars with at most two decimals', () => {
    for (const text of ['abc', '10.555', '-5', '1e3', '0', '0.00', '10.', '$10', '1 000']) {
      expect(parse(card, text), text).toEqual({ error: 'AMOUNT_INVALID' });
    }
  });

  it('holds the amount to the limits of the method, to the cent', () => {
    expect(parse(card, '9.99')).toEqual({ error: 'AMOUNT_BELOW_MINIMUM' });
    expect(parse(card, '10.00')).toEqual({ cents: 1000 });
    expect(parse(card, '10000.01')).toEqual({ error: 'AMOUNT_ABOVE_MAXIMUM' });
    // limits with cents that binary floats do not hold exactly
    const odd = amountFieldSchema({ min: 0.29, max: 1.15 });
    expect(parse(odd, '0.29')).toEqual({ cents: 29 });
    expect(parse(odd, '0.28')).toEqual({ error: 'AMOUNT_BELOW_MINIMUM' });
    expect(parse(odd, '1.15')).toEqual({ cents: 115 });
  });

  it('without limits takes any valid amount up to the contracts’ largest', () => {
    const free = amountFieldSchema();
    expect(parse(free, '0.01')).toEqual({ cents: 1 });
    expect(parse(free, '1000000')).toEqual({ cents: 100_000_000 });
    expect(parse(free, '1000000.01')).toEqual({ error: 'AMOUNT_INVALID' });
  });

  it('dollarsToCents rounds the float of a two-decimal dollar amount', () => {
    expect(dollarsToCents(0.29)).toBe(29);
    expect(dollarsToCents(1.15)).toBe(115);
    expect(dollarsToCents(10000)).toBe(1_000_000);
  });
});
