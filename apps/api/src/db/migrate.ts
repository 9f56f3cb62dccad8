import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { createPool, endPool } from './client.ts';
import { grantAppRole, roleOf } from './roles.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any constant shared by every instance: one of them migrates, the others wait. */
const MIGRATION_LOCK = 0x7468_6d67; // "thmg"

/**
 * Applies the SQL migrations drizzle-kit generated that the database has not seen
 * yet, under an advisory lock so instances starting together do not race; `then` runs under the
 * same lock after them.
 */
export async function runMigrations(
  pool: pg.Pool,
  then?: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
      await then?.(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * Migrates the database as its owner (`ownerUrl`) and, when the application connects as another
 * role (`appUrl`), gives that role what the new tables need (db/roles.ts).
 */
export async function migrateAsOwner(ownerUrl: string, appUrl: string): Promise<void> {
  const owner = createPool(ownerUrl, 1);
  const role = roleOf(appUrl);
  try {
    await runMigrations(owner, async (client) => {
      if (role !== roleOf(ownerUrl)) await grantAppRole(client, role);
    });
  } finally {
    await endPool(owner);
  }
}
