import { DAY_MS, HOUR_MS, MINUTE_MS } from '@tradehost/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/lib/format-date';
import { formatMoney } from '../../../shared/lib/format-money';

export interface Formatters {
  /** "$1,234.50" (en), "1 234,50 $" (ru). */
  money(amount: number): string;
  /** With its sign always shown: "+$25.00", "−$25.00"; zero has none. */
  signedMoney(amount: number): string;
  /** Date and time, e.g. "Mar 5, 2025, 14:02". */
  dateTime(iso: string): string;
  /** How long ago, e.g. "3 hr. ago", "2 дн. назад". */
  age(iso: string, now?: number): string;
}

/**
 * Formatters in the reader's language: amounts in US dollars and dates in the local time zone
 * (shared/lib/format-money and format-date, as the rest of the console shows them), ages here.
 */
export function createFormatters(language: string): Formatters {
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'always', style: 'short' });
  // under a minute: 'now' ('сейчас'), not '0 min. ago'
  const moment = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' });
  return {
    money: (amount) => formatMoney(amount, language),
    signedMoney: (amount) => formatMoney(amount, language, { signed: true }),
    dateTime: (iso) => (Number.isNaN(Date.parse(iso)) ? iso : formatDateTime(iso, language)),
    age: (iso, now = Date.now()) => {
      const elapsed = Math.max(0, now - Date.parse(iso));
      if (Number.isNaN(elapsed)) return '';
      if (elapsed < MINUTE_MS) return moment.format(0, 'second');
      if (elapsed < HOUR_MS) return relative.format(-Math.floor(elapsed / MINUTE_MS), 'minute');
      if (elapsed < DAY_MS) return relative.format(-Math.floor(elapsed / HOUR_MS), 'hour');
      return relative.format(-Math.floor(elapsed / DAY_MS), 'day');
    },
  };
}

export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return useMemo(() => createFormatters(language), [language]);
}

/** Cents of a dollar amount as the API sends it (two decimals at most). */
export const toCents = (dollars: number): number => Math.round(dollars * 100);

/** Whether a payment has waited for review longer than a day. */
export const isOverdue = (iso: string, now = Date.now()): boolean => now - Date.parse(iso) > DAY_MS;
