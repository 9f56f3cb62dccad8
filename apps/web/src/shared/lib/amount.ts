import { parseAmountToCents } from '@tradehost/contracts';
import * as z from 'zod/mini';

export interface AmountLimits {
  /** Dollars. */
  min?: number;
  /** Dollars. */
  max?: number;
}

/** The code of an empty amount field (translated by the balance namespace, not the contracts). */
export const AMOUNT_REQUIRED = 'AMOUNT_REQUIRED';

/** Cents of a dollar limit (the API sends dollars with at most two decimals). */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * The amount field of the money forms: what the reader types ("10", "10.5", "10,50"), checked
 * with the contracts' rule (parseAmountToCents: dollars, at most two decimals, up to the largest
 * amount) and against the limits of the chosen method, parsed to cents. The messages are codes;
 * AmountField turns them into text with the limits in it. Whether the balance suffices is the
 * server's to say (its answer goes on the field).
 */
export function amountFieldSchema(limits: AmountLimits = {}) {
  const { min, max } = limits;
  return z.pipe(
    z.pipe(
      z.string({ error: AMOUNT_REQUIRED }).check(
        z.trim(),
        z.minLength(1, { error: AMOUNT_REQUIRED, abort: true }),
        z.refine((text) => parseAmountToCents(text) !== null, { error: 'AMOUNT_INVALID' }),
      ),
      z.transform((text) => parseAmountToCents(text) as number),
    ),
    z.number().check(
      z.refine((cents) => min === undefined || cents >= dollarsToCents(min), {
        error: 'AMOUNT_BELOW_MINIMUM',
        abort: true,
      }),
      z.refine((cents) => max === undefined || cents <= dollarsToCents(max), {
        error: 'AMOUNT_ABOVE_MAXIMUM',
      }),
    ),
  );
}
