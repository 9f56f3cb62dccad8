import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, createPool } from '../src/db/client.ts';
import { readPrepared } from '../src/db/prepared.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

describe('readPrepared', () => {
  let pool: ReturnType<typeof createPool> | undefined;
  afterAll(() => pool?.end());

  it('prepares a text once per connection and binds new values each call', async () => {
    // one connection: the statements it has prepared are the ones to read back
    pool = createPool(t.config.databaseUrl!, 1);
    const db = createDb(pool);
    const square = (n: number) =>
      readPrepared<{ n: number; at: Date }>(
        db,
        sql`select ${n}::int * ${n}::int as n, now() as at`,
      );
    expect((await square(3))[0]!.n).toBe(9);
    expect((await square(4))[0]!.n).toBe(16);
    expect((await square(5))[0]!.at).toBeInstanceOf(Date);
    // another text is another statement
    await readPrepared(db, sql`select ${1}::int as one`);
    const { rows } = await pool.query<{ name: string; statement: string }>(
      `select name, statement from pg_prepared_statements where name like 'read\\_%' order by statement`,
    );
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.statement)).toEqual([
      'select $1::int * $2::int as n, now() as at',
      'select $1::int as one',
    ]);
  });
});
