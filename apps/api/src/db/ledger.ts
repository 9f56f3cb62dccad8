import { centsToDollars, type LiveEvents } from '@tradehost/contracts';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { pgErrorOf } from '../lib/errors.ts';
import type { Executor } from './client.ts';
import { publishLive } from './live.ts';
import { executePrepared } from './prepared.ts';
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

/**
 * A row written in the posting's own statement, given the new ledger transaction's id as SQL: an
 * `insert … returning …` of what the money moved for (a transfer). It comes back as `attached`
 * (its columns by their SQL names, timestamps as ISO text): one round trip less while the posting
 * holds the users' rows locked.
 */
export type Attachment = (transactionId: SQL) => SQL;

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
    attach?: Attachment,
  ): Promise<{
    transactionId: number;
    entries: PostedEntry[];
    attached?: Record<string, unknown>;
  }> {
    const sum = legs.reduce((total, leg) => total + leg.amountCents, 0);
    if (
      legs.length < 2 ||
      sum !== 0 ||
      legs.some((leg) => !Number.isSafeInteger(leg.amountCents) || leg.amountCents === 0)
    ) {
      throw new Error(`unbalanced ledger transaction: ${JSON.stringify(legs)}`);
    }
    const ordered = [...legs].sort(
      (a, b) =>
        (a.userId ?? Number.MAX_SAFE_INTEGER) - (b.userId ?? Number.MAX_SAFE_INTEGER) ||
        a.account.localeCompare(b.account),
    );
    // one statement, one round trip: the transaction's row, then its legs in that order (the
    // trigger locks each user's row as its leg goes in), and the caller's row that records why
    const legRows = sql.join(
      ordered.map(
        (leg, i) =>
          sql`(${i}::int, ${leg.userId ?? null}::bigint, ${leg.account}::text, ${leg.amountCents}::bigint)`,
      ),
      sql`, `,
    );
    const { rows } = await executePrepared<{
      id: string;
      transaction_id: string;
      user_id: string | null;
      account: string;
      amount_cents: string;
      balance_after_cents: string | null;
      attached?: Record<string, unknown>;
    }>(
      tx,
      sql`with posted as (
            insert into ${ledgerTransactions} (kind, actor_id, memo)
            values (${transaction.kind}, ${transaction.actorId ?? null}::bigint, ${transaction.memo ?? null}::text)
            returning id
          ), entries as (
            insert into ${ledgerEntries} (transaction_id, user_id, account, amount_cents)
            select posted.id, leg.user_id, leg.account, leg.amount_cents
            from posted, (values ${legRows}) as leg (position, user_id, account, amount_cents)
            order by leg.position
            returning id, transaction_id, user_id, account, amount_cents, balance_after_cents
          )${attach ? sql`, attached as (${attach(sql`(select id from posted)`)})` : sql``}
          select entries.*${attach ? sql`, (select to_jsonb(attached) from attached) as attached` : sql``}
          from entries`,
    );
    const entries: PostedEntry[] = rows.map((entry) => ({
      id: Number(entry.id),
      userId: entry.user_id === null ? null : Number(entry.user_id),
      account: entry.account,
      amountCents: Number(entry.amount_cents),
      balanceAfterCents:
        entry.balance_after_cents === null ? null : Number(entry.balance_after_cents),
    }));
    const transactionId = Number(rows[0]!.transaction_id);
    publishBalances(tx, entries);
    return { transactionId, entries, attached: rows[0]!.attached };
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

/**
 * Every balance change goes through `post`: each user whose purse it moved gets a live `balance`
 * update with the purse's new amount, after the commit (db/live.ts).
 */
function publishBalances(tx: Executor, entries: PostedEntry[]): void {
  const byUser = new Map<number, LiveEvents['balance']>();
  for (const entry of entries) {
    if (entry.userId === null || entry.balanceAfterCents === null) continue;
    const data = byUser.get(entry.userId) ?? {};
    const amount = centsToDollars(entry.balanceAfterCents);
    if (entry.account === 'balance') data.balance = amount;
    else if (entry.account === 'balance_partner') data.balance_partner = amount;
    byUser.set(entry.userId, data);
  }
  for (const [userId, data] of byUser) publishLive(tx, userId, { event: 'balance', data });
}

/** Whether `error` is a purse going below zero (its CHECK): the caller's "insufficient funds". */
export function isNegativeBalance(error: unknown): boolean {
  const pg = pgErrorOf(error);
  return (
    pg?.code === '23514' &&
    (pg.constraint === 'users_balance_check' || pg.constraint === 'users_balance_partner_check')
  );
}
