import { numberFormat } from '../../../shared/lib/format-money';

/** Decimals at most of a price whose symbol's digits are unknown. */
export const PRICE_FALLBACK_DECIMALS = 5;

/**
 * A symbol's price as the trader reads it in the terminal, in the reader's number format
 * (Russian: a comma): with the symbol's `digits` decimals, trailing zeros kept (EURUSD 1.08500,
 * USDJPY 151.234, XAUUSD 2345.67), which also rounds away float noise (a weighted average's
 * 1.0850000000000002 reads 1.08500). A price whose digits are unknown (a position in a symbol
 * with no stored deal yet, a price in an alert) is rounded to at most 5 decimals with its
 * trailing zeros trimmed (1.085, 151.234, 2345.6): 5 decimals are a forex quote's, so no
 * symbol's price loses a digit it has, and trimming never shows zeros that may not be the
 * symbol's. All prices of monitoring go through this one function.
 */
export function formatPrice(value: number, digits: number | null | undefined, language: string) {
  const known = digits !== null && digits !== undefined && digits >= 0 && digits <= 10;
  return numberFormat(language, known ? `price${digits}` : 'price?', {
    minimumFractionDigits: known ? digits : 0,
    maximumFractionDigits: known ? digits : PRICE_FALLBACK_DECIMALS,
  }).format(value);
}
