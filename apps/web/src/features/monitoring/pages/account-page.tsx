import { MONITORING_ID_PATTERN, type MonitoringAccount } from '@tradehost/contracts';
import { memo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { saveFile } from '../../../shared/lib/save-file';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { PeriodPicker } from '../../../shared/ui/period-picker/period-picker';
import {
  ALL_TIME,
  type PeriodRange,
  type PeriodSelection,
} from '../../../shared/ui/period-picker/period';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  monitoringApi,
  useGetChartQuery,
  useGetExcursionsQuery,
  useGetOwnMonitoringAccountQuery,
  useGetPositionsQuery,
  useGetStatisticsQuery,
  useGetSubscriptionsQuery,
  useGetTradesQuery,
  useLazyGetTradesCsvQuery,
} from '../api/monitoring-api';
import { AccountSettings as Settings } from '../components/account-settings';
import { AlertsSection as Alerts } from '../components/alerts-section';
import { Breakdowns as Analysis } from '../components/breakdowns';
import { AccountCharts as Charts } from '../components/charts';
import { EmbedSection as Embed } from '../components/embed-section';
import styles from '../components/monitoring.module.css';
import { PingChart as Ping } from '../components/ping-chart';
import { AlgoTradingNotice, algoTradingOff, TerminalState } from '../components/terminal-state';
import { isOutdatedPublisher, tellsExcursions } from '../lib/publisher-version';
import { WaitingForData } from '../components/waiting-for-data';
import { PeriodTables as Periods } from '../components/period-tables';
import { PublicAccount } from '../components/public-account';
import { RiskOfRuin as Ruin } from '../components/risk-of-ruin';
import { Risks as Excursions } from '../components/risks';
import { StatisticsView as Statistics } from '../components/statistics-view';
import { PositionsTable as Positions, TradesTable as Trades } from '../components/trades-table';
import { Verification as Verified } from '../components/verification';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { useFallbackPolling } from '../../../shared/live/live-state';

// The own account's page renders again with each of its seven answers as it comes (eight times
// on the way to its first full view): a section whose data has not changed is left as it was
// (the settings' zone list alone is some 400 options, the alerts a form of twenty fields).
const AccountSettings = memo(Settings);
const AlertsSection = memo(Alerts);
const AccountCharts = memo(Charts);
const PingChart = memo(Ping);
const PeriodTables = memo(Periods);
const Breakdowns = memo(Analysis);
const RiskOfRuin = memo(Ruin);
const Risks = memo(Excursions);
const Verification = memo(Verified);
const EmbedSection = memo(Embed);
const StatisticsView = memo(Statistics);
const PositionsTable = memo(Positions);
const TradesTable = memo(Trades);

/** The figures refresh this often while the page is open (the publisher sends every 10 s). */
const POLL_MS = 15_000;

/**
 * Route module (lazy): one account at `/online-monitoring/:monitoringId`. The reader's own shows
 * everything with its settings; anyone else's is its public page.
 */
export function Component() {
  const { t } = useMonitoringFormat();
  const { monitoringId = '' } = useParams();
  // a malformed id is no one's account: the public page says there is no such page
  const wellFormed = MONITORING_ID_PATTERN.test(monitoringId);
  // the account alone, not the whole list; new data comes as live updates, polled only while
  // those are down
  const own = useGetOwnMonitoringAccountQuery(monitoringId, {
    skip: !wellFormed,
    pollingInterval: useFallbackPolling(POLL_MS),
  });
  // the list, when the reader comes from it, shows the account until its own answer is in
  const { listed } = monitoringApi.endpoints.getMonitoringAccounts.useQueryState(undefined, {
    selectFromResult: ({ data }) => ({
      listed: data?.find((a) => a.monitoring_id === monitoringId),
    }),
  });
  const account = own.data === undefined ? listed : own.data;
  useDocumentTitle(`${account?.name ?? t('account.titleUnknown')} · ${t('title')}`);
  if (!wellFormed || account === null) return <PublicAccount monitoringId={monitoringId} />;
  if (account) return <OwnAccount account={account} />;
  if (own.isError)
    return (
      <ErrorState
        title={t('account.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void own.refetch()}
      />
    );
  return <LoadingState>{t('loading')}</LoadingState>;
}

function OwnAccount({ account }: { account: MonitoringAccount }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const [selection, setSelection] = useState<PeriodSelection>(ALL_TIME);
  const [range, setRange] = useState<PeriodRange>({});
  // the days and months and the analysis show one period, each with a picker: the picker used
  // keeps its state (and the focus); the other starts again from the new period (a picker
  // follows its value only as it mounts)
  const [pickers, setPickers] = useState({ periods: 0, analysis: 0 });
  const choosePeriod =
    (picker: 'periods' | 'analysis') => (next: PeriodSelection, nextRange: PeriodRange) => {
      setSelection(next);
      setRange(nextRange);
      setPickers((keys) =>
        picker === 'periods'
          ? { ...keys, analysis: keys.analysis + 1 }
          : { ...keys, periods: keys.periods + 1 },
      );
    };
  const [page, setPage] = useState(1);
  const poll = { pollingInterval: useFallbackPolling(POLL_MS), skipPollingIfUnfocused: true };
  const statistics = useGetStatisticsQuery({ id: account.id }, poll);
  const ranged = Boolean(range.from || range.to);
  const tables = useGetStatisticsQuery({ id: account.id, ...range }, { skip: !ranged });
  // the whole history's tables come with the figures; a range asks for its own
  const periodFigures = ranged ? tables.data : statistics.data;
  const chart = useGetChartQuery(account.id, poll);
  const positions = useGetPositionsQuery(account.id, poll);
  const trades = useGetTradesQuery({ id: account.id, page }, poll);
  const excursions = useGetExcursionsQuery(account.id, poll);
  const [csv, csvState] = useLazyGetTradesCsvQuery();
  const subscriptions = useGetSubscriptionsQuery();
  const ended = subscriptions.data?.find((s) => s.id === account.subscription_id)?.active === false;
  // nothing from the terminal yet (no deal, no snapshot): no figures, which would all be zeros
  const waiting = !account.last_data_at && !statistics.data?.last_data_at;

  const download = async () => {
    const text = await csv(account.id)
      .unwrap()
      .catch(() => null);
    if (text !== null)
      saveFile(new Blob([text], { type: 'text/csv' }), `trades-${account.login}.csv`);
  };

  return (
    <article aria-labelledby="account-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="account-title" className={styles.sectionTitle}>
            {account.name}
          </h2>
          <p className={styles.muted}>
            {account.platform} · {account.login}
            {account.server ? ` · ${account.company ?? ''} ${account.server}` : ''}
            {account.leverage ? ` · 1:${account.leverage}` : ''}
          </p>
        </div>
        <p className={styles.status}>
          {account.last_data_at ? (
            <TerminalState
              lastDataAt={account.last_data_at}
              connected={account.terminal_connected}
              algoOff={algoTradingOff(account)}
              full
            />
          ) : (
            <span className={styles.status}>
              <span className={styles.dot} aria-hidden="true" />
              {t('account.waiting')}
            </span>
          )}
        </p>
      </div>
      {statistics.data && !waiting ? (
        <Verification verification={statistics.data.verification} owner />
      ) : null}
      {ended ? (
        <FormAlert tone="warning">
          <p>
            {t('account.ended')} <Link to="/online-monitoring">{t('account.renew')}</Link>
          </p>
        </FormAlert>
      ) : null}
      {isOutdatedPublisher(account.ea_version) ? (
        <FormAlert tone="info" title={t('account.outdatedTitle')}>
          <p>
            {t('account.outdated', { version: account.ea_version })}{' '}
            <Link to="/online-monitoring/guide">{t('account.outdatedGuide')}</Link>
          </p>
        </FormAlert>
      ) : null}
      <AlgoTradingNotice account={account} />
      {waiting ? (
        <WaitingForData account={account} />
      ) : (
        <>
          {statistics.data ? (
            <>
              <StatisticsView s={statistics.data} />
              <RiskOfRuin ruin={statistics.data.risk_of_ruin} />
            </>
          ) : (
            <LoadingState>{t('loading')}</LoadingState>
          )}
          <div className={styles.chartsRow}>
            {chart.data && chart.data.points.length > 1 ? (
              <AccountCharts points={chart.data.points} />
            ) : null}
            <PingChart account={account} pollingInterval={poll.pollingInterval} />
          </div>

          <section className={styles.section} aria-labelledby="periods-title">
            <div className={styles.sectionHead}>
              <h2 id="periods-title" className={styles.sectionTitle}>
                {t('tables.title')}
              </h2>
              <PeriodPicker
                key={pickers.periods}
                value={selection}
                onChange={choosePeriod('periods')}
              />
            </div>
            {periodFigures ? (
              <PeriodTables s={periodFigures} />
            ) : (
              <LoadingState>{t('loading')}</LoadingState>
            )}
          </section>

          <section className={styles.section} aria-labelledby="analysis-title">
            <div className={styles.sectionHead}>
              <h2 id="analysis-title" className={styles.sectionTitle}>
                {t('analysis.title')}
              </h2>
              <PeriodPicker
                key={pickers.analysis}
                value={selection}
                onChange={choosePeriod('analysis')}
              />
            </div>
            {periodFigures ? (
              <Breakdowns
                breakdowns={periodFigures.breakdowns}
                currency={periodFigures.currency}
                timeZone={account.time_zone}
                accountId={account.id}
              />
            ) : (
              <LoadingState>{t('loading')}</LoadingState>
            )}
          </section>

          <section className={styles.section} aria-labelledby="risks-title">
            <h2 id="risks-title" className={styles.sectionTitle}>
              {t('risks.title')}
            </h2>
            {excursions.data ? (
              <Risks
                excursions={excursions.data}
                currency={account.currency}
                guide={tellsExcursions(account.ea_version)}
              />
            ) : (
              <LoadingState>{t('loading')}</LoadingState>
            )}
          </section>

          <section className={styles.section} aria-labelledby="positions-title">
            <h2 id="positions-title" className={styles.sectionTitle}>
              {t('positions.title')}
            </h2>
            {positions.data ? (
              <PositionsTable
                positions={positions.data}
                currency={account.currency}
                labelledBy="positions-title"
              />
            ) : null}
          </section>

          <section className={styles.section} aria-labelledby="trades-title">
            <div className={styles.sectionHead}>
              <h2 id="trades-title" className={styles.sectionTitle}>
                {t('trades.title')}
              </h2>
              <Button
                variant="secondary"
                loading={csvState.isFetching}
                onClick={() => void download()}
              >
                {t('trades.csv')}
              </Button>
            </div>
            {trades.data ? (
              <TradesTable
                page={trades.data}
                currency={account.currency}
                onPageChange={setPage}
                labelledBy="trades-title"
              />
            ) : null}
          </section>
        </>
      )}

      <EmbedSection account={account} />

      <AlertsSection account={account} />

      <AccountSettings key={account.id} account={account} />
    </article>
  );
}
