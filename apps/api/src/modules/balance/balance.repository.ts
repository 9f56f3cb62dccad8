import type { Language, PaymentStatus, TransferResponse } from '@tradehost/contracts';
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { postingCtes, type EntryRow } from '../../db/ledger.ts';
import type { Paging } from '../../db/paging.ts';
import {
  charges,
  ledgerEntries,
  payments,
  transfers,
  users,
  withdrawals,
} from '../../db/schema/index.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;
export type PaymentStatusValue = PaymentStatus;

/** [from, to) on a creation time; either end open. */
export interface Period {
  from?: Date;
  to?: Date;
}

function inPeriod(column: AnyPgColumn, period: Period): SQL[] {
  return [
    ...(period.from ? [gte(column, period.from)] : []),
    ...(period.to ? [lt(column, period.to)] : []),
  ];
}

const sender = alias(users, 'sender');
const recipient = alias(users, 'recipient');

/** The entry of a ledger transaction that credited a user's main balance. */
const creditedEntry = (transactionId: AnyPgColumn, userId: AnyPgColumn) =>
  and(
    eq(ledgerEntries.transactionId, transactionId),
    eq(ledgerEntries.userId, userId),
    eq(ledgerEntries.account, 'balance'),
  );

/** What a transfer's statement reads back (balanceRepository.transferFacts), as jsonb. */
export interface TransferFacts {
  sender: { id: number; name: string; email: string } | null;
  recipient: {
    id: number;
    name: string;
    email: string;
    language: Language;
    email_verified_at: string | null;
    /** Whether the recipient linked an account chat (the users row's mirror of the link). */
    account_chat: boolean;
  } | null;
  /** The posting's entries; null when nothing was posted. */
  entries: EntryRow[] | null;
}

/** SQL of payments, transfers, charges and withdrawals. */
export const balanceRepository = {
  async insertPayment(db: Executor, values: NewPaymentRow): Promise<PaymentRow> {
    const [row] = await db.insert(payments).values(values).returning();
    if (!row) throw new Error('insert into payments returned no row');
    return row;
  },

  async findPayment(db: Executor, id: number): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row;
  },

  /** The payment, locked for this transaction (crediting and reviewing take this lock first). */
  async lockPayment(db: Executor, id: number): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update');
    return row;
  },

  async updatePayment(
    db: Executor,
    id: number,
    values: Partial<NewPaymentRow>,
  ): Promise<PaymentRow> {
    const [row] = await db
      .update(payments)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(payments.id, id))
      .returning();
    if (!row) throw new Error(`payment ${id} vanished`);
    return row;
  },

  /**
   * Card and e-wallet payments still Processing, created before `olderThan` (no notification
   * came), become Not paid, at most `limit` of them, oldest first, each with an audit_log row
   * `payment.expired` (actor null: the system), all in one statement. A payment a notification
   * holds locked is skipped (the notification decides it; a later run sees the result), and the
   * UPDATE itself requires Processing, so a notification that got there first wins. One that comes
   * after finds Not paid and still credits a success (balance.service.ts handleNotification).
   * Returns how many expired.
   */
  async expireProcessing(db: Executor, olderThan: Date, limit: number): Promise<number> {
    return balanceRepository.expireDue(
      db,
      sql`method in ('card', 'ewallet') and created_at < ${olderThan.toISOString()}::timestamptz`,
      sql`created_at, id`,
      limit,
    );
  },

  /**
   * Payments still Processing that `due` (a condition on payments) selects become Not paid, at
   * most `limit`, in `order`, each with its audit_log row `payment.expired`, in one statement
   * (expireProcessing; a crypto request's expiry, crypto.repository.ts). Rows another
   * transaction holds locked are skipped.
   */
  async expireDue(db: Executor, due: SQL, order: SQL, limit: number): Promise<number> {
    const result = await db.execute<{ n: number }>(sql`
      with due as (
        select id from payments
        where status = 'processing' and ${due}
        order by ${order}
        limit ${limit}
        for update skip locked
      ), expired as (
        update payments p
        set status = 'not_paid', updated_at = now()
        from due
        where p.id = due.id and p.status = 'processing'
        returning p.id, p.user_id, p.method, p.driver, p.amount_cents, p.currency, p.network,
                  p.pay_amount
      ), audited as (
        insert into audit_log (actor_id, action, subject_type, subject_id, target_user_id, details)
        select null, 'payment.expired', 'payment', id::text, user_id,
               jsonb_build_object(
                 'method', method,
                 'driver', driver,
                 'amount', amount_cents::float8 / 100,
                 'currency', currency
               ) || case when method = 'crypto'
                    then jsonb_build_object('network', network, 'pay_amount', pay_amount)
                    else '{}'::jsonb end
        from expired
        returning 1
      )
      select count(*)::int as n from audited`);
    return Number(result.rows[0]?.n ?? 0);
  },

  async paymentsOf(db: Executor, userId: number, period: Period, paging: Paging) {
    const where = and(eq(payments.userId, userId), ...inPeriod(payments.createdAt, period));
    const rows = await db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(payments).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /**
   * A transfer as CTEs of one statement (idempotency's respondInOne): `sender` by id and
   * `recipient`, whoever has the e-mail (case-insensitive, through the unique index on
   * lower(email)), the same row when the sender wrote their own address; when `free` has a row
   * and the recipient may receive (verified, not the sender), the ledger posting and the
   * transfer's row. The transfer's id is drawn first (`go`, from its table's sequence), so the
   * posting's memo names it and both parties while the transfers row, written after the
   * posting, still references it; and the `answer`, the transfer as its sender sees it (toTransfer's Sent) with
   * the balance left, beside the answer's fixed fields (`said`). transferFacts reads back the
   * parties and the posting's entries.
   */
  transferCtes(
    free: SQL,
    transfer: {
      senderId: number;
      email: string;
      amountCents: number;
      said: Pick<TransferResponse, 'message' | 'code'>;
    },
  ): SQL {
    const { senderId, email, amountCents } = transfer;
    return sql`sender as (
          select id, name, email from ${users} where id = ${senderId}::bigint
        ), recipient as (
          select id, name, email, language, email_verified_at,
            telegram_link is not null as account_chat
          from ${users}
          where lower(email) = lower(${email}::text)
        ), go as (
          select sender.id as sender_id, recipient.id as recipient_id,
            nextval('transfers_id_seq') as transfer_id
          from ${free}, sender, recipient
          where recipient.email_verified_at is not null and recipient.id <> sender.id
        ), ${postingCtes(
          {
            kind: 'transfer',
            systemMemo: {
              code: 'transfer',
              params: {
                transfer_id: sql`(select transfer_id from go)`,
                from_user_id: sql`(select sender_id from go)`,
                to_user_id: sql`(select recipient_id from go)`,
              },
            },
          },
          [
            {
              userId: sql`(select sender_id from go)`,
              account: 'balance',
              amountCents: -amountCents,
            },
            { userId: sql`(select recipient_id from go)`, account: 'balance', amountCents },
          ],
          sql`go`,
        )}, transfer as (
          insert into ${transfers} (id, from_user_id, to_user_id, amount_cents, ledger_transaction_id)
          select go.transfer_id, go.sender_id, go.recipient_id, ${amountCents}::bigint, posted.id
          from go, posted
          returning id, created_at
        ), answer as (
          select 201 as status, ${JSON.stringify(transfer.said)}::jsonb || jsonb_build_object(
            'transfer', jsonb_build_object(
              'id', transfer.id,
              'created_at', to_char(transfer.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'amount', ${amountCents}::float8 / 100,
              'status', 'sent',
              'counterparty', jsonb_build_object('name', recipient.name, 'email', recipient.email)),
            'balance', entries.balance_after_cents::float8 / 100) as body
          from transfer, recipient, entries
          where entries.user_id = ${senderId}::bigint
        )`;
  },

  /** What transferCtes' statement tells beside its answer (TransferFacts). */
  transferFacts: sql`jsonb_build_object(
      'sender', (select to_jsonb(sender) from sender),
      'recipient', (select to_jsonb(recipient) from recipient),
      'entries', (select jsonb_agg(entries) from entries))`,

  /** Transfers sent or received by the user, with both parties' names and e-mails. */
  async transfersOf(db: Executor, userId: number, period: Period, paging: Paging) {
    const where = and(
      or(eq(transfers.fromUserId, userId), eq(transfers.toUserId, userId)),
      ...inPeriod(transfers.createdAt, period),
    );
    const rows = await db
      .select({
        id: transfers.id,
        createdAt: transfers.createdAt,
        amountCents: transfers.amountCents,
        fromUserId: transfers.fromUserId,
        fromName: sender.name,
        fromEmail: sender.email,
        toName: recipient.name,
        toEmail: recipient.email,
      })
      .from(transfers)
      .innerJoin(sender, eq(sender.id, transfers.fromUserId))
      .innerJoin(recipient, eq(recipient.id, transfers.toUserId))
      .where(where)
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(transfers).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async chargesOf(db: Executor, userId: number, period: Period, paging: Paging) {
    const where = and(eq(charges.userId, userId), ...inPeriod(charges.createdAt, period));
    const rows = await db
      .select()
      .from(charges)
      .where(where)
      .orderBy(desc(charges.createdAt), desc(charges.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(charges).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async insertCharge(db: Executor, values: typeof charges.$inferInsert) {
    const [row] = await db.insert(charges).values(values).returning();
    if (!row) throw new Error('insert into charges returned no row');
    return row;
  },

  /**
   * A paid top-up as its notice tells it: the user, the amount, the balance right after it (the
   * user's entry in the payment's ledger transaction) and how it was paid.
   */
  async paidCredit(db: Executor, paymentId: number) {
    const [row] = await db
      .select({
        user: { id: users.id, email: users.email, name: users.name, language: users.language },
        payment: { method: payments.method, network: payments.network },
        amountCents: ledgerEntries.amountCents,
        balanceAfterCents: ledgerEntries.balanceAfterCents,
      })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .innerJoin(ledgerEntries, creditedEntry(payments.ledgerTransactionId, payments.userId))
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid')));
    return row;
  },

  async withdrawalsOf(db: Executor, userId: number, period: Period, paging: Paging) {
    const where = and(eq(withdrawals.userId, userId), ...inPeriod(withdrawals.createdAt, period));
    const rows = await db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(withdrawals).where(where);
    return { rows, total: total?.n ?? 0 };
  },
};
