import { SERVER_STATUSES, type AdminServer, type ServerStatus } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { SelectField } from '../../../../shared/ui/form';
import { useGetAdminVpsServersQuery } from '../api/vps-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { Badge } from '../../../operator/components/badge';
import { OperationStatusBadge, PowerBadge, ServerStatusBadge } from '../components/vps-badges';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const ALL = 'all';

/**
 * Route module (lazy, admins only): every user's servers, newest first, by server number or
 * owner's e-mail and by status, with their state and the operation running on each; a row
 * opens the server's operations log.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.servers.title'));
  const format = useFormatters();
  const headingId = useId();
  const [params, setFilter] = useFilterParams();
  const search = params.get('search') ?? '';
  const status = oneOf<ServerStatus>(SERVER_STATUSES, params.get('status'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminVpsServersQuery({ search, status, page });

  const columns: Column<AdminServer>[] = [
    {
      id: 'server',
      header: t('vps.servers.columns.server'),
      cell: (server) => (
        <span className={controlStyles.stack}>
          <span className={controlStyles.inline}>
            <strong>{t('number', { id: server.id })}</strong>
            {server.is_trial ? <Badge tone="info">{t('vps.servers.trial')}</Badge> : null}
          </span>
          {server.machine_id ? (
            <span className={`${styles.mono} ${controlStyles.small}`}>
              {t('vps.servers.machine', { id: server.machine_id })}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'user',
      header: t('vps.servers.columns.user'),
      cell: (server) => <Person user={server.user} />,
    },
    {
      id: 'rate',
      header: t('vps.servers.columns.rate'),
      cell: (server) => (
        <span className={controlStyles.stack}>
          <span>{server.rate.name}</span>
          <span className={controlStyles.small}>
            {t('vps.servers.rateSummary', {
              cpu: t('vps.units.cpu', { value: server.rate.cpu_cores }),
              ram: t('vps.units.gb', { value: server.rate.ram_gb }),
              location: server.rate.location,
            })}
          </span>
        </span>
      ),
    },
    {
      id: 'status',
      header: t('vps.servers.columns.status'),
      cell: (server) => (
        <span className={controlStyles.stack}>
          <ServerStatusBadge status={server.status} />
          {server.failure ? (
            <span className={controlStyles.errorText}>{server.failure}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'power',
      header: t('vps.servers.columns.power'),
      cell: (server) => <PowerBadge power={server.power} />,
    },
    {
      id: 'paidUntil',
      header: t('vps.servers.columns.paidUntil'),
      moment: true,
      cell: (server) => format.dateTime(server.paid_until),
    },
    {
      id: 'operation',
      header: t('vps.servers.columns.operation'),
      cell: (server) =>
        server.operation ? (
          <span className={controlStyles.stack}>
            <span>{t(`vps.operationKinds.${server.operation.kind}`)}</span>
            <OperationStatusBadge status={server.operation.status} />
          </span>
        ) : (
          <span className={styles.muted}>{t('vps.servers.noOperation')}</span>
        ),
    },
    {
      id: 'actions',
      header: t('vps.servers.columns.actions'),
      actions: true,
      cell: (server) => (
        <Link
          className={controlStyles.linkButton}
          to={`/operator/vps/operations?server_id=${server.id}`}
        >
          {t('vps.servers.operationsLog')}{' '}
          <span className="visually-hidden">{t('vps.servers.rowContext', { id: server.id })}</span>
        </Link>
      ),
    },
  ];

  const statusOptions = [ALL, ...SERVER_STATUSES].map((value) => ({
    value,
    label: value === ALL ? t('vps.servers.allStatuses') : t(`vps.serverStatuses.${value}`),
  }));

  const filtered = Boolean(search || status);

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader headingId={headingId} title={t('vps.servers.title')} lead={t('vps.servers.lead')}>
        <RefreshButton result={query} />
      </ListHeader>
      <div className={controlStyles.filters}>
        <SearchForm
          label={t('vps.servers.search')}
          name="search"
          value={search}
          spellCheck={false}
          maxLength={254}
          submitLabel={t('vps.servers.searchSubmit')}
          onSearch={(value) => setFilter('search', value)}
        />
        <SelectField
          label={t('vps.servers.status')}
          options={statusOptions}
          value={status ?? ALL}
          onChange={(event) => setFilter('status', event.target.value, ALL)}
        />
      </div>
      <PagedTable
        result={query}
        empty={filtered ? t('vps.servers.emptyFiltered') : t('vps.servers.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('vps.servers.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
