import {
  MANUAL_MAGIC,
  type MonitoringTrade,
  type Page,
  type PositionsResponse,
} from '@tradehost/contracts';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Pagination } from '../../../shared/ui/pagination/pagination';
import { RowCards } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { excursionText, hasExcursions, type Excursions } from '../lib/excursions';
import { strategyName } from '../lib/strategy-name';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import { numberCell, toneClass } from './tone';
import styles from './monitoring.module.css';

/** "Buy 0.20": a trade's or a position's direction and lots, under its symbol on a card. */
const side = (f: MonitoringFormat, direction: 'long' | 'short', volume: number) =>
  `${f.t(`trades.${direction}`)} ${f.figure(volume)}`;

/** A trade's strategy: its name, else "Magic 12345"; none for a trade placed by hand. */
const strategyOf = (f: MonitoringFormat, trade: MonitoringTrade) =>
  trade.magic === MANUAL_MAGIC ? null : strategyName(f, trade.magic, trade.strategy);

/**
 * A trade's or a position's MAE and MFE (its worst and best floating result while open), a muted
 * line under its result, or under its pips or price when money is hidden: in money when known,
 * else in points; "MAE/MFE —" when the publisher told none (before 1.4), which the table's
 * footnote explains. The two halves wrap onto two lines when the column is narrow (1024 px in
 * Russian), each whole.
 */
function ExcursionLine({ row, currency }: { row: Excursions; currency: string | null }) {
  const f = useMonitoringFormat();
  const { t } = f;
  return (
    <span className={styles.excursionLine}>
      {hasExcursions(row) ? (
        <>
          <span>
            {t('excursions.mae')} {excursionText(f, row.mae, row.mae_points, currency)}
          </span>{' '}
          <span>
            {t('excursions.mfe')} {excursionText(f, row.mfe, row.mfe_points, currency)}
          </span>
        </>
      ) : (
        <span>{t('excursions.none', { dash: f.dash })}</span>
      )}
    </span>
  );
}

/** On a phone's card: the MAE and the MFE, a fact each (a dash before publisher 1.4). */
const excursionFacts = (f: MonitoringFormat, row: Excursions, currency: string | null) => [
  {
    label: f.t('excursions.mae'),
    value: excursionText(f, row.mae, row.mae_points, currency) ?? f.dash,
  },
  {
    label: f.t('excursions.mfe'),
    value: excursionText(f, row.mfe, row.mfe_points, currency) ?? f.dash,
  },
];

/** Under the rows: what a dash in MAE/MFE means, when a row has one. */
function ExcursionsFootnote({ rows, text }: { rows: readonly Excursions[]; text: string }) {
  return rows.some((row) => !hasExcursions(row)) ? <p className={styles.footnote}>{text}</p> : null;
}

/**
 * The closed trades, newest first, a page at a time; results null where money is hidden. From a
 * tablet up a table, which scrolls in its frame when wider than the page, the edge with columns
 * beyond it shaded; on a phone a card a trade, its result (or, money hidden, its pips) at the top.
 * A trade's strategy (its Expert Advisor's name or magic number) is a muted line under its symbol,
 * not a column of its own (the table is already as wide as a tablet in Russian); on a card, a fact.
 * So are its MAE and MFE (ExcursionLine), under its result.
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
  const isMobile = useAppSelector(selectIsMobile);
  const pageCount = Math.max(1, Math.ceil(page.meta.total / page.meta.per_page));
  if (page.meta.total === 0) return <p className={styles.muted}>{t('trades.empty')}</p>;
  const showsMoney = page.data.every((trade) => trade.result !== null);
  const pagination = (
    <Pagination
      page={page.meta.page}
      pageCount={pageCount}
      onPageChange={onPageChange}
      label={t('trades.pages')}
      range={t('trades.range', { total: page.meta.total })}
    />
  );
  const footnote = <ExcursionsFootnote rows={page.data} text={t('excursions.tradesFootnote')} />;
  if (isMobile)
    return (
      <>
        <RowCards
          labelledBy={labelledBy}
          cards={page.data.map((trade) => {
            const pips = { label: t('trades.pips'), value: f.figure(trade.pips, 1) };
            const strategy = strategyOf(f, trade);
            return {
              key: trade.position_id,
              title: trade.symbol,
              subtitle: side(f, trade.direction, trade.volume),
              lead: showsMoney
                ? {
                    label: t('trades.result'),
                    value: f.money(trade.result, currency),
                    className: toneClass(trade.result),
                  }
                : { ...pips, className: toneClass(trade.pips) },
              facts: [
                { label: t('trades.closed'), value: f.dateTime(trade.close_time) },
                {
                  label: t('trades.prices'),
                  value: `${f.price(trade.open_price, trade.digits)} → ${f.price(trade.close_price, trade.digits)}`,
                },
                ...(showsMoney ? [pips] : []),
                ...excursionFacts(f, trade, currency),
                ...(strategy ? [{ label: t('trades.strategy'), value: strategy }] : []),
              ],
            };
          })}
        />
        {footnote}
        {pagination}
      </>
    );
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
            {page.data.map((trade) => {
              const strategy = strategyOf(f, trade);
              return (
                <tr key={trade.position_id}>
                  <td className={styles.tableCell}>{f.dateTime(trade.close_time)}</td>
                  <td className={styles.tableCell}>
                    {trade.symbol}
                    {strategy ? <span className={styles.strategyLine}>{strategy}</span> : null}
                  </td>
                  <td className={styles.tableCell}>{t(`trades.${trade.direction}`)}</td>
                  <td className={styles.num}>{f.figure(trade.volume)}</td>
                  <td className={styles.num}>{f.price(trade.open_price, trade.digits)}</td>
                  <td className={styles.num}>{f.price(trade.close_price, trade.digits)}</td>
                  <td className={numberCell(trade.pips)}>
                    {f.figure(trade.pips, 1)}
                    {showsMoney ? null : <ExcursionLine row={trade} currency={currency} />}
                  </td>
                  {showsMoney ? (
                    <td className={numberCell(trade.result)}>
                      {f.money(trade.result, currency)}
                      <ExcursionLine row={trade} currency={currency} />
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableFrame>
      {footnote}
      {pagination}
    </>
  );
}

/**
 * The open positions of the latest snapshot: a table or, on a phone, cards, like the trades; their
 * MAE and MFE so far under their profit (or, money hidden, their price).
 */
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
  const isMobile = useAppSelector(selectIsMobile);
  if (positions.positions.length === 0)
    return <p className={styles.muted}>{t('positions.empty')}</p>;
  const showsMoney = positions.positions.every((p) => p.profit !== null);
  const footnote = (
    <ExcursionsFootnote rows={positions.positions} text={t('excursions.positionsFootnote')} />
  );
  if (isMobile)
    return (
      <>
        <RowCards
          labelledBy={labelledBy}
          cards={positions.positions.map((p) => ({
            key: p.ticket,
            title: p.symbol,
            subtitle: side(f, p.type === 'buy' ? 'long' : 'short', p.volume),
            lead: showsMoney
              ? {
                  label: t('positions.profit'),
                  value: f.money(p.profit, currency),
                  className: toneClass(p.profit),
                }
              : undefined,
            facts: [
              { label: t('positions.opened'), value: f.dateTime(p.open_time) },
              {
                label: t('positions.prices'),
                value: `${f.price(p.open_price, p.digits)} → ${f.price(p.current_price, p.digits)}`,
              },
              {
                label: 'SL / TP',
                value: `${f.price(p.sl, p.digits)} / ${f.price(p.tp, p.digits)}`,
              },
              ...excursionFacts(f, p, currency),
            ],
          }))}
        />
        {footnote}
      </>
    );
  return (
    <>
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
                <td className={styles.num}>
                  {f.price(p.current_price, p.digits)}
                  {showsMoney ? null : <ExcursionLine row={p} currency={currency} />}
                </td>
                <td className={styles.num}>
                  {f.price(p.sl, p.digits)} / {f.price(p.tp, p.digits)}
                </td>
                {showsMoney ? (
                  <td className={numberCell(p.profit)}>
                    {f.money(p.profit, currency)}
                    <ExcursionLine row={p} currency={currency} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {footnote}
    </>
  );
}
