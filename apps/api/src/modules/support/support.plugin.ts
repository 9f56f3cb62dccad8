import type { Config } from '../../config.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { moduleJobsPlugin } from '../../jobs/plugin.ts';
import { createSupportJobs, type SupportJobs } from './support.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tickets' notifications: jobs written with the change they report, then mailed. */
    supportJobs: SupportJobs;
  }
}

/** Defines the support queue on app.jobs (before it starts) and decorates `app.supportJobs`. */
export const supportJobsPlugin = moduleJobsPlugin(
  'supportJobs',
  'tradehost-support-jobs',
  (app, options: { config: Config; mailer: Mailer }) =>
    createSupportJobs({
      ...options,
      db: app.db,
      log: app.log.child({ module: 'support-jobs' }),
      jobs: app.jobs,
    }),
);
