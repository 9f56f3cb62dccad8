/**
 * Money on the wire: US dollars as a JSON number or a decimal string with at most two decimals.
 * Money everywhere else: integer cents. These two functions are the only way between them; they
 * work on the digits, never through floating-point arithmetic on the amount.
 */

/** The largest amount one operation may move: $1,000,000.00. */
export const MAX_AMOUNT_CENTS = 100_000_000;

const DECIMAL = /^(\d{1,9})(?:[.,](\d{1,2}))?$/;

/**
 * Cents of a positive dollar amount ("12", "12.5", "12,50", 12.34), or null when it is not one:
 * empty, signed, more than two decimals, exponent notation, not finite, zero, or above
 * MAX_AMOUNT_CENTS. Surrounding spaces are ignored.
 */
export function parseAmountToCents(input: unknown): number | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input <= 0) return null;
    // a JSON number such as 0.1 + 0.2 prints as 0.30000000000000004: more than two decimals
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  if (cents <= 0 || cents > MAX_AMOUNT_CENTS) return null;
  return cents;
}

/** Dollars as the API sends them: a number with at most two decimals. */
export function centsToDollars(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return Math.round(cents) / 100;
}

/** "1234.50": dollars with exactly two decimals, for CSV files and payment gateways. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
