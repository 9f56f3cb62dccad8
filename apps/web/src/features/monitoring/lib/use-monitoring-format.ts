import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatMoment } from '../../../shared/lib/format-date';
import { formatMoney, numberFormat as number } from '../../../shared/lib/format-money';
import { formatPrice } from './format-price';

/**
 * The texts and formats of monitoring in the reader's language: fractions as percentages, money
 * in the account's currency (when it is a currency code), plain figures, moments and lengths.
 * A missing figure (null: not enough data, or hidden) is a dash.
 */
export function useMonitoringFormat() {
  const { t, i18n } = useTranslation('monitoring');
  const language = i18n.language;
  const dash = '—';
  return {
    t,
    language,
    dash,
    /** 0.0523 -> "5.23%", "5,23 %" in Russian (signed when asked: "+5.23%"; "−5.23%"). */
    percent: (fraction: number | null | undefined, signed = false) =>
      fraction === null || fraction === undefined
        ? dash
        : number(language, `p${signed}`, {
            style: 'percent',
            minimumFractionDigits: 2,
            maximumFractionDigits: 2,
            signDisplay: signed ? 'exceptZero' : 'negative',
          }).format(fraction),
    /** An amount in the account's currency ("$1,234.50"; an unknown code as "1,234.50 XYZ", its
     * space a no-break one like Intl's). */
    money: (amount: number | null | undefined, currency: string | null | undefined) => {
      if (amount === null || amount === undefined) return dash;
      if (!currency || currency === 'USD') return formatMoney(amount, language);
      try {
        return number(language, `m${currency}`, { style: 'currency', currency }).format(amount);
      } catch {
        return `${number(language, 'n2', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)}\u00a0${currency}`;
      }
    },
    /** A plain figure with `digits` decimals. */
    figure: (value: number | null | undefined, digits = 2) =>
      value === null || value === undefined
        ? dash
        : number(language, `n${digits}`, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
          }).format(value),
    /** A symbol's price with its digits (formatPrice); a missing one, or an unset SL/TP (0), a dash. */
    price: (value: number | null | undefined, digits: number | null | undefined) =>
      value === null || value === undefined || value === 0
        ? dash
        : formatPrice(value, digits, language),
    date: (iso: string) => formatDate(iso, language),
    dateTime: (iso: string | null) => (iso ? formatDateTime(iso, language) : dash),
    /** A row of the daily or monthly table, `YYYY-MM-DD` or `YYYY-MM` (a calendar day or month
     * of the account's zone): "Nov 29, 2026", "29 нояб. 2026 г."; "November 2026", "ноябрь 2026 г.". */
    period: (period: string) =>
      formatMoment(
        `${period.length === 7 ? `${period}-01` : period}T00:00:00Z`,
        language,
        period.length === 7 ? 'month' : 'date',
        { timeZone: 'UTC' },
      ),
    /** Seconds as "2 h 15 min", "3 d 4 h". */
    length: (seconds: number | null) => {
      if (seconds === null) return dash;
      const minutes = Math.round(seconds / 60);
      if (minutes < 60) return t('units.minutes', { count: minutes });
      const hours = Math.floor(minutes / 60);
      if (hours < 24) return t('units.hoursMinutes', { hours, minutes: minutes % 60 });
      return t('units.daysHours', { days: Math.floor(hours / 24), hours: hours % 24 });
    },
  };
}

export type MonitoringFormat = ReturnType<typeof useMonitoringFormat>;

/** The tone of a signed figure: gains green, losses red. */
export const toneOf = (value: number | null | undefined) =>
  value === null || value === undefined || value === 0 ? undefined : value > 0 ? 'up' : 'down';
