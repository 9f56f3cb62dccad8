import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringPortfolioAccounts,
  monitoringPortfolios,
  monitoringStatistics,
} from '../../db/schema/index.ts';

export type PortfolioRow = typeof monitoringPortfolios.$inferSelect;

/**
 * The advisory-lock class of a user's portfolios (pg_advisory_xact_lock's first int key; the
 * second is a hash of the user): creating one counts them under it, so two at once cannot both
 * be the user's last allowed.
 */
const PORTFOLIOS_LOCK_CLASS = 1_045;

/** A portfolio's account as it is combined: its own row's facts and its stored figures. */
export interface MemberAccount {
  id: number;
  monitoringId: string;
  name: string;
  currency: string | null;
  isPublic: boolean;
  hideMoney: boolean;
  /** The stored chart's points (null until the statistics job has computed them). */
  chart: unknown;
  gain: number | null;
  maxDrawdown: number | null;
}

export const portfoliosRepository = {
  /** Takes the user's portfolios lock for the rest of the transaction. */
  async lockUser(db: Executor, userId: number) {
    await db.execute(
      sql`select pg_advisory_xact_lock(${PORTFOLIOS_LOCK_CLASS}::int, hashtext(${userId}::text))`,
    );
  },

  async countOf(db: Executor, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(monitoringPortfolios)
      .where(eq(monitoringPortfolios.userId, userId));
    return row?.n ?? 0;
  },

  /** The user's portfolios, oldest first; with `monitoringId`, the one of that public id. */
  list(db: Executor, userId: number, monitoringId?: string) {
    const own = eq(monitoringPortfolios.userId, userId);
    return db
      .select()
      .from(monitoringPortfolios)
      .where(
        monitoringId === undefined
          ? own
          : and(own, eq(monitoringPortfolios.monitoringId, monitoringId)),
      )
      .orderBy(asc(monitoringPortfolios.id));
  },

  /** One of the user's portfolios; `lock` takes its row for the rest of the transaction. */
  async one(db: Executor, userId: number, id: number, lock = false) {
    const query = db
      .select()
      .from(monitoringPortfolios)
      .where(and(eq(monitoringPortfolios.id, id), eq(monitoringPortfolios.userId, userId)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async byMonitoringId(db: Executor, monitoringId: string) {
    const [row] = await db
      .select()
      .from(monitoringPortfolios)
      .where(eq(monitoringPortfolios.monitoringId, monitoringId));
    return row;
  },

  /** The account ids of each of these portfolios, by portfolio. */
  async memberIds(db: Executor, portfolioIds: number[]): Promise<Map<number, number[]>> {
    const members = new Map<number, number[]>(portfolioIds.map((id) => [id, []]));
    if (portfolioIds.length === 0) return members;
    const rows = await db
      .select({
        portfolioId: monitoringPortfolioAccounts.portfolioId,
        accountId: monitoringPortfolioAccounts.accountId,
      })
      .from(monitoringPortfolioAccounts)
      .where(inArray(monitoringPortfolioAccounts.portfolioId, portfolioIds))
      .orderBy(asc(monitoringPortfolioAccounts.accountId));
    for (const r of rows) members.get(r.portfolioId)?.push(r.accountId);
    return members;
  },

  /**
   * These accounts with their stored chart and figures (each read once, however many portfolios
   * hold it), by name; an account without stored figures has a null chart.
   */
  accounts(db: Executor, accountIds: number[]): Promise<MemberAccount[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return db
      .select({
        id: monitoringAccounts.id,
        monitoringId: monitoringAccounts.monitoringId,
        name: monitoringAccounts.name,
        currency: monitoringAccounts.currency,
        isPublic: monitoringAccounts.isPublic,
        hideMoney: monitoringAccounts.hideMoney,
        chart: monitoringStatistics.chart,
        gain: monitoringStatistics.gain,
        maxDrawdown: monitoringStatistics.maxDrawdown,
      })
      .from(monitoringAccounts)
      .leftJoin(monitoringStatistics, eq(monitoringStatistics.accountId, monitoringAccounts.id))
      .where(inArray(monitoringAccounts.id, accountIds))
      .orderBy(asc(monitoringAccounts.name), asc(monitoringAccounts.id));
  },

  /** Which of `ids` are the user's accounts; `lock` keeps them from being deleted meanwhile. */
  async ownAccountIds(db: Executor, userId: number, ids: number[], lock = false) {
    const query = db
      .select({ id: monitoringAccounts.id })
      .from(monitoringAccounts)
      .where(and(eq(monitoringAccounts.userId, userId), inArray(monitoringAccounts.id, ids)));
    const rows = lock ? await query.for('key share') : await query;
    return rows.map((r) => r.id);
  },

  async insert(db: Executor, values: typeof monitoringPortfolios.$inferInsert) {
    const [row] = await db.insert(monitoringPortfolios).values(values).returning();
    return row!;
  },

  async update(
    db: Executor,
    id: number,
    values: Partial<Pick<PortfolioRow, 'name' | 'isPublic' | 'hideMoney' | 'updatedAt'>>,
  ) {
    const [row] = await db
      .update(monitoringPortfolios)
      .set(values)
      .where(eq(monitoringPortfolios.id, id))
      .returning();
    return row!;
  },

  /** The portfolio's accounts become exactly `accountIds`. */
  async setAccounts(db: Executor, portfolioId: number, accountIds: number[]) {
    await db
      .delete(monitoringPortfolioAccounts)
      .where(eq(monitoringPortfolioAccounts.portfolioId, portfolioId));
    await db
      .insert(monitoringPortfolioAccounts)
      .values(accountIds.map((accountId) => ({ portfolioId, accountId })));
  },

  async delete(db: Executor, userId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(monitoringPortfolios)
      .where(and(eq(monitoringPortfolios.id, id), eq(monitoringPortfolios.userId, userId)))
      .returning({ id: monitoringPortfolios.id });
    return rows.length > 0;
  },

  /** One more view; the count after it. */
  async countView(db: Executor, id: number): Promise<number | undefined> {
    const [row] = await db
      .update(monitoringPortfolios)
      .set({ views: sql`${monitoringPortfolios.views} + 1` })
      .where(eq(monitoringPortfolios.id, id))
      .returning({ views: monitoringPortfolios.views });
    return row?.views;
  },
};
