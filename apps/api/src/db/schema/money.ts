import type {
  ChainCheck,
  LedgerKind,
  PaymentKind,
  PaymentStatus,
  WithdrawalStatus,
} from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef, users } from './users.ts';

/*
 * Money. An append-only double-entry ledger: every movement is one ledger_transactions row and
 * two or more ledger_entries rows summing to zero (a deferred constraint trigger checks it at
 * commit). Entries on a user's purse (`balance`, `balance_partner`) carry the user's id and, by
 * a trigger, change users.balance_cents / balance_partner_cents in the same statement, where
 * the users table's checks refuse a negative balance; no other way can change those columns.
 * Entries on the provider's own accounts (`gateway:<driver>`, `crypto:<network>`, `adjustments`,
 * `revenue`, `payouts`, `partner_rewards`) have no user and no stored balance: they are sums of their entries, so
 * no row is a hot spot. Triggers refuse UPDATE, DELETE and TRUNCATE on both tables. See
 * migrations/0001_money.sql.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });
const userIdOrNull = (name: string) => bigint(name, { mode: 'number' }).references(() => users.id);

export type LedgerKindValue = LedgerKind;

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    kind: text('kind').$type<LedgerKindValue>().notNull(),
    /** The operator who made it (adjustments, confirmed crypto), else null. */
    actorId: userIdOrNull('actor_id'),
    /** An operator's own text (a correction's reason); the English text of rows before 0015. */
    memo: text('memo'),
    /** What the system wrote, as a code and its params (contracts' LedgerMemo), or null. */
    memoCode: text('memo_code'),
    memoParams: jsonb('memo_params').$type<Record<string, unknown>>(),
  },
  (t) => [
    check(
      'ledger_transactions_kind_check',
      sql`${t.kind} in ('topup', 'transfer', 'charge', 'withdrawal', 'adjustment', 'partner_move', 'refund', 'reward')`,
    ),
    check(
      'ledger_transactions_memo_code_check',
      sql`(${t.memoCode} is null and ${t.memoParams} is null)
        or (${t.memoCode} is not null and jsonb_typeof(${t.memoParams}) = 'object')`,
    ),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Set for a user's purse, null for the provider's accounts. */
    userId: userIdOrNull('user_id'),
    /** `balance` | `balance_partner` for users; `gateway:sandbox`, `crypto:BTC`, ... for the provider. */
    account: text('account').notNull(),
    /** Signed: a credit to the account is positive. */
    amountCents: cents('amount_cents').notNull(),
    /** The user's purse after this entry (filled by the trigger), null for provider accounts. */
    balanceAfterCents: cents('balance_after_cents'),
  },
  (t) => [
    index('ledger_entries_transaction_id_idx').on(t.transactionId),
    index('ledger_entries_user_id_idx').on(t.userId, t.id),
    index('ledger_entries_account_idx').on(t.account),
    check('ledger_entries_amount_check', sql`${t.amountCents} <> 0`),
    check(
      'ledger_entries_account_check',
      sql`(${t.userId} is not null and ${t.account} in ('balance', 'balance_partner'))
        or (${t.userId} is null and ${t.account} ~ '^(gateway|crypto|adjustments|revenue|payouts|partner_rewards)(:[A-Za-z0-9-]+)?$')`,
    ),
  ],
);

/** Top-ups: card and e-wallet through a gateway, crypto reviewed by an operator, partner balance moved in. */
export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    method: text('method').$type<PaymentKind>().notNull(),
    /** The gateway (card, e-wallet) or null. */
    driver: text('driver'),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    status: text('status').$type<PaymentStatus>().notNull(),
    network: text('network'),
    wallet: text('wallet'),
    txid: text('txid'),
    reason: text('reason'),
    /** The gateway's id of the operation, from its notification. */
    operationId: text('operation_id'),
    paidAt: timestamptz('paid_at'),
    reviewedBy: userIdOrNull('reviewed_by'),
    reviewedAt: timestamptz('reviewed_at'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }).references(
      () => ledgerTransactions.id,
    ),
    /**
     * A crypto request's exact amount in the network's asset (USDT, BTC): the dollars of
     * amount_cents in USDT, or in BTC at the price of the request's moment; null when only
     * dollars were fixed (a BTC request without a price, and payments before requests existed).
     */
    payAmount: numeric('pay_amount', { precision: 24, scale: 8 }),
    /** A crypto request can be paid and reported until then; null before requests existed. */
    expiresAt: timestamptz('expires_at'),
    /** The chain explorer's last look at the TXID (CRYPTO_EXPLORER), for the operator. */
    chain: jsonb('chain').$type<ChainCheck>(),
  },
  (t) => [
    index('payments_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('payments_status_idx').on(t.status, t.createdAt),
    // a TXID counts once, whatever its case (hex hashes come in either) and with or without the
    // 0x that EVM explorers put before the same hash; a rejected claim lets it go, so the real
    // payer can report what someone else claimed first
    uniqueIndex('payments_txid_key')
      .on(sql`lower(regexp_replace(${t.txid}, '^0x', '', 'i'))`)
      .where(sql`${t.status} <> 'rejected'`),
    // an open crypto request's amount is its own among the network's open requests: its
    // payment on the chain cannot be anyone else's (in dollars, and in the asset for BTC, whose
    // amount follows a price). Requests made before this rule (no expires_at) are not counted.
    uniqueIndex('payments_crypto_open_amount_key')
      .on(t.network, t.amountCents)
      .where(
        sql`${t.method} = 'crypto' and ${t.status} in ('processing', 'under_review') and ${t.expiresAt} is not null`,
      ),
    uniqueIndex('payments_crypto_open_pay_amount_key')
      .on(t.network, t.payAmount)
      .where(
        sql`${t.method} = 'crypto' and ${t.status} in ('processing', 'under_review') and ${t.payAmount} is not null`,
      ),
    check('payments_amount_check', sql`${t.amountCents} > 0`),
    check(
      'payments_method_check',
      sql`${t.method} in ('card', 'ewallet', 'crypto', 'balance', 'adjustment')`,
    ),
    check(
      'payments_status_check',
      sql`${t.status} in ('processing', 'paid', 'not_paid', 'under_review', 'rejected')`,
    ),
    // a crypto payment has its network from the request on; its payer's wallet and TXID come
    // with the report (Under review, and then Paid or Rejected), none while it waits (Processing)
    // or after it expired unreported (Not paid); other methods have none of them
    check(
      'payments_crypto_check',
      sql`(${t.method} = 'crypto') = (${t.network} is not null)
        and (${t.txid} is null) = (${t.wallet} is null)
        and (${t.method} <> 'crypto' or (${t.txid} is not null) = (${t.status} in ('under_review', 'paid', 'rejected')))
        and (${t.method} = 'crypto' or ${t.txid} is null)`,
    ),
    check(
      'payments_paid_check',
      sql`(${t.status} = 'paid') = (${t.ledgerTransactionId} is not null)`,
    ),
  ],
);

export const transfers = pgTable(
  'transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    fromUserId: userRef('from_user_id'),
    toUserId: userRef('to_user_id'),
    amountCents: cents('amount_cents').notNull(),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
  },
  (t) => [
    index('transfers_from_idx').on(t.fromUserId, t.createdAt),
    index('transfers_to_idx').on(t.toUserId, t.createdAt),
    check('transfers_amount_check', sql`${t.amountCents} > 0`),
    check('transfers_not_self_check', sql`${t.fromUserId} <> ${t.toUserId}`),
  ],
);

/** What the balance paid for (VPS rentals, monitoring); written by those sections. */
export const charges = pgTable(
  'charges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    amountCents: cents('amount_cents').notNull(),
    descriptionEn: text('description_en').notNull(),
    descriptionRu: text('description_ru').notNull(),
    status: text('status').$type<'paid' | 'cancelled'>().notNull().default('paid'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
  },
  (t) => [
    index('charges_user_id_created_at_idx').on(t.userId, t.createdAt),
    check('charges_amount_check', sql`${t.amountCents} > 0`),
    check('charges_status_check', sql`${t.status} in ('paid', 'cancelled')`),
  ],
);

/**
 * Partner withdrawals: the amount leaves the partner purse (to `payouts`) when requested; an
 * operator pays it out (with the payment's reference) or rejects it (the money comes back).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    amountCents: cents('amount_cents').notNull(),
    method: text('method').notNull(),
    wallet: text('wallet').notNull(),
    status: text('status').$type<WithdrawalStatus>().notNull().default('received'),
    /** The day by which it is processed: 5 working days after the request. */
    dueAt: timestamptz('due_at').notNull(),
    processedAt: timestamptz('processed_at'),
    processedBy: userIdOrNull('processed_by'),
    /** Paid out: the payment's reference (a transaction hash, a Payeer operation). */
    payoutReference: text('payout_reference'),
    /** Cancelled: why, shown to the user. */
    reason: text('reason'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    /** The ledger transaction that gave the amount back (cancelled). */
    returnTransactionId: bigint('return_transaction_id', { mode: 'number' }).references(
      () => ledgerTransactions.id,
    ),
  },
  (t) => [
    index('withdrawals_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('withdrawals_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('received', 'under_review')`),
    // one open request per user, under races too
    uniqueIndex('withdrawals_one_open_key')
      .on(t.userId)
      .where(sql`${t.status} in ('received', 'under_review')`),
    check('withdrawals_amount_check', sql`${t.amountCents} > 0`),
    check(
      'withdrawals_status_check',
      sql`${t.status} in ('received', 'under_review', 'paid_out', 'cancelled')`,
    ),
    check(
      'withdrawals_outcome_check',
      sql`(${t.status} = 'paid_out') = (${t.payoutReference} is not null)
        and (${t.status} = 'cancelled') = (${t.reason} is not null and ${t.returnTransactionId} is not null)`,
    ),
  ],
);

/**
 * Idempotency keys of money-moving POSTs, per user. `response_status` null: the first request
 * is still running (or died: its transaction rolled back, so a stale row may be taken over).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: userRef('user_id'),
    key: text('key').notNull(),
    /** METHOD + route pattern: a key is never shared between two kinds of call. */
    scope: text('scope').notNull(),
    /** SHA-256 of the route's parameters and body. */
    requestHash: text('request_hash').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

/** Who did what and when: every operator action and every refused gateway notification. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Null: the system (a gateway's notification). */
    actorId: userIdOrNull('actor_id'),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id'),
    targetUserId: userIdOrNull('target_user_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt),
    index('audit_log_target_user_id_idx').on(t.targetUserId),
  ],
);

/**
 * Four eyes on money: an operator's balance adjustment or partner payout above
 * OPERATOR_APPROVAL_ABOVE waits here until a second operator approves it (then it takes effect,
 * through the ledger, in the approval's transaction) or it is declined. The database holds the
 * rule too: an approval is never by its requester, and nobody asks for or decides money of
 * their own account.
 */
export const moneyApprovals = pgTable(
  'money_approvals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    kind: text('kind').$type<'adjustment' | 'payout'>().notNull(),
    status: text('status')
      .$type<'pending' | 'approved' | 'declined'>()
      .notNull()
      .default('pending'),
    requestedBy: userRef('requested_by'),
    /** Whose money: the adjusted user, the withdrawing partner. */
    userId: userRef('user_id'),
    /** Signed cents for an adjustment (credit > 0), the withdrawal's amount for a payout. */
    amountCents: cents('amount_cents').notNull(),
    /** Adjustment: the purse and the reason the user sees. */
    account: text('account').$type<'balance' | 'balance_partner'>(),
    reason: text('reason'),
    /** Payout: the withdrawal and the payment's reference. */
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }).references(() => withdrawals.id),
    reference: text('reference'),
    decidedBy: userIdOrNull('decided_by'),
    decidedAt: timestamptz('decided_at'),
    /** Declined: why (a second operator's reason, or the requester's own withdrawal of it). */
    declineReason: text('decline_reason'),
    /** Approved adjustment: its ledger transaction. */
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }).references(
      () => ledgerTransactions.id,
    ),
  },
  (t) => [
    index('money_approvals_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('money_approvals_requested_by_idx').on(t.requestedBy, t.createdAt),
    // one payout waiting per withdrawal, under races too
    uniqueIndex('money_approvals_one_pending_payout_key')
      .on(t.withdrawalId)
      .where(sql`${t.status} = 'pending'`),
    check('money_approvals_kind_check', sql`${t.kind} in ('adjustment', 'payout')`),
    check('money_approvals_status_check', sql`${t.status} in ('pending', 'approved', 'declined')`),
    check(
      'money_approvals_shape_check',
      sql`case ${t.kind}
        when 'adjustment' then ${t.account} in ('balance', 'balance_partner')
          and ${t.reason} is not null and ${t.amountCents} <> 0 and ${t.withdrawalId} is null
        else ${t.withdrawalId} is not null and ${t.reference} is not null
          and ${t.amountCents} > 0 and ${t.account} is null
        end`,
    ),
    check(
      'money_approvals_decision_check',
      sql`(${t.status} = 'pending') = (${t.decidedBy} is null and ${t.decidedAt} is null)
        and (${t.status} = 'declined') = (${t.declineReason} is not null)
        and (${t.ledgerTransactionId} is null or (${t.status} = 'approved' and ${t.kind} = 'adjustment'))`,
    ),
    // four eyes, held by the database as well as by the service
    check(
      'money_approvals_four_eyes_check',
      sql`${t.requestedBy} <> ${t.userId} and ${t.decidedBy} is distinct from ${t.userId}
        and (${t.status} <> 'approved' or ${t.decidedBy} <> ${t.requestedBy})`,
    ),
  ],
);
export type MoneyApprovalRow = typeof moneyApprovals.$inferSelect;
