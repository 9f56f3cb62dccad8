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
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  // db.transaction runs afterCommit's work (db/live.ts) once committed
  return trackCommits(drizzle({ client: pool, schema }));
}
