import { describe, expect, it } from 'vitest';
import { createPool, endPool } from '../src/db/client.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

/** The server's sessions of an application name. */
async function sessionsOf(name: string): Promise<number> {
  const { rows } = await t.sql.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where application_name = $1',
    [name],
  );
  return rows[0]!.n;
}

describe('endPool', () => {
  it('resolves once every connection has closed on the server, so PostgreSQL can stop right after', async () => {
    const name = `end-pool-${process.pid}-${Date.now()}`;
    const url = new URL(t.config.databaseUrl!);
    url.searchParams.set('application_name', name);
    const pool = createPool(url.href, 5);
    const sockets: { destroyed: boolean }[] = [];
    pool.on('connect', (client) => {
      sockets.push(
        (client as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream,
      );
    });
    // five connections at once, then idle in the pool
    await Promise.all(Array.from({ length: 5 }, () => pool.query('select pg_sleep(0.05)')));
    expect(await sessionsOf(name)).toBe(5);
    await endPool(pool);
    // as endPool returns, each connection has closed (pool.end alone returns while they close)
    expect(sockets.map((socket) => socket.destroyed)).toEqual([true, true, true, true, true]);
    expect(await sessionsOf(name)).toBe(0);
  });

  it('ends a pool that never connected', async () => {
    const pool = createPool(t.config.databaseUrl!, 2);
    await expect(endPool(pool)).resolves.toBeUndefined();
    expect(pool.ended).toBe(true);
  });
});
