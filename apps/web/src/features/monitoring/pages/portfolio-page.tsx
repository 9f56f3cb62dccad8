import { MONITORING_ID_PATTERN, type PortfolioSummary } from '@tradehost/contracts';
import { Link, useParams } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetMonitoringAccountsQuery } from '../api/monitoring-api';
import {
  portfoliosApi,
  useGetOwnPortfolioQuery,
  useGetPortfolioQuery,
} from '../api/portfolios-api';
import styles from '../components/monitoring.module.css';
import { PortfolioSettings } from '../components/portfolio-settings';
import { portfolioLine, PortfolioView } from '../components/portfolio-view';
import { PublicPortfolio } from '../components/public-portfolio';
import { useMonitoringFormat } from '../lib/use-monitoring-format';

/**
 * Route module (lazy): one portfolio at `/online-monitoring/portfolios/:monitoringId`. The
 * reader's own shows its figures with its settings; anyone else's is its public page.
 */
export function Component() {
  const { t } = useMonitoringFormat();
  const { monitoringId = '' } = useParams();
  // a malformed id is no one's portfolio: the public page says there is no such page
  const wellFormed = MONITORING_ID_PATTERN.test(monitoringId);
  const own = useGetOwnPortfolioQuery(monitoringId, { skip: !wellFormed });
  // the list, when the reader comes from it, names the portfolio until its own answer is in
  const { listed } = portfoliosApi.endpoints.getPortfolios.useQueryState(undefined, {
    selectFromResult: ({ data }) => ({
      listed: data?.find((p) => p.monitoring_id === monitoringId),
    }),
  });
  const portfolio = own.data === undefined ? listed : own.data;
  useDocumentTitle(`${portfolio?.name ?? t('portfolio.documentTitle')} · ${t('title')}`);
  if (!wellFormed || portfolio === null) return <PublicPortfolio monitoringId={monitoringId} />;
  if (portfolio) return <OwnPortfolio key={portfolio.id} summary={portfolio} />;
  if (own.isError)
    return (
      <ErrorState
        title={t('portfolio.loadOneFailed')}
        retryLabel={t('retry')}
        onRetry={() => void own.refetch()}
      />
    );
  return <LoadingState>{t('loading')}</LoadingState>;
}

function OwnPortfolio({ summary }: { summary: PortfolioSummary }) {
  const { t } = useMonitoringFormat();
  const detail = useGetPortfolioQuery(summary.id);
  const accounts = useGetMonitoringAccountsQuery();
  const portfolio = detail.data?.portfolio ?? summary;

  return (
    <article aria-labelledby="portfolio-title">
      <p className={styles.muted}>
        <Link to="/online-monitoring/portfolios">{t('portfolio.back')}</Link>
      </p>
      <div className={styles.sectionHead}>
        <div>
          <h2 id="portfolio-title" className={styles.sectionTitle}>
            {portfolio.name}
          </h2>
          <p className={styles.muted}>
            {portfolioLine(t, portfolio.figures, portfolio.views)}
            {' · '}
            {t(portfolio.is_public ? 'portfolio.isPublic' : 'portfolio.isPrivate')}
          </p>
        </div>
      </div>
      {detail.isError ? (
        <ErrorState
          title={t('portfolio.loadOneFailed')}
          retryLabel={t('retry')}
          onRetry={() => void detail.refetch()}
        />
      ) : detail.data ? (
        <PortfolioView
          figures={detail.data.portfolio.figures}
          accounts={detail.data.accounts}
          points={detail.data.points}
          owner
        />
      ) : (
        <LoadingState>{t('loading')}</LoadingState>
      )}
      {accounts.data ? <PortfolioSettings portfolio={portfolio} accounts={accounts.data} /> : null}
    </article>
  );
}
