import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import { createJobs, type Jobs } from './index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The VPS operations queue, runner and lifecycle (pg-boss on the app's database). */
    jobs: Jobs;
  }
}

/**
 * Decorates the app with `app.jobs` (after the db plugin, so it shares the app's pool), starts the
 * queue workers and the lifecycle schedule when the app is ready and stops them when it closes.
 */
export const jobsPlugin = fp(
  async (app, options: { config: Config; mailer: Mailer; now: () => Date }) => {
    const jobs = createJobs({
      config: options.config,
      db: app.db,
      pool: app.pg,
      mailer: options.mailer,
      now: options.now,
      log: app.log.child({ module: 'jobs' }),
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'tradehost-jobs', dependencies: ['tradehost-db'] },
);
