import {
  CHART_POINTS_MAX,
  computeStatistics,
  type ChartResponse,
  periodTable,
  type StatDeal,
  type StatSnapshot,
  type Statistics,
  type StatisticsResponse,
} from '@tradehost/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringDeals,
  monitoringEquity,
  monitoringStatistics,
} from '../../db/schema/index.ts';
import { isForeignKeyViolation } from '../../lib/errors.ts';
import type { AccountRow } from './monitoring.repository.ts';

/**
 * An account's figures from what its publisher stored: its deals and equity points, the latest
 * one carrying the open positions of the account's last snapshot.
 */
export async function accountStatistics(db: Executor, account: AccountRow, now: Date) {
  const [deals, points] = await Promise.all([
    db
      .select()
      .from(monitoringDeals)
      .where(eq(monitoringDeals.accountId, account.id))
      .orderBy(asc(monitoringDeals.time), asc(monitoringDeals.ticket)),
    db
      .select()
      .from(monitoringEquity)
      .where(eq(monitoringEquity.accountId, account.id))
      .orderBy(asc(monitoringEquity.at)),
  ]);
  const statDeals: StatDeal[] = deals.map((d) => ({
    ticket: String(d.ticket),
    positionId: String(d.positionId),
    time: d.time.getTime(),
    type: d.type as StatDeal['type'],
    entry: d.entry as StatDeal['entry'],
    symbol: d.symbol,
    digits: d.digits,
    volume: d.volume,
    price: d.price,
    profit: d.profit,
    swap: d.swap,
    commission: d.commission,
    fee: d.fee,
    equityBefore: d.equityBefore,
  }));
  const snapshots: StatSnapshot[] = points.map((p) => ({
    time: p.at.getTime(),
    balance: p.balance,
    equity: p.equity,
    margin: p.margin,
    credit: p.credit,
    equityLow: p.equityLow,
    equityHigh: p.equityHigh,
  }));
  const positions = (account.positions as Array<{ open_time?: string }>) ?? [];
  const last = snapshots.at(-1);
  const opened = positions.map((p) => Date.parse(p.open_time ?? '')).filter(Number.isFinite);
  if (last && opened.length > 0) {
    last.openPositions = opened.length;
    last.oldestOpenTime = Math.min(...opened);
  }
  return computeStatistics({
    deals: statDeals,
    snapshots,
    now: now.getTime(),
    timeZone: account.timeZone,
  });
}

/** The API's shape of the figures (snake_case; percentages as fractions). */
export function statisticsResponse(
  account: AccountRow,
  s: Statistics,
  range: { from?: number; to?: number },
): StatisticsResponse {
  return {
    currency: account.currency,
    gain: s.gain,
    absolute_gain: s.absoluteGain,
    daily_gain: s.dailyGain,
    monthly_gain: s.monthlyGain,
    deposits: s.deposits,
    withdrawals: s.withdrawals,
    profit: s.profit,
    balance: s.balance,
    equity: s.equity,
    max_drawdown: s.maxDrawdown,
    equity_drawdown: s.equityDrawdown,
    drawdown_money: s.drawdownMoney,
    absolute_drawdown: s.absoluteDrawdown,
    trades: {
      count: s.trades.count,
      wins: s.trades.wins,
      losses: s.trades.losses,
      win_rate: s.trades.winRate,
      profit_factor: s.trades.profitFactor,
      average_win: s.trades.averageWin,
      average_loss: s.trades.averageLoss,
      expectancy: s.trades.expectancy,
      best: s.trades.best,
      worst: s.trades.worst,
      longest_win_streak: s.trades.longestWinStreak,
      longest_loss_streak: s.trades.longestLossStreak,
      lots: s.trades.lots,
      pips: s.trades.pips,
      longs_won: s.trades.longsWon,
      shorts_won: s.trades.shortsWon,
      average_length_sec:
        s.trades.averageLengthMs === null ? null : s.trades.averageLengthMs / 1000,
      trades_per_week: s.trades.tradesPerWeek,
    },
    ratios: {
      recovery_factor: s.ratios.recoveryFactor,
      ahpr: s.ratios.ahpr,
      ghpr: s.ratios.ghpr,
      sharpe: s.ratios.sharpe,
      z_score: s.ratios.zScore,
      activity: s.ratios.activity,
      max_deposit_load: s.ratios.maxDepositLoad,
    },
    daily: periodTable(s, 'day', account.timeZone, range),
    monthly: periodTable(s, 'month', account.timeZone, range),
    last_data_at: account.lastDataAt?.toISOString() ?? null,
  };
}

type ChartPoint = ChartResponse['points'][number];

/**
 * The growth and drawdown charts' points: per event of the gain index, its gain, balance,
 * equity, and the fall from the previous peak (the equity drawdown's measure, so its deepest
 * point is the equity drawdown figure). A history longer than
 * CHART_POINTS_MAX is thinned into buckets, each keeping its first point and its deepest
 * drawdown, so the chart's shape and its worst moment survive.
 */
export function chartOf(s: Statistics): ChartPoint[] {
  // as the equity drawdown measures it: the index, then the index moved by equity, each against
  // the peak of both so far
  let peak = 0;
  const all: ChartPoint[] = s.index.map((p) => {
    let drawdown = 0;
    for (const value of [p.index, p.equityIndex]) {
      peak = Math.max(peak, value);
      if (peak > 0) drawdown = Math.max(drawdown, (peak - value) / peak);
    }
    return {
      time: new Date(p.time).toISOString(),
      // the moment asked for ends at the gain figure (equity, not only closed results)
      gain: p.now ? s.gain : p.index - 1,
      balance: p.balance,
      equity: p.equity,
      drawdown,
    };
  });
  if (all.length <= CHART_POINTS_MAX) return all;
  const buckets = Math.floor(CHART_POINTS_MAX / 2);
  const size = Math.ceil(all.length / buckets);
  const kept: ChartPoint[] = [];
  for (let start = 0; start < all.length; start += size) {
    const bucket = all.slice(start, start + size);
    const first = bucket[0]!;
    const deepest = bucket.reduce((a, b) => (b.drawdown > a.drawdown ? b : a));
    kept.push(first);
    if (deepest !== first) kept.push(deepest);
  }
  const last = all.at(-1)!;
  if (kept.at(-1) !== last) kept.push(last);
  return kept;
}

/** The statistics of the public page when its owner hides money figures: percentages only. */
export function withoutMoney(r: StatisticsResponse): StatisticsResponse {
  return {
    ...r,
    currency: null,
    deposits: null,
    withdrawals: null,
    profit: null,
    balance: null,
    equity: null,
    drawdown_money: null,
    absolute_drawdown: null,
    trades: {
      ...r.trades,
      average_win: null,
      average_loss: null,
      expectancy: null,
      best: null,
      worst: null,
      longest_win_streak: { count: r.trades.longest_win_streak.count, money: null },
      longest_loss_streak: { count: r.trades.longest_loss_streak.count, money: null },
    },
    daily: r.daily.map((row) => ({ ...row, profit: null })),
    monthly: r.monthly.map((row) => ({ ...row, profit: null })),
  };
}

/**
 * What the statistics job does for one account: compute its figures over the whole history and
 * store them with the list's summary and the chart. An account deleted meanwhile stores nothing.
 */
export async function storeStatistics(db: Executor, accountId: number, now: Date) {
  const [account] = await db
    .select()
    .from(monitoringAccounts)
    .where(eq(monitoringAccounts.id, accountId));
  if (!account) return false;
  const s = await accountStatistics(db, account, now);
  const row = {
    accountId,
    computedAt: now,
    gain: s.gain,
    maxDrawdown: s.maxDrawdown,
    profit: s.profit,
    trades: s.trades.count,
    figures: statisticsResponse(account, s, {}),
    chart: chartOf(s),
  };
  try {
    await db
      .insert(monitoringStatistics)
      .values(row)
      .onConflictDoUpdate({ target: monitoringStatistics.accountId, set: row });
  } catch (error) {
    // the account was deleted while its figures were computed
    if (isForeignKeyViolation(error)) return false;
    throw error;
  }
  return true;
}

/**
 * One stored part of an account's figures (the statistics response or the chart), if the job
 * has computed them: only that column is read, not the other document beside it.
 */
export async function storedStatistics(
  db: Executor,
  accountId: number,
  part: 'figures' | 'chart',
): Promise<unknown> {
  const [row] = await db
    .select({ value: monitoringStatistics[part] })
    .from(monitoringStatistics)
    .where(eq(monitoringStatistics.accountId, accountId));
  return row?.value;
}
