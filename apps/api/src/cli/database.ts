import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { createPool } from '../db/client.ts';
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The server's database for a command-line tool: DATABASE_URL, else the embedded PostgreSQL
 * (the running server's when it answers, else started for the command), migrated. `close`
 * ends the pool and stops what the command started.
 */
export async function openCliDatabase(config: Config) {
  let embedded: EmbeddedPostgresHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const dir = join(config.dataDir, 'postgres');
    url = embeddedUrl(dir, config.embeddedPgPort, 'tradehost');
    if (!(await reachable(url))) {
      embedded = await startEmbeddedPostgres({
        dir,
        port: config.embeddedPgPort,
        database: 'tradehost',
        onNotice: (line) => console.info(line),
      });
    }
  }
  const pool = createPool(url, 1);
  try {
    await runMigrations(pool);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
