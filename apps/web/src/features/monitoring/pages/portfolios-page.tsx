import type { PortfolioSummary } from '@tradehost/contracts';
import { PORTFOLIO_ACCOUNTS_MIN, PORTFOLIOS_MAX } from '@tradehost/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Button } from '../../../shared/ui/form';
import { EmptyState, useDocumentTitle } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { RowCards } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useGetMonitoringAccountsQuery } from '../api/monitoring-api';
import { useGetPortfoliosQuery } from '../api/portfolios-api';
import styles from '../components/monitoring.module.css';
import { NewPortfolioDialog } from '../components/portfolio-dialog';
import { numberCell, toneClass } from '../components/tone';
import { useMonitoringFormat } from '../lib/use-monitoring-format';

/**
 * Route module (lazy): the reader's portfolios with their combined figures, and the way to make
 * one (two accounts at least); the empty state says what a portfolio is.
 */
export function Component() {
  const { t } = useMonitoringFormat();
  useDocumentTitle(`${t('portfolio.title')} · ${t('title')}`);
  const portfolios = useGetPortfoliosQuery();
  const accounts = useGetMonitoringAccountsQuery();
  const [creating, setCreating] = useState(false);

  if (portfolios.isError || accounts.isError)
    return (
      <ErrorState
        title={t('portfolio.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => {
          void portfolios.refetch();
          void accounts.refetch();
        }}
      />
    );
  if (!portfolios.data || !accounts.data) return <LoadingState>{t('loading')}</LoadingState>;

  const enough = accounts.data.length >= PORTFOLIO_ACCOUNTS_MIN;
  const full = portfolios.data.length >= PORTFOLIOS_MAX;
  return (
    <section className={styles.section} aria-labelledby="portfolios-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="portfolios-title" className={styles.sectionTitle}>
            {t('portfolio.title')}
          </h2>
          <p className={styles.muted}>{t('portfolio.lead')}</p>
        </div>
        {enough && !full ? (
          <Button onClick={() => setCreating(true)}>{t('portfolio.new.open')}</Button>
        ) : null}
      </div>
      {!enough ? (
        <p className={styles.muted}>
          {t('portfolio.needAccounts')}{' '}
          <Link to="/online-monitoring/accounts">{t('portfolio.toAccounts')}</Link>
        </p>
      ) : null}
      {full ? <p className={styles.muted}>{t('errors:MONITORING_PORTFOLIOS_FULL')}</p> : null}
      {portfolios.data.length === 0 ? (
        <EmptyState title={t('portfolio.empty')}>{t('portfolio.emptyLead')}</EmptyState>
      ) : (
        <PortfoliosTable portfolios={portfolios.data} />
      )}
      {creating ? (
        <NewPortfolioDialog accounts={accounts.data} onClose={() => setCreating(false)} />
      ) : null}
    </section>
  );
}

/** The portfolios: a table (scrolling in its frame when wider than the page), cards on a phone. */
function PortfoliosTable({ portfolios }: { portfolios: PortfolioSummary[] }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const isMobile = useAppSelector(selectIsMobile);
  const link = (p: PortfolioSummary) => (
    <Link to={`/online-monitoring/portfolios/${p.monitoring_id}`}>{p.name}</Link>
  );
  const page = (p: PortfolioSummary) =>
    t(p.is_public ? 'portfolio.isPublic' : 'portfolio.isPrivate');
  if (isMobile)
    return (
      <RowCards
        labelledBy="portfolios-title"
        cards={portfolios.map((p) => ({
          key: p.id,
          title: link(p),
          subtitle: page(p),
          lead: {
            label: t('portfolio.list.gain'),
            value: f.percent(p.figures.gain, true),
            className: toneClass(p.figures.gain),
          },
          facts: [
            { label: t('portfolio.list.drawdown'), value: f.percent(p.figures.max_drawdown) },
            ...(p.figures.equity === null
              ? []
              : [
                  {
                    label: t('portfolio.list.equity'),
                    value: f.money(p.figures.equity, p.figures.currency),
                  },
                ]),
            { label: t('portfolio.list.accounts'), value: p.figures.accounts },
            { label: t('portfolio.list.views'), value: p.views },
          ],
        }))}
      />
    );
  const column = (key: string, numeric = true) => (
    <th className={numeric ? styles.num : styles.tableCell} scope="col">
      {t(`portfolio.list.${key}`)}
    </th>
  );
  return (
    <TableFrame labelledBy="portfolios-title">
      <table className={tableStyles.table} aria-labelledby="portfolios-title">
        <thead>
          <tr>
            {column('name', false)}
            {column('gain')}
            {column('drawdown')}
            {column('equity')}
            {column('accounts')}
            {column('views')}
            {column('page', false)}
          </tr>
        </thead>
        <tbody>
          {portfolios.map((p) => (
            <tr key={p.id}>
              <th className={styles.tableCell} scope="row">
                {link(p)}
              </th>
              <td className={numberCell(p.figures.gain)}>{f.percent(p.figures.gain, true)}</td>
              <td className={styles.num}>{f.percent(p.figures.max_drawdown)}</td>
              <td className={styles.num}>{f.money(p.figures.equity, p.figures.currency)}</td>
              <td className={styles.num}>{p.figures.accounts}</td>
              <td className={styles.num}>{p.views}</td>
              <td className={styles.tableCell}>{page(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
