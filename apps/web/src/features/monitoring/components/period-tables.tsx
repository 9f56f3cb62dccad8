import type { StatisticsResponse } from '@tradehost/contracts';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { numberCell } from './tone';
import styles from './monitoring.module.css';

type Row = StatisticsResponse['daily'][number];

/** The daily and monthly tables of gain, profit and trades, newest first. */
export function PeriodTables({ s }: { s: StatisticsResponse }) {
  const { t } = useMonitoringFormat();
  return (
    <div className={styles.tables}>
      <PeriodTable caption={t('tables.daily')} rows={s.daily} currency={s.currency} />
      <PeriodTable caption={t('tables.monthly')} rows={s.monthly} currency={s.currency} />
    </div>
  );
}

function PeriodTable({
  caption,
  rows,
  currency,
}: {
  caption: string;
  rows: Row[];
  currency: string | null;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const shown = [...rows].reverse();
  const showsMoney = rows.every((row) => row.profit !== null);
  return (
    <div className={`${tableStyles.frame} ${styles.scroll}`} tabIndex={0} aria-label={caption}>
      <table className={tableStyles.table}>
        <caption className={`${styles.groupTitle} ${styles.caption}`}>{caption}</caption>
        <thead>
          <tr>
            <th className={styles.tableCell} scope="col">
              {t('tables.period')}
            </th>
            <th className={styles.num} scope="col">
              {t('tables.gain')}
            </th>
            {showsMoney ? (
              <th className={styles.num} scope="col">
                {t('tables.profit')}
              </th>
            ) : null}
            <th className={styles.num} scope="col">
              {t('tables.trades')}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td className={styles.tableCell} colSpan={4}>
                {t('tables.empty')}
              </td>
            </tr>
          ) : (
            shown.map((row) => (
              <tr key={row.period}>
                <th className={styles.tableCell} scope="row">
                  {row.period}
                </th>
                <td className={numberCell(row.gain)}>{f.percent(row.gain, true)}</td>
                {showsMoney ? (
                  <td className={styles.num}>{f.money(row.profit, currency)}</td>
                ) : null}
                <td className={styles.num}>{row.trades}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
