import { MINUS, numberFormat } from './format-money';

/**
 * The header's balance, in dollars (SPEC section 2: "0 when empty; one decimal below 1000; a whole
 * number from 1000 to below 10000; thousands with a K suffix from 10000"):
 *
 * | amount (dollars)       | shown as                  | rounding (of a balance)          |
 * | ---------------------- | ------------------------- | -------------------------------- |
 * | empty, zero            | `$0`                      |                                  |
 * | below 1000             | one decimal: `$12.5`      | floor to 0.1 (`$769.2` for       |
 * |                        |                           | 769.25, 999.99 is `$999.9`); a   |
 * |                        |                           | trailing .0 is dropped (`$12`,   |
 * |                        |                           | `$0` for 0.09)                   |
 * | 1000 to below 10000    | whole dollars: `$1000`    | floor (9999.99 is `$9999`)       |
 * | 10000 to below 100000  | thousands, one decimal:   | floor to 0.1K (`$12.3K` for      |
 * |                        | `$10K`, `$12.3K`          | 12345; 99999 is `$99.9K`)        |
 * | 100000 and above       | whole thousands: `$999K`  | floor (999999 is `$999K`)        |
 *
 * A balance floors in every tier, so the header never shows more money than there is and an amount
 * never jumps a tier early (999.99 stays `$999.9`, 9999.99 never reads `$10K`).
 *
 * A negative amount (a debt) is the other way round: its magnitude rounds up, so the debt shown is
 * never smaller than the real one (`−$12.4` for −12.31, `−$0.1` for −0.01, `−$1000` for −999.91,
 * `−$10K` for −9999.01), with the console's minus sign in front (format-money). It takes the tier
 * of the rounded magnitude.
 *
 * The decimal separator is the reader's language's (`$769,2`, `$12,3K` in Russian); `$` stays in
 * front and `K` as it is, and no digit grouping (`$1000`, as the spec writes it).
 * Amounts are worked in integer cents, so binary fractions cannot tip a rounding.
 */
export function formatBalance(
  amount: number | string | null | undefined,
  language: string,
): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (value === null || value === undefined || !Number.isFinite(value)) return '$0';
  const cents = Math.round(Math.abs(value) * 100);
  const debt = value < 0;
  const text = formatCents(cents, debt ? Math.ceil : Math.floor, language);
  return debt && text !== '$0' ? `${MINUS}${text}` : text;
}

function formatCents(cents: number, round: (x: number) => number, language: string): string {
  /** `cents` in units of `unitCents`, rounded the amount's way. */
  const inUnits = (unitCents: number) => round(cents / unitCents);
  // one decimal at most, no grouping: 769.2, 769,2, 12, 1000
  const number = (tenths: number) =>
    numberFormat(language, 'balance', { maximumFractionDigits: 1, useGrouping: false }).format(
      tenths / 10,
    );
  const tenths = inUnits(10);
  if (tenths < 10_000) return `$${number(tenths)}`;
  const dollars = inUnits(100);
  if (dollars < 10_000) return `$${dollars}`;
  const hundreds = inUnits(10_000);
  if (hundreds < 1000) return `$${number(hundreds)}K`;
  return `$${inUnits(100_000)}K`;
}
