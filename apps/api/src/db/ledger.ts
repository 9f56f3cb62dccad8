import { and, count, desc, eq, sql } from 'drizzle-orm';
import { pgErrorOf } from '../lib/errors.ts';
import type { Executor } from './client.ts';
import { ledgerEntries, ledgerTransactions, type LedgerKindValue } from './schema/index.ts';

export type UserPurse = 'balance' | 'balance_partner';
/**
 * A provider account: `gateway:sandbox`, `crypto:BTC`, `adjustments`, `revenue`, `payouts`,
 * `partner_rewards` (what the partner programme has paid into partner purses).
 */
export type ProviderAccount =
  | `gateway:${string}`
  | `crypto:${string}`
  | 'adjustments'
  | 'revenue'
  | 'payouts'
  | 'partner_rewards';

export type LedgerLeg =
  | { userId: number; account: UserPurse; amountCents: number }
  | { userId?: undefined; account: ProviderAccount; amountCents: number };

export interface PostedEntry {
  id: number;
  userId: number | null;
  account: string;
  amountCents: number;
  balanceAfterCents: number | null;
}

/** SQL of the ledger: posting a balanced transaction and reading entries. */
export const ledgerRepository = {
  /**
   * Writes one balanced transaction. The legs are written in a fixed order (users by id, then
   * the provider's accounts), so two transactions touching the same users lock their rows in the
   * same order and cannot deadlock. A leg taking a user's purse below zero fails with the users
   * table's check violation (users_balance_check / users_balance_partner_check).
   */
  async post(
    tx: Executor,
    transaction: { kind: LedgerKindValue; actorId?: number | null; memo?: string | null },
    legs: LedgerLeg[],
  ): Promise<{ transactionId: number; entries: PostedEntry[] }> {
    const sum = legs.reduce((total, leg) => total + leg.amountCents, 0);
    if (
      legs.length < 2 ||
      sum !== 0 ||
      legs.some((leg) => !Number.isSafeInteger(leg.amountCents) || leg.amountCents === 0)
    ) {
      throw new Error(`unbalanced ledger transaction: ${JSON.stringify(legs)}`);
    }
    const [row] = await tx
      .insert(ledgerTransactions)
      .values({
        kind: transaction.kind,
        actorId: transaction.actorId ?? null,
        memo: transaction.memo ?? null,
      })
      .returning({ id: ledgerTransactions.id });
    const transactionId = row!.id;
    const ordered = [...legs].sort(
      (a, b) =>
        (a.userId ?? Number.MAX_SAFE_INTEGER) - (b.userId ?? Number.MAX_SAFE_INTEGER) ||
        a.account.localeCompare(b.account),
    );
    const entries = await tx
      .insert(ledgerEntries)
      .values(
        ordered.map((leg) => ({
          transactionId,
          userId: leg.userId ?? null,
          account: leg.account,
          amountCents: leg.amountCents,
        })),
      )
      .returning({
        id: ledgerEntries.id,
        userId: ledgerEntries.userId,
        account: ledgerEntries.account,
        amountCents: ledgerEntries.amountCents,
        balanceAfterCents: ledgerEntries.balanceAfterCents,
      });
    return { transactionId, entries };
  },

  /** A user's entries, newest first, with their transaction's kind and memo. */
  async pageForUser(db: Executor, userId: number, limit: number, offset: number) {
    const rows = await db
      .select({
        id: ledgerEntries.id,
        transactionId: ledgerEntries.transactionId,
        createdAt: ledgerEntries.createdAt,
        kind: ledgerTransactions.kind,
        account: ledgerEntries.account,
        amountCents: ledgerEntries.amountCents,
        balanceAfterCents: ledgerEntries.balanceAfterCents,
        memo: ledgerTransactions.memo,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerEntries.userId, userId))
      .orderBy(desc(ledgerEntries.id))
      .limit(limit)
      .offset(offset);
    const [total] = await db
      .select({ n: count() })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, userId));
    return { rows, total: total?.n ?? 0 };
  },

  /** Sum of a user's entries on a purse: equals the stored balance (tests and audits check it). */
  async sumForUser(db: Executor, userId: number, account: UserPurse): Promise<number> {
    const [row] = await db
      .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.account, account)));
    return Number(row?.sum ?? 0);
  },
};

/** Whether `error` is a purse going below zero (its CHECK): the caller's "insufficient funds". */
export function isNegativeBalance(error: unknown): boolean {
  const pg = pgErrorOf(error);
  return (
    pg?.code === '23514' &&
    (pg.constraint === 'users_balance_check' || pg.constraint === 'users_balance_partner_check')
  );
}
