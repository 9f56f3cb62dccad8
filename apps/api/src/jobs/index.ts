import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createHypervisor, type Hypervisor } from '../integrations/hypervisor/index.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import type { OperationQueue } from '../modules/vps/vps.operations.ts';
import { createHousekeeping, type Housekeeping } from './housekeeping.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { createRunner, type Runner } from './runner.ts';

export type { HousekeepingReport } from './housekeeping.ts';
export type { LifecycleReport } from './lifecycle.ts';

/**
 * The background half of VPS rental: pg-boss (version 10) on the app's own database and pool.
 * - queue `vps-operation`: one job per operation (singletonKey = its id, a `stately` queue, so a
 *   second dispatch while one waits is dropped); its workers call runner.run(id).
 * - queue `vps-lifecycle`, scheduled every minute (cron, UTC): lifecycle.tick(); a `singleton`
 *   queue, so ticks never overlap even with several instances.
 * - queue `housekeeping`, scheduled every hour at minute 17 (cron, UTC): housekeeping.tick()
 *   (expires payments left Processing, deletes old answered Idempotency-Keys); `singleton` too.
 * With config.vps.jobs false nothing starts and dispatch does nothing: the tests (and an instance
 * that should only serve HTTP) drive runner.run, lifecycle.tick and housekeeping.tick themselves.
 */

export const OPERATION_QUEUE = 'vps-operation';
export const LIFECYCLE_QUEUE = 'vps-lifecycle';
export const HOUSEKEEPING_QUEUE = 'housekeeping';
/** Operations run at once per instance (each mostly waits on the hypervisor). */
const OPERATION_WORKERS = 4;
/** An upgrade (shutdown, resize, start, each retried) may take long; pg-boss must not expire it. */
const OPERATION_EXPIRE_SECONDS = 3 * 3600;
/** How long stop() waits for running operations before leaving them to show as stuck. */
const STOP_TIMEOUT_MS = 30_000;
/** The runner's pauses before retrying a transient hypervisor failure. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 30_000] as const;

export interface JobsDeps {
  config: Config;
  db: Db;
  /** The app's pool: pg-boss runs its SQL on it (no second pool, same database). */
  pool: pg.Pool;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Replaces the hypervisor the config names (tests). */
  hypervisor?: Hypervisor;
  /** Replaces DEFAULT_RETRY_DELAYS_MS (tests). */
  retryDelaysMs?: readonly number[];
}

/**
 * A module's queue (modules own their jobs): `define` it before the app is ready; `send` is a
 * no-op while jobs are off (config.vps.jobs false), when the tests call `run` themselves.
 */
export interface JobDefinition<T extends object> {
  queue: string;
  /** `singleton` for a scheduled tick (never two at once); `standard` for work per item. */
  policy: 'standard' | 'singleton';
  expireInSeconds: number;
  /** A schedule (cron, UTC) that sends the queue an empty job. */
  cron?: string;
  /** Workers per instance (1 unless told). */
  workers?: number;
  run(data: T): Promise<unknown>;
}

export interface JobQueue<T extends object> {
  /**
   * Sends a job; with `debounce`, at most one per `key` waits at a time and it starts after
   * `seconds` (pg-boss sendDebounced: the jobs that come meanwhile are folded into it).
   */
  send(data: T, debounce?: { seconds: number; key: string }): Promise<void>;
}

export interface Jobs {
  /** What services call after committing an operation. */
  operations: OperationQueue;
  define<T extends object>(definition: JobDefinition<T>): JobQueue<T>;
  runner: Runner;
  lifecycle: Lifecycle;
  housekeeping: Housekeeping;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface OperationJob {
  operationId: number;
}

export function createJobs(deps: JobsDeps): Jobs {
  const { config, log } = deps;
  const hypervisor = deps.hypervisor ?? createHypervisor(config, deps.db);
  let boss: PgBoss | undefined;
  let starting: Promise<void> | undefined;
  let workerIds: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each keeps its own T
  const definitions: JobDefinition<any>[] = [];

  const operations: OperationQueue = {
    async dispatch(operationId) {
      if (!config.vps.jobs) return;
      try {
        await starting;
        if (!boss) return; // not started (or stopping): the lifecycle dispatches it again
        await boss.send(
          OPERATION_QUEUE,
          { operationId },
          {
            singletonKey: String(operationId),
            retryLimit: 0,
            expireInSeconds: OPERATION_EXPIRE_SECONDS,
          },
        );
        for (const id of workerIds) boss.notifyWorker(id);
      } catch (error) {
        // the operation is committed and stays queued: the lifecycle dispatches it again
        log.error({ err: error, operationId }, 'a VPS operation could not be dispatched');
      }
    },
  };

  const runner = createRunner({
    config,
    db: deps.db,
    hypervisor,
    mailer: deps.mailer,
    now: deps.now,
    log,
    retryDelaysMs: deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  });
  const lifecycle = createLifecycle({
    config,
    db: deps.db,
    mailer: deps.mailer,
    now: deps.now,
    log,
    operations,
  });
  const housekeeping = createHousekeeping({ config, db: deps.db, now: deps.now, log });

  async function startBoss(): Promise<void> {
    const instance = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => deps.pool.query(text, values) },
      schema: 'pgboss',
    });
    // an unhandled 'error' event would end the process; a failed poll is retried by pg-boss
    instance.on('error', (error) => log.error({ err: error }, 'pg-boss error'));
    await instance.start();
    await instance.createQueue(OPERATION_QUEUE, {
      name: OPERATION_QUEUE,
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: OPERATION_EXPIRE_SECONDS,
    });
    await instance.createQueue(LIFECYCLE_QUEUE, {
      name: LIFECYCLE_QUEUE,
      policy: 'singleton',
      retryLimit: 0,
      expireInSeconds: 15 * 60,
    });
    await instance.createQueue(HOUSEKEEPING_QUEUE, {
      name: HOUSEKEEPING_QUEUE,
      policy: 'singleton',
      retryLimit: 0,
      expireInSeconds: 15 * 60,
    });
    const ids: string[] = [];
    for (let i = 0; i < OPERATION_WORKERS; i += 1) {
      ids.push(
        await instance.work<OperationJob>(
          OPERATION_QUEUE,
          { pollingIntervalSeconds: 2, batchSize: 1 },
          async ([job]) => {
            if (job) await runner.run(Number(job.data.operationId));
          },
        ),
      );
    }
    await instance.work(LIFECYCLE_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
      try {
        const report = await lifecycle.tick();
        log.info({ report }, 'VPS lifecycle tick');
      } catch (error) {
        // the next minute's tick tries again
        log.error({ err: error }, 'VPS lifecycle tick failed');
        throw error;
      }
    });
    await instance.schedule(LIFECYCLE_QUEUE, '* * * * *', {}, { tz: 'UTC' });
    await instance.work(HOUSEKEEPING_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
      try {
        const report = await housekeeping.tick();
        log.info({ report }, 'housekeeping tick');
      } catch (error) {
        // the next hour's tick tries again
        log.error({ err: error }, 'housekeeping tick failed');
        throw error;
      }
    });
    await instance.schedule(HOUSEKEEPING_QUEUE, '17 * * * *', {}, { tz: 'UTC' });
    for (const definition of definitions) {
      const { queue, policy, expireInSeconds } = definition;
      await instance.createQueue(queue, { name: queue, policy, retryLimit: 0, expireInSeconds });
      for (let i = 0; i < (definition.workers ?? 1); i += 1) {
        await instance.work<object>(queue, { pollingIntervalSeconds: 2 }, async (batch) => {
          for (const job of batch) {
            try {
              await definition.run(job.data);
            } catch (error) {
              log.error({ err: error, queue }, 'a job failed');
              throw error;
            }
          }
        });
      }
      if (definition.cron) await instance.schedule(queue, definition.cron, {}, { tz: 'UTC' });
    }
    workerIds = ids;
    boss = instance;
  }

  return {
    operations,
    define(definition) {
      if (boss || starting) throw new Error(`queue ${definition.queue} defined after start`);
      definitions.push(definition);
      return {
        async send(data, debounce) {
          if (!config.vps.jobs) return;
          try {
            await starting;
            if (!boss) return;
            if (debounce)
              await boss.sendDebounced(definition.queue, data, {}, debounce.seconds, debounce.key);
            else await boss.send(definition.queue, data);
          } catch (error) {
            log.error({ err: error, queue: definition.queue }, 'a job could not be sent');
          }
        },
      };
    },
    runner,
    lifecycle,
    housekeeping,
    async start() {
      if (!config.vps.jobs) return;
      starting ??= startBoss();
      await starting;
    },
    async stop() {
      const pending = starting;
      starting = undefined;
      try {
        await pending;
      } catch {
        // a start that failed has nothing to stop
      }
      const instance = boss;
      boss = undefined;
      workerIds = [];
      await instance?.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS, close: false });
    },
  };
}
