import type { PageMeta } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../../shared/ui/form';
import styles from './operator.module.css';

export interface PaginationProps {
  meta: PageMeta;
  onPageChange: (page: number) => void;
  /** The list it pages through, for the navigation's name ("Pages of the review queue"). */
  label: string;
}

/**
 * "21–40 of 95", Previous and Next. The buttons stay focusable at either end (aria-disabled)
 * so that the focus is not lost when the last page is reached.
 */
export function Pagination({ meta, onPageChange, label }: PaginationProps) {
  const { t, i18n } = useTranslation('operator');
  const { page, per_page: perPage, total } = meta;
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = Math.min(total, (page - 1) * perPage + 1);
  const to = Math.min(total, page * perPage);
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const range = t('pagination.range', {
    from: number.format(from),
    to: number.format(to),
    total: number.format(total),
  });
  if (pages <= 1) return <p className={styles.range}>{range}</p>;
  const go = (target: number) => {
    if (target >= 1 && target <= pages && target !== page) onPageChange(target);
  };
  return (
    <nav className={styles.pagination} aria-label={label}>
      <p className={styles.range} aria-live="polite">
        {range}
      </p>
      <div className={styles.pageButtons}>
        <Button
          variant="secondary"
          aria-disabled={page <= 1 || undefined}
          onClick={() => go(page - 1)}
        >
          {t('pagination.previous')}
        </Button>
        <span className={styles.pageOf}>{t('pagination.page', { page, pages })}</span>
        <Button
          variant="secondary"
          aria-disabled={page >= pages || undefined}
          onClick={() => go(page + 1)}
        >
          {t('pagination.next')}
        </Button>
      </div>
    </nav>
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
