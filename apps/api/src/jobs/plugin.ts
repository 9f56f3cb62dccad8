import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createJobs, type Jobs } from './index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** pg-boss on the app's database: the modules define their queues on it; housekeeping. */
    jobs: Jobs;
  }
}

/**
 * Decorates the app with `app.jobs` (after the db plugin, so it shares the app's pool), starts the
 * queues' workers and schedules when the app is ready (the modules' plugins have defined their
 * queues by then) and stops them when it closes.
 */
export const jobsPlugin = fp(
  async (app, options: { config: Config; now: () => Date }) => {
    const jobs = createJobs({
      config: options.config,
      db: app.db,
      pool: app.pg,
      now: options.now,
      log: app.log.child({ module: 'jobs' }),
    });
    app.decorate('jobs', jobs);
    app.addHook('onReady', async () => jobs.start());
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'tradehost-jobs', dependencies: ['tradehost-db'] },
);

/**
 * A module's jobs plugin (registered after the jobs plugin): `create` defines the module's queues
 * on app.jobs before the app is ready, and what it returns decorates the app as `key`.
 */
export function moduleJobsPlugin<K extends keyof FastifyInstance, O extends object>(
  key: K & string,
  name: string,
  create: (app: FastifyInstance, options: O) => FastifyInstance[K],
) {
  return fp(
    async (app, options: O) => {
      const jobs: unknown = create(app, options);
      app.decorate(key as string, jobs);
    },
    { name, dependencies: ['tradehost-jobs'] },
  );
}
