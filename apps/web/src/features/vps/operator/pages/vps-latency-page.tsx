import { BROKER_SERVER_MAX, LATENCY_MIN_OWNERS, LATENCY_WINDOW_DAYS } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useGetAdminVpsLatencyQuery,
  useGetAdminVpsRatesQuery,
  type LatencyLine,
} from '../api/vps-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const ALL = 'all';

/**
 * Route module (lazy, the vps role): the latency map as the order form reads it, for deciding
 * where to put servers: each broker trade server by location with the ping monitored terminals
 * measured from there (median, 90th percentile, terminals), by location then the most
 * terminals; narrowed to a location and to the servers whose name starts as typed. The same
 * aggregates as users see, under the same rule: nothing measured by fewer owners' terminals.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.latency.title'));
  const headingId = useId();
  const [params, setFilter] = useFilterParams();
  const broker = params.get('broker') ?? '';
  const rates = useGetAdminVpsRatesQuery();
  const locations = [...new Set((rates.data?.rates ?? []).map((rate) => rate.location))];
  const location = params.get('location') ?? undefined;
  const [page, setPage] = usePageParam();
  const query = useGetAdminVpsLatencyQuery({ location, broker, page });

  const ms = (value: number) => t('vps.latency.ms', { value });
  const columns: Column<LatencyLine>[] = [
    { id: 'location', header: t('vps.latency.columns.location'), cell: (line) => line.location },
    {
      id: 'broker',
      header: t('vps.latency.columns.broker'),
      cell: (line) => <span className={styles.mono}>{line.broker}</span>,
    },
    {
      id: 'median',
      header: t('vps.latency.columns.median'),
      numeric: true,
      cell: (line) => ms(line.median_ms),
    },
    {
      id: 'p90',
      header: t('vps.latency.columns.p90'),
      numeric: true,
      cell: (line) => ms(line.p90_ms),
    },
    {
      id: 'terminals',
      header: t('vps.latency.columns.terminals'),
      numeric: true,
      cell: (line) => line.terminals,
    },
  ];

  // a location in the address that no rate names any more stays choosable
  const locationOptions = [
    { value: ALL, label: t('vps.latency.allLocations') },
    ...[...locations, ...(location && !locations.includes(location) ? [location] : [])].map(
      (value) => ({ value, label: value }),
    ),
  ];
  const filtered = Boolean(broker || location);

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        title={t('vps.latency.title')}
        lead={t('vps.latency.lead', { days: LATENCY_WINDOW_DAYS, owners: LATENCY_MIN_OWNERS })}
      >
        <RefreshButton result={query} />
      </ListHeader>
      <div className={controlStyles.filters}>
        <SearchForm
          label={t('vps.latency.search')}
          name="broker"
          value={broker}
          spellCheck={false}
          maxLength={BROKER_SERVER_MAX}
          submitLabel={t('vps.latency.searchSubmit')}
          onSearch={(value) => setFilter('broker', value)}
        />
        <SelectField
          label={t('vps.latency.location')}
          options={locationOptions}
          value={location ?? ALL}
          onChange={(event) => setFilter('location', event.target.value, ALL)}
        />
      </div>
      <PagedTable
        result={query}
        empty={filtered ? t('vps.latency.emptyFiltered') : t('vps.latency.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('vps.latency.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
