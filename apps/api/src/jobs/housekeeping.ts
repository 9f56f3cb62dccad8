import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { balanceRepository } from '../modules/balance/balance.repository.ts';
import { deleteAnsweredKeys } from '../plugins/idempotency.ts';

/**
 * Housekeeping, one tick an hour (pg-boss schedule `housekeeping`), on the app's clock (deps.now):
 * 1. card/e-wallet payments still Processing `config.payments.expireAfterHours` after they were
 *    created (the gateway never sent its notification) become Not paid, each with an audit_log row
 *    `payment.expired`; a successful notification that still comes later credits them all the same;
 * 2. Idempotency-Keys answered more than KEY_RETENTION_HOURS ago are deleted (a retry after that
 *    is a new request); a claim still waiting for its answer is left alone.
 * Both work in batches of BATCH rows, one statement each, and only touch rows still in the state
 * they look for, so two ticks at once, or one twice, change nothing more than one.
 */

export interface HousekeepingReport {
  expiredPayments: number;
  deletedKeys: number;
}

export interface HousekeepingDeps {
  config: Config;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
}

export interface Housekeeping {
  tick(): Promise<HousekeepingReport>;
}

/** How long an answered Idempotency-Key is kept (and replayed). */
export const KEY_RETENTION_HOURS = 24;
/** Rows per statement. */
const BATCH = 1000;
const HOUR_MS = 3_600_000;

/** Runs `step` until a batch comes back short; the total it returned. */
async function inBatches(step: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await step(BATCH);
    total += done;
    if (done < BATCH) return total;
  }
}

export function createHousekeeping(deps: HousekeepingDeps): Housekeeping {
  const { config, db, log } = deps;
  const hoursAgo = (hours: number) => new Date(deps.now().getTime() - hours * HOUR_MS);

  return {
    async tick() {
      const paymentsBefore = hoursAgo(config.payments.expireAfterHours);
      const expiredPayments = await inBatches((limit) =>
        balanceRepository.expireProcessing(db, paymentsBefore, limit),
      );
      if (expiredPayments > 0)
        log.info({ expiredPayments, before: paymentsBefore }, 'Processing payments expired');

      const keysBefore = hoursAgo(KEY_RETENTION_HOURS);
      const deletedKeys = await inBatches((limit) => deleteAnsweredKeys(db, keysBefore, limit));
      return { expiredPayments, deletedKeys };
    },
  };
}
