import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { embeddedUrl } from '../db/embedded.ts';

/**
 * `npm run -s db:url`: the connection string of the product's database (DATABASE_URL, or the
 * embedded PostgreSQL's, running or not), for psql, pg_dump and other PostgreSQL clients.
 */
const config = loadConfig();
console.log(
  config.databaseUrl ??
    embeddedUrl(join(config.dataDir, 'postgres'), config.embeddedPgPort, 'tradehost'),
);
