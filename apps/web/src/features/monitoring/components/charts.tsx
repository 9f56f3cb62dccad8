import { CHART_POINTS_MAX, type ChartResponse } from '@tradehost/contracts';
import type { UTCTimestamp } from 'lightweight-charts';
import { useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import chartStyles from '../../../shared/ui/chart/chart.module.css';
import { useChart } from '../../../shared/ui/chart/use-chart';
import segments from '../../../shared/ui/segments/segments.module.css';
import { selectTheme } from '../../settings/model/settings-slice';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

type Point = ChartResponse['points'][number];
type Mode = 'gain' | 'money';

/** One value per second (the chart's time unit), the last of each. */
function series(points: Point[], value: (p: Point) => number | null) {
  const out: Array<{ time: UTCTimestamp; value: number }> = [];
  for (const p of points) {
    const v = value(p);
    if (v === null) continue;
    const time = Math.floor(Date.parse(p.time) / 1000) as UTCTimestamp;
    if (out.length > 0 && out[out.length - 1]!.time >= time)
      out[out.length - 1] = { time, value: v };
    else out.push({ time, value: v });
  }
  return out;
}

/**
 * The growth chart (the time-weighted gain, or balance and equity) and the drawdown chart of an
 * account; each has a text summary for screen readers. Without money (hidden on a public page)
 * the growth chart shows the gain only.
 */
export function AccountCharts({ points }: { points: Point[] }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const theme = useAppSelector(selectTheme);
  const showsMoney = points.some((p) => p.balance !== null);
  const [mode, setMode] = useState<Mode>('gain');
  const shown: Mode = showsMoney ? mode : 'gain';
  // the values in the reader's language: percentages (5.23 -> "5.23 %", "5,23 %" in Russian)
  // and amounts in the account's currency
  const percent = (value: number) => f.percent(value / 100);
  const amount = (value: number) => f.figure(value);

  const growth = useChart(
    (chart, colors, { LineSeries }) => {
      if (shown === 'gain') {
        chart
          .addSeries(LineSeries, {
            color: colors.primary,
            lineWidth: 2,
            priceFormat: { type: 'custom', formatter: percent },
          })
          .setData(series(points, (p) => p.gain * 100));
      } else {
        chart
          .addSeries(LineSeries, {
            color: colors.primary,
            lineWidth: 2,
            title: t('charts.balance'),
            priceFormat: { type: 'custom', formatter: amount },
          })
          .setData(series(points, (p) => p.balance));
        chart
          .addSeries(LineSeries, {
            color: colors.success,
            lineWidth: 1,
            title: t('charts.equity'),
            priceFormat: { type: 'custom', formatter: amount },
          })
          .setData(series(points, (p) => p.equity));
      }
    },
    [points, shown, t],
    { pointsMax: CHART_POINTS_MAX, theme },
  );
  const drawdown = useChart(
    (chart, colors, { AreaSeries }) => {
      chart
        .addSeries(AreaSeries, {
          lineColor: colors.danger,
          topColor: `${colors.danger}10`,
          bottomColor: `${colors.danger}55`,
          lineWidth: 1,
          invertFilledArea: true,
          priceFormat: { type: 'custom', formatter: percent },
        })
        .setData(series(points, (p) => -p.drawdown * 100));
    },
    [points],
    { pointsMax: CHART_POINTS_MAX, theme },
  );

  const last = points.at(-1);
  const deepest = points.reduce((max, p) => Math.max(max, p.drawdown), 0);
  return (
    <div className={styles.section}>
      <div className={styles.sectionHead}>
        <h3 className={styles.groupTitle}>{t('charts.growth')}</h3>
        {showsMoney ? (
          <fieldset className={segments.segments} aria-label={t('charts.show')}>
            {(['gain', 'money'] as const).map((value) => (
              <label key={value} className={segments.segment}>
                <input
                  type="radio"
                  name="growth-mode"
                  className={segments.radio}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />
                <span className={segments.text}>{t(`charts.${value}`)}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
      </div>
      <div
        ref={growth}
        className={`${chartStyles.chart} ${styles.chart}`}
        role="img"
        aria-label={t('charts.growthSummary', {
          count: points.length,
          gain: f.percent(last?.gain ?? 0, true),
        })}
      />
      <h3 className={styles.groupTitle}>{t('charts.drawdown')}</h3>
      <div
        ref={drawdown}
        className={`${chartStyles.chart} ${styles.chart} ${styles.chartSmall}`}
        role="img"
        aria-label={t('charts.drawdownSummary', { deepest: f.percent(deepest) })}
      />
    </div>
  );
}
