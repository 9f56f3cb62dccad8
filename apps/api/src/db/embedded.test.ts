import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/global-setup.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded.ts';
import {
  isRootUser,
  passwordFile,
  PERSISTENT_ROOT,
  temporaryClusterDirectory,
} from './embedded-placement.ts';
import { readPostmasterLock, waitForExit } from './postmaster.ts';

const started: EmbeddedPostgresHandle[] = [];
const removeAfter: string[] = [];
afterEach(async () => {
  for (const handle of started.splice(0)) await handle.stop();
  for (const path of removeAfter.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** A directory other users may enter (the postgres user must, under root). */
function openDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  removeAfter.push(dir);
  return dir;
}

async function start(dir: string, notices: string[] = []) {
  const handle = await startEmbeddedPostgres({
    dir,
    port: await freePort(),
    database: 'tradehost',
    postgresFlags: ['-c', 'fsync=off'],
    onNotice: (line) => notices.push(line),
  });
  started.push(handle);
  return handle;
}

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe('startEmbeddedPostgres', () => {
  it('a starter killed with SIGKILL leaves no PostgreSQL running (the kernel tells it to stop)', async () => {
    const dir = join(openDir('th-pg-'), 'postgres');
    const port = await freePort();
    const module = fileURLToPath(new URL('./embedded.ts', import.meta.url));
    const starter = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(module)});
         await startEmbeddedPostgres({ dir: ${JSON.stringify(dir)}, port: ${port}, database: 'x' });
         console.log('ready'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      starter.stdout.on('data', (chunk: Buffer) => chunk.includes('ready') && resolve());
      starter.once('exit', (code) => reject(new Error(`the starter exited (${code})`)));
    });
    const { pid } = readPostmasterLock(dir)!;
    starter.kill('SIGKILL');
    expect(await waitForExit(pid, 20_000)).toBe(true);
    expect(existsSync(join(dir, 'postmaster.pid'))).toBe(false); // a clean shutdown

    // and the next start finds it as it was left
    const notices: string[] = [];
    await start(dir, notices);
    expect(notices).toEqual([]);
  }, 60_000);

  it('refuses to take over a PostgreSQL that a live process started on the same DATA_DIR', async () => {
    const dir = join(openDir('th-pg-'), 'postgres');
    const running = await start(dir);
    const { pid } = readPostmasterLock(dir)!;
    await expect(start(dir)).rejects.toThrow(
      `The embedded PostgreSQL of ${dir} is in use by a running process (PID ${process.pid})`,
    );
    expect(readPostmasterLock(dir)?.pid).toBe(pid); // untouched, and still serving
    expect((await query(running.url, 'select 1 as one')).rows).toEqual([{ one: 1 }]);
  }, 60_000);

  // where CI runs as root: the cluster placement for real
  it.runIf(isRootUser())(
    'under root, keeps the cluster of a closed DATA_DIR in a persistent place, moves one an earlier version left in the temporary area, and gives it back to DATA_DIR once that opens',
    async () => {
      const closed = mkdtempSync(join(tmpdir(), 'th-closed-')); // 0700, like /root
      removeAfter.push(closed);
      expect(statSync(closed).mode & 0o777).toBe(0o700);

      // an earlier version kept this DATA_DIR's cluster in the temporary area
      const dir = join(closed, 'data', 'postgres');
      const temporary = temporaryClusterDirectory(dir);
      removeAfter.push(temporary, passwordFile(temporary));
      const earlier = await start(temporary);
      await query(
        earlier.url,
        'create table kept (note text); insert into kept values ($$ledger$$)',
      );
      await earlier.stop();
      started.splice(started.indexOf(earlier), 1);

      const notices: string[] = [];
      const handle = await start(dir, notices);
      removeAfter.push(handle.cluster, passwordFile(handle.cluster));
      expect(handle.cluster.startsWith(`${PERSISTENT_ROOT}/postgres-`)).toBe(true);
      expect(notices.join('\n')).toContain(`cluster of ${dir} lives in ${handle.cluster}`);
      expect(notices.join('\n')).toContain(`chmod o+x ${closed}`);
      expect(notices.join('\n')).toContain(`${temporary} -> ${handle.cluster}`);
      expect(existsSync(temporary)).toBe(false);
      expect((await query(handle.url, 'select note from kept')).rows).toEqual([{ note: 'ledger' }]);
      expect(statSync(handle.cluster).uid).not.toBe(0); // the postgres user's

      // the next start finds it there again, with nothing to move
      await handle.stop();
      started.splice(started.indexOf(handle), 1);
      const again: string[] = [];
      const next = await start(dir, again);
      expect(next.cluster).toBe(handle.cluster);
      expect(again).toEqual([
        `The postgres user cannot reach ${closed}, so the cluster of ${dir} lives in ${handle.cluster} (to keep it in DATA_DIR instead: chmod o+x ${closed})`,
      ]);
      expect((await query(next.url, 'select count(*)::int as n from kept')).rows).toEqual([
        { n: 1 },
      ]);

      // opened to the postgres user, DATA_DIR gets its cluster back
      await next.stop();
      started.splice(started.indexOf(next), 1);
      chmodSync(closed, 0o701);
      const back: string[] = [];
      const home = await start(dir, back);
      expect(home.cluster).toBe(dir);
      expect(back).toEqual([`Moved the embedded PostgreSQL cluster: ${handle.cluster} -> ${dir}`]);
      expect(existsSync(handle.cluster)).toBe(false);
      expect((await query(home.url, 'select note from kept')).rows).toEqual([{ note: 'ledger' }]);
    },
    120_000,
  );
});
