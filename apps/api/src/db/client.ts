import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { trackCommits } from './live.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
/** The database or a transaction: what repositories run their SQL on. */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // an idle client losing its connection (e.g. the server restarting) must not crash the process
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  const clients = new Set<pg.PoolClient>();
  open.set(pool, clients);
  pool.on('connect', (client) => {
    clients.add(client);
    // a client in use losing its connection (its backend terminated) fails its queries, and pg
    // emits `error` too: pg-pool listens only while the client is idle, and an `error` nobody
    // listens to would end the process
    client.on('error', (error) => console.error('PostgreSQL connection lost:', error.message));
  });
  pool.on('remove', (client) => clients.delete(client));
  return pool;
}

/** The connections of each pool made here that have not closed yet (see endPool). */
const open = new WeakMap<pg.Pool, Set<pg.PoolClient>>();

/**
 * Ends the pool once each of its connections has closed. pg-pool's own `end` resolves as soon as
 * it has asked its clients to end, while their sessions still run on the server: a PostgreSQL
 * stopped right after (the embedded one at shutdown) would terminate them, and each would
 * report "terminating connection due to administrator command". The pool emits `remove` for a
 * client once its connection has closed.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  const clients = open.get(pool);
  const closed = new Promise<void>((resolve) => {
    if (!clients?.size) return resolve();
    pool.on('remove', () => clients.size === 0 && resolve());
  });
  await pool.end();
  await closed;
}

export function createDb(pool: pg.Pool): Db {
  // db.transaction runs afterCommit's work (db/live.ts) once committed
  return trackCommits(drizzle({ client: pool, schema }));
}
