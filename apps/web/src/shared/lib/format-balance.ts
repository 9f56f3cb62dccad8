import { MINUS } from './format-money';

/**
 * The header's balance, in dollars (SPEC section 2):
 *
 * | amount (dollars)       | shown as                  | rounding                         |
 * | ---------------------- | ------------------------- | -------------------------------- |
 * | empty, zero            | `$0`                      |                                  |
 * | below 1000             | one decimal: `$12.5`      | half up to 0.1; a trailing .0 is |
 * |                        |                           | dropped (`$12`, `$0` for 0.04)   |
 * | 1000 to below 10000    | whole dollars: `$1000`    | floor (9999.99 is `$9999`)       |
 * | 10000 to below 100000  | thousands, one decimal:   | floor to 0.1K (`$12.3K` for      |
 * |                        | `$10K`, `$12.3K`          | 12345; 99999 is `$99.9K`)        |
 * | 100000 and above       | whole thousands: `$999K`  | floor (999999 is `$999K`)        |
 *
 * The small amounts round half up because that is how cents read; the large ones floor so that a
 * rounded figure never shows more money than there is and never jumps a tier early (9999.99 must
 * not read as `$10K`). 999.95 rounds to 1000.0, so it takes the whole-dollar tier: `$1000`.
 * Amounts are worked in integer cents, so binary fractions cannot tip a rounding.
 * A negative amount (a debt) keeps its sign in front, the console's minus sign (format-money):
 * `−$12.5`.
 */
export function formatBalance(amount: number | string | null | undefined): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (value === null || value === undefined || !Number.isFinite(value)) return '$0';
  const cents = Math.round(Math.abs(value) * 100);
  const text = formatCents(cents);
  return value < 0 && text !== '$0' ? `${MINUS}${text}` : text;
}

function formatCents(cents: number): string {
  const tenths = Math.floor((cents + 5) / 10); // half up to 0.1 dollar
  if (tenths < 10_000) return `$${withOptionalDecimal(tenths)}`;
  // 999.95 to 999.99 rounded up to 1000.0 above; flooring them again would give back $999
  const dollars = Math.max(1000, Math.floor(cents / 100));
  if (dollars < 10_000) return `$${dollars}`;
  if (dollars < 100_000) return `$${withOptionalDecimal(Math.floor(dollars / 100))}K`;
  return `$${Math.floor(dollars / 1000)}K`;
}

/** `tenths` of a unit as text with one decimal, the decimal left out when it is 0. */
function withOptionalDecimal(tenths: number): string {
  const whole = Math.floor(tenths / 10);
  const decimal = tenths % 10;
  return decimal === 0 ? String(whole) : `${whole}.${decimal}`;
}
