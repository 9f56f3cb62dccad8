import type { Db } from '../db/client.ts';
import { inBatches } from '../lib/in-batches.ts';
import { deleteAnsweredKeys } from '../plugins/idempotency.ts';
import { HOUR_MS } from '@tradehost/contracts';

/**
 * Housekeeping, one tick an hour (pg-boss schedule `housekeeping`), on the app's clock (deps.now):
 * Idempotency-Keys answered more than KEY_RETENTION_HOURS ago are deleted (a retry after that is
 * a new request); a claim still waiting for its answer is left alone. It works in batches, one
 * statement each, and only touches rows still answered, so two ticks at once, or one twice,
 * change nothing more than one. (The payments left Processing are the balance module's job:
 * modules/balance/balance.jobs.ts.)
 */

export interface HousekeepingReport {
  deletedKeys: number;
}

export interface HousekeepingDeps {
  db: Db;
  now: () => Date;
}

export interface Housekeeping {
  tick(): Promise<HousekeepingReport>;
}

/** How long an answered Idempotency-Key is kept (and replayed). */
export const KEY_RETENTION_HOURS = 24;

export function createHousekeeping(deps: HousekeepingDeps): Housekeeping {
  const { db } = deps;
  return {
    async tick() {
      const keysBefore = new Date(deps.now().getTime() - KEY_RETENTION_HOURS * HOUR_MS);
      const deletedKeys = await inBatches((limit) => deleteAnsweredKeys(db, keysBefore, limit));
      return { deletedKeys };
    },
  };
}
