import type { Page } from '@tradehost/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert } from '../../../shared/ui/form';
import { EmptyState } from '../../../shared/ui/page/page';
import { useOperatorError } from '../lib/use-operator-error';
import styles from './operator.module.css';

/** A list or a record on its way (announced politely). */
export function Loading({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('operator');
  return (
    <p className={styles.loading} role="status">
      <span className={styles.spinner} aria-hidden="true" />
      {children ?? t('states.loading')}
    </p>
  );
}

/** A failed fetch: what went wrong, and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  return (
    <FormAlert tone="error" title={t('states.loadFailed')}>
      <p className={styles.alertText}>{errorText.request(error)}</p>
      <Button variant="secondary" className={styles.retry} onClick={onRetry}>
        {t('states.retry')}
      </Button>
    </FormAlert>
  );
}

export function Empty({ title, children }: { title?: string; children: ReactNode }) {
  return <EmptyState title={title}>{children}</EmptyState>;
}

export interface ListResult<T> {
  /** The last page that came back: while another one loads it stays (dimmed, aria-busy). */
  data?: Page<T>;
  isError: boolean;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/**
 * A paged list's states: loading (nothing yet), failed (with Try again; a page shown before
 * stays under the alert, so the pagination and its focus stay too), empty, or the rows.
 */
export function ListStates<T>({
  result,
  empty,
  children,
}: {
  result: ListResult<T>;
  empty: ReactNode;
  children: (page: Page<T>) => ReactNode;
}) {
  const failed = result.isError && !result.isFetching;
  return (
    <>
      {failed ? <LoadError error={result.error} onRetry={() => void result.refetch()} /> : null}
      {result.data ? (
        result.data.data.length === 0 && result.data.meta.page === 1 ? (
          <Empty>{empty}</Empty>
        ) : (
          children(result.data)
        )
      ) : failed ? null : (
        <Loading />
      )}
    </>
  );
}
