import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users, vpsOperations, vpsRates, vpsServers, vpsUpgrades } from '../db/schema/index.ts';
import type { OperationRow } from '../modules/vps/vps.operations.ts';
import type { ServerRow } from '../modules/vps/vps.renewal.ts';

/** The SQL of the background half (the runner and the lifecycle); services have their own. */

export type RateRow = typeof vpsRates.$inferSelect;
export type UpgradeRow = typeof vpsUpgrades.$inferSelect;

/** Who is told about a server: the owner's address, name and language. */
export interface Owner {
  id: number;
  email: string;
  name: string;
  language: 'en' | 'ru';
}

export interface ServerContext {
  server: ServerRow;
  rate: RateRow;
  owner: Owner;
}

const ownerColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  language: users.language,
};

export const jobsRepository = {
  /** queued -> running, once: a second claim (or a finished operation) returns undefined. */
  async claim(db: Executor, operationId: number, now: Date): Promise<OperationRow | undefined> {
    const [row] = await db
      .update(vpsOperations)
      .set({ status: 'running', attempts: sql`${vpsOperations.attempts} + 1`, startedAt: now })
      .where(and(eq(vpsOperations.id, operationId), eq(vpsOperations.status, 'queued')))
      .returning();
    return row;
  },

  /**
   * running -> succeeded | failed, only for this claim (the attempts it counted): an operator may
   * have failed the operation, or re-queued it for another run, meanwhile, and then this run's
   * result is not the one recorded.
   */
  async finish(
    db: Executor,
    claimed: OperationRow,
    result: { status: 'succeeded' | 'failed'; error: string | null; now: Date },
  ): Promise<OperationRow | undefined> {
    const [row] = await db
      .update(vpsOperations)
      .set({ status: result.status, error: result.error, finishedAt: result.now })
      .where(
        and(
          eq(vpsOperations.id, claimed.id),
          eq(vpsOperations.status, 'running'),
          eq(vpsOperations.attempts, claimed.attempts),
        ),
      )
      .returning();
    return row;
  },

  async context(db: Executor, serverId: number, lock = false): Promise<ServerContext | undefined> {
    const query = db
      .select({ server: vpsServers, rate: vpsRates, owner: ownerColumns })
      .from(vpsServers)
      .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
      .innerJoin(users, eq(users.id, vpsServers.userId))
      .where(eq(vpsServers.id, serverId));
    const [row] = lock ? await query.for('update', { of: vpsServers }) : await query;
    return row;
  },

  async rate(db: Executor, rateId: number): Promise<RateRow | undefined> {
    const [row] = await db.select().from(vpsRates).where(eq(vpsRates.id, rateId));
    return row;
  },

  async upgrade(db: Executor, upgradeId: number, lock = false): Promise<UpgradeRow | undefined> {
    const query = db.select().from(vpsUpgrades).where(eq(vpsUpgrades.id, upgradeId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async updateServer(
    db: Executor,
    serverId: number,
    values: Partial<typeof vpsServers.$inferInsert>,
  ): Promise<ServerRow | undefined> {
    const [row] = await db
      .update(vpsServers)
      .set(values)
      .where(eq(vpsServers.id, serverId))
      .returning();
    return row;
  },

  /** Ids of servers matching `where`, oldest first, at most `limit`. */
  async serverIds(db: Executor, where: ReturnType<typeof sql>, limit = 500): Promise<number[]> {
    const rows = await db
      .select({ id: vpsServers.id })
      .from(vpsServers)
      .where(where)
      .orderBy(vpsServers.id)
      .limit(limit);
    return rows.map((row) => row.id);
  },

  /**
   * Locks one server for a lifecycle step if it still matches `where` and no other tick holds
   * it (SKIP LOCKED: the other tick is doing this step).
   */
  async lockServer(
    db: Executor,
    serverId: number,
    where: ReturnType<typeof sql>,
  ): Promise<ServerContext | undefined> {
    const [row] = await db
      .select({ server: vpsServers, rate: vpsRates, owner: ownerColumns })
      .from(vpsServers)
      .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
      .innerJoin(users, eq(users.id, vpsServers.userId))
      .where(and(eq(vpsServers.id, serverId), where))
      .for('update', { of: vpsServers, skipLocked: true });
    return row;
  },

  async owners(db: Executor, userIds: number[]): Promise<Map<number, Owner>> {
    if (userIds.length === 0) return new Map();
    const rows = await db.select(ownerColumns).from(users).where(inArray(users.id, userIds));
    return new Map(rows.map((row) => [row.id, row]));
  },
};
