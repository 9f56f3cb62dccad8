import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { clusterDirectory, ownerFile, passwordFile } from '../src/db/embedded-placement.ts';
import { embeddedUrl } from '../src/db/embedded.ts';
import { readPostmasterLock } from '../src/db/postmaster.ts';
import { freePort } from './global-setup.ts';

/**
 * The real product as a user runs it, in a process of its own: `npm start` (or the command it
 * ends in, `node apps/api/src/server.ts`, when the console is already built) with the embedded
 * PostgreSQL in a DATA_DIR of its own and free ports. For the crash tests.
 */

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface ProductSite {
  dataDir: string;
  port: number;
  pgPort: number;
  /** Where the cluster lives (DATA_DIR/postgres, or under /var/lib/tradehost under root). */
  cluster: string;
  url: string;
}

/** A fresh DATA_DIR under the checkout (reachable by the postgres user where CI opens it). */
export async function productSite(): Promise<ProductSite> {
  const dataDir = join(REPO, '.data-test', `product-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  return {
    dataDir,
    port,
    pgPort: await freePort(),
    cluster: clusterDirectory(resolve(dataDir, 'postgres')),
    url: `http://127.0.0.1:${port}`,
  };
}

/** Removes the site's DATA_DIR and its cluster wherever it lives. */
export function removeSite(site: ProductSite): void {
  for (const path of [
    site.dataDir,
    site.cluster,
    passwordFile(site.cluster),
    ownerFile(site.cluster),
  ])
    rmSync(path, { recursive: true, force: true });
}

export interface RunningProduct {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
}

export function startProduct(
  site: ProductSite,
  how: 'npm start' | 'node' = 'node',
): RunningProduct {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'development',
    DATA_DIR: site.dataDir,
    PORT: String(site.port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(site.pgPort),
    PUBLIC_URL: site.url,
    LOG_LEVEL: 'warn',
    HYPERVISOR_SIM_DELAY_MS: '1-5',
    // the tests send many requests from one address
    RATE_LIMIT_USER_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
  };
  const [command, args] =
    how === 'npm start' ? ['npm', ['start']] : ['node', ['apps/api/src/server.ts']];
  // a process group of its own, so that a stop reaches npm, its shell and the server at once
  const child = spawn(command, args, {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((done) =>
    child.on('exit', (code, signal) => done(code ?? signal ?? -1)),
  );
  return { child, output: () => text, exited };
}

/** Waits until the product answers (or exits, or `ms` pass: both throw with its output). */
export async function whenServing(
  site: ProductSite,
  product: RunningProduct,
  ms = 120_000,
): Promise<void> {
  let gone = false;
  void product.exited.then(() => (gone = true));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the product exited:\n${product.output()}`);
    try {
      const res = await fetch(`${site.url}/api/front/permissions`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the product did not answer in ${ms} ms:\n${product.output()}`);
}

/** Stops it as Ctrl+C in its terminal would (its whole process group), and waits for the exit. */
export async function stopProduct(
  product: RunningProduct,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<void> {
  if (product.child.exitCode === null && product.child.signalCode === null) {
    try {
      process.kill(-product.child.pid!, signal);
    } catch {
      // already gone
    }
  }
  await product.exited;
}

/** The database of the site's embedded PostgreSQL (while it runs). */
export function sitePool(site: ProductSite): pg.Pool {
  const pool = new pg.Pool({
    connectionString: embeddedUrl(resolve(site.dataDir, 'postgres'), site.pgPort, 'tradehost'),
    max: 2,
  });
  pool.on('error', () => {});
  return pool;
}

/** The PID in the cluster's postmaster.pid, if there is one. */
export const postmasterPid = (site: ProductSite) => readPostmasterLock(site.cluster)?.pid;

export const jwtSecretOf = (site: ProductSite) =>
  readFileSync(join(site.dataDir, 'jwt-secret'), 'utf8').trim();
