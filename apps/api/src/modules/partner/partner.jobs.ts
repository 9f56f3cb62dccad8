import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Jobs } from '../../jobs/index.ts';
import { inBatches } from '../../lib/in-batches.ts';
import { partnerRepository } from './partner.repository.ts';
import { DAY_MS } from '@tradehost/contracts';

export const REWARDS_QUEUE = 'partner-rewards';
/** Rewards moved per transaction. */
const RELEASE_BATCH = 500;

export interface PartnerJobsDeps {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Jobs;
}

/**
 * The partner programme's schedule: every five minutes, rewards whose hold has passed
 * (PARTNER_HOLD_DAYS since they were granted) move into their partners' balances, a batch per
 * transaction, until none is due.
 */
export function createPartnerJobs(deps: PartnerJobsDeps) {
  const { db, config, log } = deps;

  async function release(): Promise<number> {
    const now = deps.now();
    const dueBefore = new Date(now.getTime() - config.partner.holdDays * DAY_MS);
    return inBatches(
      (limit) => inTransaction(db, (tx) => partnerRepository.release(tx, dueBefore, now, limit)),
      RELEASE_BATCH,
    );
  }

  deps.jobs.define({
    queue: REWARDS_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '*/5 * * * *',
    run: async () => {
      const released = await release();
      if (released > 0) log.info({ released }, 'partner rewards released');
    },
  });

  return { release };
}

export type PartnerJobs = ReturnType<typeof createPartnerJobs>;
