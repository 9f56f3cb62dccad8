import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { vpsOperations, vpsServers } from '../../db/schema/index.ts';
import type { OperationRow } from './vps.operations.ts';

/**
 * The SQL of the VPS background work (vps.jobs.ts) of its own: claiming and finishing an
 * operation (the runner), picking due servers (the lifecycle). Servers, rates and upgrades are
 * read and written through vps.repository.ts, as the services do.
 */
export const vpsJobsRepository = {
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
   * running -> failed with the operators' `error`, or succeeded when it is null; only for this
   * claim (the attempts it counted): an operator may have failed the operation, or re-queued it
   * for another run, meanwhile, and then this run's result is not the one recorded (false).
   */
  async finish(
    db: Executor,
    claimed: OperationRow,
    error: string | null,
    now: Date,
  ): Promise<boolean> {
    const rows = await db
      .update(vpsOperations)
      .set({ status: error === null ? 'succeeded' : 'failed', error, finishedAt: now })
      .where(
        and(
          eq(vpsOperations.id, claimed.id),
          eq(vpsOperations.status, 'running'),
          eq(vpsOperations.attempts, claimed.attempts),
        ),
      )
      .returning({ id: vpsOperations.id });
    return rows.length > 0;
  },

  /** Ids of servers matching `where`, oldest first, at most `limit`. */
  async serverIds(db: Executor, where: SQL, limit = 500): Promise<number[]> {
    const rows = await db
      .select({ id: vpsServers.id })
      .from(vpsServers)
      .where(where)
      .orderBy(vpsServers.id)
      .limit(limit);
    return rows.map((row) => row.id);
  },
};
