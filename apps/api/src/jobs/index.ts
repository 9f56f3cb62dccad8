import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db, Executor } from '../db/client.ts';
import { afterCommit, sessionOf } from '../db/live.ts';
import { createHousekeeping, type Housekeeping } from './housekeeping.ts';
import { PGBOSS_SCHEMA } from '../db/roles.ts';

export type { HousekeepingReport } from './housekeeping.ts';

/**
 * The app's background work: pg-boss (version 10) on the app's own database and pool. Modules
 * own their queues (modules/<m>/<m>.jobs.ts) and `define` them here before the app is ready;
 * this file only runs pg-boss: it creates each defined queue, starts its workers and schedule,
 * sends jobs and stops it all.
 * - queue `housekeeping`, scheduled every hour at minute 17 (cron, UTC): housekeeping.tick()
 *   (deletes old answered Idempotency-Keys); a `singleton`.
 * With config.vps.jobs false nothing starts and `send` does nothing: the tests (and an instance
 * that should only serve HTTP) call the modules' work themselves. `sendIn` still writes its job
 * in the caller's transaction (the instances running jobs work it).
 */

export const HOUSEKEEPING_QUEUE = 'housekeeping';
/** How long stop() waits for running jobs before leaving them to pg-boss's expiry. */
const STOP_TIMEOUT_MS = 30_000;

export interface JobsDeps {
  config: Config;
  db: Db;
  /** The app's pool: pg-boss runs its SQL on it (no second pool, same database). */
  pool: pg.Pool;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * A module's queue (modules own their jobs): `define` it before the app is ready; `send` is a
 * no-op while jobs are off (config.vps.jobs false), when the tests call `run` themselves.
 */
export interface JobDefinition<T extends object> {
  queue: string;
  /**
   * `singleton` for a scheduled tick (never two at once); `stately` for one job per
   * `singletonKey` waiting and one running; `standard` for work per item.
   */
  policy: 'standard' | 'singleton' | 'stately';
  expireInSeconds: number;
  /** A schedule (cron, UTC) that sends the queue an empty job. */
  cron?: string;
  /** Workers per instance (1 unless told). */
  workers?: number;
  /** A failed job is tried again this many times (none unless told), `retryDelaySeconds` apart, doubling. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** The job's singleton key for `send` (a `stately` queue keeps one waiting per key). */
  singletonKey?(data: T): string;
  run(data: T): Promise<unknown>;
}

export interface JobQueue<T extends object> {
  /**
   * Sends a job; with `debounce`, at most one per `key` waits at a time and it starts after
   * `seconds` (pg-boss sendDebounced: the jobs that come meanwhile are folded into it).
   * Never throws (a failure is logged): what the job does must be found again by a tick.
   */
  send(data: T, debounce?: { seconds: number; key: string }): Promise<void>;
  /**
   * Writes the job in `tx`'s transaction, so it exists exactly when what it reports was
   * committed (the workers are woken after the commit), whether this instance runs jobs or not.
   * On a database where pg-boss has never run (its schema or this queue missing: the tests with
   * jobs off, an HTTP-only instance started before any other) the job is run once in this
   * process after the commit instead, not awaited and not retried, its failure logged.
   */
  sendIn(tx: Executor, data: T): Promise<void>;
}

export interface Jobs {
  define<T extends object>(definition: JobDefinition<T>): JobQueue<T>;
  housekeeping: Housekeeping;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A scheduled tick's `run`: its report logged as `<what> tick`; a failure logged as `<what> tick
 * failed` and thrown (the schedule's next tick tries again).
 */
export function loggedTick(log: FastifyBaseLogger, what: string, tick: () => Promise<unknown>) {
  return async () => {
    try {
      const report = await tick();
      log.info({ report }, `${what} tick`);
    } catch (error) {
      log.error({ err: error }, `${what} tick failed`);
      throw error;
    }
  };
}

/** The pg connection of `executor` (a transaction's client, or the pool) for pg-boss's SQL. */
function clientOf(executor: Executor): PgBoss.Db {
  const { client } = sessionOf(executor);
  return { executeSql: (text, values) => client.query(text, values) };
}

/**
 * How often an idle worker asks PostgreSQL for a job. A job sent by this instance wakes its
 * workers at once (send, sendIn), and one that has run fetches the next at once: the interval
 * is only how soon another instance's jobs and the schedules' are seen. 5 s keeps an idle
 * server and its PostgreSQL under 1 % of a core (`npm run bench`, idle); 2 s cost 2.3 %.
 */
export const POLLING_SECONDS = 5;

export function createJobs(deps: JobsDeps): Jobs {
  const { config, log } = deps;
  let boss: PgBoss | undefined;
  let starting: Promise<void> | undefined;
  /** Each queue's workers (woken after a send, instead of waiting for their next poll). */
  const workerIds = new Map<string, string[]>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each keeps its own T
  const definitions: JobDefinition<any>[] = [];
  const bossOptions = {
    db: { executeSql: (text: string, values: unknown[]) => deps.pool.query(text, values) },
    schema: PGBOSS_SCHEMA,
  };
  /** Never started: only writes jobs through a connection it is given (sendIn). */
  const writer = new PgBoss(bossOptions);
  /** Once pg-boss's schema has been seen it stays. */
  let installed = false;

  const housekeeping = createHousekeeping({ db: deps.db, now: deps.now });
  definitions.push({
    queue: HOUSEKEEPING_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '17 * * * *',
    run: loggedTick(log, 'housekeeping', () => housekeeping.tick()),
  } satisfies JobDefinition<object>);

  function wake(queue: string) {
    for (const id of workerIds.get(queue) ?? []) boss?.notifyWorker(id);
  }

  async function startBoss(): Promise<void> {
    const instance = new PgBoss(bossOptions);
    // an unhandled 'error' event would end the process; a failed poll is retried by pg-boss
    instance.on('error', (error) => log.error({ err: error }, 'pg-boss error'));
    await instance.start();
    const ids = new Map<string, string[]>();
    for (const definition of definitions) {
      const { queue, policy, expireInSeconds, retryLimit = 0, retryDelaySeconds } = definition;
      await instance.createQueue(queue, {
        name: queue,
        policy,
        retryLimit,
        ...(retryLimit > 0 ? { retryDelay: retryDelaySeconds ?? 30, retryBackoff: true } : {}),
        expireInSeconds,
      });
      const queueIds: string[] = [];
      for (let i = 0; i < (definition.workers ?? 1); i += 1) {
        let id = '';
        id = await instance.work<object>(
          queue,
          { pollingIntervalSeconds: POLLING_SECONDS, batchSize: 1 },
          async (batch) => {
            try {
              for (const job of batch) await definition.run(job.data);
            } catch (error) {
              log.error({ err: error, queue }, 'a job failed');
              throw error;
            } finally {
              // a worker waits its polling interval after each job unless woken: while jobs
              // come, it fetches the next at once
              if (batch.length > 0) instance.notifyWorker(id);
            }
          },
        );
        queueIds.push(id);
      }
      ids.set(queue, queueIds);
      if (definition.cron) await instance.schedule(queue, definition.cron, {}, { tz: 'UTC' });
    }
    for (const [queue, queueIds] of ids) workerIds.set(queue, queueIds);
    boss = instance;
  }

  /** The job written through `tx`: its id, or null where pg-boss (or the queue) is missing. */
  async function write<T extends object>(
    tx: Executor,
    definition: JobDefinition<T>,
    data: T,
  ): Promise<string | null> {
    const db = clientOf(tx);
    if (!installed) {
      const { rows } = await db.executeSql(`select to_regclass($1) is not null as ok`, [
        `${PGBOSS_SCHEMA}.job`,
      ]);
      installed = rows[0]?.ok === true;
      if (!installed) return null;
    }
    return writer.send(definition.queue, data, { db });
  }

  return {
    define(definition) {
      if (boss || starting) throw new Error(`queue ${definition.queue} defined after start`);
      definitions.push(definition);
      const runHere = async (data: Parameters<typeof definition.run>[0]) => {
        try {
          await definition.run(data);
        } catch (error) {
          log.error({ err: error, queue: definition.queue }, 'a job run in-process failed');
        }
      };
      return {
        async send(data, debounce) {
          if (!config.vps.jobs) return;
          try {
            await starting;
            if (!boss) return;
            const singletonKey = definition.singletonKey?.(data);
            if (debounce)
              await boss.sendDebounced(definition.queue, data, {}, debounce.seconds, debounce.key);
            else await boss.send(definition.queue, data, singletonKey ? { singletonKey } : {});
            wake(definition.queue);
          } catch (error) {
            log.error({ err: error, queue: definition.queue }, 'a job could not be sent');
          }
        },
        async sendIn(tx, data) {
          const id = await write(tx, definition, data);
          if (id === null) afterCommit(tx, () => void runHere(data));
          else afterCommit(tx, () => wake(definition.queue));
        },
      };
    },
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
      workerIds.clear();
      await instance?.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS, close: false });
    },
  };
}
