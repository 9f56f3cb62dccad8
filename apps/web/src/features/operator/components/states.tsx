import type { Page } from '@tradehost/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useOperatorError } from '../lib/use-operator-error';

/** A list or a record on its way (announced politely). */
export function Loading() {
  const { t } = useTranslation('operator');
  return <LoadingState>{t('states.loading')}</LoadingState>;
}

/** A failed fetch: what went wrong, and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  return (
    <ErrorState
      title={t('states.loadFailed')}
      detail={errorText.request(error)}
      retryLabel={t('states.retry')}
      onRetry={onRetry}
    />
  );
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
          <EmptyState>{empty}</EmptyState>
        ) : (
          children(result.data)
        )
      ) : failed ? null : (
        <Loading />
      )}
    </>
  );
}
