import type { MonitoringTrade, Page, PositionsResponse } from '@tradehost/contracts';
import { Pagination } from '../../../shared/ui/pagination/pagination';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { numberCell } from './tone';
import styles from './monitoring.module.css';

/**
 * The closed trades, newest first, a page at a time; results null where money is hidden. Wider
 * than a phone, it scrolls in its frame, the edge with columns beyond it shaded.
 */
export function TradesTable({
  page,
  currency,
  onPageChange,
  labelledBy,
}: {
  page: Page<MonitoringTrade>;
  currency: string | null;
  onPageChange: (page: number) => void;
  /** The id of the section's heading, which names the table. */
  labelledBy: string;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const pageCount = Math.max(1, Math.ceil(page.meta.total / page.meta.per_page));
  if (page.meta.total === 0) return <p className={styles.muted}>{t('trades.empty')}</p>;
  const showsMoney = page.data.every((trade) => trade.result !== null);
  return (
    <>
      <TableFrame labelledBy={labelledBy}>
        <table className={tableStyles.table} aria-labelledby={labelledBy}>
          <thead>
            <tr>
              <th className={styles.tableCell} scope="col">
                {t('trades.closed')}
              </th>
              <th className={styles.tableCell} scope="col">
                {t('trades.symbol')}
              </th>
              <th className={styles.tableCell} scope="col">
                {t('trades.direction')}
              </th>
              <th className={styles.num} scope="col">
                {t('trades.volume')}
              </th>
              <th className={styles.num} scope="col">
                {t('trades.openPrice')}
              </th>
              <th className={styles.num} scope="col">
                {t('trades.closePrice')}
              </th>
              <th className={styles.num} scope="col">
                {t('trades.pips')}
              </th>
              {showsMoney ? (
                <th className={styles.num} scope="col">
                  {t('trades.result')}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {page.data.map((trade) => (
              <tr key={trade.position_id}>
                <td className={styles.tableCell}>{f.dateTime(trade.close_time)}</td>
                <td className={styles.tableCell}>{trade.symbol}</td>
                <td className={styles.tableCell}>{t(`trades.${trade.direction}`)}</td>
                <td className={styles.num}>{f.figure(trade.volume)}</td>
                <td className={styles.num}>{f.price(trade.open_price, trade.digits)}</td>
                <td className={styles.num}>{f.price(trade.close_price, trade.digits)}</td>
                <td className={numberCell(trade.pips)}>{f.figure(trade.pips, 1)}</td>
                {showsMoney ? (
                  <td className={numberCell(trade.result)}>{f.money(trade.result, currency)}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      <Pagination
        page={page.meta.page}
        pageCount={pageCount}
        onPageChange={onPageChange}
        label={t('trades.pages')}
        range={t('trades.range', { total: page.meta.total })}
      />
    </>
  );
}

/** The open positions of the latest snapshot (scrolling in its frame like the trades). */
export function PositionsTable({
  positions,
  currency,
  labelledBy,
}: {
  positions: PositionsResponse;
  currency: string | null;
  /** The id of the section's heading, which names the table. */
  labelledBy: string;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  if (positions.positions.length === 0)
    return <p className={styles.muted}>{t('positions.empty')}</p>;
  const showsMoney = positions.positions.every((p) => p.profit !== null);
  return (
    <TableFrame labelledBy={labelledBy}>
      <table className={tableStyles.table} aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th className={styles.tableCell} scope="col">
              {t('trades.symbol')}
            </th>
            <th className={styles.tableCell} scope="col">
              {t('trades.direction')}
            </th>
            <th className={styles.num} scope="col">
              {t('trades.volume')}
            </th>
            <th className={styles.tableCell} scope="col">
              {t('positions.opened')}
            </th>
            <th className={styles.num} scope="col">
              {t('trades.openPrice')}
            </th>
            <th className={styles.num} scope="col">
              {t('positions.current')}
            </th>
            <th className={styles.num} scope="col">
              SL / TP
            </th>
            {showsMoney ? (
              <th className={styles.num} scope="col">
                {t('positions.profit')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {positions.positions.map((p) => (
            <tr key={p.ticket}>
              <td className={styles.tableCell}>{p.symbol}</td>
              <td className={styles.tableCell}>
                {t(p.type === 'buy' ? 'trades.long' : 'trades.short')}
              </td>
              <td className={styles.num}>{f.figure(p.volume)}</td>
              <td className={styles.tableCell}>{f.dateTime(p.open_time)}</td>
              <td className={styles.num}>{f.price(p.open_price, p.digits)}</td>
              <td className={styles.num}>{f.price(p.current_price, p.digits)}</td>
              <td className={styles.num}>
                {f.price(p.sl, p.digits)} / {f.price(p.tp, p.digits)}
              </td>
              {showsMoney ? (
                <td className={numberCell(p.profit)}>{f.money(p.profit, currency)}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
