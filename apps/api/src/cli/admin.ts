import { loadConfig } from '../config.ts';
import { createDb, createPool } from '../db/client.ts';
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';
import { userRepository } from '../modules/user/user.repository.ts';
import { join } from 'node:path';
import pg from 'pg';

const USAGE =
  'usage: node apps/api/src/cli/admin.ts create <email>   (makes an existing user an admin)';

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

/** `admin create <email>`: gives an existing account the admin role. Uses the same database as the server. */
async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
  if (command !== 'create' || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  let embedded: EmbeddedPostgresHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // use the server's embedded PostgreSQL when it is running, else start it for this command
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
    const user = await userRepository.setRole(createDb(pool), email.trim(), 'admin');
    if (!user) {
      console.error(`No user with the e-mail ${email}. Sign up first, then run this again.`);
      return 1;
    }
    console.log(`${user.email} (id ${user.id}) is now an admin.`);
    return 0;
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
