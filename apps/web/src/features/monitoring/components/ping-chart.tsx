import {
  PING_PERIODS,
  type MonitoringAccount,
  type PingPeriod,
  type PingResponse,
} from '@tradehost/contracts';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import chartStyles from '../../../shared/ui/chart/chart.module.css';
import { useChart } from '../../../shared/ui/chart/use-chart';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { selectTheme } from '../../settings/model/settings-slice';
import { useGetPingQuery } from '../api/monitoring-api';
import { pingSeries, pingSummary, tellsPing } from '../lib/ping-series';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** Whole milliseconds in the reader's language: "212 ms", "1 500 мс". */
const ms = (f: MonitoringFormat, value: number) =>
  f.t('ping.ms', { value: f.figure(Math.round(value), 0) });

/**
 * The terminal's ping to its trade server over the last day, week or month, beside the equity
 * chart: the current ping as a figure, the steps' means as a line broken where none was measured
 * (the terminal not connected), and, with no measurement at all, why: a publisher before 1.3
 * tells none (the guide has the new one), a newer one was not connected.
 */
export function PingChart({
  account,
  pollingInterval,
}: {
  account: MonitoringAccount;
  pollingInterval: number;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const headingId = useId();
  const [period, setPeriod] = useState<PingPeriod>('day');
  const ping = useGetPingQuery(
    { id: account.id, period },
    { pollingInterval, skipPollingIfUnfocused: true },
  );
  const now = account.ping_ms ?? null;

  let body;
  if (!ping.data && ping.isError)
    body = (
      <ErrorState
        title={t('ping.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void ping.refetch()}
      />
    );
  else if (!ping.data) body = <LoadingState>{t('ping.loading')}</LoadingState>;
  else if (ping.data.points.length === 0)
    body =
      tellsPing(account.ea_version) === true ? (
        <EmptyState>{t('ping.emptyOffline', { period: t(`ping.over.${period}`) })}</EmptyState>
      ) : (
        <EmptyState>
          {t('ping.emptyUpdate')} <Link to="/online-monitoring/guide">{t('ping.toGuide')}</Link>
        </EmptyState>
      );
  else body = <PingPlot ping={ping.data} />;

  return (
    <section className={styles.pingBox} aria-labelledby={headingId}>
      <div className={styles.sectionHead}>
        <div>
          <h3 id={headingId} className={styles.groupTitle}>
            {t('ping.title')}
          </h3>
          <p className={styles.pingNow}>
            {now === null ? t('ping.nowUnknown') : t('ping.now', { value: ms(f, now) })}
          </p>
        </div>
        <fieldset className={segments.segments} aria-label={t('ping.period')}>
          {PING_PERIODS.map((value) => (
            <label key={value} className={segments.segment}>
              <input
                type="radio"
                name={`${headingId}-period`}
                className={segments.radio}
                checked={period === value}
                onChange={() => setPeriod(value)}
              />
              <span className={segments.text}>{t(`ping.periods.${value}`)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <div aria-busy={ping.isFetching || undefined}>{body}</div>
    </section>
  );
}

/** The plot, whose text summary (the period's average and longest ping) stands for it. */
function PingPlot({ ping }: { ping: PingResponse }) {
  const f = useMonitoringFormat();
  const theme = useAppSelector(selectTheme);
  const data = useMemo(() => pingSeries(ping.points, ping.step_sec), [ping]);
  const plot = useChart(
    (chart, colors, { LineSeries }) => {
      chart
        .addSeries(LineSeries, {
          color: colors.primary,
          lineWidth: 2,
          priceLineVisible: false,
          priceFormat: { type: 'custom', formatter: (value: number) => ms(f, value), minMove: 1 },
        })
        .setData(data);
    },
    [data, f.t],
    // the whole period fits the narrowest plot, gaps and all
    { pointsMax: Math.max(data.length, 2), theme },
  );
  const summary = pingSummary(ping.points)!;
  return (
    <div
      ref={plot}
      className={`${chartStyles.chart} ${styles.chart}`}
      role="img"
      aria-label={f.t('ping.summary', {
        period: f.t(`ping.over.${ping.period}`),
        average: ms(f, summary.average),
        peak: ms(f, summary.peak),
      })}
    />
  );
}
