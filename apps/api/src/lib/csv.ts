/**
 * CSV files (RFC 4180) every export writes through: one cell function, so that no export lets a
 * spreadsheet run what a user or a terminal wrote.
 */

/** What a cell may be given. */
export type CsvValue = string | number | null | undefined;

/** A number as written: "-12.50", "3", "0.3". A spreadsheet reads it as a number, never a formula. */
const NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet starts a formula with (OWASP, CSV injection): = + - @, tab, carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: empty for null; a text starting like a formula behind a single quote, which the
 * spreadsheet shows and does not run ("=HYPERLINK(...)" -> "'=HYPERLINK(...)"), while a number
 * (a JavaScript number, or a text that is just one, "-12.50") stays a number; quoted, its quotes
 * doubled, when it holds a comma, a quote or a line break.
 */
export function csvCell(value: CsvValue): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * A whole file: the header and the rows, each cell through csvCell, CRLF after every line.
 * `bom`: starts with U+FEFF, so that spreadsheets read the UTF-8 (Cyrillic) as such.
 */
export function csvFile(
  header: readonly string[],
  rows: readonly (readonly CsvValue[])[],
  { bom = false } = {},
): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `${bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}
