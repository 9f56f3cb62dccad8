import {
  PUBLISHER_STATES,
  type AdminMonitoringAccount,
  type PublisherState,
} from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { SelectField } from '../../../../shared/ui/form';
import { useGetAdminMonitoringAccountsQuery } from '../api/monitoring-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { Badge, type Tone } from '../../../operator/components/badge';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const ALL = 'all';
const PUBLISHER_TONES: Record<PublisherState, Tone> = {
  reporting: 'success',
  silent: 'warning',
  never: 'neutral',
};

/**
 * Route module (lazy, admins only): every monitored account, newest first, by number, name or
 * owner's e-mail and by its publisher's state, with the publisher's version and its last data:
 * where support looks first when a trader says the figures stopped.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('monitoring.accounts.title'));
  const format = useFormatters();
  const headingId = useId();
  const [params, setFilter] = useFilterParams();
  const search = params.get('search') ?? '';
  const publisher = oneOf<PublisherState>(PUBLISHER_STATES, params.get('publisher'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminMonitoringAccountsQuery({ search, publisher, page });

  const columns: Column<AdminMonitoringAccount>[] = [
    {
      id: 'account',
      header: t('monitoring.accounts.columns.account'),
      cell: (a) => (
        <span className={controlStyles.stack}>
          <strong>{a.name}</strong>
          <span className={`${styles.mono} ${controlStyles.small}`}>
            {a.platform} · {a.login}
          </span>
        </span>
      ),
    },
    {
      id: 'user',
      header: t('monitoring.accounts.columns.user'),
      cell: (a) => <Person user={a.user} />,
    },
    {
      id: 'broker',
      header: t('monitoring.accounts.columns.broker'),
      cell: (a) =>
        a.company || a.server ? (
          <span className={controlStyles.stack}>
            <span>{a.company ?? '—'}</span>
            <span className={controlStyles.small}>{a.server ?? '—'}</span>
          </span>
        ) : (
          <span className={styles.muted}>—</span>
        ),
    },
    {
      id: 'version',
      header: t('monitoring.accounts.columns.version'),
      cell: (a) =>
        a.ea_version ? (
          <span className={styles.mono}>{a.ea_version}</span>
        ) : (
          <span className={styles.muted}>—</span>
        ),
    },
    {
      id: 'lastData',
      header: t('monitoring.accounts.columns.lastData'),
      cell: (a) =>
        a.last_data_at ? (
          <span className={controlStyles.stack}>
            <span>{format.dateTime(a.last_data_at)}</span>
            <span className={controlStyles.small}>{format.age(a.last_data_at)}</span>
          </span>
        ) : (
          <span className={styles.muted}>{t('monitoring.accounts.never')}</span>
        ),
    },
    {
      id: 'publisher',
      header: t('monitoring.accounts.columns.publisher'),
      cell: (a) => (
        <span className={controlStyles.stack}>
          <Badge tone={PUBLISHER_TONES[a.publisher]}>
            {t(`monitoring.publisher.${a.publisher}`)}
          </Badge>
          {a.publisher !== 'never' ? (
            <span className={controlStyles.small}>
              {t(
                // the terminal's state is that of the latest snapshot: a silent publisher's is
                // from then, not now, and says so
                `monitoring.accounts.${a.publisher === 'silent' ? 'lastData' : 'now'}.${a.terminal_connected ? 'connected' : 'disconnected'}`,
              )}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'subscription',
      header: t('monitoring.accounts.columns.subscription'),
      cell: (a) => (
        <span className={controlStyles.stack}>
          <Link to={`/operator/monitoring/subscriptions?search=${a.subscription_id}`}>
            {t('number', { id: a.subscription_id })}
          </Link>
          {a.subscription_active ? null : (
            <Badge tone="neutral">{t('monitoring.accounts.ended')}</Badge>
          )}
        </span>
      ),
    },
    {
      id: 'page',
      header: t('monitoring.accounts.columns.page'),
      cell: (a) => (
        <span className={controlStyles.stack}>
          {a.is_public ? (
            <Link to={`/online-monitoring/${a.monitoring_id}`}>
              {t('monitoring.accounts.publicPage')}
              <span className="visually-hidden"> {a.name}</span>
            </Link>
          ) : (
            <span className={styles.muted}>{t('monitoring.accounts.private')}</span>
          )}
          <span className={controlStyles.small}>
            {t('monitoring.accounts.views', { count: a.views })}
          </span>
        </span>
      ),
    },
  ];

  const publisherOptions = [ALL, ...PUBLISHER_STATES].map((value) => ({
    value,
    label:
      value === ALL ? t('monitoring.accounts.allPublishers') : t(`monitoring.publisher.${value}`),
  }));
  const filtered = Boolean(search || publisher);

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        title={t('monitoring.accounts.title')}
        lead={t('monitoring.accounts.lead')}
      >
        <RefreshButton result={query} />
      </ListHeader>
      <div className={controlStyles.filters}>
        <SearchForm
          label={t('monitoring.accounts.search')}
          name="search"
          value={search}
          spellCheck={false}
          maxLength={254}
          submitLabel={t('monitoring.accounts.searchSubmit')}
          onSearch={(value) => setFilter('search', value)}
        />
        <SelectField
          label={t('monitoring.accounts.publisher')}
          options={publisherOptions}
          value={publisher ?? ALL}
          onChange={(event) => setFilter('publisher', event.target.value, ALL)}
        />
      </div>
      <PagedTable
        result={query}
        empty={filtered ? t('monitoring.accounts.emptyFiltered') : t('monitoring.accounts.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('monitoring.accounts.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
