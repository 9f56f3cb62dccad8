import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { expect } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';

/** A migration's statements, as the migrator runs them one by one. */
export const migrationStatements = (file: string): string[] =>
  readFileSync(join(MIGRATIONS_DIR, file), 'utf8').split('--> statement-breakpoint');

/**
 * A ledger transaction as older code wrote it: a kind, a memo and, when given, a code (its two
 * legs between provider accounts: the backfills read neither).
 */
export async function oldTransaction(
  client: pg.PoolClient,
  kind: string,
  memo: string | null,
  coded?: { code: string; params: Record<string, unknown> },
): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `insert into ledger_transactions (kind, memo, memo_code, memo_params)
     values ($1, $2, $3, $4) returning id`,
    [kind, memo, coded?.code ?? null, coded?.params ?? null],
  );
  const id = Number(rows[0]!.id);
  await client.query(
    `insert into ledger_entries (transaction_id, user_id, account, amount_cents)
     values ($1, null, 'adjustments', -100), ($1, null, 'revenue', 100)`,
    [id],
  );
  return id;
}

/** The ledger refuses an UPDATE of the transaction `id` again: a backfill left it append-only. */
export async function expectAppendOnly(client: pg.PoolClient, id: number): Promise<void> {
  await client.query('savepoint append_only');
  await expect(
    client.query(`update ledger_transactions set memo = 'rewritten' where id = $1`, [id]),
  ).rejects.toMatchObject({
    code: '42501',
    message: 'ledger_transactions is append-only: UPDATE refused',
  });
  await client.query('rollback to savepoint append_only');
}
