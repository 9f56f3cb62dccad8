import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { quickUser, useTestApp } from './helpers.ts';

const t = useTestApp();

const migration = readFileSync(join(MIGRATIONS_DIR, '0016_charge_numero_nbsp.sql'), 'utf8').split(
  '--> statement-breakpoint',
);

describe("migration 0016: old Russian charge descriptions write '№' and a no-break space", () => {
  it('rewrites the generated descriptions and their ledger memos, and keeps every other text', async () => {
    const user = await quickUser(t);
    const client = await t.sql.connect();
    try {
      // rolled back at the end
      await client.query('begin');
      const charge = async (ru: string) => {
        const params = { description_en: 'a charge', description_ru: ru };
        const { rows } = await client.query<{ id: string }>(
          `insert into ledger_transactions (kind, memo_code, memo_params)
           values ('charge', 'charge', $1) returning id`,
          [params],
        );
        const transaction = Number(rows[0]!.id);
        await client.query(
          `insert into ledger_entries (transaction_id, user_id, account, amount_cents)
           values ($1, null, 'adjustments', -100), ($1, null, 'revenue', 100)`,
          [transaction],
        );
        const { rows: charged } = await client.query<{ id: string }>(
          `insert into charges (user_id, amount_cents, description_en, description_ru,
             ledger_transaction_id)
           values ($1, 100, 'a charge', $2, $3) returning id`,
          [user.id, ru, transaction],
        );
        return { charge: Number(charged[0]!.id), transaction };
      };
      const texts = [
        'VPS №12 Standard: 3 месяца',
        'Мониторинг №7: продление на 1 месяц',
        'VPS №\u00a012 Standard: 1 месяц',
        'Корректировка баланса: счёт №5',
        'Мониторинг: 2 счёта, 1 месяц',
      ];
      const rows = [];
      for (const text of texts) rows.push(await charge(text));

      // checked now, as a commit would: ALTER TABLE refuses a table with checks still pending
      await client.query('set constraints all immediate');
      for (const statement of migration) await client.query(statement);

      const expected = [
        'VPS №\u00a012 Standard: 3 месяца',
        'Мониторинг №\u00a07: продление на 1 месяц',
        'VPS №\u00a012 Standard: 1 месяц',
        'Корректировка баланса: счёт №5',
        'Мониторинг: 2 счёта, 1 месяц',
      ];
      for (const [i, row] of rows.entries()) {
        const stored = await client.query<{ charge: string; memo: string }>(
          `select c.description_ru as charge, t.memo_params->>'description_ru' as memo
           from charges c join ledger_transactions t on t.id = c.ledger_transaction_id
           where c.id = $1`,
          [row.charge],
        );
        expect(stored.rows[0], texts[i]).toEqual({ charge: expected[i], memo: expected[i] });
      }
      // the ledger is append-only again after it
      await client.query('savepoint again');
      await expect(
        client.query(`update ledger_transactions set memo = 'x' where id = $1`, [
          rows[0]!.transaction,
        ]),
      ).rejects.toThrow();
      await client.query('rollback to savepoint again');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
