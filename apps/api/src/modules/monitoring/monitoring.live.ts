import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { publishLive } from '../../db/live.ts';
import { monitoringAccounts } from '../../db/schema/index.ts';

/** At most one live `monitoring` update per account in this period (per instance). */
export const LIVE_THROTTLE_MS = 3_000;

/**
 * The live `monitoring` updates of the ingest: new deals or a snapshot of an account tell its
 * owner's consoles, at once for the first and then at most once every LIVE_THROTTLE_MS (the last
 * of a burst is sent at the end of the period, so the console never misses the newest data).
 */
export function createMonitoringLive(
  db: Db,
  log: FastifyBaseLogger,
  throttleMs = LIVE_THROTTLE_MS,
) {
  const owners = new Map<number, number>();
  /** Accounts sent recently -> whether more data came since (a trailing update is due). */
  const recent = new Map<number, { due: boolean; timer: NodeJS.Timeout }>();

  async function send(accountId: number): Promise<void> {
    let userId = owners.get(accountId);
    if (userId === undefined) {
      const [row] = await db
        .select({ userId: monitoringAccounts.userId })
        .from(monitoringAccounts)
        .where(eq(monitoringAccounts.id, accountId));
      if (!row) return;
      userId = row.userId;
      if (owners.size > 10_000) owners.clear();
      owners.set(accountId, userId);
    }
    publishLive(db, userId, { event: 'monitoring', data: { account_id: accountId } });
  }

  function fire(accountId: number) {
    send(accountId).catch((error: unknown) =>
      log.warn({ err: error, accountId }, 'a live monitoring update was not sent'),
    );
    const timer = setTimeout(() => {
      const entry = recent.get(accountId);
      recent.delete(accountId);
      if (entry?.due) fire(accountId);
    }, throttleMs).unref();
    recent.set(accountId, { due: false, timer });
  }

  return {
    /** New data of the account was stored. */
    touched(accountId: number): void {
      const entry = recent.get(accountId);
      if (entry) entry.due = true;
      else fire(accountId);
    },
    stop(): void {
      for (const { timer } of recent.values()) clearTimeout(timer);
      recent.clear();
    },
  };
}
