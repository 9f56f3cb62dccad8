import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Where the embedded PostgreSQL keeps what the postgres system user must reach when the
 * product runs as root and the checkout or DATA_DIR is closed to other users (a 0700 /root):
 * a persistent system directory, never the temporary area, which is cleaned on reboot.
 */
export const PERSISTENT_ROOT = '/var/lib/tradehost';

export const isRootUser = () => process.getuid?.() === 0;

/** The nearest ancestor of `path` that other users may not traverse, if any. */
export function closedAncestor(path: string): string | undefined {
  for (let at = dirname(resolve(path)); ; at = dirname(at)) {
    if (existsSync(at) && (statSync(at).mode & 0o001) === 0) return at;
    if (at === dirname(at)) return undefined;
  }
}

/** A short, stable name for a path, so the same DATA_DIR finds the same cluster again. */
const pathId = (absolute: string) =>
  createHash('sha256').update(absolute).digest('hex').slice(0, 16);

/**
 * Where the cluster of `dir` lives. PostgreSQL refuses to run as root, so under root it runs as
 * the postgres user, who must be able to reach the directory: when an ancestor of `dir` is
 * closed to other users, the cluster lives in a directory of its own under `persistentRoot`,
 * named after `dir`.
 */
export function clusterDirectory(
  dir: string,
  isRoot = isRootUser(),
  persistentRoot = PERSISTENT_ROOT,
): string {
  const absolute = resolve(dir);
  if (!isRoot || !closedAncestor(absolute)) return absolute;
  return fallbackClusterDirectory(absolute, persistentRoot);
}

/** The cluster of `dir` under `persistentRoot`, where clusterDirectory puts one the postgres user cannot reach. */
export function fallbackClusterDirectory(dir: string, persistentRoot = PERSISTENT_ROOT): string {
  return join(persistentRoot, `postgres-${pathId(resolve(dir))}`);
}

/** Where versions before this one put that cluster: the temporary area (moved out at start). */
export function temporaryClusterDirectory(dir: string): string {
  return join(tmpdir(), `tradehost-postgres-${pathId(resolve(dir))}`);
}

/** The copy of PostgreSQL's binaries (package version `version`) the postgres user can reach. */
export function binariesCopyDirectory(version: string, persistentRoot = PERSISTENT_ROOT): string {
  return join(persistentRoot, `postgresql-${version}-${process.platform}-${process.arch}`);
}

/**
 * The files kept next to a cluster: its superuser password, the application role's password
 * (db/roles.ts) and the process that runs it.
 */
export const passwordFile = (cluster: string) => `${cluster}.password`;
export const appPasswordFile = (cluster: string) => `${cluster}.app-password`;
export const ownerFile = (cluster: string) => `${cluster}.owner`;
