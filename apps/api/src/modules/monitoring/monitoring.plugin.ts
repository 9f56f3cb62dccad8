import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { createMonitoringJobs, type MonitoringJobs } from './monitoring.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Monitoring's queues: the statistics job per account and the maintenance tick. */
    monitoringJobs: MonitoringJobs;
  }
}

/** Defines monitoring's queues on app.jobs (before it starts) and decorates `app.monitoringJobs`. */
export const monitoringJobsPlugin = fp(
  async (app, options: { config: Config; mailer: Mailer; now: () => Date }) => {
    const jobs = createMonitoringJobs({
      db: app.db,
      config: options.config,
      mailer: options.mailer,
      now: options.now,
      log: app.log.child({ module: 'monitoring-jobs' }),
      jobs: app.jobs,
    });
    app.decorate('monitoringJobs', jobs);
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'tradehost-monitoring-jobs', dependencies: ['tradehost-jobs'] },
);
