import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { createPool } from '../db/client.ts';
import {
  embeddedAppUrl,
  embeddedUrl,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../db/embedded.ts';
import { migrateAsOwner } from '../db/migrate.ts';

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
 * (the running server's when it answers, else started for the command), migrated by its owner
 * and used as the application's role, as the server does. `close` ends the pool and stops what
 * the command started.
 */
export async function openCliDatabase(config: Config) {
  let embedded: EmbeddedPostgresHandle | undefined;
  let url = config.databaseUrl;
  let ownerUrl = config.databaseMigrationUrl ?? url;
  if (!url) {
    const dir = join(config.dataDir, 'postgres');
    ownerUrl = embeddedUrl(dir, config.embeddedPgPort, 'tradehost');
    if (!(await reachable(ownerUrl))) {
      embedded = await startEmbeddedPostgres({
        dir,
        port: config.embeddedPgPort,
        database: 'tradehost',
        onNotice: (line) => console.info(line),
      });
    }
    url = embeddedAppUrl(dir, config.embeddedPgPort, 'tradehost');
  }
  try {
    await migrateAsOwner(ownerUrl!, url);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const pool = createPool(url, 1);
  return {
    pool,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
