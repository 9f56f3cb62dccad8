import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { Jobs } from '../../jobs/index.ts';
import { inBatches } from '../../lib/in-batches.ts';
import { balanceRepository } from './balance.repository.ts';
import { createCryptoTopUps } from './crypto.service.ts';
import { HOUR_MS } from '@tradehost/contracts';

export const PAYMENT_EXPIRY_QUEUE = 'balance-payment-expiry';
export const CRYPTO_CHECK_QUEUE = 'balance-crypto-check';

export interface BalanceJobsDeps {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Jobs;
  /** Tells users of the crypto payments the check credited. */
  mailer: Mailer;
}

/**
 * The balance's schedule: every hour, card and e-wallet payments still Processing
 * `config.payments.expireAfterHours` after they were created (the gateway never sent its
 * notification) become Not paid, each with an audit_log row `payment.expired`, in batches of one
 * statement each (balanceRepository.expireProcessing); a successful notification that still
 * comes later credits them all the same. Only rows still Processing are touched, so two runs at
 * once, or one twice, expire each payment once. Every minute, crypto top-up requests expire and
 * reported crypto payments are checked on the chain (checkCrypto).
 */
export function createBalanceJobs(deps: BalanceJobsDeps) {
  const { db, config, log } = deps;

  /** Expires what is due on the app's clock; how many. */
  async function expirePayments(): Promise<number> {
    const before = new Date(deps.now().getTime() - config.payments.expireAfterHours * HOUR_MS);
    const expired = await inBatches((limit) =>
      balanceRepository.expireProcessing(db, before, limit),
    );
    if (expired > 0) log.info({ expiredPayments: expired, before }, 'Processing payments expired');
    return expired;
  }

  deps.jobs.define({
    queue: PAYMENT_EXPIRY_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '17 * * * *',
    run: expirePayments,
  });

  // every minute: crypto requests past their 24 hours expire, and reported payments are looked
  // up on the chain (crypto.service.ts check); a round the explorer slows down runs on alone
  const crypto = createCryptoTopUps(deps);
  deps.jobs.define({
    queue: CRYPTO_CHECK_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '* * * * *',
    run: () => crypto.check(),
  });

  return { expirePayments, checkCrypto: () => crypto.check() };
}

export type BalanceJobs = ReturnType<typeof createBalanceJobs>;
