/**
 * Money and numbers in the reader's language, through Intl: US dollars with two decimals
 * ("$1,234.50", "1 234,50 $"); dates and times are shared/lib/format-date's. The formatters are
 * kept per language: building one is the slow part.
 *
 * Every number the console shows goes through here (tables, figures, the charts' axes and
 * crosshair labels alike), so it is written one way in every language and every browser:
 * - a negative number takes the minus sign "−" (U+2212), as wide as "+" and the digits: "−$55.38",
 *   "−2,00 %". Intl writes a hyphen-minus or "−" depending on the browser's ICU data; the
 *   console's own texts (the VPS discounts, "−10%") already used "−".
 * - a value that rounds to zero has no sign ("0.00%", never "-0.00%").
 * - a percentage or an amount of money never breaks across lines: "2,00 %" keeps "%" with its
 *   number, "1 234,50 $" stays one piece (a no-break space where Intl wrote a plain one; its
 *   no-break and narrow no-break spaces stay).
 */

/** The console's minus sign (U+2212). */
export const MINUS = '\u2212';

/** Spaces a line may break at (not the no-break U+00A0 nor the narrow no-break U+202F). */
const breakingSpace = /[^\S\u00a0\u202f]/g;

/** A number format of the reader's language, writing its numbers under the console's rules. */
export interface NumberFormat {
  format(value: number): string;
}

/** An Intl format's text under the console's rules above. */
function typeset(formatter: Intl.NumberFormat): NumberFormat {
  const { style } = formatter.resolvedOptions();
  const together = style === 'percent' || style === 'currency';
  return {
    format(value) {
      let text = '';
      for (const part of formatter.formatToParts(value))
        text +=
          part.type === 'minusSign'
            ? MINUS
            : together
              ? part.value.replace(breakingSpace, '\u00a0')
              : part.value;
      return text;
    },
  };
}

/** `options` with no sign for what rounds to zero, unless a sign display is asked for. */
function withSign(options: Intl.NumberFormatOptions): Intl.NumberFormatOptions {
  return { signDisplay: 'negative', ...options };
}

const money = new Map<string, NumberFormat>();
const signedMoney = new Map<string, NumberFormat>();

function cached<T>(cache: Map<string, T>, language: string, create: () => T): T {
  let formatter = cache.get(language);
  if (!formatter) {
    formatter = create();
    cache.set(language, formatter);
  }
  return formatter;
}

export interface FormatMoneyOptions {
  /** Show the sign of a positive amount too ("+$10.00"), for credits beside debits. */
  signed?: boolean;
}

/** Dollars (as the API sends them) in the reader's language, two decimals. */
export function formatMoney(
  dollars: number,
  language: string,
  { signed = false }: FormatMoneyOptions = {},
): string {
  const cache = signed ? signedMoney : money;
  const formatter = cached(cache, language, () =>
    typeset(
      new Intl.NumberFormat(language, {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: signed ? 'exceptZero' : 'negative',
      }),
    ),
  );
  return formatter.format(dollars);
}

const numbers = new Map<string, NumberFormat>();

/**
 * A number format of the reader's language, kept by `key` (the options' name: "percent",
 * "n2"…), since building one is the slow part. Its numbers follow the console's rules (above).
 */
export function numberFormat(
  language: string,
  key: string,
  options: Intl.NumberFormatOptions,
): NumberFormat {
  return cached(numbers, `${language}|${key}`, () =>
    typeset(new Intl.NumberFormat(language, withSign(options))),
  );
}
