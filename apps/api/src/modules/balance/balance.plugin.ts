import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { createBalanceJobs, type BalanceJobs } from './balance.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The balance's schedule: payments left Processing expire, crypto payments are checked. */
    balanceJobs: BalanceJobs;
  }
}

/** Defines the balance's queue on app.jobs (before it starts) and decorates `app.balanceJobs`. */
export const balanceJobsPlugin = fp(
  async (app, options: { config: Config; mailer: Mailer; now: () => Date }) => {
    app.decorate(
      'balanceJobs',
      createBalanceJobs({
        db: app.db,
        config: options.config,
        now: options.now,
        mailer: options.mailer,
        log: app.log.child({ module: 'balance-jobs' }),
        jobs: app.jobs,
      }),
    );
  },
  { name: 'tradehost-balance-jobs', dependencies: ['tradehost-jobs'] },
);
