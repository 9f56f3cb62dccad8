import type { ReactNode } from 'react';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useVpsFormat } from '../lib/use-vps-format';

/** What Loaded reads of an RTK Query hook's result. */
export interface LoadingQuery<T> {
  data?: T;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface LoadedProps<T> {
  query: LoadingQuery<T>;
  /** What is on its way ("Loading the snapshots…"). */
  loading: string;
  /** What could not be loaded, and why when it is known. */
  failed: string;
  detail?: string;
  /** The part itself, once its data is there. */
  children: (data: T) => ReactNode;
}

/**
 * A part of a server's page that reads its own data (the activity, the load, the snapshots, the
 * guardian): loading until the data is there, failed with a way to read it again (once a retry
 * has stopped running), else the part.
 */
export function Loaded<T>({ query, loading, failed, detail, children }: LoadedProps<T>) {
  const { t } = useVpsFormat();
  if (query.isError && !query.isFetching) {
    return (
      <ErrorState
        title={failed}
        detail={detail}
        retryLabel={t('retry')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data === undefined) return <LoadingState>{loading}</LoadingState>;
  return children(query.data);
}
