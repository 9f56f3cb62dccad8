import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRunning } from '../src/db/postmaster.ts';
import { fund, ledgerInvariants, quickUser, type TestApp } from './helpers.ts';
import {
  jwtSecretOf,
  postmasterPid,
  productSite,
  removeSite,
  sitePool,
  startProduct,
  stopProduct,
  whenServing,
  type ProductSite,
  type RunningProduct,
} from './product-process.ts';

/**
 * The product with its embedded PostgreSQL, as a user runs it, dying in every way a process can:
 * killed during concurrent transfers, its PostgreSQL left running, a power cut, a stale lock whose
 * PID another program now has, another program on the port. Each time the next start (the way
 * the README says) comes back by itself with the data intact, or refuses with what to do.
 * Real processes, one DATA_DIR for the whole file, in order.
 */

const MINUTE = 60_000;
let site: ProductSite;
let product: RunningProduct | undefined;
/** Other processes a test started, killed in afterAll whatever happened. */
const strays: ChildProcess[] = [];

/** The helpers' view of the product's database: SQL and the JWT secret, for users and checks. */
function siteApp(): TestApp & { end(): Promise<void> } {
  const sql = sitePool(site);
  return {
    sql,
    config: { jwtSecret: jwtSecretOf(site) },
    end: () => sql.end(),
  } as unknown as TestApp & { end(): Promise<void> };
}

async function start(how: 'npm start' | 'node' = 'node') {
  product = startProduct(site, how);
  await whenServing(site, product);
  return product;
}

const count = async (t: TestApp, table: string) =>
  Number((await t.sql.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);

function transfer(token: string, to: string, key: string) {
  return fetch(`${site.url}/api/user/balance/transfer`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ email: to, amount: '1.00' }),
  });
}

beforeAll(async () => {
  site = await productSite();
});

// a test that failed half-way leaves nothing running for the next
afterEach(async () => {
  if (product) await stopProduct(product);
  product = undefined;
}, MINUTE);

afterAll(async () => {
  if (product) await stopProduct(product, 'SIGKILL');
  for (const child of strays) child.kill('SIGKILL');
  // a PostgreSQL left by a failed test: stopped at once
  const pid = postmasterPid(site);
  if (pid && isRunning(pid)) process.kill(pid, 'SIGQUIT');
  await new Promise((r) => setTimeout(r, 500));
  removeSite(site);
}, MINUTE);

describe('the embedded default after a crash', () => {
  let users: Array<{ id: number; email: string; token: string }> = [];
  let transfersBefore = 0;

  it(
    'killed (SIGKILL) during concurrent transfers, it comes back by npm start with every answered transfer, and cut-off ones end exactly once on retry',
    async () => {
      await start();
      const t = siteApp();
      users = [await quickUser(t), await quickUser(t), await quickUser(t)];
      for (const user of users) await fund(t, user.id, 100_000);
      await t.end();

      const keys = Array.from({ length: 150 }, (_, i) => ({
        key: randomUUID(),
        from: users[i % 3]!,
        to: users[(i + 1) % 3]!,
      }));
      const answered = new Map<string, number>();
      const calls = keys.map(async ({ key, from, to }) => {
        try {
          const res = await transfer(from.token, to.email, key);
          const body = (await res.json()) as { transfer?: { id: number } };
          if (res.status === 201 || res.status === 200) answered.set(key, body.transfer!.id);
          // kill while they are under way: at the fifth answer, at once (a timer polling for it
          // let a fast server answer all of them before the kill)
          if (answered.size === 5) product!.child.kill('SIGKILL');
        } catch {
          // cut off by the kill
        }
      });
      expect(await product!.exited).toBe('SIGKILL');
      await Promise.all(calls);
      expect(answered.size).toBeLessThan(keys.length);

      // PostgreSQL went with its starter (setpriv --pdeathsig), or the next start deals with it
      await start('npm start');
      const after = siteApp();
      try {
        expect(await ledgerInvariants(after)).toEqual({
          unbalanced: 0,
          sum: 0,
          drift: 0,
          negative: 0,
        });
        for (const id of answered.values()) {
          const { rowCount } = await after.sql.query('select 1 from transfers where id = $1', [id]);
          expect(rowCount, `answered transfer ${id}`).toBe(1);
        }

        // each cut-off one, retried with its key, runs at once: a request that died left no
        // claim (its claim was in its transaction), so none answers 409 IDEMPOTENCY_KEY_IN_PROGRESS
        expect(
          (await after.sql.query('select 1 from idempotency_keys where response_status is null'))
            .rowCount,
        ).toBe(0);
        const cutOff = keys.filter(({ key }) => !answered.has(key));
        for (const { key, from, to } of cutOff) {
          const first = await transfer(from.token, to.email, key);
          const again = await transfer(from.token, to.email, key);
          expect(first.status).toBeLessThan(300);
          expect(again.headers.get('idempotent-replayed')).toBe('true');
          expect(((await again.json()) as { transfer: { id: number } }).transfer.id).toBe(
            ((await first.json()) as { transfer: { id: number } }).transfer.id,
          );
        }
        // every key ended in exactly one transfer, and the money adds up
        expect(await count(after, 'transfers')).toBe(keys.length);
        const { rows } = await after.sql.query<{ b: string }>(
          'select sum(balance_cents) as b from users where id = any($1)',
          [users.map((u) => u.id)],
        );
        expect(Number(rows[0]!.b)).toBe(300_000); // transfers move money among them only
        expect(await ledgerInvariants(after)).toEqual({
          unbalanced: 0,
          sum: 0,
          drift: 0,
          negative: 0,
        });
        transfersBefore = await count(after, 'transfers');
      } finally {
        await after.end();
      }
      await stopProduct(product!);
      expect(postmasterPid(site)).toBeUndefined();
    },
    4 * MINUTE,
  );

  it(
    'its PostgreSQL left running by an earlier run is stopped cleanly, said in one line, and started afresh',
    async () => {
      await start();
      const pid = postmasterPid(site)!;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
      const gid = Number(/^Gid:\s+(\d+)/m.exec(status)![1]);
      await stopProduct(product!);

      // the same server, as a run whose parent-death signal never came would have left it
      const leftover = spawn(argv[0]!, argv.slice(1), {
        uid,
        gid,
        cwd: '/',
        detached: true,
        stdio: 'ignore',
      });
      strays.push(leftover);
      const deadline = Date.now() + MINUTE;
      while (postmasterPid(site) !== leftover.pid && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(postmasterPid(site)).toBe(leftover.pid);

      await start();
      expect(product!.output()).toMatch(
        new RegExp(`left running on .* \\(PID ${leftover.pid}\\) was stopped cleanly`),
      );
      expect(isRunning(leftover.pid!)).toBe(false);
      const t = siteApp();
      try {
        expect(await count(t, 'transfers')).toBe(transfersBefore);
      } finally {
        await t.end();
      }
      await stopProduct(product!);
    },
    2 * MINUTE,
  );

  it(
    'after a power cut (the API and every PostgreSQL process killed at once) it recovers from the log',
    async () => {
      await start();
      const pid = postmasterPid(site)!;
      // the postmaster leads a process group of its own with its backends
      process.kill(-pid, 'SIGKILL');
      product!.child.kill('SIGKILL');
      await product!.exited;
      while (isRunning(pid)) await new Promise((r) => setTimeout(r, 50));

      await start();
      expect(product!.output()).toMatch(/recovers from its write-ahead log/);
      const t = siteApp();
      try {
        expect(await count(t, 'transfers')).toBe(transfersBefore);
        expect((await ledgerInvariants(t)).drift).toBe(0);
      } finally {
        await t.end();
      }
      await stopProduct(product!);
    },
    2 * MINUTE,
  );

  it(
    'a stale postmaster.pid whose PID another program has now is cleared, and that program is left alone',
    async () => {
      await start();
      const lockFile = join(site.cluster, 'postmaster.pid');
      const lock = readFileSync(lockFile, 'utf8');
      await stopProduct(product!);

      const other = spawn('sleep', ['600'], { stdio: 'ignore' });
      strays.push(other);
      writeFileSync(lockFile, lock.replace(/^\d+/, String(other.pid)));

      await start();
      expect(product!.output()).toMatch(
        new RegExp(`stale postmaster.pid names PID ${other.pid}, now another program`),
      );
      expect(isRunning(other.pid!)).toBe(true);
      await stopProduct(product!);
    },
    2 * MINUTE,
  );

  it(
    'another program on EMBEDDED_PG_PORT: the start is refused with what to do, and that program is untouched',
    async () => {
      // a client that resets (the product's probe, this test's) is no error of this program
      const listener: Server = createServer((socket) => {
        socket.on('error', () => {});
        socket.end('mine\n');
      });
      await new Promise<void>((done) => listener.listen(site.pgPort, '127.0.0.1', done));
      try {
        product = startProduct(site);
        expect(await product.exited).not.toBe(0);
        expect(product.output()).toContain(`Port ${site.pgPort} on 127.0.0.1 is taken`);
        expect(product.output()).toContain('EMBEDDED_PG_PORT');
        expect(postmasterPid(site)).toBeUndefined();
        const answer = await new Promise<string>((done, fail) => {
          const socket = connect(site.pgPort, '127.0.0.1');
          socket.on('data', (data: Buffer) => {
            done(data.toString());
            socket.destroy();
          });
          socket.on('error', fail);
        });
        expect(answer).toBe('mine\n');
      } finally {
        listener.close();
      }
      product = undefined;
    },
    MINUTE,
  );
});
