import { useState } from 'react';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { EmptyState } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  useGetPublicAccountQuery,
  useGetPublicChartQuery,
  useGetPublicExcursionsQuery,
  useGetPublicPositionsQuery,
  useGetPublicTradesQuery,
} from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { Breakdowns } from './breakdowns';
import { AccountCharts } from './charts';
import styles from './monitoring.module.css';
import { PeriodTables } from './period-tables';
import { RiskOfRuin } from './risk-of-ruin';
import { Risks } from './risks';
import { StatisticsView } from './statistics-view';
import { PositionsTable, TradesTable } from './trades-table';
import { Verification } from './verification';

/**
 * An account's public page, signed in or out: the figures less what its owner hid, and the
 * analysis of the whole history (its strategies' names are the owner's to give). A private or
 * missing account says so in the same words.
 */
export function PublicAccount({ monitoringId }: { monitoringId: string }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const [page, setPage] = useState(1);
  const found = useGetPublicAccountQuery(monitoringId);
  const account = found.data?.account;
  const chart = useGetPublicChartQuery(monitoringId, { skip: !account });
  const positions = useGetPublicPositionsQuery(monitoringId, { skip: !account?.shows_positions });
  const trades = useGetPublicTradesQuery({ monitoringId, page }, { skip: !account?.shows_history });
  const excursions = useGetPublicExcursionsQuery(monitoringId, {
    skip: !account?.shows_history,
  });

  if (found.isError) {
    if (isApiRequestError(found.error) && found.error.status === 404)
      return (
        <EmptyState title={t('public.notFound')}>
          <p>{t('public.notFoundLead')}</p>
        </EmptyState>
      );
    return (
      <ErrorState
        title={t('account.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void found.refetch()}
      />
    );
  }
  if (!found.data || !account) return <LoadingState>{t('loading')}</LoadingState>;
  const { statistics } = found.data;
  return (
    <article aria-labelledby="public-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="public-title" className={styles.sectionTitle}>
            {account.name}
          </h2>
          <p className={styles.muted}>
            {[
              account.platform,
              account.login,
              account.company,
              account.server,
              account.leverage ? `1:${account.leverage}` : null,
              account.trade_mode
                ? t(`public.mode.${account.trade_mode}`, { defaultValue: account.trade_mode })
                : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
        <p className={styles.muted}>
          {t('public.views', { count: account.views })}
          {' · '}
          {t('public.updated', { at: f.dateTime(account.last_data_at) })}
        </p>
      </div>
      <Verification verification={statistics.verification} />
      {account.shows_money ? null : <p className={styles.muted}>{t('public.percentOnly')}</p>}
      <StatisticsView s={statistics} />
      <RiskOfRuin ruin={statistics.risk_of_ruin} />
      {chart.data && chart.data.points.length > 1 ? (
        <AccountCharts points={chart.data.points} />
      ) : null}
      <section className={styles.section} aria-labelledby="public-periods">
        <h2 id="public-periods" className={styles.sectionTitle}>
          {t('tables.title')}
        </h2>
        <PeriodTables s={statistics} />
      </section>
      <section className={styles.section} aria-labelledby="public-analysis">
        <h2 id="public-analysis" className={styles.sectionTitle}>
          {t('analysis.title')}
        </h2>
        <Breakdowns
          breakdowns={statistics.breakdowns}
          currency={statistics.currency}
          timeZone={account.time_zone}
        />
      </section>
      {account.shows_history && excursions.data ? (
        <section className={styles.section} aria-labelledby="public-risks">
          <h2 id="public-risks" className={styles.sectionTitle}>
            {t('risks.title')}
          </h2>
          <Risks excursions={excursions.data} currency={account.currency} />
        </section>
      ) : null}
      {account.shows_positions && positions.data ? (
        <section className={styles.section} aria-labelledby="public-positions">
          <h2 id="public-positions" className={styles.sectionTitle}>
            {t('positions.title')}
          </h2>
          <PositionsTable
            positions={positions.data}
            currency={account.currency}
            labelledBy="public-positions"
          />
        </section>
      ) : null}
      {account.shows_history && trades.data ? (
        <section className={styles.section} aria-labelledby="public-trades">
          <h2 id="public-trades" className={styles.sectionTitle}>
            {t('trades.title')}
          </h2>
          <TradesTable
            page={trades.data}
            currency={account.currency}
            onPageChange={setPage}
            labelledBy="public-trades"
          />
        </section>
      ) : null}
    </article>
  );
}
