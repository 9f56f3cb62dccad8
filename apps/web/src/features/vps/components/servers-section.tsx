import {
  SERVER_STATUS_FILTERS,
  type PaidResponse,
  type UpgradeResponse,
} from '@tradehost/contracts';
import { useEffect, useId, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Button, TextField } from '../../../shared/ui/form';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { SERVERS_PER_PAGE, useGetVpsServersQuery } from '../api/vps-api';
import { useNow } from '../lib/use-now';
import { useVpsFormat } from '../lib/use-vps-format';
import { isSearchValid } from '../lib/vps';
import { NoticeAlert, renewedNotice, upgradedNotice, type Notice } from './notice';
import { ServerCards, ServersTable } from './servers-list';
import styles from './vps.module.css';

type StatusFilter = (typeof SERVER_STATUS_FILTERS)[number];
const FILTERS = ['all', ...SERVER_STATUS_FILTERS] as const;
/** The search applies this long after the last keystroke. */
export const SEARCH_DELAY_MS = 300;

export interface ServersSectionProps {
  notice: Notice | null;
  onNotice: (notice: Notice | null) => void;
  /** Leads to the rates (the empty state's "Order your first server"). */
  onOrder: () => void;
  /**
   * The page's own call of the first page (to choose its tab) has failed: the list shows that
   * failure rather than asking again as it mounts, and asks again when the reader retries.
   */
  firstPageFailed?: boolean;
}

/**
 * "My servers" (SPEC 2, VPS servers list): search by ID (digits), a status filter, a page at a
 * time (newest first); a table from tablet width up, cards on phones; loading, failure and
 * empty states, the empty one leading to the rates.
 */
export function ServersSection({
  notice,
  onNotice,
  onOrder,
  firstPageFailed = false,
}: ServersSectionProps) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const now = useNow();
  const isMobile = useAppSelector(selectIsMobile);
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter | 'all'>('all');
  const [page, setPage] = useState(1);

  const typed = draft.trim();
  const searchValid = isSearchValid(typed);
  useEffect(() => {
    if (!isSearchValid(typed) || typed === search) return;
    const timer = setTimeout(() => {
      setSearch(typed);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);

  // RTK Query asks again for an answer in error whenever a new subscriber comes, so the list
  // would repeat the page's failed call (and show a loading state between the two failures).
  const [retried, setRetried] = useState(false);
  const filtered = search !== '' || status !== 'all';
  const reuseFailure = firstPageFailed && !retried && !filtered && page === 1;
  const query = useGetVpsServersQuery(
    {
      ...(search ? { search } : {}),
      ...(status !== 'all' ? { status } : {}),
      page,
      perPage: SERVERS_PER_PAGE,
    },
    { skip: reuseFailure },
  );
  const { data, isFetching } = query;
  const isError = reuseFailure || query.isError;
  const retry = () => (reuseFailure ? setRetried(true) : void query.refetch());

  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const perPage = data?.meta.per_page ?? SERVERS_PER_PAGE;
  const caption = t('servers.caption');

  const clearFilters = () => {
    setDraft('');
    setSearch('');
    setStatus('all');
    setPage(1);
  };

  let content;
  if (!data && isFetching) {
    content = <LoadingState>{t('servers.loading')}</LoadingState>;
  } else if (isError && !isFetching) {
    content = (
      <ErrorState title={t('servers.loadFailed')} retryLabel={t('retry')} onRetry={retry} />
    );
  } else if (rows.length === 0) {
    content = filtered ? (
      <EmptyState
        title={t('servers.noMatchTitle')}
        action={
          <Button variant="secondary" onClick={clearFilters}>
            {t('servers.clearFilters')}
          </Button>
        }
      >
        {t('servers.noMatchText')}
      </EmptyState>
    ) : (
      <EmptyState
        title={t('servers.emptyTitle')}
        action={<Button onClick={onOrder}>{t('servers.orderFirst')}</Button>}
      >
        {t('servers.emptyText')}
      </EmptyState>
    );
  } else {
    const listProps = {
      servers: rows,
      now,
      caption,
      onRenewed: (result: PaidResponse) => onNotice(renewedNotice(result)),
      onUpgraded: (result: UpgradeResponse) => onNotice(upgradedNotice(result)),
    };
    content = (
      <div className={styles.results} aria-busy={isFetching || undefined}>
        {isMobile ? <ServerCards {...listProps} /> : <ServersTable {...listProps} />}
      </div>
    );
  }

  const from = (page - 1) * perPage + 1;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('tabs.servers')}
      </h2>
      {notice ? <NoticeAlert notice={notice} onDismiss={() => onNotice(null)} /> : null}
      <div className={styles.toolbar}>
        <form
          role="search"
          className={styles.search}
          onSubmit={(event) => {
            event.preventDefault();
            if (searchValid) {
              setSearch(typed);
              setPage(1);
            }
          }}
        >
          <TextField
            label={t('servers.search')}
            type="search"
            inputMode="numeric"
            autoComplete="off"
            placeholder={t('servers.searchPlaceholder')}
            value={draft}
            error={searchValid ? undefined : fieldErrorText(t, 'SEARCH_INVALID')}
            onChange={(event) => setDraft(event.target.value)}
          />
        </form>
        <fieldset className={styles.filter}>
          <legend className={fieldStyles.label}>{t('servers.filter')}</legend>
          <div className={segments.segments}>
            {FILTERS.map((option) => (
              <label key={option} className={segments.segment}>
                <input
                  type="radio"
                  className={segments.radio}
                  name={`${headingId}-status`}
                  value={option}
                  checked={status === option}
                  onChange={() => {
                    setStatus(option);
                    setPage(1);
                  }}
                />
                <span className={segments.text}>{t(`servers.filters.${option}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <p className={styles.count} role="status">
        {data && !isFetching ? t('servers.count', { total }) : ''}
      </p>
      {content}
      {rows.length > 0 ? (
        <Pagination
          page={page}
          pageCount={pageCountOf(total, perPage)}
          onPageChange={setPage}
          label={t('servers.pages')}
          range={t('servers.range', {
            from,
            to: Math.min(total, from + rows.length - 1),
            total,
          })}
        />
      ) : null}
    </section>
  );
}
