import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApp } from './app.ts';
import { ConfigError, developmentExposure, loadConfig, type Config } from './config.ts';
import { createPool, endPool } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './db/embedded.ts';
import { migrateAsOwner } from './db/migrate.ts';
import { ownsTables } from './db/roles.ts';
import { seed } from './db/seed.ts';

/** Entry point: database (embedded or DATABASE_URL), migrations, seed, HTTP; stops cleanly on SIGINT/SIGTERM. */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let embedded: EmbeddedPostgresHandle | undefined;
  let pool: pg.Pool | undefined;
  let app: FastifyInstance | undefined;
  let stopping = false;

  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    const log = app?.log ?? console;
    log.info(`shutting down (${reason})`);
    const force = setTimeout(() => {
      console.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await app?.close();
      if (pool) await endPool(pool);
      await embedded?.stop();
    } catch (error) {
      console.error('error while shutting down:', error);
      code = 1;
    }
    process.exit(code);
  };
  // closes in order: HTTP, the pool, then the embedded PostgreSQL
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void shutdown(signal));
  }

  try {
    let databaseUrl = config.databaseUrl;
    let ownerUrl = config.databaseMigrationUrl ?? databaseUrl;
    if (!databaseUrl) {
      const dir = join(config.dataDir, 'postgres');
      console.info(
        `Starting the embedded PostgreSQL in ${dir} on port ${config.embeddedPgPort} ...`,
      );
      embedded = await startEmbeddedPostgres({
        dir,
        port: config.embeddedPgPort,
        database: 'tradehost',
        onNotice: (line) => console.info(line),
      });
      databaseUrl = embedded.appUrl;
      ownerUrl = embedded.url;
    }
    await migrateAsOwner(ownerUrl!, databaseUrl);
    pool = createPool(databaseUrl);
    const owned = await ownsTables(pool);
    await seed(pool);

    app = buildApp(config, { pool });
    await app.listen({ host: config.host, port: config.port });
    app.log.info(`Console: ${config.publicUrl}`);
    if (config.docsServed) app.log.info(`API docs: ${config.publicUrl}/api/docs`);
    if (!config.smtpUrl) app.log.info(`Development mailbox: ${config.publicUrl}/api/dev/mailbox`);
    if (owned > 0)
      app.log.warn(
        `The server's database role owns ${owned} of the product's tables, so it could switch off the ` +
          "ledger's and the audit's append-only triggers: set DATABASE_MIGRATION_URL to the owner " +
          'and DATABASE_URL to a role that owns nothing (README: Database roles).',
      );
    const exposure = developmentExposure(config);
    if (exposure) app.log.warn(exposure);
  } catch (error) {
    (app?.log ?? console).error(error);
    await shutdown('start-up failed', 1);
  }
}

await main();
