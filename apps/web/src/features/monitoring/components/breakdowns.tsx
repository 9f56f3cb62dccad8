import {
  MANUAL_MAGIC,
  type BreakdownRowResponse,
  type BreakdownsResponse,
} from '@tradehost/contracts';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../shared/ui/form';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import { strategyName } from '../lib/strategy-name';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './analysis.module.css';
import { BarChart, type Bar } from './bar-chart';
import monitoringStyles from './monitoring.module.css';
import { StrategyDialog } from './strategy-dialog';
import { numberCell } from './tone';

type Split = keyof BreakdownsResponse;
type Row = BreakdownRowResponse & { name?: string | null };

const SPLITS: readonly Split[] = ['symbols', 'hours', 'weekdays', 'directions', 'strategies'];

/** The most bars a chart of rows (symbols, strategies) draws: the most traded; the table has all. */
export const CHART_ROWS_MAX = 12;

type Figure = 'trades' | 'lots' | 'winRate' | 'profit' | 'pips' | 'profitFactor';

/** The figures each split's table shows after its name. */
const FIGURES: Record<Split, readonly Figure[]> = {
  symbols: ['trades', 'lots', 'winRate', 'profit', 'pips', 'profitFactor'],
  hours: ['trades', 'winRate', 'profit'],
  weekdays: ['trades', 'winRate', 'profit'],
  directions: ['trades', 'lots', 'winRate', 'profit', 'profitFactor'],
  strategies: ['trades', 'lots', 'winRate', 'profit', 'profitFactor'],
};

const pad = (hour: number) => String(hour).padStart(2, '0');

/** "09:00–10:00": an hour of the day ('0'-'23'). */
export const hourName = (key: string) => `${pad(Number(key))}:00–${pad(Number(key) + 1)}:00`;

/** An ISO weekday ('1' Monday … '7' Sunday) in the reader's language: "Monday", "Понедельник". */
export function weekdayName(key: string, language: string, width: 'long' | 'short' = 'long') {
  // 1 January 2024 was a Monday
  const text = new Intl.DateTimeFormat(language, { weekday: width, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, Number(key))),
  );
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

/** A row's name in its split. */
function rowName(f: MonitoringFormat, split: Split, row: Row): string {
  switch (split) {
    case 'hours':
      return hourName(row.key);
    case 'weekdays':
      return weekdayName(row.key, f.language);
    case 'directions':
      return f.t(`trades.${row.key}`, { defaultValue: row.key });
    case 'strategies':
      return strategyName(f, row.key, row.name ?? null);
    default:
      return row.key;
  }
}

/** A column's name under a chart: the short weekday, every third hour. */
function axisName(f: MonitoringFormat, split: Split, row: Row): string | undefined {
  if (split === 'hours') return Number(row.key) % 3 === 0 ? pad(Number(row.key)) : '';
  if (split === 'weekdays') return weekdayName(row.key, f.language, 'short');
  return undefined;
}

/**
 * What produced an account's result: the trades closed in the period split by symbol, by the
 * hour and the weekday they were opened in (the account's time zone), by direction and by
 * strategy (monitoring-analysis.ts), each split a tab with a chart of its profit (of its trades
 * where the money is hidden) and a table of its figures. On the owner's page (`accountId`) a
 * strategy can be named.
 */
export function Breakdowns({
  breakdowns,
  currency,
  timeZone,
  accountId,
}: {
  breakdowns: BreakdownsResponse;
  currency: string | null;
  /** The account's time zone, which the hours and weekdays are of. */
  timeZone: string;
  /** The owner's account: its strategies can be renamed. */
  accountId?: number;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const [split, setSplit] = useState<Split>('symbols');

  if (breakdowns.symbols.length === 0) return <p className={styles.lead}>{t('analysis.empty')}</p>;
  return (
    <div className={styles.panel}>
      <p className={styles.lead}>{t('analysis.lead', { zone: timeZone })}</p>
      <Tabs
        label={t('analysis.tabsLabel')}
        items={SPLITS.map((value) => ({ value, label: t(`analysis.tabs.${value}`) }))}
        value={split}
        onChange={setSplit}
        variant="sub"
      >
        <SplitView
          split={split}
          rows={breakdowns[split]}
          currency={currency}
          accountId={accountId}
        />
      </Tabs>
    </div>
  );
}

function SplitView({
  split,
  rows,
  currency,
  accountId,
}: {
  split: Split;
  rows: readonly Row[];
  currency: string | null;
  accountId: number | undefined;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const captionId = useId();
  const [renaming, setRenaming] = useState<Row | null>(null);
  // the money is hidden (a public page that shows percentages only): the chart counts trades
  const showsMoney = rows.every((row) => row.profit !== null);
  const figures = FIGURES[split].filter((figure) => showsMoney || figure !== 'profit');
  const renames = split === 'strategies' && accountId !== undefined;
  const layout = split === 'hours' || split === 'weekdays' ? 'columns' : 'rows';
  const charted = layout === 'rows' ? rows.slice(0, CHART_ROWS_MAX) : rows;

  const bars: Bar[] = charted.map((row) => ({
    key: row.key,
    label: rowName(f, split, row),
    axisLabel: axisName(f, split, row),
    value: showsMoney ? (row.profit ?? 0) : row.trades,
    valueText: showsMoney
      ? f.money(row.profit, currency)
      : t('analysis.tradeCount', { count: row.trades }),
  }));

  const cell = (figure: Figure, row: Row): { text: ReactNode; className: string } => {
    switch (figure) {
      case 'trades':
        return { text: row.trades, className: monitoringStyles.num! };
      case 'lots':
        return { text: f.figure(row.lots), className: monitoringStyles.num! };
      case 'winRate':
        return { text: f.percent(row.win_rate), className: monitoringStyles.num! };
      case 'profit':
        return { text: f.money(row.profit, currency), className: numberCell(row.profit) };
      case 'pips':
        return { text: f.figure(row.pips, 1), className: numberCell(row.pips) };
      case 'profitFactor':
        return {
          // none without losses (as the statistics say it); a row without trades has none at all
          text:
            row.profit_factor === null && row.trades > 0
              ? t('figures.noLosses')
              : f.figure(row.profit_factor),
          className: monitoringStyles.num!,
        };
    }
  };

  return (
    <div className={styles.panel}>
      <BarChart
        label={t(showsMoney ? `analysis.profitChart.${split}` : `analysis.tradesChart.${split}`)}
        bars={bars}
        layout={layout}
        signed={showsMoney}
      />
      {charted.length < rows.length ? (
        <p className={styles.note}>{t('analysis.chartTop', { count: CHART_ROWS_MAX })}</p>
      ) : null}
      <TableFrame labelledBy={captionId}>
        <table className={`${tableStyles.table} ${styles.table}`}>
          <caption id={captionId} className="visually-hidden">
            {t(`analysis.tables.${split}`)}
          </caption>
          <thead>
            <tr>
              <th className={monitoringStyles.tableCell} scope="col">
                {t(`analysis.columns.${split}`)}
              </th>
              {figures.map((figure) => (
                <th key={figure} className={monitoringStyles.num} scope="col">
                  {t(`analysis.columns.${figure}`)}
                </th>
              ))}
              {renames ? (
                <th className={monitoringStyles.tableCell} scope="col">
                  <span className="visually-hidden">{t('analysis.columns.actions')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const name = rowName(f, split, row);
              return (
                <tr key={row.key}>
                  <th className={monitoringStyles.tableCell} scope="row">
                    {split === 'strategies' ? (
                      <span className={styles.strategyName}>{name}</span>
                    ) : (
                      name
                    )}
                  </th>
                  {figures.map((figure) => {
                    const { text, className } = cell(figure, row);
                    return (
                      <td key={figure} className={className}>
                        {text}
                      </td>
                    );
                  })}
                  {renames ? (
                    <td className={`${monitoringStyles.tableCell} ${styles.actionsCell}`}>
                      {row.key === MANUAL_MAGIC ? null : (
                        <Button
                          variant="secondary"
                          className={styles.rowButton}
                          aria-label={t('analysis.renameOf', { name })}
                          onClick={() => setRenaming(row)}
                        >
                          {t('analysis.rename')}
                        </Button>
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableFrame>
      {renaming && accountId !== undefined ? (
        <StrategyDialog
          accountId={accountId}
          magic={renaming.key}
          name={renaming.name ?? null}
          onClose={() => setRenaming(null)}
        />
      ) : null}
    </div>
  );
}
