import { centsToDollars, type MoneyApproval } from '@tradehost/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError, fieldError } from '../lib/errors.ts';
import type { Executor } from './client.ts';
import { pageMeta, pagingOf } from './paging.ts';
import {
  ledgerEntries,
  ledgerTransactions,
  moneyApprovals,
  users,
  type MoneyApprovalRow,
} from './schema/index.ts';
import type { Tx } from './transaction.ts';

/*
 * Four eyes on money, shared by the modules that move it (an adjustment: balance; a payout:
 * partner). Above OPERATOR_APPROVAL_ABOVE the operator's action is written here, pending; it
 * takes effect, in the approving transaction, when a second operator with the role approves
 * it. Each module applies its own kind; this file holds the rules they share: who may decide,
 * one decision per request (the row is locked, so two approvals at once make one), and each
 * operator's daily limit on adjustments (OPERATOR_DAILY_ADJUST_MAX).
 */

/** The advisory-lock class of an operator's adjustments (pg_advisory_xact_lock's first key). */
const ADJUST_LIMIT_LOCK_CLASS = 0x61646a; // 'adj'

const requester = alias(users, 'requester');
const owner = alias(users, 'owner');
const decider = alias(users, 'decider');
const person = (t: typeof requester | typeof owner | typeof decider) => ({
  id: t.id,
  email: t.email,
  name: t.name,
});

type Person = MoneyApproval['requested_by'];
/** A row of `viewed`: the people are inner joins but the requester's and owner's (never null). */
type Viewed = {
  approval: MoneyApprovalRow;
  requester: { [K in keyof Person]: Person[K] | null } | null;
  owner: { [K in keyof Person]: Person[K] | null } | null;
  decider: { [K in keyof Person]: Person[K] | null } | null;
};

const toApproval = ({ approval: a, requester, owner, decider }: Viewed): MoneyApproval => ({
  id: a.id,
  created_at: a.createdAt.toISOString(),
  kind: a.kind,
  status: a.status,
  requested_by: requester as Person,
  user: owner as Person,
  amount: centsToDollars(a.amountCents),
  account: a.account,
  reason: a.reason,
  withdrawal_id: a.withdrawalId,
  reference: a.reference,
  decided_by: decider?.id ? (decider as Person) : null,
  decided_at: a.decidedAt?.toISOString() ?? null,
  decline_reason: a.declineReason,
});

function viewed(db: Executor) {
  return db
    .select({
      approval: moneyApprovals,
      requester: person(requester),
      owner: person(owner),
      decider: person(decider),
    })
    .from(moneyApprovals)
    .innerJoin(requester, eq(requester.id, moneyApprovals.requestedBy))
    .innerJoin(owner, eq(owner.id, moneyApprovals.userId))
    .leftJoin(decider, eq(decider.id, moneyApprovals.decidedBy));
}

/** Whether an amount (signed cents) needs a second operator: its size above the threshold. */
export const needsApproval = (amountCents: number, aboveCents: number) =>
  Math.abs(amountCents) > aboveCents;

export const approvalRepository = {
  async create(
    tx: Tx,
    values: Omit<typeof moneyApprovals.$inferInsert, 'id' | 'status'>,
  ): Promise<MoneyApprovalRow> {
    const [row] = await tx.insert(moneyApprovals).values(values).returning();
    return row!;
  },

  async view(db: Executor, id: number): Promise<MoneyApproval> {
    const [row] = await viewed(db).where(eq(moneyApprovals.id, id));
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return toApproval(row);
  },

  /** The pending ones oldest first (the longest waiting first), or all newest first. */
  async page(db: Executor, query: { status: 'pending' | 'all'; page: number; per_page: number }) {
    const { limit, offset } = pagingOf(query.page, query.per_page);
    const pending = query.status === 'pending';
    const where = pending ? eq(moneyApprovals.status, 'pending') : undefined;
    const rows = await viewed(db)
      .where(where)
      .orderBy(
        ...(pending
          ? [asc(moneyApprovals.createdAt), asc(moneyApprovals.id)]
          : [desc(moneyApprovals.createdAt), desc(moneyApprovals.id)]),
      )
      .limit(limit)
      .offset(offset);
    const [total] = await db.select({ n: count() }).from(moneyApprovals).where(where);
    return {
      data: rows.map(toApproval),
      meta: pageMeta(query.page, query.per_page, total?.n ?? 0),
    };
  },

  /** The latest payout request of each withdrawal (pending, approved or declined). */
  async latestPayouts(db: Executor, withdrawalIds: number[]): Promise<Map<number, MoneyApproval>> {
    if (withdrawalIds.length === 0) return new Map();
    const rows = await viewed(db)
      .where(inArray(moneyApprovals.withdrawalId, withdrawalIds))
      .orderBy(asc(moneyApprovals.id));
    return new Map(rows.map((row) => [row.approval.withdrawalId!, toApproval(row)]));
  },

  /** The withdrawal a payout request is about; null for no such request, or an adjustment. */
  async withdrawalOf(db: Executor, id: number): Promise<number | null> {
    const [row] = await db
      .select({ withdrawalId: moneyApprovals.withdrawalId })
      .from(moneyApprovals)
      .where(eq(moneyApprovals.id, id));
    return row?.withdrawalId ?? null;
  },

  /** The pending payout of a withdrawal, if one waits. */
  async pendingPayout(db: Executor, withdrawalId: number) {
    const [row] = await db
      .select()
      .from(moneyApprovals)
      .where(
        and(eq(moneyApprovals.withdrawalId, withdrawalId), eq(moneyApprovals.status, 'pending')),
      );
    return row;
  },

  /**
   * A request of `kind` locked for a decision by `operatorId`: 404 unknown (or another kind),
   * 409 already decided. Approving it: 403 for its requester (APPROVAL_OWN_REQUEST) and for the
   * owner of the money (OPERATOR_SELF_ACTION); its requester may decline (withdraw) it.
   */
  async lockForDecision(
    tx: Tx,
    id: number,
    kind: MoneyApprovalRow['kind'],
    operatorId: number,
    decision: 'approve' | 'decline',
  ): Promise<MoneyApprovalRow> {
    const [row] = await tx
      .select()
      .from(moneyApprovals)
      .where(eq(moneyApprovals.id, id))
      .for('update');
    if (!row || row.kind !== kind) throw new AppError(404, 'NOT_FOUND');
    if (row.userId === operatorId) throw new AppError(403, 'OPERATOR_SELF_ACTION');
    if (row.status !== 'pending') throw new AppError(409, 'APPROVAL_DECIDED');
    if (decision === 'approve' && row.requestedBy === operatorId)
      throw new AppError(403, 'APPROVAL_OWN_REQUEST');
    return row;
  },

  async approve(tx: Tx, id: number, by: number, at: Date, ledgerTransactionId?: number) {
    await tx
      .update(moneyApprovals)
      .set({ status: 'approved', decidedBy: by, decidedAt: at, ledgerTransactionId })
      .where(eq(moneyApprovals.id, id));
  },

  async decline(tx: Tx, id: number, by: number, at: Date, reason: string) {
    await tx
      .update(moneyApprovals)
      .set({ status: 'declined', decidedBy: by, decidedAt: at, declineReason: reason })
      .where(eq(moneyApprovals.id, id));
  },

  /**
   * Refuses an adjustment of `amountCents` that would take `operatorId` past `limitCents` in the
   * last 24 hours (422 ADJUSTMENT_DAILY_LIMIT on `amount`). Counted: the sizes of the
   * adjustments the operator made at once and of those they asked for that are pending or
   * approved (a declined one frees its share). The operator's adjustments are serialised by an
   * advisory lock held to the end of the transaction, so two at once cannot both fit.
   */
  async holdAdjustLimit(
    tx: Tx,
    operatorId: number,
    amountCents: number,
    limitCents: number,
  ): Promise<void> {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${ADJUST_LIMIT_LOCK_CLASS}::int, ${operatorId}::int)`,
    );
    // the database's clock, as the rows' created_at
    const since = sql`now() - interval '24 hours'`;
    const [direct] = await tx
      .select({ cents: sql<string>`coalesce(sum(abs(${ledgerEntries.amountCents})), 0)` })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          eq(ledgerTransactions.kind, 'adjustment'),
          eq(ledgerTransactions.actorId, operatorId),
          sql`${ledgerTransactions.createdAt} > ${since}`,
          sql`${ledgerEntries.userId} is not null`,
          sql`not exists (select 1 from ${moneyApprovals}
            where ${moneyApprovals.ledgerTransactionId} = ${ledgerTransactions.id})`,
        ),
      );
    const [asked] = await tx
      .select({ cents: sql<string>`coalesce(sum(abs(${moneyApprovals.amountCents})), 0)` })
      .from(moneyApprovals)
      .where(
        and(
          eq(moneyApprovals.kind, 'adjustment'),
          eq(moneyApprovals.requestedBy, operatorId),
          inArray(moneyApprovals.status, ['pending', 'approved']),
          sql`${moneyApprovals.createdAt} > ${since}`,
        ),
      );
    const used = Number(direct?.cents ?? 0) + Number(asked?.cents ?? 0);
    if (used + Math.abs(amountCents) > limitCents)
      throw fieldError(422, 'amount', 'ADJUSTMENT_DAILY_LIMIT');
  },
};
