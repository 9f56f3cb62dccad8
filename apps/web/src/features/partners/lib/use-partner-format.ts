import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/lib/format-date';
import { formatMoney, numberFormat } from '../../../shared/lib/format-money';

/** The partner texts and formats in the reader's language: money, dates, counts, percentages. */
export function usePartnerFormat() {
  const { t, i18n } = useTranslation('partners');
  const language = i18n.language;
  return {
    t,
    language,
    money: (dollars: number) => formatMoney(dollars, language),
    date: (iso: string) => formatDate(iso, language),
    count: (value: number) => numberFormat(language, 'n', {}).format(value),
    /** A percentage given in percent (10 -> "10 %", 2.5 -> "2.5 %"). */
    percent: (value: number) =>
      numberFormat(language, 'p', { style: 'percent', maximumFractionDigits: 2 }).format(
        value / 100,
      ),
    /** A fraction as a percentage with one decimal (0.125 -> "12.5 %"); null is a dash. */
    ratio: (fraction: number | null) =>
      fraction === null
        ? '—'
        : numberFormat(language, 'r', { style: 'percent', maximumFractionDigits: 1 }).format(
            fraction,
          ),
  };
}

export type PartnerFormat = ReturnType<typeof usePartnerFormat>;
