import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { quickUser, useTestApp } from './helpers.ts';
import {
  expectAppendOnly,
  migrationStatements,
  oldTransaction,
} from './ledger-migration-fixtures.ts';

const t = useTestApp();

/** 0015's backfill: its statements after the new columns and their check. */
const backfill = migrationStatements('0015_ledger_memo_codes.sql').filter(
  (statement) => !/ADD (COLUMN|CONSTRAINT)/.test(statement),
);

async function insertReturningId(client: pg.PoolClient, text: string, values: unknown[]) {
  const { rows } = await client.query<{ id: string }>(`${text} returning id`, values);
  return Number(rows[0]!.id);
}

describe('migration 0015: the old rows’ English memos as codes', () => {
  it('codes the memos its writers made, from the rows they belong to, and keeps every other one', async () => {
    const user = await quickUser(t);
    const partner = await quickUser(t);
    const client = await t.sql.connect();
    try {
      // rolled back at the end
      await client.query('begin');
      const payment = (method: string, tx: number, extra: Record<string, string>) =>
        insertReturningId(
          client,
          `insert into payments (user_id, method, driver, amount_cents, status, network, wallet,
             txid, operation_id, paid_at, ledger_transaction_id)
           values ($1, $2, $3, 1000, 'paid', $4, $5, $6, $7, now(), $8)`,
          [
            user.id,
            method,
            extra.driver ?? null,
            extra.network ?? null,
            extra.wallet ?? null,
            extra.txid ?? null,
            extra.operation ?? null,
            tx,
          ],
        );

      const card = await oldTransaction(client, 'topup', 'sandbox op-77');
      const cardPayment = await payment('card', card, { driver: 'sandbox', operation: 'op-77' });
      const wallet = await oldTransaction(client, 'topup', 'payeer 630437734');
      const walletPayment = await payment('ewallet', wallet, {
        driver: 'payeer',
        operation: '630437734',
      });
      const crypto = await oldTransaction(client, 'topup', 'crypto BTC 0xabc123');
      const cryptoPayment = await payment('crypto', crypto, {
        network: 'BTC',
        wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        txid: '0xabc123',
      });
      // a top-up whose memo is not its payment's: left as it is
      const odd = await oldTransaction(client, 'topup', 'sandbox op-other');
      await payment('card', odd, { driver: 'sandbox', operation: 'op-78' });

      const bought = await oldTransaction(client, 'charge', 'VPS #12 Trader, London: 1 month');
      const charge = await insertReturningId(
        client,
        `insert into charges (user_id, amount_cents, description_en, description_ru,
           ledger_transaction_id) values ($1, 1500, $2, $3, $4)`,
        [
          user.id,
          'VPS #12 Trader, London: 1 month',
          'VPS №\u00a012 Trader, Лондон: 1 месяц',
          bought,
        ],
      );

      const withdrawn = await oldTransaction(client, 'withdrawal', 'Partner withdrawal (PAYEER)');
      const withdrawal = await insertReturningId(
        client,
        `insert into withdrawals (user_id, amount_cents, method, wallet, status, due_at,
           ledger_transaction_id) values ($1, 2000, 'PAYEER', 'P1000001', 'received', now(), $2)`,
        [partner.id, withdrawn],
      );
      const returned = await oldTransaction(
        client,
        'refund',
        `Partner withdrawal #${withdrawal} cancelled`,
      );
      await client.query(
        `update withdrawals set status = 'cancelled', reason = 'No', return_transaction_id = $2
         where id = $1`,
        [withdrawal, returned],
      );

      const rewarded = await oldTransaction(
        client,
        'reward',
        `Partner reward: level 2, charge #${charge}`,
      );
      await client.query(
        `insert into partner_rewards (created_at, partner_id, referral_id, level, charge_id,
           base_cents, percent_bp, amount_cents, status, settled_at, ledger_transaction_id)
         values (now(), $1, $2, 2, $3, 1500, 500, 75, 'available', now(), $4)`,
        [partner.id, user.id, charge, rewarded],
      );

      const notCreated = await oldTransaction(
        client,
        'refund',
        'Refund: VPS #12 could not be created',
      );
      const upgradeFailed = await oldTransaction(
        client,
        'refund',
        'Refund: upgrade of VPS #13 failed',
      );
      const revoked = await oldTransaction(
        client,
        'refund',
        'Refund: upgrade of VPS #14 cancelled, the server was revoked',
      );
      // left as they are: an operator's text, no memo, a text that only looks like a refund's
      const corrected = await oldTransaction(
        client,
        'adjustment',
        'Refund: VPS #15 could not be created',
      );
      const transfer = await oldTransaction(client, 'transfer', null);
      const lookalike = await oldTransaction(
        client,
        'refund',
        'Refund: VPS #16 could not be created, by hand',
      );

      // checked now, as a commit would: ALTER TABLE refuses a table with checks still pending
      await client.query('set constraints all immediate');
      for (const statement of backfill) await client.query(statement);

      const { rows } = await client.query<{
        id: string;
        memo: string | null;
        memo_code: string | null;
        memo_params: unknown;
      }>(
        'select id, memo, memo_code, memo_params from ledger_transactions where id = any($1) order by id',
        [
          [
            card,
            wallet,
            crypto,
            odd,
            bought,
            withdrawn,
            returned,
            rewarded,
            notCreated,
            upgradeFailed,
            revoked,
            corrected,
            transfer,
            lookalike,
          ],
        ],
      );
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      const coded = (id: number) => {
        const row = byId.get(id)!;
        return [row.memo_code, row.memo_params];
      };
      expect(coded(card)).toEqual([
        'topup_gateway',
        { payment_id: cardPayment, method: 'card', gateway: 'sandbox', operation_id: 'op-77' },
      ]);
      expect(coded(wallet)).toEqual([
        'topup_gateway',
        {
          payment_id: walletPayment,
          method: 'ewallet',
          gateway: 'payeer',
          operation_id: '630437734',
        },
      ]);
      expect(coded(crypto)).toEqual([
        'topup_crypto',
        { payment_id: cryptoPayment, network: 'BTC', txid: '0xabc123' },
      ]);
      expect(coded(bought)).toEqual([
        'charge',
        {
          description_en: 'VPS #12 Trader, London: 1 month',
          description_ru: 'VPS №\u00a012 Trader, Лондон: 1 месяц',
        },
      ]);
      expect(coded(withdrawn)).toEqual(['partner_withdrawal', { method: 'PAYEER' }]);
      expect(coded(returned)).toEqual([
        'partner_withdrawal_cancelled',
        { withdrawal_id: withdrawal },
      ]);
      expect(coded(rewarded)).toEqual(['partner_reward', { level: 2, charge_id: charge }]);
      expect(coded(notCreated)).toEqual(['vps_create_refund', { server_id: 12 }]);
      expect(coded(upgradeFailed)).toEqual(['vps_upgrade_refund', { server_id: 13 }]);
      expect(coded(revoked)).toEqual(['vps_upgrade_revoked_refund', { server_id: 14 }]);
      for (const id of [odd, corrected, transfer, lookalike])
        expect(coded(id)).toEqual([null, null]);
      // every memo is kept as it was
      expect(byId.get(card)!.memo).toBe('sandbox op-77');
      expect(byId.get(corrected)!.memo).toBe('Refund: VPS #15 could not be created');

      // the ledger is append-only again once the backfill is done
      await expectAppendOnly(client, card);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
