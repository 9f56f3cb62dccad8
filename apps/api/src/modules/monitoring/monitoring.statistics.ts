import {
  type BreakdownRow,
  type BreakdownRowResponse,
  type Breakdowns,
  breakdownsOf,
  type BreakdownsResponse,
  CHART_POINTS_MAX,
  computeStatistics,
  riskOfRuin,
  type RiskOfRuinResponse,
  type RiskOfRuinResult,
  equityValuesOf,
  fallTracker,
  type ChartResponse,
  periodTable,
  type StatDeal,
  type StatSnapshot,
  type Statistics,
  type StatisticsResponse,
} from '@tradehost/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringStatistics,
  monitoringVerification,
} from '../../db/schema/index.ts';
import { isForeignKeyViolation } from '../../lib/errors.ts';
import { FOREX_WEEK } from './monitoring.alerts.evaluate.ts';
import type { AccountRow } from './monitoring.repository.ts';
import {
  advanceVerification,
  type BreakReason,
  NOT_FOLLOWED,
  VERIFICATION_SETTLE_MS,
  type VerificationState,
} from './monitoring.verification.ts';

/**
 * Reads rows whose fields PostgreSQL has joined with commas into one text column (`line`), each
 * made into a value by `read` from a cursor over its fields (`next`, and `rest` for a last field
 * that may hold commas). For an account's 100,000 deals this is several times faster than the
 * same rows field by field through the driver and the query builder, which decode and map every
 * field of every row on their own.
 */
async function joinedRows<T>(db: Executor, query: SQL, read: (fields: Fields) => T): Promise<T[]> {
  const { rows } = await db.execute<{ line: string }>(query);
  const fields = new Fields();
  const values = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    fields.line = rows[i]!.line;
    fields.from = 0;
    values[i] = read(fields);
  }
  return values;
}

/** A cursor over one joined row's fields. */
class Fields {
  line = '';
  from = 0;
  next(): string {
    let comma = this.line.indexOf(',', this.from);
    if (comma < 0) comma = this.line.length;
    const field = this.line.slice(this.from, comma);
    this.from = comma + 1;
    return field;
  }
  number(): number {
    return Number(this.next());
  }
  rest(): string {
    return this.line.slice(this.from);
  }
}

/**
 * A time column in ms since 1970. Deal and snapshot times are whole milliseconds (the
 * publisher's precision), so rounding the float seconds is exact, and several times cheaper than
 * PostgreSQL's exact numeric `extract`.
 */
const epochMs = (column: SQL) => sql`round(date_part('epoch', ${column}) * 1000)::int8`;

const numberOrNull = (field: string) => (field === '' ? null : Number(field));

/**
 * How long after its deal an `equity_before` may reach the server and still be the equity then:
 * a publisher sees a flow within seconds and retries a failed call for about a minute; one that
 * was stopped for days sends its own equity of now (publishers before 1.2 did).
 */
export const EQUITY_BEFORE_REACH_MS = 2 * 60_000;

/**
 * An account's deals in time order, ticket breaking ties, as the statistics take them: the
 * `equity_before` of those that came within EQUITY_BEFORE_REACH_MS of their time.
 */
export async function dealsOf(db: Executor, accountId: number): Promise<StatDeal[]> {
  // the symbol last: the only field that could hold a comma
  return joinedRows(
    db,
    sql`select concat_ws(',', ticket, position_id, ${epochMs(sql`time`)}, type, entry, digits,
          volume, price, profit, swap, commission, fee, magic,
          coalesce(case when received_at is null
              or received_at <= time + ${sql.raw(`interval '${EQUITY_BEFORE_REACH_MS} ms'`)}
            then equity_before::text end, ''),
          symbol) as line
        from monitoring_deals where account_id = ${accountId} order by time, ticket`,
    (f) => ({
      ticket: f.next(),
      positionId: f.next(),
      time: f.number(),
      type: f.next() as StatDeal['type'],
      entry: f.next() as StatDeal['entry'],
      digits: f.number(),
      volume: f.number(),
      price: f.number(),
      profit: f.number(),
      swap: f.number(),
      commission: f.number(),
      fee: f.number(),
      magic: f.next(),
      equityBefore: numberOrNull(f.next()),
      symbol: f.rest(),
    }),
  );
}

/**
 * An account's equity points (one a minute and cash-flow segment, one an hour once thinned) in
 * time order, each at the time its values were taken.
 */
export async function snapshotsOf(db: Executor, accountId: number): Promise<StatSnapshot[]> {
  return joinedRows(
    db,
    sql`select concat_ws(',', ${epochMs(sql`coalesce(last_at, at)`)}, balance, equity, margin,
          credit, equity_low, equity_high) as line
        from monitoring_equity where account_id = ${accountId} order by at, segment`,
    (f) => ({
      time: f.number(),
      balance: f.number(),
      equity: f.number(),
      margin: f.number(),
      credit: f.number(),
      equityLow: f.number(),
      equityHigh: f.number(),
    }),
  );
}

/**
 * An account's figures from what its publisher stored: its deals and equity points, the latest
 * one carrying the open positions of the account's last snapshot.
 */
export async function accountStatistics(db: Executor, account: AccountRow, now: Date) {
  const [deals, snapshots] = await Promise.all([
    dealsOf(db, account.id),
    snapshotsOf(db, account.id),
  ]);
  const positions = (account.positions as Array<{ open_time?: string }>) ?? [];
  const last = snapshots.at(-1);
  const opened = positions.map((p) => Date.parse(p.open_time ?? '')).filter(Number.isFinite);
  if (last && opened.length > 0) {
    last.openPositions = opened.length;
    last.oldestOpenTime = Math.min(...opened);
  }
  return computeStatistics({
    deals,
    snapshots,
    now: now.getTime(),
    timeZone: account.timeZone,
    uniqueTickets: true,
  });
}

/**
 * The figures as the job stores them: the statistics response but its `verification`, which
 * each read adds from the verification's own row (monitoring.reads.ts), so it is current.
 */
export type StatisticsFigures = Omit<StatisticsResponse, 'verification'>;

/** The API's shape of the figures (snake_case; percentages as fractions). */
export function statisticsResponse(
  account: AccountRow,
  s: Statistics,
  range: { from?: number; to?: number },
): StatisticsFigures {
  return {
    currency: account.currency,
    gain: s.gain,
    absolute_gain: s.absoluteGain,
    daily_gain: s.dailyGain,
    monthly_gain: s.monthlyGain,
    deposits: s.deposits,
    withdrawals: s.withdrawals,
    profit: s.profit,
    other_results: s.otherResults,
    balance: s.balance,
    equity: s.equity,
    history_incomplete: s.historyIncomplete,
    equity_since: s.equitySince === null ? null : new Date(s.equitySince).toISOString(),
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
    breakdowns: breakdownsResponse(breakdownsOf(s.closedTrades, account.timeZone, range)),
    risk_of_ruin: riskOfRuinResponse(riskOfRuin(s.tradeReturns)),
    last_data_at: account.lastDataAt?.toISOString() ?? null,
  };
}

const breakdownRow = (row: BreakdownRow): BreakdownRowResponse => ({
  key: row.key,
  trades: row.trades,
  wins: row.wins,
  win_rate: row.winRate,
  lots: row.lots,
  profit: row.profit,
  gross_profit: row.grossProfit,
  gross_loss: row.grossLoss,
  profit_factor: row.profitFactor,
  pips: row.pips,
});

/** The breakdowns as the API gives them; the strategies' names are the reader's to add. */
function breakdownsResponse(b: Breakdowns): BreakdownsResponse {
  return {
    symbols: b.symbols.map(breakdownRow),
    hours: b.hours.map(breakdownRow),
    weekdays: b.weekdays.map(breakdownRow),
    directions: b.directions.map(breakdownRow),
    strategies: b.strategies.map((row) => ({ ...breakdownRow(row), name: null })),
  };
}

function riskOfRuinResponse(r: RiskOfRuinResult): RiskOfRuinResponse {
  if (!r.estimate) return { reason: r.reason, estimate: null };
  const e = r.estimate;
  return {
    reason: null,
    estimate: {
      trades: e.trades,
      win_rate: e.winRate,
      average_win: e.averageWin,
      average_loss: e.averageLoss,
      levels: e.levels,
    },
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
  // as the equity drawdown measures it: the equity's fall from its previous peak, where the
  // equity is known; a deal while positions are open keeps the fall last known
  const falls = fallTracker();
  const drawdowns = s.index.map((p) => {
    const values = equityValuesOf(p);
    let drawdown = values.length > 0 ? 0 : falls.fall;
    for (const value of values) {
      falls.take(value);
      drawdown = Math.max(drawdown, falls.fall);
    }
    return drawdown;
  });
  const pointAt = (i: number): ChartPoint => {
    const p = s.index[i]!;
    return {
      time: new Date(p.time).toISOString(),
      // the moment asked for ends at the gain figure (equity, not only closed results)
      gain: p.now ? s.gain : p.index - 1,
      balance: p.balance,
      equity: p.equity,
      drawdown: drawdowns[i]!,
    };
  };
  const count = s.index.length;
  if (count <= CHART_POINTS_MAX) return s.index.map((_, i) => pointAt(i));
  const buckets = Math.floor(CHART_POINTS_MAX / 2);
  const size = Math.ceil(count / buckets);
  const kept: number[] = [];
  for (let first = 0; first < count; first += size) {
    let deepest = first;
    for (let i = first + 1; i < Math.min(first + size, count); i += 1)
      if (drawdowns[i]! > drawdowns[deepest]!) deepest = i;
    kept.push(first);
    if (deepest !== first) kept.push(deepest);
  }
  if (kept.at(-1) !== count - 1) kept.push(count - 1);
  return kept.map(pointAt);
}

/** A breakdown's row without its money (counts, lots, pips and ratios stay). */
const moneyless = <T extends BreakdownRowResponse>(row: T): T => ({
  ...row,
  profit: null,
  gross_profit: null,
  gross_loss: null,
});

/** The statistics of the public page when its owner hides money figures: percentages only. */
export function withoutMoney<T extends StatisticsFigures>(r: T): T {
  return {
    ...r,
    currency: null,
    deposits: null,
    withdrawals: null,
    profit: null,
    other_results: null,
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
    breakdowns: {
      symbols: r.breakdowns.symbols.map(moneyless),
      hours: r.breakdowns.hours.map(moneyless),
      weekdays: r.breakdowns.weekdays.map(moneyless),
      directions: r.breakdowns.directions.map(moneyless),
      strategies: r.breakdowns.strategies.map(moneyless),
    },
  };
}

/**
 * What the statistics job does for one account: compute its figures over the whole history and
 * store them with the list's summary and the chart, and follow its verification over the equity
 * points since it last did. An account deleted meanwhile stores nothing.
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
  return followVerification(db, account, now);
}

const timeOrNull = (at: Date | null) => (at === null ? null : at.getTime());
const dateOrNull = (at: number | null) => (at === null ? null : new Date(at));

/** An account's stored verification state (none followed yet: NOT_FOLLOWED). */
export async function verificationStateOf(
  db: Executor,
  accountId: number,
): Promise<VerificationState & { updatedAt: Date | null }> {
  const [row] = await db
    .select()
    .from(monitoringVerification)
    .where(eq(monitoringVerification.accountId, accountId));
  if (!row) return { ...NOT_FOLLOWED, updatedAt: null };
  return {
    runStartedAt: timeOrNull(row.runStartedAt),
    lastHostedAt: timeOrNull(row.lastHostedAt),
    checkedUntil: row.checkedUntil.getTime(),
    brokenReason: row.brokenReason as BreakReason | null,
    brokenFrom: timeOrNull(row.brokenFrom),
    brokenTo: timeOrNull(row.brokenTo),
    updatedAt: row.updatedAt,
  };
}

/**
 * "Verified by the host" (monitoring.verification.ts): the account's run advanced over its
 * equity points after the last followed one, up to those settled (VERIFICATION_SETTLE_MS), read
 * before the maintenance thins them to hours. Written only if nobody changed the row meanwhile (a
 * job for the account at the same time, the snapshots' statement breaking the run): else that
 * write stands and the next job goes on from it. False when the account is gone.
 */
export async function followVerification(
  db: Executor,
  account: AccountRow,
  now: Date,
): Promise<boolean> {
  const { updatedAt, ...before } = await verificationStateOf(db, account.id);
  const after = before.checkedUntil === null ? null : new Date(before.checkedUntil);
  const { rows } = await db.execute<{ at: string; hosted: boolean | null }>(sql`
    select ${epochMs(sql`at`)} as at, hosted from monitoring_equity
    where account_id = ${account.id} and at <= ${new Date(now.getTime() - VERIFICATION_SETTLE_MS)}
      ${after === null ? sql`` : sql`and at > ${after}`}
    order by at, segment`);
  if (rows.length === 0) return true;
  const state = advanceVerification(
    before,
    rows.map((r) => ({ at: Number(r.at), hosted: r.hosted })),
    account.tradeSessions ?? FOREX_WEEK,
  );
  const values = {
    runStartedAt: dateOrNull(state.runStartedAt),
    lastHostedAt: dateOrNull(state.lastHostedAt),
    checkedUntil: new Date(state.checkedUntil!),
    brokenReason: state.brokenReason,
    brokenFrom: dateOrNull(state.brokenFrom),
    brokenTo: dateOrNull(state.brokenTo),
    updatedAt: now,
  };
  try {
    if (updatedAt === null)
      await db
        .insert(monitoringVerification)
        .values({ accountId: account.id, ...values })
        .onConflictDoNothing();
    else
      await db
        .update(monitoringVerification)
        .set(values)
        .where(
          and(
            eq(monitoringVerification.accountId, account.id),
            eq(monitoringVerification.updatedAt, updatedAt),
            sql`${monitoringVerification.runStartedAt} is not distinct from ${dateOrNull(before.runStartedAt)}`,
          ),
        );
  } catch (error) {
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
