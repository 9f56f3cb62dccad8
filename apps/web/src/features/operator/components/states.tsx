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

export interface QueryResult<D> {
  /** What came back last: while it is fetched again it stays (dimmed, aria-busy). */
  data?: D;
  isError: boolean;
  isFetching: boolean;
  error?: unknown;
  refetch: () => unknown;
}

/** A paged list's query. */
export type ListResult<T> = QueryResult<Page<T>>;

/**
 * A list's states: loading (nothing yet), failed (with Try again; a list shown before stays
 * under the alert, so its pagination and its focus stay too), empty, or the rows.
 */
export function QueryStates<D>({
  result,
  isEmpty,
  empty,
  children,
}: {
  result: QueryResult<D>;
  isEmpty: (data: D) => boolean;
  empty: ReactNode;
  children: (data: D) => ReactNode;
}) {
  const failed = result.isError && !result.isFetching;
  return (
    <>
      {failed ? <LoadError error={result.error} onRetry={() => void result.refetch()} /> : null}
      {result.data ? (
        isEmpty(result.data) ? (
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
