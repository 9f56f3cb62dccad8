/**
 * The periods of the calendar period picker (SPEC 2: presets All, Week, Month, Quarter, Year),
 * as the half-open ranges [from, to) the history endpoints take, in ISO-8601 (UTC).
 *
 * - All: no bounds.
 * - Week, Month, Quarter, Year: from the same wall-clock moment 7 days, 1, 3 or 12 calendar
 *   months before now, in the reader's time zone (Month is a calendar month, not 30 days: on
 *   21 November it starts on 21 October at the same time; a day the shorter month lacks clamps
 *   to its last day, so 31 March goes back to 28 or 29 February). The end is left open: "up to
 *   now" without freezing the moment of the choice, so an operation made after it still shows.
 * - Custom: from the start of the from-day to the start of the day after the to-day (exclusive),
 *   both in the reader's local time zone; either day may be left empty (an open end).
 *
 * Pure functions of `now`, so that they are tested without a clock.
 */

export const PERIOD_PRESETS = ['all', 'week', 'month', 'quarter', 'year'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodMode = PeriodPreset | 'custom';

/** A period as the API takes it: ISO-8601 instants, `to` exclusive; a missing end is open. */
export interface PeriodRange {
  from?: string;
  to?: string;
}

/** What the reader chose: a preset, or two calendar days (`YYYY-MM-DD`, '' for an open end). */
export type PeriodSelection =
  { preset: PeriodPreset } | { preset: 'custom'; from: string; to: string };

export const ALL_TIME: PeriodSelection = { preset: 'all' };

const MONTHS_BACK = { month: 1, quarter: 3, year: 12 } as const;

/** The same wall-clock time `days` calendar days earlier, in the local time zone. */
export function daysBefore(now: Date, days: number): Date {
  const date = new Date(now);
  date.setDate(date.getDate() - days);
  return date;
}

/**
 * The same wall-clock time `months` calendar months earlier, in the local time zone; a day of
 * the month the target month lacks becomes its last day (31 March - 1 month = 28/29 February).
 */
export function monthsBefore(now: Date, months: number): Date {
  const year = now.getFullYear();
  const month = now.getMonth() - months;
  const lastDay = new Date(year, month + 1, 0).getDate();
  return new Date(
    year,
    month,
    Math.min(now.getDate(), lastDay),
    now.getHours(),
    now.getMinutes(),
    now.getSeconds(),
    now.getMilliseconds(),
  );
}

/** The range of a preset at `now`. */
export function presetRange(preset: PeriodPreset, now: Date): PeriodRange {
  if (preset === 'all') return {};
  const from = preset === 'week' ? daysBefore(now, 7) : monthsBefore(now, MONTHS_BACK[preset]);
  return { from: from.toISOString() };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local midnight that starts a `YYYY-MM-DD` day, or null when it is not a real date. */
export function startOfDay(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = new Date(2000, 0, 1); // local midnight; setFullYear keeps years 0-99 as they are
  start.setFullYear(year, month, date);
  // 2026-02-30 rolls over to March: not a day of the calendar
  if (start.getFullYear() !== year || start.getMonth() !== month || start.getDate() !== date) {
    return null;
  }
  return start;
}

/** The local midnight that starts the day after `day` (the exclusive end of that day). */
export function endOfDay(day: string): Date | null {
  const next = startOfDay(day);
  if (!next) return null;
  next.setDate(next.getDate() + 1); // a calendar day: 23 or 25 hours on a daylight-saving change
  return next;
}

/** `YYYY-MM-DD` of a moment in the local time zone (the value of an `<input type="date">`). */
export function localDay(date: Date): string {
  const pad = (value: number, length = 2) => String(value).padStart(length, '0');
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export type CustomRangeError = 'from-invalid' | 'to-invalid' | 'order';
export type CustomRangeResult =
  { ok: true; range: PeriodRange } | { ok: false; error: CustomRangeError };

/** The range of two calendar days (either may be '' for an open end), or why it is not one. */
export function customRange(fromDay: string, toDay: string): CustomRangeResult {
  const from = fromDay ? startOfDay(fromDay) : undefined;
  if (from === null) return { ok: false, error: 'from-invalid' };
  const to = toDay ? endOfDay(toDay) : undefined;
  if (to === null) return { ok: false, error: 'to-invalid' };
  if (from && to && from.getTime() >= to.getTime()) return { ok: false, error: 'order' };
  const range: PeriodRange = {};
  if (from) range.from = from.toISOString();
  if (to) range.to = to.toISOString();
  return { ok: true, range };
}

/** The range of a selection at `now`; an invalid custom selection reads as no bounds. */
export function periodRange(selection: PeriodSelection, now: Date): PeriodRange {
  if (selection.preset !== 'custom') return presetRange(selection.preset, now);
  const result = customRange(selection.from, selection.to);
  return result.ok ? result.range : {};
}
