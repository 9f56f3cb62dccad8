import { centsToDollars, type LedgerMemo, type LiveEvents } from '@tradehost/contracts';
import { and, count, desc, eq, is, SQL, sql } from 'drizzle-orm';
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

/**
 * One leg of a posting. A user's id may be SQL of one value, for a statement that finds the user
 * itself (a transfer's recipient, by e-mail).
 */
export type LedgerLeg =
  | { userId: number | SQL; account: UserPurse; amountCents: number }
  | { userId?: undefined; account: ProviderAccount; amountCents: number };

export interface PostedEntry {
  id: number;
  userId: number | null;
  account: string;
  amountCents: number;
  balanceAfterCents: number | null;
}

/** An entry as the posting's `entries` returns it (by SQL names; bigints as text or numbers). */
export interface EntryRow {
  id: string | number;
  user_id: string | number | null;
  account: string;
  amount_cents: string | number;
  balance_after_cents: string | number | null;
}

/**
 * A LedgerMemo whose params may each be SQL of one value, for a statement that makes them itself
 * (a transfer's id and parties): they reach memo_params in that same statement.
 */
export type StatementMemo = LedgerMemo extends infer M
  ? M extends { code: infer C; params: infer P }
    ? { code: C; params: { [K in keyof P]: P[K] | SQL } }
    : never
  : never;

export type LedgerTransaction = {
  kind: LedgerKindValue;
  actorId?: number | null;
  /** An operator's own text (a correction's reason): shown as typed, in any language. */
  memo?: string | null;
  /** What the system says of it: a code and params the console puts into the reader's words. */
  systemMemo?: StatementMemo | null;
};

/** A memo's params as jsonb: the known values as one JSON parameter, the SQL ones built beside. */
function memoParams(params: StatementMemo['params']): SQL {
  const entries = Object.entries(params) as [string, unknown][];
  const known = Object.fromEntries(entries.filter(([, value]) => !is(value, SQL)));
  const made = entries.flatMap(([key, value]) =>
    is(value, SQL) ? [sql`${key}::text, ${value}`] : [],
  );
  const json = sql`${JSON.stringify(known)}::jsonb`;
  return made.length ? sql`${json} || jsonb_build_object(${sql.join(made, sql`, `)})` : json;
}

/**
 * The CTEs `posted` (the ledger transaction's row) and `entries` (its legs, each returned with
 * its purse's balance after it) of one balanced transaction: for `post`, or for a statement that
 * does more in the same round trip (a transfer). Given `gate` (the name of a CTE), nothing is
 * written unless it has a row. The legs go in users by id, then the provider's accounts, so two
 * postings touching the same users lock their rows (the entries' trigger does, as each leg goes
 * in) in the same order and cannot deadlock. A leg taking a user's purse below zero fails with
 * the users table's check violation (users_balance_check / users_balance_partner_check).
 */
export function postingCtes(transaction: LedgerTransaction, legs: LedgerLeg[], gate?: SQL): SQL {
  const sum = legs.reduce((total, leg) => total + leg.amountCents, 0);
  if (
    legs.length < 2 ||
    sum !== 0 ||
    legs.some((leg) => !Number.isSafeInteger(leg.amountCents) || leg.amountCents === 0)
  ) {
    throw new Error(`unbalanced ledger transaction: ${JSON.stringify(legs)}`);
  }
  const legRows = sql.join(
    legs.map(
      (leg) =>
        sql`(${leg.userId ?? null}::bigint, ${leg.account}::text, ${leg.amountCents}::bigint)`,
    ),
    sql`, `,
  );
  const { systemMemo } = transaction;
  return sql`posted as (
      insert into ${ledgerTransactions} (kind, actor_id, memo, memo_code, memo_params)
      select ${transaction.kind}::text, ${transaction.actorId ?? null}::bigint, ${transaction.memo ?? null}::text,
        ${systemMemo?.code ?? null}::text, ${systemMemo ? memoParams(systemMemo.params) : sql`null::jsonb`}
      ${gate ? sql`from ${gate}` : sql``}
      returning id
    ), entries as (
      insert into ${ledgerEntries} (transaction_id, user_id, account, amount_cents)
      select posted.id, leg.user_id, leg.account, leg.amount_cents
      from posted, (values ${legRows}) as leg (user_id, account, amount_cents)
      order by leg.user_id nulls last, leg.account
      returning id, transaction_id, user_id, account, amount_cents, balance_after_cents
    )`;
}

export const toPostedEntry = (entry: EntryRow): PostedEntry => ({
  id: Number(entry.id),
  userId: entry.user_id === null ? null : Number(entry.user_id),
  account: entry.account,
  amountCents: Number(entry.amount_cents),
  balanceAfterCents: entry.balance_after_cents === null ? null : Number(entry.balance_after_cents),
});

/** SQL of the ledger: posting a balanced transaction and reading entries. */
export const ledgerRepository = {
  /** Writes one balanced transaction (postingCtes), in one statement. */
  async post(
    tx: Executor,
    transaction: LedgerTransaction,
    legs: LedgerLeg[],
  ): Promise<{ transactionId: number; entries: PostedEntry[] }> {
    const { rows } = await executePrepared<EntryRow & { transaction_id: string }>(
      tx,
      sql`with ${postingCtes(transaction, legs)} select * from entries`,
    );
    const entries = rows.map(toPostedEntry);
    publishBalances(tx, entries);
    return { transactionId: Number(rows[0]!.transaction_id), entries };
  },

  /** A user's entries, newest first, with their transaction's kind and memos. */
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
        memoCode: ledgerTransactions.memoCode,
        memoParams: ledgerTransactions.memoParams,
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
export function publishBalances(tx: Executor, entries: PostedEntry[]): void {
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
