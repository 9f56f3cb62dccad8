import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { TELEGRAM_OFF } from './monitoring.alerts.delivery.ts';
import {
  createMonitoringJobs,
  type MonitoringJobs,
  type SilentTerminalListener,
} from './monitoring.jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Monitoring's queues: the statistics job per account, the maintenance tick, alerts and reports. */
    monitoringJobs: MonitoringJobs;
  }
}

/** Defines monitoring's queues on app.jobs (before it starts) and decorates `app.monitoringJobs`. */
export const monitoringJobsPlugin = fp(
  async (
    app,
    options: {
      config: Config;
      mailer: Mailer;
      now: () => Date;
      telegram?: TelegramOutbox;
      guardian?: SilentTerminalListener;
    },
  ) => {
    const jobs = createMonitoringJobs({
      db: app.db,
      config: options.config,
      mailer: options.mailer,
      // until a bot token is configured, Telegram is off
      telegram: options.telegram ?? TELEGRAM_OFF,
      ...(options.guardian ? { guardian: options.guardian } : {}),
      now: options.now,
      log: app.log.child({ module: 'monitoring-jobs' }),
      jobs: app.jobs,
    });
    app.decorate('monitoringJobs', jobs);
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'tradehost-monitoring-jobs', dependencies: ['tradehost-jobs'] },
);
