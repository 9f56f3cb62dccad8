import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoment, formatTime } from './format-date';

const NBSP = '\u00a0';
/**
 * The characters of a text, so that a plain and a no-break space tell apart; a narrow no-break
 * space (which Intl writes before "г." or "PM" in some ICU versions) counts as a no-break one.
 */
const codes = (text: string) =>
  [...text.replace(/\u202f/g, NBSP)].map((c) => `U+${c.codePointAt(0)!.toString(16)}`);
/** Where a line may break: the plain spaces (a no-break and a narrow no-break one are not). */
const breaks = (text: string) => [...text.matchAll(/[^\S\u00a0\u202f]/gu)].map((m) => m.index);

const moment = '2026-11-28T23:33:00.000Z';
const utc = (language: string, parts: 'dateTime' | 'date' | 'time' = 'dateTime') =>
  formatMoment(moment, language, parts, { timeZone: 'UTC' });

describe('formatMoment', () => {
  it('joins a date’s day, month and year with no-break spaces, in English and Russian', () => {
    expect(codes(utc('en', 'date'))).toEqual(codes(`Nov${NBSP}28,${NBSP}2026`));
    expect(codes(utc('ru', 'date'))).toEqual(codes(`28${NBSP}нояб.${NBSP}2026${NBSP}г.`));
  });

  it('lets a line break only between the date and its time, after the date’s comma', () => {
    const en = utc('en');
    const ru = utc('ru');
    expect(en.replace(/[\u00a0\u202f]/g, ' ')).toBe('Nov 28, 2026, 11:33 PM');
    expect(ru.replace(/[\u00a0\u202f]/g, ' ')).toBe('28 нояб. 2026 г., 23:33');
    expect(breaks(en)).toEqual([en.indexOf('11:33') - 1]);
    expect(breaks(ru)).toEqual([ru.indexOf('23:33') - 1]);
    expect(codes(ru.slice(0, ru.indexOf(' ')))).toEqual(
      codes(`28${NBSP}нояб.${NBSP}2026${NBSP}г.,`),
    );
  });

  it('lets the year alone go to the next line where a dense table asks (yearMayWrap)', () => {
    const at = (language: string) =>
      formatMoment(moment, language, 'date', { timeZone: 'UTC', yearMayWrap: true });
    expect(codes(at('en'))).toEqual(codes(`Nov${NBSP}28, 2026`));
    expect(codes(at('ru'))).toEqual(codes(`28${NBSP}нояб. 2026${NBSP}г.`));
  });

  it('keeps a time’s "PM" with its figures', () => {
    expect(breaks(utc('en', 'time'))).toEqual([]);
    expect(utc('en', 'time')).toMatch(/^11:33[\u00a0\u202f]PM$/u);
    expect(utc('ru', 'time')).toBe('23:33');
  });

  it('writes a calendar day in the zone asked for', () => {
    expect(
      codes(formatMoment('2026-11-28T00:00:00.000Z', 'ru', 'date', { timeZone: 'UTC' })),
    ).toEqual(codes(`28${NBSP}нояб.${NBSP}2026${NBSP}г.`));
    expect(formatMoment(new Date(moment), 'en', 'date', { timeZone: 'Asia/Tokyo' })).toBe(
      `Nov${NBSP}29,${NBSP}2026`,
    );
  });
});

describe('formatDateTime, formatDate, formatTime', () => {
  it('write the moment in the reader’s time zone', () => {
    const iso = '2026-11-20T09:15:00.000Z';
    const local = new Date(iso);
    const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    const intl = (language: string, options: Intl.DateTimeFormatOptions) =>
      plain(new Intl.DateTimeFormat(language, options).format(local));
    for (const language of ['en', 'ru']) {
      expect(plain(formatDateTime(iso, language))).toBe(
        intl(language, { dateStyle: 'medium', timeStyle: 'short' }),
      );
      expect(plain(formatDate(iso, language))).toBe(intl(language, { dateStyle: 'medium' }));
      expect(plain(formatTime(iso, language))).toBe(intl(language, { timeStyle: 'short' }));
    }
    expect(formatDateTime(iso, 'en')).toMatch(/^Nov\u00a020,\u00a02026, /u);
    expect(formatDateTime(iso, 'ru')).toMatch(/^20\u00a0нояб\.\u00a02026[\u00a0\u202f]г\., /u);
  });
});
