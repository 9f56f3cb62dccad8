import { RUIN_MIN_TRADES, type RiskOfRuinResponse } from '@tradehost/contracts';
import { useId } from 'react';
import { numberFormat } from '../../../shared/lib/format-money';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './analysis.module.css';
import monitoringStyles from './monitoring.module.css';

/** The smallest probability written as a figure (0.01 %); a smaller one is "< 0.01 %". */
const SHOWN_MIN = 0.0001;

/** A whole percentage: "10%", "10 %" in Russian. */
const wholePercent = (f: MonitoringFormat, fraction: number) =>
  numberFormat(f.language, 'ruinLevel', { style: 'percent', maximumFractionDigits: 0 }).format(
    fraction,
  );

/**
 * A probability to two decimals, never rounded to a certainty or to nothing it is not: "< 0.01%"
 * below a hundredth of a percent, "> 99.99%" short of certain, and a certainty "100%".
 */
export function probabilityText(f: MonitoringFormat, probability: number): string {
  if (probability >= 1) return wholePercent(f, 1);
  if (probability < SHOWN_MIN) return `<\u00a0${f.percent(SHOWN_MIN)}`;
  if (probability > 1 - SHOWN_MIN) return `>\u00a0${f.percent(1 - SHOWN_MIN)}`;
  return f.percent(probability);
}

/**
 * The risk of ruin of an account from its whole history (monitoring-analysis.ts riskOfRuin): the
 * probability of ever losing 10 % … 100 % of today's balance, what the estimate assumes and how
 * many trades it is from; or why there is none (too few trades, no loss yet).
 */
export function RiskOfRuin({ ruin }: { ruin: RiskOfRuinResponse }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const titleId = useId();
  const { estimate } = ruin;
  return (
    <section className={monitoringStyles.section} aria-labelledby={titleId}>
      <h3 id={titleId} className={monitoringStyles.groupTitle}>
        {t('ruin.title')}
      </h3>
      {estimate ? (
        <div className={styles.ruin}>
          <TableFrame labelledBy={titleId}>
            <table className={tableStyles.table} aria-labelledby={titleId}>
              <thead>
                <tr>
                  <th className={monitoringStyles.tableCell} scope="col">
                    {t('ruin.loss')}
                  </th>
                  <th className={monitoringStyles.num} scope="col">
                    {t('ruin.probability')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {estimate.levels.map((level) => (
                  <tr key={level.loss}>
                    <th className={monitoringStyles.tableCell} scope="row">
                      {wholePercent(f, level.loss)}
                    </th>
                    <td className={monitoringStyles.num}>
                      {probabilityText(f, level.probability)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
          <div className={styles.ruinText}>
            <p>{t('ruin.lead')}</p>
            <p className={styles.lead}>
              {t('ruin.method', {
                winRate: f.percent(estimate.win_rate),
                averageWin: f.percent(estimate.average_win),
                averageLoss: f.percent(estimate.average_loss),
              })}
            </p>
            {estimate.levels.every((level) => level.probability >= 1) ? (
              <p>{t('ruin.certain')}</p>
            ) : null}
            <p className={styles.note}>{t('ruin.from', { count: estimate.trades })}</p>
          </div>
        </div>
      ) : (
        <div className={styles.ruinText}>
          <p>{t('ruin.lead')}</p>
          <p className={styles.lead}>
            {t(`ruin.reasons.${ruin.reason ?? 'too_few_trades'}`, { min: RUIN_MIN_TRADES })}
          </p>
        </div>
      )}
    </section>
  );
}
