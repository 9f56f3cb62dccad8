/**
 * Dates and times in the reader's language and time zone, through Intl: "Nov 28, 2026, 11:33 PM",
 * "28 нояб. 2026 г., 23:33". Every date the console shows goes through here (tables, cards, ticket
 * lists, the profile, sentences like "Linked since …"), so it wraps one way everywhere.
 *
 * Where a line may break:
 * - never inside a date: its day, month and year (and the Russian "г.") are joined by no-break
 *   spaces. A reader takes "28 нояб. 2026 г." as one word; "29" at a line's end and "нояб." on the
 *   next read as two figures (at 375 px the ticket list wrote just that).
 * - never inside a time: "11:33 PM" keeps its "PM".
 * - only between the date and its time, after the date's comma ("28 нояб. 2026 г.," / "23:33"). We
 *   let that one break rather than glue the whole moment: glued, "28 нояб. 2026 г., 23:33" is some
 *   150 px that cannot shrink, and a phone's card or a narrow table column would either run it
 *   past its edge or give up room the other columns need. Broken there, it reads as a schedule
 *   writes it: the date, and under it the time of that date. Where there is room (the operator
 *   tables' date columns from 1280 px: DataTable's `moment`) the cell keeps it on one line.
 */

/** Which parts of a moment to write ('month': its month and year, "November 2026"). */
export type MomentParts = 'dateTime' | 'date' | 'time' | 'month';

export interface MomentOptions {
  /** The zone to write the moment in (default: the reader's); "UTC" for calendar days. */
  timeZone?: string;
  /**
   * The year may go under its day and month ("29 нояб." / "2026 г.", "Nov 29," / "2026"): for a
   * dense table's date columns (the VPS list at tablet width, two dates beside four buttons),
   * where a date that cannot break pushes the table past the page. Day and month still never part.
   */
  yearMayWrap?: boolean;
}

const STYLES: Record<MomentParts, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  month: { month: 'long', year: 'numeric' },
};

const DATE_PARTS = new Set<string>(['day', 'month', 'year', 'weekday', 'era', 'relatedYear']);
const TIME_PARTS = new Set<string>(['hour', 'minute', 'second', 'dayPeriod', 'timeZoneName']);

/** Spaces a line may break at (not the no-break U+00A0 nor the narrow no-break U+202F). */
const breakingSpace = /[^\S\u00a0\u202f]/g;
/** The spaces that end a text, of any kind. */
const trailingSpace = /\s+$/u;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(language: string, parts: MomentParts, timeZone: string | undefined) {
  const key = `${language}|${parts}|${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    // building one is the slow part
    formatter = new Intl.DateTimeFormat(language, { ...STYLES[parts], timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * A moment (an ISO-8601 text or a Date) in the reader's language, under the line-breaking rules
 * above: no-break spaces within the date and within the time, one breaking space between them.
 */
export function formatMoment(
  moment: string | Date,
  language: string,
  parts: MomentParts = 'dateTime',
  { timeZone, yearMayWrap = false }: MomentOptions = {},
): string {
  const pieces = formatterOf(language, parts, timeZone).formatToParts(
    typeof moment === 'string' ? new Date(moment) : moment,
  );
  return pieces
    .map((piece, index) => {
      if (piece.type !== 'literal') return piece.value;
      const after = pieces[index + 1]?.type ?? '';
      if (yearMayWrap && after === 'year') return piece.value;
      const glued = piece.value.replace(breakingSpace, '\u00a0');
      // the date's end and the time's start: its last space is the one place to break
      const beforeTime = DATE_PARTS.has(pieces[index - 1]?.type ?? '') && TIME_PARTS.has(after);
      return beforeTime && trailingSpace.test(piece.value)
        ? `${glued.replace(trailingSpace, '')} `
        : glued;
    })
    .join('');
}

/** A moment (ISO-8601) as a date and a time: "Nov 28, 2026, 11:33 PM". */
export function formatDateTime(iso: string, language: string): string {
  return formatMoment(iso, language, 'dateTime');
}

/** A moment (ISO-8601) as its date: "Nov 28, 2026", "28 нояб. 2026 г.". */
export function formatDate(iso: string, language: string): string {
  return formatMoment(iso, language, 'date');
}

/** A moment (ISO-8601) as its time of day: "11:33 PM", "23:33". */
export function formatTime(iso: string, language: string): string {
  return formatMoment(iso, language, 'time');
}
