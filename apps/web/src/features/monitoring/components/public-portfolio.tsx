import { isApiRequestError } from '../../../shared/lib/api-error';
import { EmptyState } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetPublicPortfolioQuery } from '../api/portfolios-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';
import { portfolioLine, PortfolioView } from './portfolio-view';

/**
 * A portfolio's public page, signed in or out: the combined figures less the money its owner
 * hides, its accounts (a private one without its name). A private or missing portfolio says so
 * in the same words.
 */
export function PublicPortfolio({ monitoringId }: { monitoringId: string }) {
  const { t } = useMonitoringFormat();
  const found = useGetPublicPortfolioQuery(monitoringId);

  if (found.isError) {
    if (isApiRequestError(found.error) && found.error.status === 404)
      return <EmptyState title={t('portfolio.notFound')}>{t('public.notFoundLead')}</EmptyState>;
    return (
      <ErrorState
        title={t('portfolio.loadOneFailed')}
        retryLabel={t('retry')}
        onRetry={() => void found.refetch()}
      />
    );
  }
  if (!found.data) return <LoadingState>{t('loading')}</LoadingState>;
  const { portfolio, accounts, points } = found.data;
  return (
    <article aria-labelledby="public-portfolio-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="public-portfolio-title" className={styles.sectionTitle}>
            {portfolio.name}
          </h2>
          <p className={styles.muted}>
            {t('portfolio.kind')} · {portfolioLine(t, portfolio.figures, portfolio.views)}
          </p>
        </div>
      </div>
      {portfolio.shows_money ? null : <p className={styles.muted}>{t('public.percentOnly')}</p>}
      <PortfolioView figures={portfolio.figures} accounts={accounts} points={points} />
    </article>
  );
}
