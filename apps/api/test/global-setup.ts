import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPool } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { seed } from '../src/db/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the test server; each test file makes its own database from the template. */
    adminUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'tradehost_template';
const DATA_TEST_DIR = fileURLToPath(new URL('../../../.data-test', import.meta.url));
const EMBEDDED_DIR = `${DATA_TEST_DIR}/pg`;
const EMBEDDED_PORT = 54_330;

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function removeEmbeddedDir() {
  await rm(DATA_TEST_DIR, { recursive: true, force: true });
}

/**
 * One PostgreSQL for the run: TEST_DATABASE_URL's server when set, else a fresh
 * embedded one in .data-test/pg (port 54330), removed afterwards. Migrations and
 * the seed run once, into a template database.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgresHandle | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    await removeEmbeddedDir();
    embedded = await startEmbeddedPostgres({
      dir: EMBEDDED_DIR,
      port: EMBEDDED_PORT,
      database: 'postgres',
      // durability is pointless for throw-away test data
      postgresFlags: [
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
    });
    adminUrl = embedded.adminUrl;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const pool = createPool(databaseUrl(adminUrl, TEMPLATE_DATABASE), 1);
  try {
    await runMigrations(pool);
    await seed(pool);
  } finally {
    await pool.end();
  }

  project.provide('adminUrl', adminUrl);

  return async () => {
    if (embedded) {
      await embedded.stop();
      await removeEmbeddedDir();
      return;
    }
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await cleanup.end();
  };
}
