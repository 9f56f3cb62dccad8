import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDb } from '../src/db/client.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { isNegativeBalance, ledgerRepository, type LedgerLeg } from '../src/db/ledger.ts';
import { balancesOf, ledgerInvariants, quickUser, useTestApp } from './helpers.ts';

const t = useTestApp();
const USERS = 4;

type Op =
  | { kind: 'topup'; user: number; cents: number }
  | { kind: 'transfer'; from: number; to: number; cents: number }
  | { kind: 'partner'; user: number; cents: number }
  | { kind: 'move'; user: number; cents: number }
  | { kind: 'adjust'; user: number; cents: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const cents = fc.integer({ min: 1, max: 20_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('topup' as const), user, cents }),
  fc.record({ kind: fc.constant('transfer' as const), from: user, to: user, cents }),
  fc.record({ kind: fc.constant('partner' as const), user, cents }),
  fc.record({ kind: fc.constant('move' as const), user, cents }),
  fc.record({
    kind: fc.constant('adjust' as const),
    user,
    cents: fc.integer({ min: -20_000, max: 20_000 }).filter((c) => c !== 0),
  }),
);

describe('the ledger (property)', () => {
  it('matches a model of the balances, refuses what would go negative, and always balances', async () => {
    const db = createDb(t.sql);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const ids = await Promise.all(
          Array.from({ length: USERS }, () => quickUser(t).then((u) => u.id)),
        );
        const model = ids.map(() => ({ balance: 0, partner: 0 }));
        for (const o of ops) {
          let legs: LedgerLeg[];
          let apply: () => void;
          if (o.kind === 'topup') {
            legs = [
              { account: 'gateway:sandbox', amountCents: -o.cents },
              { userId: ids[o.user]!, account: 'balance', amountCents: o.cents },
            ];
            apply = () => (model[o.user]!.balance += o.cents);
          } else if (o.kind === 'partner') {
            legs = [
              { account: 'revenue', amountCents: -o.cents },
              { userId: ids[o.user]!, account: 'balance_partner', amountCents: o.cents },
            ];
            apply = () => (model[o.user]!.partner += o.cents);
          } else if (o.kind === 'move') {
            legs = [
              { userId: ids[o.user]!, account: 'balance_partner', amountCents: -o.cents },
              { userId: ids[o.user]!, account: 'balance', amountCents: o.cents },
            ];
            apply = () => {
              model[o.user]!.partner -= o.cents;
              model[o.user]!.balance += o.cents;
            };
          } else if (o.kind === 'adjust') {
            legs = [
              { account: 'adjustments', amountCents: -o.cents },
              { userId: ids[o.user]!, account: 'balance', amountCents: o.cents },
            ];
            apply = () => (model[o.user]!.balance += o.cents);
          } else {
            if (o.from === o.to) continue;
            legs = [
              { userId: ids[o.from]!, account: 'balance', amountCents: -o.cents },
              { userId: ids[o.to]!, account: 'balance', amountCents: o.cents },
            ];
            apply = () => {
              model[o.from]!.balance -= o.cents;
              model[o.to]!.balance += o.cents;
            };
          }
          const before = model.map((m) => ({ ...m }));
          apply();
          const wouldGoNegative = model.some((m) => m.balance < 0 || m.partner < 0);
          try {
            await inTransaction(db, (tx) =>
              ledgerRepository.post(tx, { kind: 'adjustment' }, legs),
            );
            expect(wouldGoNegative).toBe(false);
          } catch (error) {
            expect(isNegativeBalance(error)).toBe(true);
            expect(wouldGoNegative).toBe(true);
            model.splice(0, model.length, ...before);
          }
        }
        for (const [i, id] of ids.entries()) {
          expect(await balancesOf(t, id)).toEqual(model[i]);
          expect(await ledgerRepository.sumForUser(db, id, 'balance')).toBe(model[i]!.balance);
        }
        expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('refuses an unbalanced transaction before writing anything', async () => {
    const db = createDb(t.sql);
    const { id } = await quickUser(t);
    await expect(
      inTransaction(db, (tx) =>
        ledgerRepository.post(tx, { kind: 'adjustment' }, [
          { userId: id, account: 'balance', amountCents: 100 },
          { account: 'adjustments', amountCents: -99 },
        ]),
      ),
    ).rejects.toThrow(/unbalanced/);
    expect(await balancesOf(t, id)).toEqual({ balance: 0, partner: 0 });
  });
});
