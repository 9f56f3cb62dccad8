/**
 * Money and moments in the reader's language, through Intl: US dollars with two decimals
 * ("$1,234.50", "1 234,50 $") and dates with the time ("21 Nov 2026, 14:05"). The formatters
 * are kept per language: building one is the slow part.
 */

const money = new Map<string, Intl.NumberFormat>();
const signedMoney = new Map<string, Intl.NumberFormat>();
const dateTimes = new Map<string, Intl.DateTimeFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();

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
  const formatter = cached(
    cache,
    language,
    () =>
      new Intl.NumberFormat(language, {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: signed ? 'exceptZero' : 'auto',
      }),
  );
  return formatter.format(dollars);
}

/** A moment (ISO-8601) as a date and a time in the reader's language and time zone. */
export function formatDateTime(iso: string, language: string): string {
  const formatter = cached(
    dateTimes,
    language,
    () => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }),
  );
  return formatter.format(new Date(iso));
}

/** A moment (ISO-8601) as a date in the reader's language and time zone. */
export function formatDate(iso: string, language: string): string {
  const formatter = cached(
    dates,
    language,
    () => new Intl.DateTimeFormat(language, { dateStyle: 'medium' }),
  );
  return formatter.format(new Date(iso));
}

const numbers = new Map<string, Intl.NumberFormat>();

/**
 * A number format of the reader's language, kept by `key` (the options' name: "percent",
 * "n2"…), since building one is the slow part.
 */
export function numberFormat(
  language: string,
  key: string,
  options: Intl.NumberFormatOptions,
): Intl.NumberFormat {
  return cached(numbers, `${language}|${key}`, () => new Intl.NumberFormat(language, options));
}
