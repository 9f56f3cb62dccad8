import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPool } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded.ts';
import { passwordFile } from '../src/db/embedded-placement.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { seed } from '../src/db/seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the test server; each test file makes its own database from the template. */
    adminUrl: string;
    /** The migrated and seeded database of this run, the template of each file's own. */
    templateDatabase: string;
  }
}

const DATA_TEST_DIR = fileURLToPath(new URL('../../../.data-test', import.meta.url));
const EMBEDDED_DIR = `${DATA_TEST_DIR}/pg`;

/** A port free right now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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
 * embedded one in .data-test/pg on a free port, removed afterwards. Migrations and
 * the seed run once, into a template database named for this run, so two runs can
 * share one server.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgresHandle | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  const template = `tradehost_template_${randomBytes(4).toString('hex')}`;
  if (!adminUrl) {
    await removeEmbeddedDir();
    embedded = await startEmbeddedPostgres({
      dir: EMBEDDED_DIR,
      port: await freePort(),
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
    await admin.query(`create database ${template}`);
  } finally {
    await admin.end();
  }
  const pool = createPool(databaseUrl(adminUrl, template), 1);
  try {
    await runMigrations(pool);
    await seed(pool);
  } finally {
    await pool.end();
  }

  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    if (embedded) {
      await embedded.stop();
      await removeEmbeddedDir();
      // relocated under root when the checkout is closed to the postgres user
      await rm(embedded.cluster, { recursive: true, force: true });
      await rm(passwordFile(embedded.cluster), { force: true });
      return;
    }
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${template} with (force)`);
    await cleanup.end();
  };
}
