import {
  computeStatistics,
  periodTable,
  type StatDeal,
  type StatSnapshot,
  type Statistics,
  type StatisticsResponse,
} from '@tradehost/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { monitoringDeals, monitoringEquity } from '../../db/schema/index.ts';
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
