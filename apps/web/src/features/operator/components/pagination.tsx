import type { PageMeta } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { pageCountOf, Pagination } from '../../../shared/ui/pagination/pagination';

export interface ListPaginationProps {
  meta: PageMeta;
  onPageChange: (page: number) => void;
  /** The list it pages through, for the navigation's name ("Pages of the review queue"). */
  label: string;
}

/**
 * A list's pagination (shared/ui/pagination) with the range it shows, "21–40 of 95"; nothing
 * for an empty list, the range alone when the list fits on one page.
 */
export function ListPagination({ meta, onPageChange, label }: ListPaginationProps) {
  const { t, i18n } = useTranslation('operator');
  const { page, per_page: perPage, total } = meta;
  if (total === 0) return null;
  const from = Math.min(total, (page - 1) * perPage + 1);
  const to = Math.min(total, page * perPage);
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const range = t('pagination.range', {
    from: number.format(from),
    to: number.format(to),
    total: number.format(total),
  });
  return (
    <Pagination
      page={page}
      pageCount={pageCountOf(total, perPage)}
      onPageChange={onPageChange}
      label={label}
      range={range}
    />
  );
}

/** The `page` search parameter (1 when absent or not a page number) and a setter. */
export function usePageParam(name = 'page'): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const value = Number(params.get(name));
  const page = Number.isInteger(value) && value >= 1 ? value : 1;
  const setPage = (next: number) =>
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (next <= 1) updated.delete(name);
      else updated.set(name, String(next));
      return updated;
    });
  return [page, setPage];
}
