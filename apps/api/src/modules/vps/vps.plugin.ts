import type { Config } from '../../config.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { moduleJobsPlugin } from '../../jobs/plugin.ts';
import { createVpsJobs, type VpsJobs } from './vps.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The VPS operations queue (what services dispatch to), its runner and the lifecycle. */
    vpsJobs: VpsJobs;
  }
}

/** Defines the VPS queues on app.jobs (before it starts) and decorates `app.vpsJobs`. */
export const vpsJobsPlugin = moduleJobsPlugin(
  'vpsJobs',
  'tradehost-vps-jobs',
  (app, options: { config: Config; mailer: Mailer; now: () => Date; telegram?: TelegramOutbox }) =>
    createVpsJobs({
      ...options,
      db: app.db,
      log: app.log.child({ module: 'vps-jobs' }),
      jobs: app.jobs,
    }),
);
