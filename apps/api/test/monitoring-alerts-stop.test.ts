import { afterEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createDb, createPool, endPool } from '../src/db/client.ts';
import type { JobDefinition, Jobs } from '../src/jobs/index.ts';
import { TELEGRAM_OFF } from '../src/modules/monitoring/monitoring.alerts.delivery.ts';
import {
  ALERTS_TICK_QUEUE,
  createAlertJobs,
} from '../src/modules/monitoring/monitoring.alerts.jobs.ts';
import { useTestApp } from './helpers.ts';

/**
 * The alerts tick at an instance's stop. Its run checks the silent terminals again every 20 s of
 * its minute; at the journeys' shutdown a check once ran after the pool had ended ("Cannot use a
 * pool after calling end on the pool"). The tick's run is taken from its definition, on a pool of
 * its own that the test ends as the app would after its stop.
 */

const t = useTestApp();
const pools: pg.Pool[] = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) await endPool(pool).catch(() => {});
});

function alertJobs() {
  const pool = createPool(t.config.databaseUrl!, 2);
  pools.push(pool);
  const definitions: JobDefinition<object>[] = [];
  const jobs = {
    define(definition: JobDefinition<object>) {
      definitions.push(definition);
      return { send: async () => {}, sendIn: async () => {} };
    },
  } as unknown as Jobs;
  const log = t.app.log.child({ module: 'alerts-stop-test' });
  const alerts = createAlertJobs({
    db: createDb(pool),
    config: t.config,
    mailer: { send: async () => {}, close: async () => {} },
    telegram: TELEGRAM_OFF,
    now: () => new Date(),
    log,
    jobs,
  });
  const tick = definitions.find((d) => d.queue === ALERTS_TICK_QUEUE)!;
  return { pool, alerts, runTick: () => tick.run({}) };
}

const ticksLogged = () => t.logs.filter((line) => line.includes('"monitoring alerts tick"')).length;
const errorsLogged = () => t.logs.filter((line) => /"level":(50|60)/.test(line));

async function until(condition: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the alerts tick at the stop', () => {
  it('stops in its pause between checks, and the stop resolves once it has', async () => {
    const { alerts, runTick } = alertJobs();
    const before = ticksLogged();
    let ended = false;
    const run = runTick().then(() => {
      ended = true;
    });
    // the minute's first check is done: the run now waits 20 s for its next
    await until(() => ticksLogged() > before);
    await alerts.stop();
    expect(ended).toBe(true);
    await run;
  });

  it('does nothing when it starts after the stop, so nothing runs on an ended pool', async () => {
    const { pool, alerts, runTick } = alertJobs();
    const before = ticksLogged();
    const errors = errorsLogged().length;
    await alerts.stop();
    await endPool(pool);
    // pg-boss may still hand a stopping instance a tick it fetched while it was being stopped
    await expect(runTick()).resolves.toBeUndefined();
    expect(ticksLogged()).toBe(before);
    expect(errorsLogged().slice(errors)).toEqual([]);
  });
});
