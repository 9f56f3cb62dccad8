import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, createPool } from '../src/db/client.ts';
import { executePrepared } from '../src/db/prepared.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

describe('executePrepared', () => {
  let pool: ReturnType<typeof createPool> | undefined;
  afterAll(() => pool?.end());

  it('prepares a text once per connection and binds new values each call, on the pool and in a transaction', async () => {
    // one connection: the statements it has prepared are the ones to read back
    pool = createPool(t.config.databaseUrl!, 1);
    const db = createDb(pool);
    const square = (n: number) =>
      executePrepared<{ n: number; at: string }>(
        db,
        sql`select ${n}::int * ${n}::int as n, now() as at`,
      );
    expect((await square(3)).rows[0]!.n).toBe(9);
    expect((await square(4)).rows[0]!.n).toBe(16);
    // timestamps as execute gives them: strings
    expect(typeof (await square(5)).rows[0]!.at).toBe('string');
    // in a transaction, on the same connection: the same statement, and the write is counted
    const counted = await db.transaction((tx) =>
      executePrepared(tx, sql`select ${6}::int * ${6}::int as n, now() as at`),
    );
    expect(counted.rows[0]!.n).toBe(36);
    expect(counted.rowCount).toBe(1);
    // another text is another statement
    await executePrepared(db, sql`select ${1}::int as one`);
    const { rows } = await pool.query<{ name: string; statement: string }>(
      `select name, statement from pg_prepared_statements where name like 'stmt\\_%' order by statement`,
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.statement)).toEqual([
      'select $1::int * $2::int as n, now() as at',
      'select $1::int as one',
    ]);
  });
});
