import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { balancesOf, fund, ledgerInvariants, quickUser, useTestApp } from './helpers.ts';

/** The ledger's rules as the database itself enforces them, whatever SQL a bug might send. */
const t = useTestApp();

/** Runs `work` in one transaction on its own connection and commits (rolled back on failure). */
async function inTx(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await t.sql.connect();
  try {
    await client.query('begin');
    await work(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

async function newTransaction(client: pg.PoolClient, kind = 'adjustment'): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    'insert into ledger_transactions (kind) values ($1) returning id',
    [kind],
  );
  return Number(rows[0]!.id);
}

async function entry(
  client: pg.PoolClient,
  transactionId: number,
  userId: number | null,
  account: string,
  cents: number,
) {
  await client.query(
    'insert into ledger_entries (transaction_id, user_id, account, amount_cents) values ($1, $2, $3, $4)',
    [transactionId, userId, account, cents],
  );
}

async function counts() {
  const { rows } = await t.sql.query<{ tx: string; entries: string }>(
    `select (select count(*) from ledger_transactions) as tx,
            (select count(*) from ledger_entries) as entries`,
  );
  return { transactions: Number(rows[0]!.tx), entries: Number(rows[0]!.entries) };
}

const appendOnly = (table: string, op: string) => ({
  code: '42501',
  message: `${table} is append-only: ${op} refused`,
});
const unbalanced = { code: '23514', message: expect.stringMatching(/does not balance/) };

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

describe('the ledger is append-only', () => {
  it('refuses UPDATE and DELETE of entries and transactions', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 5000);
    const before = await counts();

    await expect(
      t.sql.query('update ledger_entries set amount_cents = amount_cents * 2 where user_id = $1', [
        user.id,
      ]),
    ).rejects.toMatchObject(appendOnly('ledger_entries', 'UPDATE'));
    await expect(
      t.sql.query('delete from ledger_entries where user_id = $1', [user.id]),
    ).rejects.toMatchObject(appendOnly('ledger_entries', 'DELETE'));
    await expect(
      t.sql.query(`update ledger_transactions set memo = 'rewritten'`),
    ).rejects.toMatchObject(appendOnly('ledger_transactions', 'UPDATE'));
    await expect(t.sql.query('delete from ledger_transactions')).rejects.toMatchObject(
      appendOnly('ledger_transactions', 'DELETE'),
    );

    expect(await counts()).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 5000, partner: 0 });
  });

  it('refuses TRUNCATE of both tables, even with CASCADE', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 700);
    const before = await counts();
    await expect(t.sql.query('truncate ledger_entries')).rejects.toMatchObject(
      appendOnly('ledger_entries', 'TRUNCATE'),
    );
    await expect(t.sql.query('truncate ledger_transactions cascade')).rejects.toMatchObject(
      appendOnly('ledger_transactions', 'TRUNCATE'),
    );
    expect(await counts()).toEqual(before);
  });
});

describe('every transaction balances, checked at COMMIT', () => {
  it('refuses a transaction whose entries do not sum to zero', async () => {
    const user = await quickUser(t);
    const before = await counts();
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, user.id, 'balance', 1000);
        await entry(client, tx, null, 'adjustments', -999);
      }),
    ).rejects.toMatchObject(unbalanced);
    expect(await counts()).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('refuses a transaction of a single entry, and one without entries', async () => {
    const user = await quickUser(t);
    const before = await counts();
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, user.id, 'balance', 1000);
      }),
    ).rejects.toMatchObject(unbalanced);
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, null, 'adjustments', 1000);
      }),
    ).rejects.toMatchObject(unbalanced);
    await expect(
      inTx(async (client) => {
        await newTransaction(client);
      }),
    ).rejects.toMatchObject(unbalanced);
    expect(await counts()).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('refuses an entry added later that unbalances a committed transaction', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 300);
    const before = await counts();
    const { rows } = await t.sql.query<{ id: string }>(
      'select transaction_id as id from ledger_entries where user_id = $1',
      [user.id],
    );
    await expect(
      inTx(async (client) => {
        await entry(client, Number(rows[0]!.id), user.id, 'balance', 100);
      }),
    ).rejects.toMatchObject(unbalanced);
    expect(await counts()).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 300, partner: 0 });
  });

  it('accepts entries written one by one that balance by COMMIT', async () => {
    const [a, b] = [await quickUser(t), await quickUser(t)];
    await fund(t, a.id, 1000);
    await inTx(async (client) => {
      const tx = await newTransaction(client, 'transfer');
      await entry(client, tx, a.id, 'balance', -400);
      await entry(client, tx, b.id, 'balance', 250);
      await entry(client, tx, b.id, 'balance', 150);
    });
    expect(await balancesOf(t, a.id)).toEqual({ balance: 600, partner: 0 });
    expect(await balancesOf(t, b.id)).toEqual({ balance: 400, partner: 0 });
  });

  it('refuses an entry with a zero amount, an unknown account or an unknown user', async () => {
    const user = await quickUser(t);
    const before = await counts();
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, user.id, 'balance', 0);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'ledger_entries_amount_check' });
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, user.id, 'adjustments', 100);
        await entry(client, tx, null, 'adjustments', -100);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'ledger_entries_account_check' });
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, null, 'somebody', 100);
        await entry(client, tx, null, 'adjustments', -100);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'ledger_entries_account_check' });
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client);
        await entry(client, tx, 987_654_321, 'balance', 100);
        await entry(client, tx, null, 'adjustments', -100);
      }),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await counts()).toEqual(before);
  });
});

describe('user balances belong to the ledger', () => {
  it('refuses a direct UPDATE of balance_cents or balance_partner_cents', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100);
    const refused = {
      code: '42501',
      message: 'balances change only through ledger entries',
    };
    await expect(
      t.sql.query('update users set balance_cents = 1000000 where id = $1', [user.id]),
    ).rejects.toMatchObject(refused);
    await expect(
      t.sql.query(
        'update users set balance_partner_cents = balance_partner_cents + 1 where id = $1',
        [user.id],
      ),
    ).rejects.toMatchObject(refused);
    await expect(
      t.sql.query('update users set balance_cents = 0 where id = $1', [user.id]),
    ).rejects.toMatchObject(refused);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 100, partner: 0 });
    // other columns still change freely
    await t.sql.query(`update users set name = 'Renamed' where id = $1`, [user.id]);
  });

  it('refuses a new user inserted with a balance', async () => {
    for (const column of ['balance_cents', 'balance_partner_cents']) {
      await expect(
        t.sql.query(
          `insert into users (email, name, password_hash, referral_code, ${column})
           values ($1, 'Rich', 'x', upper(substr(md5(random()::text), 1, 8)), 500)`,
          [`rich-${column}@example.com`],
        ),
      ).rejects.toMatchObject({ code: '23514', message: 'a new user starts with zero balances' });
    }
    const { rows } = await t.sql.query(`select id from users where email like 'rich-%'`);
    expect(rows).toEqual([]);
  });

  it('refuses an entry that takes a purse below zero (users_balance_check)', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 500);
    await fund(t, user.id, 200, 'balance_partner');
    const before = await counts();
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client, 'charge');
        await entry(client, tx, user.id, 'balance', -501);
        await entry(client, tx, null, 'revenue', 501);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'users_balance_check' });
    await expect(
      inTx(async (client) => {
        const tx = await newTransaction(client, 'partner_move');
        await entry(client, tx, user.id, 'balance_partner', -201);
        await entry(client, tx, user.id, 'balance', 201);
      }),
    ).rejects.toMatchObject({ code: '23514', constraint: 'users_balance_partner_check' });
    expect(await counts()).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 500, partner: 200 });

    // exactly down to zero is fine
    await inTx(async (client) => {
      const tx = await newTransaction(client, 'charge');
      await entry(client, tx, user.id, 'balance', -500);
      await entry(client, tx, null, 'revenue', 500);
    });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 200 });
  });

  it("fills balance_after_cents with the purse after each entry, whatever the writer sent, and null on the provider's accounts", async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1000);
    await fund(t, user.id, 250);
    await fund(t, user.id, 40, 'balance_partner');
    await inTx(async (client) => {
      const tx = await newTransaction(client, 'charge');
      await client.query(
        `insert into ledger_entries (transaction_id, user_id, account, amount_cents, balance_after_cents)
         values ($1, $2, 'balance', -300, 999999), ($1, null, 'revenue', 300, 42)`,
        [tx, user.id],
      );
    });
    const { rows } = await t.sql.query<{ account: string; amount: string; after: string | null }>(
      `select account, amount_cents as amount, balance_after_cents as after from ledger_entries
       where transaction_id in (select transaction_id from ledger_entries where user_id = $1)
       order by id`,
      [user.id],
    );
    expect(
      rows.map((r) => [r.account, Number(r.amount), r.after === null ? null : Number(r.after)]),
    ).toEqual([
      ['balance', 1000, 1000],
      ['adjustments', -1000, null],
      ['balance', 250, 1250],
      ['adjustments', -250, null],
      ['balance_partner', 40, 40],
      ['adjustments', -40, null],
      ['balance', -300, 950],
      ['revenue', 300, null],
    ]);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 950, partner: 40 });
  });
});
