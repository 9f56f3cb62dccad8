import PgBoss from 'pg-boss';
import { loadConfig } from '../config.ts';
import { openCliDatabase } from './database.ts';

const USAGE =
  'usage: node apps/api/src/cli/jobs.ts send <queue>   (runs a scheduled job now, e.g. partner-rewards)';

/**
 * `jobs send <queue>`: puts a job on one of the server's scheduled queues (partner-rewards,
 * vps-lifecycle, housekeeping, …), so a running server's worker does now what its schedule
 * would do at the next tick. The job goes through pg-boss in the server's database, as the
 * schedule's would; a queue the server has not created is refused.
 */
async function main(argv: string[]): Promise<number> {
  const [command, queue] = argv;
  if (command !== 'send' || !queue) {
    console.error(USAGE);
    return 2;
  }
  const database = await openCliDatabase(loadConfig());
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.pool.query(text, values) },
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  try {
    await boss.start();
    if (!(await boss.getQueue(queue))) {
      console.error(`No queue ${queue}: start the server once, then run this again.`);
      return 1;
    }
    const id = await boss.send(queue, {});
    // a singleton queue keeps one job waiting: another one queued already does the same work
    console.log(id ? `Sent a job to ${queue} (${id}).` : `A job of ${queue} is already waiting.`);
    return 0;
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await database.close();
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
