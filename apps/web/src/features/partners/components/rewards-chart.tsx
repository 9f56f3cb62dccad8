import type { PartnerInfoData } from '@tradehost/contracts';
import { useMemo } from 'react';
import { rewardBuckets, type BucketSize } from '../lib/reward-buckets';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

const LABEL_OPTIONS: Record<BucketSize, Intl.DateTimeFormatOptions> = {
  day: { day: 'numeric', month: 'short', timeZone: 'UTC' },
  week: { day: 'numeric', month: 'short', timeZone: 'UTC' },
  month: { month: 'short', year: 'numeric', timeZone: 'UTC' },
};

export interface RewardsChartProps {
  points: PartnerInfoData['rewardData'];
  period: { from?: string | undefined; to?: string | undefined };
  now?: Date;
}

/**
 * The rewards of a period as bars by day (by week or month over a long period). The bars are a
 * picture with a spoken summary; the figures behind them are a table under "Show as a table".
 */
export function RewardsChart({ points, period, now = new Date() }: RewardsChartProps) {
  const f = usePartnerFormat();
  const { t } = f;
  const today = now.toISOString().slice(0, 10);
  const { size, buckets } = useMemo(
    () => rewardBuckets(points, period, new Date(`${today}T00:00:00Z`)),
    [points, period, today],
  );
  const label = (day: string) =>
    new Intl.DateTimeFormat(f.language, LABEL_OPTIONS[size]).format(new Date(`${day}T00:00:00Z`));
  const max = Math.max(0, ...buckets.map((bucket) => bucket.amount));
  const total = buckets.reduce((sum, bucket) => sum + Math.round(bucket.amount * 100), 0) / 100;
  const best = buckets.reduce((top, bucket) => (bucket.amount > top.amount ? bucket : top), {
    start: '',
    amount: 0,
  });
  const withRewards = buckets.filter((bucket) => bucket.amount > 0);

  return (
    <figure className={styles.chartFigure}>
      <figcaption className={styles.chartCaption}>
        {t(`chart.title.${size}`)}
        <span className={styles.muted}>{t('chart.total', { amount: f.money(total) })}</span>
      </figcaption>
      <div
        className={styles.chart}
        role="img"
        aria-label={
          max > 0
            ? t('chart.summary', {
                amount: f.money(total),
                count: buckets.length,
                unit: t(`chart.units.${size}`, { count: buckets.length }),
                best: label(best.start),
                bestAmount: f.money(best.amount),
              })
            : t('chart.empty')
        }
      >
        <div className={styles.chartScale} aria-hidden="true">
          <span>{f.money(max)}</span>
          <span>{f.money(0)}</span>
        </div>
        <div className={styles.chartBars} data-testid="reward-bars">
          {buckets.map((bucket) => (
            <span
              key={bucket.start}
              className={styles.chartBar}
              style={{ height: max > 0 ? `${(bucket.amount / max) * 100}%` : 0 }}
              title={`${label(bucket.start)}: ${f.money(bucket.amount)}`}
            />
          ))}
        </div>
        <div className={styles.chartAxis} aria-hidden="true">
          <span>{buckets[0] ? label(buckets[0].start) : ''}</span>
          <span>{buckets.length > 1 ? label(buckets.at(-1)!.start) : ''}</span>
        </div>
      </div>
      {max === 0 ? <p className={styles.muted}>{t('chart.empty')}</p> : null}
      {withRewards.length > 0 ? (
        <details className={styles.chartDetails}>
          <summary>{t('chart.asTable')}</summary>
          <table className={styles.smallTable}>
            <thead>
              <tr>
                <th scope="col">{t(`chart.column.${size}`)}</th>
                <th scope="col">{t('chart.column.rewards')}</th>
              </tr>
            </thead>
            <tbody>
              {withRewards.map((bucket) => (
                <tr key={bucket.start}>
                  <td>{label(bucket.start)}</td>
                  <td>{f.money(bucket.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </figure>
  );
}
