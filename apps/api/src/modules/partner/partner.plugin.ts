import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { createPartnerJobs, type PartnerJobs } from './partner.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The partner programme's schedule: rewards released after their hold. */
    partnerJobs: PartnerJobs;
  }
}

/** Defines the partner queue on app.jobs (before it starts) and decorates `app.partnerJobs`. */
export const partnerJobsPlugin = fp(
  async (app, options: { config: Config; now: () => Date }) => {
    app.decorate(
      'partnerJobs',
      createPartnerJobs({
        db: app.db,
        config: options.config,
        now: options.now,
        log: app.log.child({ module: 'partner-jobs' }),
        jobs: app.jobs,
      }),
    );
  },
  { name: 'tradehost-partner-jobs', dependencies: ['tradehost-jobs'] },
);
