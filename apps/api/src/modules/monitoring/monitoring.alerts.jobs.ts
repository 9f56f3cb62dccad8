import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import type { JobQueue, Jobs } from '../../jobs/index.ts';
import { createDelivery, type ReportJob } from './monitoring.alerts.delivery.ts';
import { createAlertEngine } from './monitoring.alerts.engine.ts';
import { createReports } from './monitoring.alerts.reports.ts';
import { alertsRepository as repo, type Channel } from './monitoring.alerts.repository.ts';
import { DAY_MS } from '@tradehost/contracts';

/**
 * Alerts' and reports' queues (pg-boss):
 * - `monitoring-alert-email`, `monitoring-alert-telegram`: one job per event and channel,
 *   retried 5 times from 30 s, doubling;
 * - `monitoring-alerts-tick`, every minute (a singleton): the no-data rules, checked three times
 *   in its minute (every SILENT_CHECK_MS, so a silent terminal is told within 20 s of its line),
 *   and the deliveries whose job was lost (still pending after STALE_MS: an instance stopped, or
 *   one without jobs wrote the event);
 * - `monitoring-reports`, every 15 minutes (a singleton): the reports due (monitoring.alerts.reports.ts);
 * - `monitoring-report-email`, `monitoring-report-telegram`: one job per report and channel.
 */

export const ALERT_QUEUES = {
  email: 'monitoring-alert-email',
  telegram: 'monitoring-alert-telegram',
} as const satisfies Record<Channel, string>;
export const REPORT_QUEUES = {
  email: 'monitoring-report-email',
  telegram: 'monitoring-report-telegram',
} as const satisfies Record<Channel, string>;
export const ALERTS_TICK_QUEUE = 'monitoring-alerts-tick';
export const REPORTS_QUEUE = 'monitoring-reports';
const RETRIES = { retryLimit: 5, retryDelaySeconds: 30 };
/** A delivery still pending this long after its event lost its job: the tick queues it again. */
const STALE_MS = 10 * 60_000;
/** The no-data rules are checked this often (the schedule's minute is the coarsest pg-boss has). */
const SILENT_CHECK_MS = 20_000;
const SILENT_CHECKS = 60_000 / SILENT_CHECK_MS;

/**
 * The terminal guardian as monitoring sees it: which silent-terminal alerts (event ids) it takes
 * over, and the hand-over (its message replaces the alert's).
 */
export interface SilentTerminalListener {
  claim(eventIds: number[]): Promise<number[]>;
  silent(eventIds: number[]): Promise<void>;
}

export interface AlertJobsDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  telegram: TelegramOutbox;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Jobs;
  /** Takes up silent-terminal alerts that name the owner's servers. */
  guardian?: SilentTerminalListener;
}

export function createAlertJobs(deps: AlertJobsDeps) {
  const { jobs, log } = deps;
  const delivery = createDelivery(deps);
  const channels: Channel[] = ['email', 'telegram'];
  const stopping = new AbortController();
  /** Waits `ms`, or less when the instance stops. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopping.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });

  const alertQueues = Object.fromEntries(
    channels.map((channel) => [
      channel,
      jobs.define<{ eventId: number }>({
        queue: ALERT_QUEUES[channel],
        policy: 'standard',
        expireInSeconds: 120,
        workers: 2,
        ...RETRIES,
        run: ({ eventId }) => delivery.deliverAlert(Number(eventId), channel),
      }),
    ]),
  ) as Record<Channel, JobQueue<{ eventId: number }>>;

  const reportQueues = Object.fromEntries(
    channels.map((channel) => [
      channel,
      jobs.define<ReportJob>({
        queue: REPORT_QUEUES[channel],
        policy: 'standard',
        expireInSeconds: 120,
        ...RETRIES,
        run: (job) => delivery.deliverReport(job, channel),
      }),
    ]),
  ) as Record<Channel, JobQueue<ReportJob>>;

  async function dispatch(events: { id: number; email: boolean; telegram: boolean }[]) {
    for (const event of events)
      for (const channel of channels)
        if (event[channel]) await alertQueues[channel].send({ eventId: event.id });
  }

  const engine = createAlertEngine({
    db: deps.db,
    now: deps.now,
    log,
    telegramEnabled: deps.telegram.enabled,
    ...(deps.guardian ? { guardian: deps.guardian } : {}),
    dispatch: (written) =>
      dispatch(
        written.map((e) => ({
          id: e.id,
          email: e.email_status === 'pending',
          telegram: e.telegram_status === 'pending',
        })),
      ),
  });

  const reports = createReports({
    db: deps.db,
    now: deps.now,
    send: async (job, chosen) => {
      for (const channel of channels) if (chosen[channel]) await reportQueues[channel].send(job);
    },
  });

  /** The no-data rules, then the deliveries whose job was lost. */
  async function tick() {
    const silent = await engine.checkSilent();
    const at = deps.now().getTime();
    const stale = await repo.stalePending(deps.db, new Date(at - STALE_MS), new Date(at - DAY_MS));
    await dispatch(stale);
    return { silent, requeued: stale.length };
  }

  /** The tick's runs under way (one at most: a singleton), which a stop waits for. */
  const running = new Set<Promise<void>>();
  async function tickAndChecks() {
    log.info({ report: await tick() }, 'monitoring alerts tick');
    for (let check = 1; check < SILENT_CHECKS && !stopping.signal.aborted; check += 1) {
      await pause(SILENT_CHECK_MS);
      if (!stopping.signal.aborted) await engine.checkSilent();
    }
  }
  jobs.define({
    queue: ALERTS_TICK_QUEUE,
    policy: 'singleton',
    expireInSeconds: 5 * 60,
    cron: '* * * * *',
    run: () => {
      // a stopping instance's worker may still be handed a tick it fetched meanwhile: it does
      // nothing, as its queries could come after the pool's end
      if (stopping.signal.aborted) return Promise.resolve();
      const run = tickAndChecks();
      running.add(run);
      const done = () => void running.delete(run);
      run.then(done, done);
      return run;
    },
  });
  jobs.define({
    queue: REPORTS_QUEUE,
    policy: 'singleton',
    expireInSeconds: 30 * 60,
    cron: '*/15 * * * *',
    run: async () =>
      log.info({ reports: (await reports.tick()).length }, 'monitoring reports tick'),
  });

  return {
    engine,
    delivery,
    /**
     * Ends the tick's waits between its checks, so a stopping instance is not held for them, and
     * resolves once a tick under way has ended (its check in progress done): before the pool ends.
     */
    async stop() {
      stopping.abort();
      await Promise.allSettled(running);
    },
    /** The minute's tick (the tests call it with jobs off). */
    tick,
    /** The reports' tick: answers the reports it claimed (the tests deliver them by hand). */
    reportsTick: reports.tick,
    /** Both channels of an alert event, as its jobs would (the tests, with jobs off). */
    async deliverAlert(eventId: number) {
      const results = await Promise.allSettled(
        channels.map((channel) => delivery.deliverAlert(eventId, channel)),
      );
      return results.map((r) => r.status);
    },
  };
}

export type AlertJobs = ReturnType<typeof createAlertJobs>;
