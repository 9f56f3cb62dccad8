import type { StatisticsResponse } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { numberCell } from './tone';
import styles from './monitoring.module.css';

type Row = StatisticsResponse['daily'][number];

/**
 * Rows a page of each table shows: a year of months, or twelve days. The tables grow by whole
 * rows and page, rather than scroll in a box of a fixed height, which cut a row at its foot.
 */
export const PERIOD_ROWS_PER_PAGE = 12;

/** The daily and monthly tables of gain, profit and trades, newest first. */
export function PeriodTables({ s }: { s: StatisticsResponse }) {
  const { t } = useMonitoringFormat();
  return (
    <div className={styles.tables}>
      <PeriodTable
        caption={t('tables.daily')}
        pagesLabel={t('tables.dailyPages')}
        rows={s.daily}
        currency={s.currency}
      />
      <PeriodTable
        caption={t('tables.monthly')}
        pagesLabel={t('tables.monthlyPages')}
        rows={s.monthly}
        currency={s.currency}
      />
    </div>
  );
}

function PeriodTable({
  caption,
  pagesLabel,
  rows,
  currency,
}: {
  caption: string;
  pagesLabel: string;
  rows: Row[];
  currency: string | null;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const captionId = useId();
  const [wanted, setPage] = useState(1);
  const pageCount = pageCountOf(rows.length, PERIOD_ROWS_PER_PAGE);
  // fewer rows now (another range): the last page there is
  const page = Math.min(wanted, pageCount);
  const shown = [...rows]
    .reverse()
    .slice((page - 1) * PERIOD_ROWS_PER_PAGE, page * PERIOD_ROWS_PER_PAGE);
  const showsMoney = rows.every((row) => row.profit !== null);
  return (
    <div className={styles.periodTable}>
      <TableFrame labelledBy={captionId}>
        <table className={tableStyles.table}>
          <caption id={captionId} className={`${styles.groupTitle} ${styles.caption}`}>
            {caption}
          </caption>
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
                <td className={styles.tableCell} colSpan={showsMoney ? 4 : 3}>
                  {t('tables.empty')}
                </td>
              </tr>
            ) : (
              shown.map((row) => (
                <tr key={row.period}>
                  <th className={styles.tableCell} scope="row">
                    <time dateTime={row.period}>{f.period(row.period)}</time>
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
      </TableFrame>
      <Pagination page={page} pageCount={pageCount} onPageChange={setPage} label={pagesLabel} />
    </div>
  );
}
