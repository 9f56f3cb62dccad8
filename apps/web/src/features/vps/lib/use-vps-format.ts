import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatMoment } from '../../../shared/lib/format-date';
import { formatMoney } from '../../../shared/lib/format-money';

const pluralRules = new Map<string, Intl.PluralRules>();

function cached<T>(cache: Map<string, T>, language: string, create: () => T): T {
  let value = cache.get(language);
  if (!value) {
    value = create();
    cache.set(language, value);
  }
  return value;
}

/**
 * The texts and formats of the VPS page in the reader's language: money (dollars or cents),
 * moments, UTC calendar days (the upgrade dates), the rental periods and a count of days.
 */
export function useVpsFormat() {
  const { t, i18n } = useTranslation('vps');
  const language = i18n.language;
  return {
    t,
    language,
    money: (dollars: number) => formatMoney(dollars, language),
    cents: (cents: number) => formatMoney(cents / 100, language),
    date: (iso: string) => formatDate(iso, language),
    /** A date in the servers list's columns: its year may go under day and month. */
    listDate: (iso: string) => formatMoment(iso, language, 'date', { yearMayWrap: true }),
    dateTime: (iso: string) => formatDateTime(iso, language),
    /** A `YYYY-MM-DD` UTC day. */
    day: (day: string) =>
      formatMoment(`${day}T00:00:00.000Z`, language, 'date', { timeZone: 'UTC' }),
    /** "3 months", "3 месяца". */
    period: (months: number) => t(`periods.${months}`, { defaultValue: String(months) }),
    /** "3 days", "3 дня": the plural form of the language. */
    days: (count: number) => {
      const form = cached(pluralRules, language, () => new Intl.PluralRules(language)).select(
        count,
      );
      return t(`units.days.${form}`, { days: count, defaultValue: `${count}` });
    },
  };
}

export type VpsFormat = ReturnType<typeof useVpsFormat>;
