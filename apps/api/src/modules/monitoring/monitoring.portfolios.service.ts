import {
  combinePortfolio,
  PORTFOLIOS_MAX,
  type ChartResponse,
  type CreatePortfolioRequest,
  type Portfolio,
  type PortfolioAccount,
  type PortfolioFigures,
  type PortfolioResponse,
  type PortfolioSummary,
  type PublicPortfolioResponse,
  type UpdatePortfolioRequest,
} from '@tradehost/contracts';
import { inTransaction, type Executor } from '../../db/transaction.ts';
import { AppError, fieldError, isForeignKeyViolation } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import { utcDay } from './monitoring.jobs.ts';
import { visitorHash } from './monitoring.visitors.ts';
import {
  portfoliosRepository as repo,
  type MemberAccount,
  type PortfolioRow,
} from './monitoring.portfolios.repository.ts';
import { newMonitoringId } from './monitoring.service.ts';

/**
 * Portfolios: a user's monitored accounts seen as one. Every read combines the accounts' charts
 * as the statistics job stored them (combinePortfolio), so no figure is computed afresh here:
 * an account the job has not reached yet simply has no points.
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The stored chart's points (an array the job wrote; anything else is none). */
const pointsOf = (chart: unknown): ChartResponse['points'] =>
  Array.isArray(chart) ? (chart as ChartResponse['points']) : [];

function combine(accounts: MemberAccount[]): Portfolio {
  return combinePortfolio(
    accounts.map((a) => ({ name: a.name, currency: a.currency, points: pointsOf(a.chart) })),
  );
}

function figuresOf(p: Portfolio, accounts: number, showsMoney: boolean): PortfolioFigures {
  return {
    weighting: p.weighting,
    currency: showsMoney ? p.currency : null,
    gain: p.gain,
    max_drawdown: p.maxDrawdown,
    balance: showsMoney ? p.balance : null,
    equity: showsMoney ? p.equity : null,
    since: iso(p.since),
    accounts,
  };
}

function pointsResponse(p: Portfolio, showsMoney: boolean): PortfolioResponse['points'] {
  return p.points.map((x) => ({
    time: new Date(x.time).toISOString(),
    gain: x.gain,
    balance: showsMoney ? x.balance : null,
    equity: showsMoney ? x.equity : null,
    drawdown: x.drawdown,
  }));
}

/**
 * The per-account table: each account's own stored gain and maximal drawdown (the figures its
 * page shows), its money and share from the combination. On the public page an account that is
 * not public itself is "a private account" (its gain and drawdown only), and money shows only
 * where neither the portfolio nor the account hides it.
 */
function rowsOf(
  accounts: MemberAccount[],
  p: Portfolio,
  view: { owner: true } | { owner: false; showsMoney: boolean },
): PortfolioAccount[] {
  return accounts.map((a, i) => {
    const row = p.accounts[i]!;
    const figures = {
      gain: a.gain ?? row.gain,
      max_drawdown: a.maxDrawdown ?? row.maxDrawdown,
      since: iso(row.since),
    };
    if (view.owner)
      return {
        id: a.id,
        monitoring_id: a.monitoringId,
        name: a.name,
        is_public: a.isPublic,
        currency: a.currency,
        balance: row.balance,
        equity: row.equity,
        share: row.share,
        ...figures,
      };
    const money = view.showsMoney && a.isPublic && !a.hideMoney;
    return {
      id: null,
      monitoring_id: a.isPublic ? a.monitoringId : null,
      name: a.isPublic ? a.name : null,
      is_public: a.isPublic,
      currency: money ? a.currency : null,
      balance: money ? row.balance : null,
      equity: money ? row.equity : null,
      share: a.isPublic ? row.share : null,
      ...figures,
      since: a.isPublic ? figures.since : null,
    };
  });
}

function summaryOf(row: PortfolioRow, accountIds: number[], figures: PortfolioFigures) {
  return {
    id: row.id,
    monitoring_id: row.monitoringId,
    name: row.name,
    is_public: row.isPublic,
    hide_money: row.hideMoney,
    views: row.views,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    account_ids: accountIds,
    figures,
  } satisfies PortfolioSummary;
}

/** How long a visitor's mark stays: the day it is of, and the next (clocks differ). */
const VIEW_MARK_SECONDS = 2 * 24 * 3600;
/** The marks this instance keeps without Redis (or while it fails), the oldest dropped first. */
const LOCAL_MARKS_MAX = 50_000;

export function createPortfolioService(deps: ServiceDeps) {
  const { db, now, redis, config } = deps;
  const secret = config.monitoring.viewsKey;
  const prefix = config.redis?.prefix ?? '';
  const localMarks = new Set<string>();

  /**
   * Whether this is the visitor's first view of the portfolio today: the visitor is an HMAC of
   * the day's salt over the address and the browser (as an account's views are counted), so no
   * address is kept and yesterday's marks cannot be matched. The marks live in Redis for two
   * days, shared by the instances; without Redis (or while it fails), in this instance's memory.
   */
  async function firstViewToday(portfolioId: number, visitor: { ip: string; agent: string }) {
    const day = utcDay(now());
    const hash = visitorHash(secret, 'portfolio views', day, visitor);
    const mark = `${prefix}monitoring:portfolio-views:${portfolioId}:${day}:${hash}`;
    if (redis) {
      try {
        return (await redis.set(mark, '1', 'EX', VIEW_MARK_SECONDS, 'NX')) === 'OK';
      } catch (error) {
        deps.log.warn({ err: error }, 'portfolio views: Redis failed, counting in memory');
      }
    }
    if (localMarks.has(mark)) return false;
    if (localMarks.size >= LOCAL_MARKS_MAX) localMarks.delete(localMarks.values().next().value!);
    localMarks.add(mark);
    return true;
  }

  /** One of the user's portfolios, or 404. */
  async function own(userId: number, id: number) {
    const row = await repo.one(db, userId, id);
    if (!row) throw new AppError(404, 'MONITORING_PORTFOLIO_NOT_FOUND');
    return row;
  }

  /** The portfolio as its owner sees it: the combined figures, the table and the series. */
  async function detail(row: PortfolioRow): Promise<PortfolioResponse> {
    const ids = (await repo.memberIds(db, [row.id])).get(row.id) ?? [];
    const accounts = await repo.accounts(db, ids);
    const p = combine(accounts);
    return {
      portfolio: summaryOf(row, ids, figuresOf(p, accounts.length, true)),
      accounts: rowsOf(accounts, p, { owner: true }),
      points: pointsResponse(p, true),
    };
  }

  /**
   * `ids` checked as the user's own accounts (422 naming the field otherwise), in the
   * transaction, their rows kept from being deleted until it ends.
   */
  async function checkAccounts(tx: Executor, userId: number, ids: number[]) {
    const owned = await repo.ownAccountIds(tx, userId, ids, true);
    if (owned.length !== ids.length)
      throw fieldError(422, 'account_ids', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN');
  }

  /** An account deleted between the check and the insert is as unknown as another's. */
  const unknownIfGone = (error: unknown) => {
    if (isForeignKeyViolation(error))
      return fieldError(422, 'account_ids', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN');
    return error;
  };

  return {
    /** The user's portfolios, oldest first, each with its combined figures. */
    async list(userId: number, monitoringId?: string): Promise<{ portfolios: PortfolioSummary[] }> {
      const rows = await repo.list(db, userId, monitoringId);
      const members = await repo.memberIds(
        db,
        rows.map((r) => r.id),
      );
      // each account read once, however many portfolios hold it
      const all = await repo.accounts(db, [...new Set([...members.values()].flat())]);
      return {
        portfolios: rows.map((row) => {
          const ids = new Set(members.get(row.id));
          // in the order a portfolio's own read combines them (by name)
          const accounts = all.filter((a) => ids.has(a.id));
          const p = combine(accounts);
          return summaryOf(row, [...ids], figuresOf(p, accounts.length, true));
        }),
      };
    },

    async get(userId: number, id: number): Promise<PortfolioResponse> {
      return detail(await own(userId, id));
    },

    /** A new portfolio of 2 to 20 of the user's accounts, PORTFOLIOS_MAX per user at most. */
    async create(userId: number, input: CreatePortfolioRequest): Promise<PortfolioResponse> {
      const ids = input.account_ids.map(Number);
      const row = await inTransaction(db, async (tx) => {
        await repo.lockUser(tx, userId);
        if ((await repo.countOf(tx, userId)) >= PORTFOLIOS_MAX)
          throw new AppError(409, 'MONITORING_PORTFOLIOS_FULL');
        await checkAccounts(tx, userId, ids);
        const at = now();
        const created = await repo.insert(tx, {
          userId,
          monitoringId: newMonitoringId(),
          name: input.name,
          createdAt: at,
          updatedAt: at,
        });
        await repo.setAccounts(tx, created.id, ids).catch((error: unknown) => {
          throw unknownIfGone(error);
        });
        return created;
      });
      return detail(row);
    },

    /** Renames it, changes its accounts, its public page: all that is given, or nothing. */
    async update(
      userId: number,
      id: number,
      input: UpdatePortfolioRequest,
    ): Promise<PortfolioResponse> {
      const row = await inTransaction(db, async (tx) => {
        const current = await repo.one(tx, userId, id, true);
        if (!current) throw new AppError(404, 'MONITORING_PORTFOLIO_NOT_FOUND');
        if (input.account_ids !== undefined) {
          const ids = input.account_ids.map(Number);
          await checkAccounts(tx, userId, ids);
          await repo.setAccounts(tx, id, ids).catch((error: unknown) => {
            throw unknownIfGone(error);
          });
        }
        const changes = Object.fromEntries(
          Object.entries({
            name: input.name,
            isPublic: input.is_public,
            hideMoney: input.hide_money,
          }).filter(([, value]) => value !== undefined),
        );
        return repo.update(tx, id, { ...changes, updatedAt: now() });
      });
      return detail(row);
    },

    /** Deletes the portfolio; its accounts stay as they are. */
    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.delete(db, userId, id)))
        throw new AppError(404, 'MONITORING_PORTFOLIO_NOT_FOUND');
    },

    /**
     * The public page, signed in or out: a private or missing portfolio is the same 404 as an
     * account's; counts the visit once per visitor a day.
     */
    async publicPage(
      monitoringId: string,
      visitor: { ip: string; agent: string },
    ): Promise<PublicPortfolioResponse> {
      const row = await repo.byMonitoringId(db, monitoringId);
      if (!row || !row.isPublic) throw new AppError(404, 'MONITORING_PUBLIC_NOT_FOUND');
      const views = (await firstViewToday(row.id, visitor))
        ? ((await repo.countView(db, row.id)) ?? row.views)
        : row.views;
      const ids = (await repo.memberIds(db, [row.id])).get(row.id) ?? [];
      const accounts = await repo.accounts(db, ids);
      const p = combine(accounts);
      const showsMoney = !row.hideMoney;
      return {
        portfolio: {
          monitoring_id: row.monitoringId,
          name: row.name,
          views,
          created_at: row.createdAt.toISOString(),
          shows_money: showsMoney,
          figures: figuresOf(p, accounts.length, showsMoney),
        },
        accounts: rowsOf(accounts, p, { owner: false, showsMoney }),
        points: pointsResponse(p, showsMoney),
      };
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
