import { describe, expect, it } from 'vitest';
import { quickUser, useTestApp } from './helpers.ts';
import {
  expectAppendOnly,
  migrationStatements,
  oldTransaction,
} from './ledger-migration-fixtures.ts';

const t = useTestApp();

const migration = migrationStatements('0017_transfer_partner_move_memos.sql');

describe('migration 0017: transfers and partner moves get their memos', () => {
  it('codes the transfers from their rows and the partner moves, and keeps every other row', async () => {
    const anna = await quickUser(t);
    const boris = await quickUser(t);
    const client = await t.sql.connect();
    try {
      // rolled back at the end
      await client.query('begin');
      const transfer = async (from: number, to: number, tx: number) => {
        const { rows } = await client.query<{ id: string }>(
          `insert into transfers (from_user_id, to_user_id, amount_cents, ledger_transaction_id)
           values ($1, $2, 100, $3) returning id`,
          [from, to, tx],
        );
        return Number(rows[0]!.id);
      };

      const sent = await oldTransaction(client, 'transfer', null);
      const sentTransfer = await transfer(anna.id, boris.id, sent);
      const back = await oldTransaction(client, 'transfer', null);
      const backTransfer = await transfer(boris.id, anna.id, back);
      const moved = await oldTransaction(client, 'partner_move', null);
      // left as they are: one already coded, and rows with a memo these writers never made
      const already = await oldTransaction(client, 'transfer', null, {
        code: 'transfer',
        params: { transfer_id: 1, from_user_id: 2, to_user_id: 3 },
      });
      await transfer(anna.id, boris.id, already);
      const typed = await oldTransaction(client, 'transfer', 'by hand');
      await transfer(anna.id, boris.id, typed);
      const movedByHand = await oldTransaction(client, 'partner_move', 'by hand');
      const adjustment = await oldTransaction(client, 'adjustment', null);

      // checked now, as a commit would: ALTER TABLE refuses a table with checks still pending
      await client.query('set constraints all immediate');
      for (const statement of migration) await client.query(statement);

      const { rows } = await client.query<{
        id: string;
        memo: string | null;
        memo_code: string | null;
        memo_params: unknown;
      }>('select id, memo, memo_code, memo_params from ledger_transactions where id = any($1)', [
        [sent, back, moved, already, typed, movedByHand, adjustment],
      ]);
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const coded = (id: number) => {
        const row = byId.get(id)!;
        return [row.memo_code, row.memo_params];
      };
      expect(coded(sent)).toEqual([
        'transfer',
        { transfer_id: sentTransfer, from_user_id: anna.id, to_user_id: boris.id },
      ]);
      expect(coded(back)).toEqual([
        'transfer',
        { transfer_id: backTransfer, from_user_id: boris.id, to_user_id: anna.id },
      ]);
      expect(coded(moved)).toEqual(['partner_move', {}]);
      expect(coded(already)).toEqual([
        'transfer',
        { transfer_id: 1, from_user_id: 2, to_user_id: 3 },
      ]);
      for (const id of [typed, movedByHand, adjustment]) expect(coded(id)).toEqual([null, null]);
      expect(byId.get(typed)!.memo).toBe('by hand');

      // the ledger is append-only again once the backfill is done
      await expectAppendOnly(client, sent);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
