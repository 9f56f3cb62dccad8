import { asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, createPool } from '../src/db/client.ts';
import { executePrepared, mappedOnce } from '../src/db/prepared.ts';
import { ledgerEntries, ledgerTransactions, users } from '../src/db/schema/index.ts';
import { fund, quickUser, useTestApp } from './helpers.ts';

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

describe('mappedOnce', () => {
  let pool: ReturnType<typeof createPool> | undefined;
  afterAll(() => pool?.end());

  it("maps a prepared select's rows exactly as drizzle does, a left join with no row as null", async () => {
    pool = createPool(t.config.databaseUrl!);
    const db = createDb(pool);
    const funded = await quickUser(t, { name: 'Funded Reader' });
    const unfunded = await quickUser(t, { name: 'Empty Reader' });
    await fund(t, funded.id, 1234);
    const actor = alias(users, 'actor');
    // every kind of field: a table's columns nested, a whole table, a column of an alias, SQL
    // with and without a decoder, aliased SQL; inner and left joins, some rows without a match
    const statement = (name: string) =>
      db
        .select({
          reader: { id: users.id, name: users.name, createdAt: users.createdAt },
          entry: ledgerEntries,
          transaction: { id: ledgerTransactions.id, memo: ledgerTransactions.memo },
          actor: { email: actor.email },
          cents: sql<number>`${users.balanceCents}::text`.mapWith(Number),
          seen: sql<string>`'seen'`.as('seen'),
        })
        .from(users)
        .leftJoin(ledgerEntries, eq(ledgerEntries.userId, users.id))
        .leftJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .leftJoin(actor, eq(actor.id, ledgerTransactions.actorId))
        .where(sql`${users.id} = any(${sql.placeholder('ids')})`)
        .orderBy(asc(users.id))
        .prepare(name);
    const ids = { ids: [funded.id, unfunded.id] };
    const drizzles = await statement('mapped_by_drizzle').execute(ids);
    const once = await mappedOnce(statement('mapped_once')).execute(ids);
    expect(once).toEqual(drizzles);
    // what that is: the funded reader's entry, the other's joins absent (null, not all-null)
    expect(once).toHaveLength(2);
    expect(once[0]).toMatchObject({
      reader: { id: funded.id, name: 'Funded Reader' },
      entry: { userId: funded.id, account: 'balance', amountCents: 1234 },
      transaction: { memo: 'test funding' },
      actor: null,
      cents: 1234,
      seen: 'seen',
    });
    expect(once[0]!.reader.createdAt).toBeInstanceOf(Date);
    expect(once[0]!.entry!.createdAt).toBeInstanceOf(Date);
    expect(once[1]).toMatchObject({
      reader: { id: unfunded.id, name: 'Empty Reader' },
      entry: null,
      transaction: null,
      actor: null,
      cents: 0,
    });
  });

  it('refuses what is not a prepared select (a drizzle whose prepared query changed shape)', () => {
    expect(() => mappedOnce({})).toThrow(/prepared select/);
  });
});
