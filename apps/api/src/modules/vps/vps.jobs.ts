import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { createHypervisor, type Hypervisor } from '../../integrations/hypervisor/index.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { loggedTick, type Jobs } from '../../jobs/index.ts';
import { createLifecycle, type Lifecycle } from './vps.lifecycle.ts';
import type { OperationQueue } from './vps.operations.ts';
import { createRunner, type Runner } from './vps.runner.ts';
import { createGuardian, type Guardian } from './vps.guardian.ts';

export type { LifecycleReport } from './vps.lifecycle.ts';

/**
 * The background half of VPS rental, on pg-boss queues this module defines (app.jobs):
 * - queue `vps-operation`: one job per operation (singletonKey = its id, a `stately` queue, so a
 *   second dispatch while one waits is dropped); its workers call runner.run(id).
 * - queue `vps-lifecycle`, scheduled every minute (cron, UTC): lifecycle.tick(); a `singleton`
 *   queue, so ticks never overlap even with several instances.
 * With jobs off (config.vps.jobs false) dispatch does nothing: the tests drive runner.run and
 * lifecycle.tick themselves, and an instance running jobs dispatches the operations again.
 */

export const OPERATION_QUEUE = 'vps-operation';
export const LIFECYCLE_QUEUE = 'vps-lifecycle';
/** One job per silent-terminal alert naming servers; the guardian's minute check. */
export const GUARDIAN_QUEUE = 'vps-guardian';
export const GUARDIAN_CHECK_QUEUE = 'vps-guardian-check';
/** Operations run at once per instance (each mostly waits on the hypervisor). */
const OPERATION_WORKERS = 4;
/** An upgrade (shutdown, resize, start, each retried) may take long; pg-boss must not expire it. */
const OPERATION_EXPIRE_SECONDS = 3 * 3600;
/** The runner's pauses before retrying a transient hypervisor failure. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 30_000] as const;

export interface VpsJobsDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Jobs;
  /** The chats orders came from hear when their operations end. */
  telegram?: TelegramOutbox;
  /** Replaces the hypervisor the config names (tests). */
  hypervisor?: Hypervisor;
  /** Replaces DEFAULT_RETRY_DELAYS_MS (tests). */
  retryDelaysMs?: readonly number[];
}

export interface VpsJobs {
  /** What services call after committing an operation. */
  operations: OperationQueue;
  runner: Runner;
  lifecycle: Lifecycle;
  /** The hypervisor the runner drives, for the owner's reads of the machine (metrics). */
  hypervisor: Hypervisor;
  /** The terminal guardian: `silent` takes up alerts (queued), `take`/`check` its work. */
  guardian: Guardian & { silent(eventIds: number[]): Promise<void> };
}

/** The runner and the lifecycle of `deps` (no queue: the tests run a second runner this way). */
export function createVpsWork(deps: Omit<VpsJobsDeps, 'jobs'> & { operations: OperationQueue }) {
  const { config, log } = deps;
  const hypervisor = deps.hypervisor ?? createHypervisor(config, deps.db);
  const runner = createRunner({
    config,
    db: deps.db,
    hypervisor,
    mailer: deps.mailer,
    ...(deps.telegram ? { telegram: deps.telegram } : {}),
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
    operations: deps.operations,
  });
  const guardian = createGuardian({
    config,
    db: deps.db,
    hypervisor,
    mailer: deps.mailer,
    ...(deps.telegram ? { telegram: deps.telegram } : {}),
    operations: deps.operations,
    now: deps.now,
    log,
  });
  return { runner, lifecycle, hypervisor, guardian };
}

export function createVpsJobs(deps: VpsJobsDeps): VpsJobs {
  const { jobs, log } = deps;
  const queue = jobs.define<{ operationId: number }>({
    queue: OPERATION_QUEUE,
    policy: 'stately',
    expireInSeconds: OPERATION_EXPIRE_SECONDS,
    workers: OPERATION_WORKERS,
    singletonKey: ({ operationId }) => String(operationId),
    run: ({ operationId }) => runner.run(Number(operationId)),
  });
  // a send that fails is logged: the operation is committed and stays queued, and the
  // lifecycle dispatches it again
  const operations: OperationQueue = { dispatch: (operationId) => queue.send({ operationId }) };
  const { runner, lifecycle, hypervisor, guardian } = createVpsWork({ ...deps, operations });
  const silences = jobs.define<{ eventId: number }>({
    queue: GUARDIAN_QUEUE,
    policy: 'standard',
    expireInSeconds: 10 * 60,
    retryLimit: 2,
    run: ({ eventId }) => guardian.take(Number(eventId)),
  });
  jobs.define({
    queue: GUARDIAN_CHECK_QUEUE,
    policy: 'singleton',
    expireInSeconds: 10 * 60,
    cron: '* * * * *',
    run: loggedTick(log, 'terminal guardian', () => guardian.check()),
  });
  jobs.define({
    queue: LIFECYCLE_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '* * * * *',
    run: loggedTick(log, 'VPS lifecycle', () => lifecycle.tick()),
  });
  return {
    operations,
    runner,
    lifecycle,
    hypervisor,
    guardian: {
      ...guardian,
      async silent(eventIds) {
        for (const eventId of eventIds) {
          // with no workers here (the tests, an HTTP-only instance) it runs at once, with what
          // `claim` has just read of it
          if (deps.config.vps.jobs) await silences.send({ eventId });
          else await guardian.takeClaimed(eventId);
        }
      },
    },
  };
}
