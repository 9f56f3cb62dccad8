import type { ExcursionsResponse } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks';
import { numberFormat } from '../../../shared/lib/format-money';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Button } from '../../../shared/ui/form';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { RowCards } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { pointsText } from '../lib/excursions';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './analysis.module.css';
import { Figure } from './figure';
import monitoringStyles from './monitoring.module.css';
import { numberCell, toneClass } from './tone';

type Trade = ExcursionsResponse['trades'][number];

const DOT_CLASS = { win: styles.dotWin, loss: styles.dotLoss, even: styles.dotEven };

/** The rows the "Show as table" view lists at a time. */
export const RISKS_TABLE_PAGE = 20;

/** A trade as the scatter places it: MAE across, the result up; in money or in points. */
interface Dot {
  trade: Trade;
  x: number;
  y: number;
}

/** The ticks' step: 1, 2 or 5 times a power of ten, giving about `count` steps over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/**
 * An axis over `values` and zero, widened to whole steps: its ends and ticks (the ends among
 * them). Zero is always on it, so that the zero line shows where a trade broke even.
 */
export function axisOf(values: readonly number[], count = 5) {
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (low === high) high = 1;
  const step = niceStep(high - low, count);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  // counted in steps, not added up: no float drift in the ticks' values
  for (let i = 0; low + i * step <= high + step / 1e6; i++)
    ticks.push(Number((low + i * step).toPrecision(12)));
  return { low, high, step, ticks };
}

/** A tick's value, no more decimals than its step needs: "−$40", "−40 $", "−1.5" (points). */
function tickText(f: MonitoringFormat, value: number, step: number, currency: string | null) {
  const digits = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
  // points: the axis's title says so
  if (currency === null) return f.figure(value, digits);
  const code = currency || 'USD';
  try {
    return numberFormat(f.language, `tick${code}${digits}`, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${f.figure(value, digits)}\u00a0${code}`;
  }
}

/**
 * MQL5's "Risks": each closed trade with excursions as a dot, how far it went against the account
 * before it closed (its MAE) across, how it ended up; winners and losers in the theme's colours
 * and shapes (a dot, a cross), with the zero lines; the figures a trader reads from it beside it,
 * and the same trades as a table on request. In money, or in points where the owner hides money.
 * Without any: why (trades closed before publisher 1.4), and on the owner's page (`guide`) where
 * to get the new one.
 */
export function Risks({
  excursions,
  currency,
  guide,
}: {
  excursions: ExcursionsResponse;
  currency: string | null;
  /**
   * The owner's page: the empty state points to the guide; `true` when the publisher already
   * tells the excursions (1.4 on: they come with the next closed trade), `false` when it must be
   * updated, null when its version is not ours to judge.
   */
  guide?: boolean | null;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const { trades, total, without } = excursions;

  if (trades.length === 0)
    return (
      <div className={styles.panel}>
        <div className={styles.emptyBox}>
          <p>{t('risks.empty')}</p>
          {guide === undefined ? (
            <p className={styles.lead}>{t('risks.emptyPublic')}</p>
          ) : guide === true ? (
            <p className={styles.lead}>{t('risks.emptyCurrent')}</p>
          ) : (
            <p className={styles.lead}>
              {t('risks.emptyUpdate')}{' '}
              <Link to="/online-monitoring/guide#guide-update">{t('risks.toGuide')}</Link>
            </p>
          )}
        </div>
        {without > 0 ? (
          <p className={styles.note}>{t('risks.without', { count: without })}</p>
        ) : null}
      </div>
    );
  return <RisksView excursions={excursions} currency={currency} total={total} without={without} />;
}

function RisksView({
  excursions,
  currency,
  total,
  without,
}: {
  excursions: ExcursionsResponse;
  currency: string | null;
  total: number;
  without: number;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const tableId = useId();
  const [table, setTable] = useState(false);
  const { trades } = excursions;
  // money where every trade has it; else (a public page that hides money) points
  const showsMoney = trades.every((trade) => trade.mae !== null && trade.result !== null);
  const dots: Dot[] = trades.map((trade) => ({
    trade,
    x: showsMoney ? trade.mae! : trade.mae_points,
    y: showsMoney ? trade.result! : trade.result_points,
  }));
  const value = (amount: number) =>
    showsMoney ? f.money(amount, currency) : pointsText(f, amount);
  const wins = dots.filter((dot) => dot.y > 0);
  const losses = dots.filter((dot) => dot.y < 0);
  const deepest = (group: Dot[]) =>
    group.length > 0 ? value(Math.min(...group.map((dot) => dot.x))) : f.dash;
  const mean = (group: Dot[], of: (dot: Dot) => number) =>
    group.length > 0 ? value(group.reduce((sum, dot) => sum + of(dot), 0) / group.length) : f.dash;
  const mfe = (dot: Dot) => (showsMoney ? dot.trade.mfe! : dot.trade.mfe_points);
  const unit = showsMoney ? 'money' : 'points';

  const summary = t(`risks.summary.${unit}`, {
    count: dots.length,
    wins: wins.length,
    losses: losses.length,
    winMae: deepest(wins),
    lossMae: deepest(losses),
  });

  return (
    <div className={styles.panel}>
      <p className={styles.lead}>{t(`risks.lead.${unit}`)}</p>
      <div className={styles.risks}>
        <Scatter dots={dots} currency={showsMoney ? currency : null} summary={summary} />
        <dl className={`${monitoringStyles.figures} ${styles.riskFigures}`}>
          <Figure
            label={t('risks.figures.winMae.label')}
            explanation={t('risks.figures.winMae.help')}
          >
            {deepest(wins)}
          </Figure>
          <Figure
            label={t('risks.figures.winMaeMean.label')}
            explanation={t('risks.figures.winMaeMean.help')}
          >
            {mean(wins, (dot) => dot.x)}
          </Figure>
          <Figure
            label={t('risks.figures.lossMaeMean.label')}
            explanation={t('risks.figures.lossMaeMean.help')}
          >
            {mean(losses, (dot) => dot.x)}
          </Figure>
          <Figure
            label={t('risks.figures.lossMfeMean.label')}
            explanation={t('risks.figures.lossMfeMean.help')}
          >
            {mean(losses, mfe)}
          </Figure>
        </dl>
      </div>
      {trades.length < total ? (
        <p className={styles.note}>
          {t('risks.latest', { shown: f.figure(trades.length, 0), total: f.figure(total, 0) })}
        </p>
      ) : null}
      {without > 0 ? <p className={styles.note}>{t('risks.without', { count: without })}</p> : null}
      <div>
        <Button
          variant="secondary"
          aria-expanded={table}
          aria-controls={table ? tableId : undefined}
          onClick={() => setTable((shown) => !shown)}
        >
          {t(table ? 'risks.hideTable' : 'risks.showTable')}
        </Button>
      </div>
      {table ? (
        <div id={tableId}>
          <RisksTable trades={trades} currency={currency} showsMoney={showsMoney} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The scatter: an SVG without a viewBox, every position a percentage of the plot, so it fills any
 * width with its dots round and its lines a pixel wide; the axes' numbers are HTML beside it. Its
 * name is the summary the figures beside it give; each dot tells its trade on hover.
 */
function Scatter({
  dots,
  currency,
  summary,
}: {
  dots: readonly Dot[];
  /** The money's currency; null: the values are points. */
  currency: string | null;
  summary: string;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const shapes = useId().replace(/:/g, '');
  // a phone's plot has room for fewer numbers across
  const isMobile = useAppSelector(selectIsMobile);
  const x = axisOf(
    dots.map((dot) => dot.x),
    isMobile ? 3 : 5,
  );
  const y = axisOf(dots.map((dot) => dot.y));
  const left = (value: number) => ((value - x.low) / (x.high - x.low)) * 100;
  const top = (value: number) => ((y.high - value) / (y.high - y.low)) * 100;
  const unit = currency === null ? 'points' : 'money';
  const yTicks = y.ticks.map((tick) => ({ tick, text: tickText(f, tick, y.step, currency) }));
  const xTicks = x.ticks.map((tick) => ({ tick, text: tickText(f, tick, x.step, currency) }));
  const kinds = {
    win: dots.some((dot) => dot.y > 0),
    loss: dots.some((dot) => dot.y < 0),
    even: dots.some((dot) => dot.y === 0),
  };
  const kindOf = (dot: Dot) => (dot.y > 0 ? 'win' : dot.y < 0 ? 'loss' : 'even');
  // where the result is the MAE (a trade closed at its worst): from the lower of the axes' ends
  // to zero
  const worst = Math.max(x.low, y.low);
  const hint = (dot: Dot) =>
    t('risks.dot', {
      symbol: dot.trade.symbol,
      direction: t(`trades.${dot.trade.direction}`),
      closed: f.dateTime(dot.trade.close_time),
      mae: currency === null ? pointsText(f, dot.x) : f.money(dot.x, currency),
      result: currency === null ? pointsText(f, dot.y) : f.money(dot.y, currency),
    });

  return (
    <figure className={styles.scatter}>
      <p className={styles.axisTitle} aria-hidden="true">
        {t(`risks.yAxis.${unit}`)}
      </p>
      <div className={styles.scatterGrid}>
        <div className={styles.yTicks} aria-hidden="true">
          {/* in the flow, unseen and flat: the column as wide as the widest number */}
          {yTicks.map(({ tick, text }) => (
            <span key={`w${tick}`} className={styles.tickSizer}>
              {text}
            </span>
          ))}
          {yTicks.map(({ tick, text }) => (
            <span key={tick} className={styles.yTick} style={{ top: `${top(tick)}%` }}>
              {text}
            </span>
          ))}
        </div>
        <svg className={styles.scatterPlot} role="img" aria-label={summary}>
          <defs>
            <circle id={`${shapes}-win`} r={4} />
            <path id={`${shapes}-loss`} d="M-3.5 -3.5L3.5 3.5M3.5 -3.5L-3.5 3.5" />
            <circle id={`${shapes}-even`} r={3.5} />
          </defs>
          {yTicks.map(({ tick }) => (
            <line
              key={`y${tick}`}
              className={tick === 0 ? styles.zero : styles.gridLine}
              x1="0"
              x2="100%"
              y1={`${top(tick)}%`}
              y2={`${top(tick)}%`}
            />
          ))}
          {xTicks.map(({ tick }) => (
            <line
              key={`x${tick}`}
              className={tick === 0 ? styles.zero : styles.gridLine}
              x1={`${left(tick)}%`}
              x2={`${left(tick)}%`}
              y1="0"
              y2="100%"
            />
          ))}
          {worst < 0 ? (
            <line
              className={styles.diagonal}
              x1={`${left(worst)}%`}
              y1={`${top(worst)}%`}
              x2={`${left(0)}%`}
              y2={`${top(0)}%`}
            />
          ) : null}
          {dots.map((dot) => {
            const kind = kindOf(dot);
            return (
              <use
                key={dot.trade.position_id}
                href={`#${shapes}-${kind}`}
                className={DOT_CLASS[kind]}
                x={`${left(dot.x)}%`}
                y={`${top(dot.y)}%`}
              >
                <title>{hint(dot)}</title>
              </use>
            );
          })}
        </svg>
        <span />
        <div className={styles.xTicks} aria-hidden="true">
          {xTicks.map(({ tick, text }) => (
            <span key={tick} className={styles.xTick} style={{ left: `${left(tick)}%` }}>
              {text}
            </span>
          ))}
        </div>
      </div>
      <p className={`${styles.axisTitle} ${styles.axisTitleX}`} aria-hidden="true">
        {t(`risks.xAxis.${unit}`)}
      </p>
      <figcaption className={styles.legend}>
        {(['win', 'loss', 'even'] as const)
          .filter((kind) => kinds[kind])
          .map((kind) => (
            <span key={kind} className={styles.legendItem}>
              <svg className={styles.legendMark} width="12" height="12" aria-hidden="true">
                <use href={`#${shapes}-${kind}`} className={DOT_CLASS[kind]} x="6" y="6" />
              </svg>
              {t(`risks.legend.${kind}`, {
                count: dots.filter((dot) => kindOf(dot) === kind).length,
              })}
            </span>
          ))}
        {worst < 0 ? (
          <span className={styles.legendItem}>
            <svg className={styles.legendMark} width="16" height="12" aria-hidden="true">
              <line className={styles.diagonal} x1="0" y1="11" x2="16" y2="1" />
            </svg>
            {t('risks.legend.worst')}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

/**
 * The scatter's trades as a table, a page at a time: what a screen reader reads of the chart. On a
 * phone a card a trade, as the trade history, its result at the top.
 */
function RisksTable({
  trades,
  currency,
  showsMoney,
}: {
  trades: readonly Trade[];
  currency: string | null;
  showsMoney: boolean;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const captionId = useId();
  const [page, setPage] = useState(1);
  const pageCount = pageCountOf(trades.length, RISKS_TABLE_PAGE);
  const shown = trades.slice((page - 1) * RISKS_TABLE_PAGE, page * RISKS_TABLE_PAGE);
  const isMobile = useAppSelector(selectIsMobile);
  const value = (money: number | null, points: number) =>
    showsMoney ? f.money(money, currency) : pointsText(f, points);
  const pagination = (
    <Pagination
      page={page}
      pageCount={pageCount}
      onPageChange={setPage}
      label={t('risks.pages')}
      range={t('trades.range', { total: trades.length })}
    />
  );
  if (isMobile)
    return (
      <div className={styles.panel}>
        <p id={captionId} className="visually-hidden">
          {t('risks.tableCaption')}
        </p>
        <RowCards
          labelledBy={captionId}
          cards={shown.map((trade) => ({
            key: trade.position_id,
            title: trade.symbol,
            subtitle: t(`trades.${trade.direction}`),
            lead: {
              label: t('trades.result'),
              value: value(trade.result, trade.result_points),
              className: toneClass(showsMoney ? trade.result : trade.result_points),
            },
            facts: [
              { label: t('trades.closed'), value: f.dateTime(trade.close_time) },
              { label: t('excursions.mae'), value: value(trade.mae, trade.mae_points) },
              { label: t('excursions.mfe'), value: value(trade.mfe, trade.mfe_points) },
            ],
          }))}
        />
        {pagination}
      </div>
    );
  return (
    <div className={styles.panel}>
      <TableFrame labelledBy={captionId}>
        <table className={`${tableStyles.table} ${styles.table}`}>
          <caption id={captionId} className="visually-hidden">
            {t('risks.tableCaption')}
          </caption>
          <thead>
            <tr>
              <th className={monitoringStyles.tableCell} scope="col">
                {t('trades.closed')}
              </th>
              <th className={monitoringStyles.tableCell} scope="col">
                {t('trades.symbol')}
              </th>
              <th className={monitoringStyles.tableCell} scope="col">
                {t('trades.direction')}
              </th>
              <th className={monitoringStyles.num} scope="col">
                {t('excursions.mae')}
              </th>
              <th className={monitoringStyles.num} scope="col">
                {t('excursions.mfe')}
              </th>
              <th className={monitoringStyles.num} scope="col">
                {t('trades.result')}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((trade) => (
              <tr key={trade.position_id}>
                <td className={monitoringStyles.tableCell}>{f.dateTime(trade.close_time)}</td>
                <td className={monitoringStyles.tableCell}>{trade.symbol}</td>
                <td className={monitoringStyles.tableCell}>{t(`trades.${trade.direction}`)}</td>
                <td className={monitoringStyles.num}>{value(trade.mae, trade.mae_points)}</td>
                <td className={monitoringStyles.num}>{value(trade.mfe, trade.mfe_points)}</td>
                <td className={numberCell(showsMoney ? trade.result : trade.result_points)}>
                  {value(trade.result, trade.result_points)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
      {pagination}
    </div>
  );
}
