import {
  pipsOf,
  PING_PERIOD_DAYS,
  PING_STEP_SEC,
  type ChartResponse,
  type ExcursionsResponse,
  EXCURSIONS_MAX,
  type PingPeriod,
  type PingResponse,
  type MonitoringTrade,
  type Page,
  type PositionsResponse,
  type PublicAccountResponse,
  type StatisticsResponse,
  DAY_MS,
} from '@tradehost/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { monitoringStatistics } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { csvFile } from '../../lib/csv.ts';
import { utcDay } from './monitoring.jobs.ts';
import { monitoringRepository as repo, type AccountRow } from './monitoring.repository.ts';
import { FOREX_WEEK } from './monitoring.alerts.evaluate.ts';
import {
  accountStatistics,
  chartOf,
  type StatisticsFigures,
  statisticsResponse,
  storedStatistics,
  verificationStateOf,
  withoutMoney,
} from './monitoring.statistics.ts';
import { verificationOf } from './monitoring.verification.ts';
import { visitorHash } from './monitoring.visitors.ts';

/**
 * What an account shows, to its owner and (less what the owner hid) on its public page: the
 * statistics and the chart as the job stored them, the closed trades (one indexed query, paged,
 * or all as CSV), the open positions of the latest snapshot.
 */

interface TradeRow {
  position_id: string;
  symbol: string;
  type: 'buy' | 'sell';
  digits: number;
  open_time: Date | string;
  close_time: Date | string;
  volume: number;
  open_price: number;
  close_price: number;
  result: number;
  magic: string;
  strategy: string | null;
  mae: number | null;
  mfe: number | null;
  mae_points: number | null;
  mfe_points: number | null;
  total: string;
  [key: string]: unknown;
}

/** A figure as JSON writes it: -0 (a publisher's "-0.00") as 0. */
const plain = <T extends number | null>(value: T): T => (value === null ? value : value + 0) as T;

const iso = (at: Date | string) => new Date(at).toISOString();

type Excursion = 'mae' | 'mfe' | 'mae_points' | 'mfe_points';

/** Lots are traded in steps of 0.01 at the finest; a sum of them can carry binary noise. */
const LOT_DECIMALS = 2;
/** A price of a symbol whose digits are unknown (no deal): at most a 5-digit quote's precision. */
const PRICE_DECIMALS_MAX = 5;

/** `value` rounded to `places`, written without trailing zeros (0.30000000000000004 -> 0.3). */
const decimals = (value: number, places: number) => String(Number(value.toFixed(places)));

/**
 * A price in the trades' CSV as the terminal quotes it: the symbol's digits (1.08500, 151.234),
 * so a volume-weighted average (1.0850000000000002) reads as a price; without digits, at most
 * five decimals.
 */
const csvPrice = (price: number, digits: number | null) =>
  digits === null ? decimals(price, PRICE_DECIMALS_MAX) : price.toFixed(digits);

export function createMonitoringReads(db: Db, now: () => Date, secret: string) {
  /**
   * The closed trades (a subquery): the buy and sell deals of a position once its closing
   * volume has reached its opening volume (closedTrades of the statistics, in SQL). A netting
   * reversal (`inout`) is two parts: the close of the position's net volume before it (with the
   * deal's whole result and excursions), and the opening of the rest as the position's next trade
   * (`id#2`). A trade's excursions are the most adverse mae and the best mfe of its closing deals
   * (the publisher tracks the whole position: each closing deal carries them so far).
   */
  const closedTrades = (accountId: number) => sql`(
        with d as (
          select position_id, ticket, time, type, entry, symbol, digits, volume, price, magic,
            mae, mfe, mae_points, mfe_points,
            profit + swap + commission + fee as money,
            -- the net volume before the deal (buys add, sells take), and the reversals so far
            coalesce(sum(case when type = 'buy' then volume else -volume end) over earlier, 0)
              as net_before,
            count(*) filter (where entry = 'inout') over earlier as reversals
          from monitoring_deals
          where account_id = ${accountId} and type in ('buy', 'sell')
          window earlier as (partition by position_id order by time, ticket
            rows between unbounded preceding and 1 preceding)),
        parts as (
          select position_id, reversals as trade, ticket, time, type, entry, symbol, digits,
            volume, price, magic, money, mae, mfe, mae_points, mfe_points
          from d where entry <> 'inout'
          union all
          select position_id, reversals, ticket, time, type, 'out', symbol, digits,
            abs(net_before), price, magic, money, mae, mfe, mae_points, mfe_points
          from d where entry = 'inout'
          union all
          select position_id, reversals + 1, ticket, time, type, 'in', symbol, digits,
            abs(net_before + case when type = 'buy' then volume else -volume end), price, magic, 0,
            null, null, null, null
          from d where entry = 'inout')
        select case when trade = 0 then position_id::text
            else position_id::text || '#' || (trade + 1) end as position_id,
          (array_agg(symbol order by time, ticket) filter (where entry = 'in'))[1] as symbol,
          (array_agg(type order by time, ticket) filter (where entry = 'in'))[1] as type,
          (array_agg(digits order by time, ticket) filter (where entry = 'in'))[1] as digits,
          (array_agg(magic order by time, ticket) filter (where entry = 'in'))[1] as magic,
          min(time) filter (where entry = 'in') as open_time,
          max(time) filter (where entry <> 'in') as close_time,
          sum(volume) filter (where entry = 'in') as volume,
          sum(volume) filter (where entry <> 'in') as closed,
          sum(price * volume) filter (where entry = 'in')
            / nullif(sum(volume) filter (where entry = 'in'), 0) as open_price,
          sum(price * volume) filter (where entry <> 'in')
            / nullif(sum(volume) filter (where entry <> 'in'), 0) as close_price,
          sum(money) as result,
          min(mae) filter (where entry <> 'in') as mae,
          max(mfe) filter (where entry <> 'in') as mfe,
          min(mae_points) filter (where entry <> 'in') as mae_points,
          max(mfe_points) filter (where entry <> 'in') as mfe_points
        from parts
        group by position_id, trade) p
      where open_time is not null and close_time is not null and closed + 1e-9 >= volume`;

  /** The closed trades, newest first (`limit` null: all). */
  async function tradeRows(accountId: number, limit: number | null, offset: number) {
    const closed = closedTrades(accountId);
    // the count is a window over the rows the sort needs all of anyway
    const { rows } = await db.execute<TradeRow>(sql`
      select position_id, symbol, type, digits, open_time, close_time, volume, open_price,
        close_price, result, magic::text as magic, mae, mfe, mae_points, mfe_points,
        (select s.name from monitoring_strategies s
          where s.account_id = ${accountId} and s.magic = p.magic) as strategy,
        count(*) over () as total
      from ${closed}
      order by close_time desc, length(position_id) desc, position_id desc
      limit ${limit ?? sql.raw('all')} offset ${offset}`);
    let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
    // past the last page no row carries the count: how many there are, on their own
    if (rows.length === 0 && offset > 0) {
      const counted = await db.execute<{ n: string }>(sql`select count(*) as n from ${closed}`);
      total = Number(counted.rows[0]!.n);
    }
    const trades: MonitoringTrade[] = rows.map((r) => {
      const sign = r.type === 'buy' ? 1 : -1;
      const openPrice = r.open_price ?? 0;
      const closePrice = r.close_price ?? 0;
      return {
        position_id: r.position_id,
        symbol: r.symbol,
        direction: r.type === 'buy' ? 'long' : 'short',
        open_time: iso(r.open_time),
        close_time: iso(r.close_time),
        volume: r.volume,
        digits: r.digits,
        open_price: openPrice,
        close_price: closePrice,
        result: r.result,
        pips: pipsOf(r.symbol, r.digits, (closePrice - openPrice) * sign),
        magic: r.magic,
        strategy: r.strategy,
        mae: plain(r.mae),
        mfe: plain(r.mfe),
        mae_points: plain(r.mae_points),
        mfe_points: plain(r.mfe_points),
      };
    });
    return { trades, total };
  }

  /**
   * The scatter's trades: the latest EXCURSIONS_MAX closed trades with excursions, newest first,
   * each with its result in money and its price move in points (as the excursions' points: the
   * symbol's digits); how many have them, and how many do not (closed before the publisher told
   * them). One query: the counts come with the rows, or alone when there are none.
   */
  async function excursions(accountId: number): Promise<ExcursionsResponse> {
    const { rows } = await db.execute<{
      total: string;
      without: string;
      position_id: string | null;
      symbol: string;
      type: 'buy' | 'sell';
      digits: number;
      close_time: Date | string;
      open_price: number;
      close_price: number;
      result: number;
      mae: number;
      mfe: number;
      mae_points: number;
      mfe_points: number;
    }>(sql`
      with t as materialized (select * from ${closedTrades(accountId)}),
      counts as (
        select count(*) filter (where mae is not null) as total,
          count(*) filter (where mae is null) as without
        from t)
      select counts.total, counts.without, x.*
      from counts left join lateral (
        select position_id, symbol, type, digits, close_time, open_price, close_price, result,
          mae, mfe, mae_points, mfe_points
        from t where mae is not null
        order by close_time desc, length(position_id) desc, position_id desc
        limit ${EXCURSIONS_MAX}) x on true`);
    const first = rows[0];
    return {
      trades: rows
        .filter((r) => r.position_id !== null)
        .map((r) => {
          const sign = r.type === 'buy' ? 1 : -1;
          return {
            position_id: r.position_id!,
            symbol: r.symbol,
            direction: r.type === 'buy' ? 'long' : 'short',
            close_time: iso(r.close_time),
            result: r.result,
            result_points: plain(
              Number((((r.close_price - r.open_price) * sign) / 10 ** -r.digits).toFixed(1)),
            ),
            mae: plain(r.mae),
            mfe: plain(r.mfe),
            mae_points: plain(r.mae_points),
            mfe_points: plain(r.mfe_points),
          };
        }),
      total: Number(first?.total ?? 0),
      without: Number(first?.without ?? 0),
    };
  }

  /**
   * The names the owner gave the strategies of these rows, read now (not stored with the
   * figures), so a rename shows at once.
   */
  async function named(accountId: number, figures: StatisticsFigures) {
    const magics = figures.breakdowns.strategies.map((row) => row.key).filter((m) => m !== '0');
    if (magics.length === 0) return figures;
    const { rows } = await db.execute<{ magic: string; name: string }>(sql`
      select magic::text as magic, name from monitoring_strategies
      where account_id = ${accountId} and magic = any(${sql.param(magics)}::bigint[])`);
    const names = new Map(rows.map((r) => [r.magic, r.name]));
    return {
      ...figures,
      breakdowns: {
        ...figures.breakdowns,
        strategies: figures.breakdowns.strategies.map((row) => ({
          ...row,
          name: names.get(row.key) ?? null,
        })),
      },
    };
  }

  /**
   * "Verified by the host" now (monitoring.verification.ts), from the state the statistics job
   * stored and the figures' first equity point and reconciliation: read at each request, so the
   * mark goes as soon as the publisher falls silent, not at the job's next run.
   */
  async function verification(account: AccountRow, figures: StatisticsFigures) {
    const [state, first] = await Promise.all([
      verificationStateOf(db, account.id),
      // down the (account, time, ticket) index: one row
      db.execute<{ time: Date | string | null }>(sql`
        select min(time) as time from monitoring_deals where account_id = ${account.id}`),
    ]);
    const firstDeal = first.rows[0]?.time;
    const equitySince = figures.equity_since === null ? null : Date.parse(figures.equity_since);
    const starts = [firstDeal ? new Date(firstDeal).getTime() : null, equitySince].filter(
      (at): at is number => at !== null,
    );
    return verificationOf(state, {
      now: now().getTime(),
      periodFrom: starts.length > 0 ? Math.min(...starts) : null,
      equitySince,
      historyIncomplete: figures.history_incomplete,
      sessions: account.tradeSessions ?? FOREX_WEEK,
    });
  }

  /**
   * The whole history's figures as the statistics job stored them, and when: none when not
   * computed yet, or stored before the breakdowns existed (those are computed afresh until the
   * job's next run).
   */
  async function storedFigures(
    account: AccountRow,
  ): Promise<{ figures: StatisticsFigures; computedAt: Date } | undefined> {
    const [row] = await db
      .select({
        figures: monitoringStatistics.figures,
        computedAt: monitoringStatistics.computedAt,
      })
      .from(monitoringStatistics)
      .where(eq(monitoringStatistics.accountId, account.id));
    const stored = row?.figures as Partial<StatisticsFigures> | undefined;
    if (!row || !stored?.breakdowns || !stored.risk_of_ruin) return undefined;
    const last = account.lastDataAt?.toISOString() ?? null;
    return {
      figures: { ...(stored as StatisticsFigures), last_data_at: last },
      computedAt: row.computedAt,
    };
  }

  async function statistics(
    account: AccountRow,
    range: { from?: string; to?: string } = {},
  ): Promise<StatisticsResponse> {
    let figures: StatisticsFigures | undefined;
    if (range.from === undefined && range.to === undefined)
      figures = (await storedFigures(account))?.figures;
    figures ??= statisticsResponse(account, await accountStatistics(db, account, now()), {
      from: range.from === undefined ? undefined : Date.parse(range.from),
      to: range.to === undefined ? undefined : Date.parse(range.to),
    });
    const [withNames, verified] = await Promise.all([
      named(account.id, figures),
      verification(account, figures),
    ]);
    return { ...withNames, verification: verified };
  }

  async function chart(account: AccountRow): Promise<ChartResponse> {
    const stored = await storedStatistics(db, account.id, 'chart');
    if (stored) return { points: stored as ChartResponse['points'] };
    return { points: chartOf(await accountStatistics(db, account, now())) };
  }

  /**
   * The terminal's ping over the period ending now: each step's mean (rounded) and longest, from
   * the stored minutes (hours, older than 30 days), by date_bin from the epoch: UTC steps.
   */
  async function ping(account: AccountRow, period: PingPeriod): Promise<PingResponse> {
    const step = PING_STEP_SEC[period];
    const from = new Date(now().getTime() - PING_PERIOD_DAYS[period] * DAY_MS);
    const { rows } = await db.execute<{ time: Date | string; ping_ms: number; max_ms: number }>(
      sql`
        select date_bin(make_interval(secs => ${step}), at, timestamptz 'epoch') as time,
          round(avg(ping_ms))::int as ping_ms, max(ping_ms) as max_ms
        from monitoring_pings where account_id = ${account.id} and at >= ${from}
        group by 1 order by 1`,
    );
    return {
      period,
      step_sec: step,
      points: rows.map((r) => ({ time: iso(r.time), ping_ms: r.ping_ms, max_ms: r.max_ms })),
    };
  }

  async function trades(
    account: AccountRow,
    paging: { page: number; per_page: number },
  ): Promise<Page<MonitoringTrade>> {
    const offset = (paging.page - 1) * paging.per_page;
    const { trades: data, total } = await tradeRows(account.id, paging.per_page, offset);
    return { data, meta: { page: paging.page, per_page: paging.per_page, total } };
  }

  /**
   * The positions of the latest snapshot, each with its symbol's digits: the publisher's
   * positions do not carry them, the deals do (the latest deal in the symbol; null before any).
   */
  async function positions(account: AccountRow): Promise<PositionsResponse> {
    type Stored = Omit<PositionsResponse['positions'][number], 'digits' | Excursion> &
      Partial<Record<Excursion, number | null>>;
    const open = account.positions as Stored[];
    const symbols = [...new Set(open.map((p) => p.symbol))];
    const digitsOf = new Map<string, number>();
    if (symbols.length > 0) {
      // each symbol's latest deal, down the (account, time, ticket) index: a positions poll
      // reads a deal a symbol, not every deal of the account in its symbols
      const { rows } = await db.execute<{ symbol: string; digits: number | null }>(sql`
        select s.symbol, (
          select d.digits from monitoring_deals d
          where d.account_id = ${account.id} and d.symbol = s.symbol
          order by d.time desc, d.ticket desc limit 1
        ) as digits
        from unnest(${sql.param(symbols)}::text[]) as s(symbol)`);
      for (const r of rows) if (r.digits !== null) digitsOf.set(r.symbol, r.digits);
    }
    return {
      at: account.lastDataAt?.toISOString() ?? null,
      // a publisher before 1.4 tells no excursions: null
      positions: open.map((p) => ({
        ...p,
        digits: digitsOf.get(p.symbol) ?? null,
        mae: plain(p.mae ?? null),
        mfe: plain(p.mfe ?? null),
        mae_points: plain(p.mae_points ?? null),
        mfe_points: plain(p.mfe_points ?? null),
      })),
    };
  }

  /**
   * Every closed trade as CSV (csvFile: quoted where needed, formulas neutralised, CRLF), newest
   * first.
   */
  async function tradesCsv(account: AccountRow): Promise<string> {
    const { trades: all } = await tradeRows(account.id, null, 0);
    const header = [
      'position',
      'symbol',
      'direction',
      'open_time',
      'close_time',
      'volume',
      'open_price',
      'close_price',
      'pips',
      `result_${account.currency ?? ''}`.replace(/_$/, ''),
      'magic',
      'strategy',
      'mae',
      'mfe',
      'mae_points',
      'mfe_points',
    ];
    const rows = all.map((t) => [
      t.position_id,
      t.symbol,
      t.direction,
      t.open_time,
      t.close_time,
      decimals(t.volume, LOT_DECIMALS),
      csvPrice(t.open_price, t.digits),
      csvPrice(t.close_price, t.digits),
      t.pips === null ? null : decimals(t.pips, 1),
      t.result === null ? null : t.result.toFixed(2),
      t.magic,
      t.strategy,
      t.mae === null ? null : t.mae.toFixed(2),
      t.mfe === null ? null : t.mfe.toFixed(2),
      t.mae_points === null ? null : decimals(t.mae_points, 1),
      t.mfe_points === null ? null : decimals(t.mfe_points, 1),
    ]);
    return csvFile(header, rows);
  }

  /** A public account, or the same 404 for a private and a missing one. */
  async function publicAccount(monitoringId: string): Promise<AccountRow> {
    const row = await repo.byMonitoringId(db, monitoringId);
    if (!row || !row.isPublic) throw new AppError(404, 'MONITORING_PUBLIC_NOT_FOUND');
    return row;
  }

  /**
   * Counts a visit once per visitor a day: the visitor is an HMAC of the day's salt over the
   * address and the browser, so no address is kept and yesterday's hashes cannot be matched.
   */
  async function countView(account: AccountRow, visitor: { ip: string; agent: string }) {
    const day = utcDay(now());
    const hash = visitorHash(secret, 'views', day, visitor);
    const { rows } = await db.execute<{ views: number }>(sql`
      with seen as (
        insert into monitoring_views (account_id, day, visitor)
        values (${account.id}, ${day}, ${hash}) on conflict do nothing returning account_id)
      update monitoring_accounts set views = views + 1
      where id in (select account_id from seen) returning views`);
    return rows[0]?.views ?? account.views;
  }

  return {
    statistics,

    /**
     * For the widgets: the job's stored figures with the mark of now, and when they were
     * stored; none when not stored (nothing is computed for a picture).
     */
    async storedWithVerification(account: AccountRow) {
      const stored = await storedFigures(account);
      if (!stored) return undefined;
      return {
        figures: stored.figures,
        computedAt: stored.computedAt,
        verification: await verification(account, stored.figures),
      };
    },
    chart,
    ping,
    trades,
    positions,
    tradesCsv,
    publicAccount,
    excursions: (account: AccountRow) => excursions(account.id),

    /** The public page's account and figures, less what the owner hid; counts the visit. */
    async publicPage(
      monitoringId: string,
      visitor: { ip: string; agent: string },
    ): Promise<PublicAccountResponse> {
      const row = await publicAccount(monitoringId);
      const views = await countView(row, visitor);
      const figures = await statistics(row);
      return {
        account: {
          monitoring_id: row.monitoringId,
          name: row.name,
          platform: row.platform,
          login: row.hideLogin ? null : row.login,
          company: row.hideBroker ? null : row.company,
          server: row.hideBroker ? null : row.server,
          currency: row.hideMoney ? null : row.currency,
          leverage: row.leverage,
          trade_mode: row.tradeMode,
          created_at: row.createdAt.toISOString(),
          last_data_at: row.lastDataAt?.toISOString() ?? null,
          terminal_connected: row.terminalConnected,
          views,
          time_zone: row.timeZone,
          shows_money: !row.hideMoney,
          shows_positions: !row.hidePositions,
          shows_history: !row.hideHistory,
        },
        statistics: row.hideMoney ? withoutMoney(figures) : figures,
      };
    },

    async publicChart(monitoringId: string): Promise<ChartResponse> {
      const row = await publicAccount(monitoringId);
      const { points } = await chart(row);
      return row.hideMoney
        ? { points: points.map((p) => ({ ...p, balance: null, equity: null })) }
        : { points };
    },

    async publicTrades(monitoringId: string, paging: { page: number; per_page: number }) {
      const row = await publicAccount(monitoringId);
      if (row.hideHistory) throw new AppError(404, 'MONITORING_PUBLIC_NOT_FOUND');
      const page = await trades(row, paging);
      return row.hideMoney
        ? { ...page, data: page.data.map((t) => ({ ...t, result: null, mae: null, mfe: null })) }
        : page;
    },

    /** The scatter of a public account, unless the owner hides the history; money when shown. */
    async publicExcursions(monitoringId: string): Promise<ExcursionsResponse> {
      const row = await publicAccount(monitoringId);
      if (row.hideHistory) throw new AppError(404, 'MONITORING_PUBLIC_NOT_FOUND');
      const all = await excursions(row.id);
      return row.hideMoney
        ? {
            ...all,
            trades: all.trades.map((t) => ({ ...t, result: null, mae: null, mfe: null })),
          }
        : all;
    },

    async publicPositions(monitoringId: string): Promise<PositionsResponse> {
      const row = await publicAccount(monitoringId);
      if (row.hidePositions) throw new AppError(404, 'MONITORING_PUBLIC_NOT_FOUND');
      const open = await positions(row);
      return row.hideMoney
        ? {
            ...open,
            positions: open.positions.map((p) => ({
              ...p,
              profit: null,
              swap: null,
              mae: null,
              mfe: null,
            })),
          }
        : open;
    },
  };
}

export type MonitoringReads = ReturnType<typeof createMonitoringReads>;
