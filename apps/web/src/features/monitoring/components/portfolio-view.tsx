import type { PortfolioAccount, PortfolioFigures, PortfolioResponse } from '@tradehost/contracts';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { RowCards } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { toneOf, useMonitoringFormat } from '../lib/use-monitoring-format';
import { AccountCharts } from './charts';
import { Figure } from './figure';
import styles from './monitoring.module.css';
import own from './portfolio.module.css';
import { numberCell, toneClass } from './tone';

/**
 * A portfolio's figures, owner's or public: the combined gain and drawdown (and the summed money
 * when the accounts share a currency and it is shown), how the accounts are weighed, the growth
 * and drawdown charts, and the table of its accounts. `owner`: each account's row says whether
 * the public page names it.
 */
export function PortfolioView({
  figures,
  accounts,
  points,
  owner = false,
}: {
  figures: PortfolioFigures;
  accounts: PortfolioAccount[];
  points: PortfolioResponse['points'];
  owner?: boolean;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const item = (key: string) => ({
    label: t(`portfolio.figures.${key}.label`),
    explanation: t(`portfolio.figures.${key}.help`),
  });
  const showsMoney = figures.balance !== null;
  const money = (amount: number | null) => f.money(amount, figures.currency);

  return (
    <>
      {figures.since === null ? (
        <p className={styles.muted} role="status">
          {t('portfolio.noData')}
        </p>
      ) : null}
      <div className={own.summary}>
        <dl className={styles.tiles} aria-label={t('portfolio.headline')}>
          <Figure variant="tile" {...item('gain')} tone={toneOf(figures.gain)}>
            {f.percent(figures.gain, true)}
          </Figure>
          <Figure variant="tile" {...item('maxDrawdown')}>
            {f.percent(figures.max_drawdown)}
          </Figure>
          {showsMoney ? (
            <>
              <Figure variant="tile" {...item('balance')}>
                {money(figures.balance)}
              </Figure>
              <Figure variant="tile" {...item('equity')}>
                {money(figures.equity)}
              </Figure>
            </>
          ) : null}
          <Figure variant="tile" {...item('accounts')}>
            {figures.accounts}
          </Figure>
        </dl>
        <div className={styles.moneyNote}>
          <p>{t(`portfolio.weighting.${figures.weighting}`)}</p>
          {figures.since ? <p>{t('portfolio.since', { date: f.date(figures.since) })}</p> : null}
        </div>
      </div>
      {points.length > 1 ? <AccountCharts points={points} /> : null}
      <section className={styles.section} aria-labelledby="portfolio-accounts-title">
        <h2 id="portfolio-accounts-title" className={styles.sectionTitle}>
          {t('portfolio.table.title')}
        </h2>
        <AccountsTable accounts={accounts} owner={owner} />
      </section>
    </>
  );
}

/**
 * The accounts' own figures and their share of the portfolio. A private account on the public
 * page has neither name nor link; money columns show only when some row has money.
 */
function AccountsTable({ accounts, owner }: { accounts: PortfolioAccount[]; owner: boolean }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const isMobile = useAppSelector(selectIsMobile);
  const withMoney = accounts.some((a) => a.balance !== null);
  const withShare = accounts.some((a) => a.share !== null);
  const name = (a: PortfolioAccount) =>
    a.name === null ? (
      <span className={own.private}>{t('portfolio.table.private')}</span>
    ) : a.monitoring_id ? (
      <Link to={`/online-monitoring/${a.monitoring_id}`}>{a.name}</Link>
    ) : (
      a.name
    );
  const since = (a: PortfolioAccount) =>
    a.since ? f.date(a.since) : a.name === null ? f.dash : t('portfolio.table.noData');
  const privateNote = (a: PortfolioAccount) =>
    owner && !a.is_public ? t('portfolio.table.privateNote') : undefined;
  if (isMobile)
    return (
      <RowCards
        labelledBy="portfolio-accounts-title"
        cards={accounts.map((a, i) => ({
          key: a.id ?? a.monitoring_id ?? `private-${i}`,
          title: name(a),
          subtitle: privateNote(a),
          lead: {
            label: t('portfolio.table.gain'),
            value: f.percent(a.gain, true),
            className: toneClass(a.gain),
          },
          // a private account's card: its drawdown beside its gain, and nothing else to show
          facts: [
            { label: t('portfolio.table.drawdown'), value: f.percent(a.max_drawdown) },
            ...(a.name === null
              ? []
              : [
                  ...(withMoney
                    ? [
                        {
                          label: t('portfolio.table.balance'),
                          value: f.money(a.balance, a.currency),
                        },
                        {
                          label: t('portfolio.table.equity'),
                          value: f.money(a.equity, a.currency),
                        },
                      ]
                    : []),
                  ...(withShare
                    ? [{ label: t('portfolio.table.share'), value: f.percent(a.share) }]
                    : []),
                  { label: t('portfolio.table.since'), value: since(a) },
                ]),
          ],
        }))}
      />
    );
  const column = (key: string, numeric = true) => (
    <th className={numeric ? styles.num : styles.tableCell} scope="col">
      {t(`portfolio.table.${key}`)}
    </th>
  );
  return (
    <TableFrame labelledBy="portfolio-accounts-title">
      <table className={tableStyles.table} aria-labelledby="portfolio-accounts-title">
        <thead>
          <tr>
            {column('account', false)}
            {column('gain')}
            {column('drawdown')}
            {withMoney ? (
              <>
                {column('balance')}
                {column('equity')}
              </>
            ) : null}
            {withShare ? column('share') : null}
            {column('since', false)}
          </tr>
        </thead>
        <tbody>
          {accounts.map((a, i) => (
            <tr key={a.id ?? a.monitoring_id ?? `private-${i}`}>
              <th className={styles.tableCell} scope="row">
                {name(a)}
                {privateNote(a) ? <div className={own.rowNote}>{privateNote(a)}</div> : null}
              </th>
              <td className={numberCell(a.gain)}>{f.percent(a.gain, true)}</td>
              <td className={styles.num}>{f.percent(a.max_drawdown)}</td>
              {withMoney ? (
                <>
                  <td className={styles.num}>{f.money(a.balance, a.currency)}</td>
                  <td className={styles.num}>{f.money(a.equity, a.currency)}</td>
                </>
              ) : null}
              {withShare ? <td className={styles.num}>{f.percent(a.share)}</td> : null}
              <td className={styles.tableCell}>{since(a)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

/** The portfolio's one line under its name: how many accounts, and its views. */
export function portfolioLine(
  t: ReturnType<typeof useMonitoringFormat>['t'],
  figures: PortfolioFigures,
  views: number,
) {
  return [
    t('portfolio.accountsCount', { count: figures.accounts }),
    t('public.views', { count: views }),
  ].join(' · ');
}
