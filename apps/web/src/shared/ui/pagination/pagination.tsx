import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StrokeIcon } from '../icon/stroke-icon';
import styles from './pagination.module.css';

export interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  className?: string;
  /** The navigation's name when a page has more than one list ("Pages of the audit log"). */
  label?: string;
  /**
   * Which items show, e.g. "21–40 of 95": put before the buttons and announced instead of the
   * page number; shown alone when everything fits on one page.
   */
  range?: ReactNode;
}

/** The page count of `total` items shown `perPage` at a time (at least 1). */
export function pageCountOf(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return <StrokeIcon size={16} d={direction === 'left' ? 'M15 6l-6 6 6 6' : 'M9 6l6 6-6 6'} />;
}

/**
 * "Page X of Y" between Previous and Next, in a navigation landmark; nothing when everything
 * fits on one page (but the `range`, when given). At either end the button stays focusable and
 * says it is unavailable (aria-disabled), so the focus is not lost when the last page is reached
 * by clicking Next.
 */
export function Pagination({
  page,
  pageCount,
  onPageChange,
  className,
  label,
  range,
}: PaginationProps) {
  const { t } = useTranslation('controls');
  const hasRange = range !== undefined && range !== null;
  if (pageCount <= 1) return hasRange ? <p className={styles.range}>{range}</p> : null;
  const atStart = page <= 1;
  const atEnd = page >= pageCount;
  return (
    <nav
      className={[styles.pagination, className].filter(Boolean).join(' ')}
      aria-label={label ?? t('pagination.label')}
    >
      {hasRange ? (
        <p className={styles.range} aria-live="polite">
          {range}
        </p>
      ) : null}
      <div className={styles.controls}>
        <button
          type="button"
          className={styles.button}
          aria-disabled={atStart || undefined}
          onClick={() => (atStart ? undefined : onPageChange(page - 1))}
        >
          <Chevron direction="left" />
          <span className={styles.label}>{t('pagination.previous')}</span>
        </button>
        <p className={styles.status} aria-live={hasRange ? undefined : 'polite'}>
          {t('pagination.status', { page, pages: pageCount })}
        </p>
        <button
          type="button"
          className={styles.button}
          aria-disabled={atEnd || undefined}
          onClick={() => (atEnd ? undefined : onPageChange(page + 1))}
        >
          <span className={styles.label}>{t('pagination.next')}</span>
          <Chevron direction="right" />
        </button>
      </div>
    </nav>
  );
}
