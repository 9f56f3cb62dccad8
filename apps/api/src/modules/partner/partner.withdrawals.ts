import {
  addWorkingDays,
  centsToDollars,
  SUCCESS_MESSAGES,
  WITHDRAWAL_METHODS,
  WITHDRAWAL_WORKING_DAYS,
  type AdminWithdrawal,
  type CreateWithdrawalResponse,
  type PartnerPayments,
  type Withdrawal,
} from '@tradehost/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { isNegativeBalance, ledgerRepository } from '../../db/ledger.ts';
import { users, withdrawals } from '../../db/schema/index.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { toWithdrawal } from '../../db/withdrawal-view.ts';
import { notify, type Recipient } from '../../integrations/mail/notify.ts';
import {
  withdrawalCancelledMail,
  withdrawalPaidMail,
  withdrawalReceivedMail,
} from '../../integrations/mail/templates.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { approvalRepository, needsApproval } from '../../db/approvals.ts';
import { auditRepository } from '../../db/audit.ts';
import { refuseOwnAccount } from '../../db/operators.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome } from '../../plugins/idempotency.ts';

type WithdrawalRow = typeof withdrawals.$inferSelect;
const OPEN = ['received', 'under_review'] as const;

const processor = alias(users, 'processor');

/** A stored method's name for the letters ("USDT (TRC-20)"), its id if the product no longer knows it. */
const methodName = (id: string) =>
  id in WITHDRAWAL_METHODS ? WITHDRAWAL_METHODS[id as keyof typeof WITHDRAWAL_METHODS].name : id;

/**
 * Partner withdrawals: requested by the partner (the amount leaves the partner purse for
 * `payouts` in the request's transaction, one open request at a time), then paid out by an
 * operator with the payment's reference, or cancelled with a reason that returns the amount.
 * The partner gets a letter on the request and on each decision.
 */
export function createWithdrawals({
  db,
  config,
  mailer,
  now,
  log,
}: Pick<ServiceDeps, 'db' | 'config' | 'mailer' | 'now' | 'log'>) {
  const link = `${config.publicUrl}/partner-program`;

  async function recipientOf(userId: number): Promise<Recipient & { name: string }> {
    const [row] = await db
      .select({ id: users.id, email: users.email, language: users.language, name: users.name })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  async function openOf(executor: Executor, userId: number) {
    const [row] = await executor
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), inArray(withdrawals.status, [...OPEN])));
    return row;
  }

  async function adminView(executor: Executor, id: number): Promise<AdminWithdrawal> {
    const page = await adminRows(executor, eq(withdrawals.id, id), 1, 0, 'oldest');
    const row = page[0];
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return row;
  }

  async function adminRows(
    executor: Executor,
    where: ReturnType<typeof eq> | undefined,
    limit: number,
    offset: number,
    order: 'oldest' | 'newest',
  ): Promise<AdminWithdrawal[]> {
    const rows = await executor
      .select({
        withdrawal: withdrawals,
        user: { id: users.id, email: users.email, name: users.name },
        processor: { id: processor.id, email: processor.email, name: processor.name },
      })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .leftJoin(processor, eq(processor.id, withdrawals.processedBy))
      .where(where)
      .orderBy(
        order === 'oldest' ? asc(withdrawals.createdAt) : desc(withdrawals.createdAt),
        order === 'oldest' ? asc(withdrawals.id) : desc(withdrawals.id),
      )
      .limit(limit)
      .offset(offset);
    const at = now().getTime();
    const approvals = await approvalRepository.latestPayouts(
      executor,
      rows.map((row) => row.withdrawal.id),
    );
    return rows.map((row) => ({
      ...toWithdrawal(row.withdrawal),
      user: row.user,
      overdue:
        (OPEN as readonly string[]).includes(row.withdrawal.status) &&
        row.withdrawal.dueAt.getTime() < at,
      processed_by: row.processor?.id ? row.processor : null,
      approval: approvals.get(row.withdrawal.id) ?? null,
    }));
  }

  /**
   * An open request locked for an operator's decision: 404 unknown, 403 the operator's own, 409
   * already decided.
   */
  async function lockOpen(tx: Tx, adminId: number, id: number): Promise<WithdrawalRow> {
    const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
    if (!row) throw new AppError(404, 'NOT_FOUND');
    refuseOwnAccount(adminId, row.userId);
    if (!(OPEN as readonly string[]).includes(row.status))
      throw new AppError(409, 'WITHDRAWAL_PROCESSED');
    return row;
  }

  const audit = (tx: Tx, actorId: number, action: string, row: WithdrawalRow, details = {}) =>
    auditRepository.insert(tx, {
      actorId,
      action,
      subjectType: 'withdrawal',
      subjectId: String(row.id),
      targetUserId: row.userId,
      details: {
        amount: centsToDollars(row.amountCents),
        method: row.method,
        ...details,
      },
    });

  /**
   * The withdrawal of a payout request, locked first (as pay and reject lock it) so that the
   * request's own state decides the answer: 404 for no such request (or another kind).
   */
  async function payoutWithdrawalOf(tx: Tx, approvalId: number): Promise<number> {
    const withdrawalId = await approvalRepository.withdrawalOf(tx, approvalId);
    if (withdrawalId === null) throw new AppError(404, 'NOT_FOUND');
    await tx
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(eq(withdrawals.id, withdrawalId))
      .for('update');
    return withdrawalId;
  }

  /** Marks an open withdrawal paid out with `reference` by `adminId`, audited. */
  async function payOut(
    tx: Tx,
    adminId: number,
    row: WithdrawalRow,
    reference: string,
    approved: Record<string, unknown> = {},
  ) {
    await tx
      .update(withdrawals)
      .set({
        status: 'paid_out',
        payoutReference: reference,
        processedAt: now(),
        processedBy: adminId,
      })
      .where(eq(withdrawals.id, row.id));
    await audit(tx, adminId, 'partner.withdrawal_paid', row, { reference, ...approved });
    return { row, withdrawal: await adminView(tx, row.id) };
  }

  /** The partner's letter once a payout has committed. */
  async function tellPaid(row: WithdrawalRow, reference: string) {
    const to = await recipientOf(row.userId);
    await notify(mailer, log, to, (language) =>
      withdrawalPaidMail(language, {
        name: to.name,
        link,
        amountCents: row.amountCents,
        method: methodName(row.method),
        wallet: row.wallet,
        reference,
      }),
    );
  }

  return {
    /** The methods offered with their minimums, the partner balance, and the open request. */
    async payments(userId: number): Promise<PartnerPayments> {
      const [[me], open] = await Promise.all([
        db.select({ cents: users.balancePartnerCents }).from(users).where(eq(users.id, userId)),
        openOf(db, userId),
      ]);
      return {
        data: config.partner.withdrawalMethods.map((method) => ({
          id: method.id,
          name: WITHDRAWAL_METHODS[method.id].name,
          minimum: centsToDollars(method.minimumCents),
          wallet_example: WITHDRAWAL_METHODS[method.id].example,
        })),
        available: centsToDollars(me?.cents ?? 0),
        open: open ? toWithdrawal(open) : null,
      };
    },

    /** A request, in the Idempotency-Key's transaction: every refusal leaves nothing behind. */
    async create(
      tx: Tx,
      userId: number,
      input: { method: string; wallet: string; amount: number },
    ): Promise<Outcome<CreateWithdrawalResponse>> {
      const method = config.partner.withdrawalMethods.find((m) => m.id === input.method);
      if (!method) throw fieldError(422, 'method', 'WITHDRAWAL_METHOD_INVALID');
      if (!WITHDRAWAL_METHODS[method.id].wallet.test(input.wallet))
        throw fieldError(422, 'wallet', 'WALLET_INVALID');
      if (input.amount < method.minimumCents)
        throw fieldError(422, 'amount', 'AMOUNT_BELOW_MINIMUM');
      // the user's row locked first: two requests at once take turns, and the second sees the first
      await tx.execute(sql`select id from users where id = ${userId} for update`);
      if (await openOf(tx, userId)) throw new AppError(409, 'WITHDRAWAL_OPEN');
      let posted;
      try {
        posted = await ledgerRepository.post(
          tx,
          {
            kind: 'withdrawal',
            systemMemo: { code: 'partner_withdrawal', params: { method: method.id } },
          },
          [
            { userId, account: 'balance_partner', amountCents: -input.amount },
            { account: 'payouts', amountCents: input.amount },
          ],
        );
      } catch (error) {
        if (isNegativeBalance(error))
          throw fieldError(422, 'amount', 'INSUFFICIENT_FUNDS_WITHDRAWAL');
        throw error;
      }
      const at = now();
      let row: WithdrawalRow | undefined;
      try {
        [row] = await tx
          .insert(withdrawals)
          .values({
            userId,
            createdAt: at,
            amountCents: input.amount,
            method: method.id,
            wallet: input.wallet,
            status: 'received',
            dueAt: addWorkingDays(at, WITHDRAWAL_WORKING_DAYS),
            ledgerTransactionId: posted.transactionId,
          })
          .returning();
      } catch (error) {
        if (isUniqueViolation(error, 'withdrawals_one_open_key'))
          throw new AppError(409, 'WITHDRAWAL_OPEN');
        throw error;
      }
      await audit(tx, userId, 'partner.withdrawal_request', row!, { wallet: input.wallet });
      const purse = posted.entries.find((entry) => entry.userId === userId)!;
      return {
        status: 201,
        body: {
          withdrawal: toWithdrawal(row!),
          available: centsToDollars(purse.balanceAfterCents ?? 0),
          message: SUCCESS_MESSAGES.WITHDRAWAL_RECEIVED,
          code: 'WITHDRAWAL_RECEIVED',
        },
      };
    },

    /** The letter of a request just committed. */
    async tellReceived(userId: number, withdrawal: Withdrawal) {
      const to = await recipientOf(userId);
      await notify(mailer, log, to, (language) =>
        withdrawalReceivedMail(language, {
          name: to.name,
          link,
          amountCents: Math.round(withdrawal.amount * 100),
          method: methodName(withdrawal.method),
          wallet: withdrawal.wallet,
          dueAt: new Date(withdrawal.due_at),
        }),
      );
    },

    // ---- the operator's queue --------------------------------------------------------------

    async queue(query: { status: 'open' | 'all'; page: number; per_page: number }) {
      const where = query.status === 'open' ? inArray(withdrawals.status, [...OPEN]) : undefined;
      const [data, [total]] = await Promise.all([
        adminRows(
          db,
          where,
          query.per_page,
          (query.page - 1) * query.per_page,
          query.status === 'open' ? 'oldest' : 'newest',
        ),
        db.select({ n: count() }).from(withdrawals).where(where),
      ]);
      return { data, meta: { page: query.page, per_page: query.per_page, total: total?.n ?? 0 } };
    },

    /** Received -> Under review: an operator has taken it. Under review already: unchanged. */
    async review(adminId: number, id: number) {
      const withdrawal = await inTransaction(db, async (tx) => {
        const row = await lockOpen(tx, adminId, id);
        if (row.status === 'received') {
          await tx
            .update(withdrawals)
            .set({ status: 'under_review', processedBy: adminId })
            .where(eq(withdrawals.id, id));
          await audit(tx, adminId, 'partner.withdrawal_review', row);
        }
        return adminView(tx, id);
      });
      return { withdrawal, message: 'The request is under review' };
    },

    /**
     * Paid out with the payment's reference; the partner is told. Above OPERATOR_APPROVAL_ABOVE
     * the payout is only asked for (202, the request under review): it happens when a second
     * operator approves it (approvePayout). 409 APPROVAL_PENDING while one waits.
     */
    async pay(adminId: number, id: number, reference: string) {
      const done = await inTransaction(db, async (tx) => {
        const row = await lockOpen(tx, adminId, id);
        if (await approvalRepository.pendingPayout(tx, id))
          throw new AppError(409, 'APPROVAL_PENDING');
        if (!needsApproval(row.amountCents, config.operatorApprovalAboveCents))
          return { paid: await payOut(tx, adminId, row, reference), asked: null };
        const approval = await approvalRepository.create(tx, {
          kind: 'payout',
          requestedBy: adminId,
          userId: row.userId,
          amountCents: row.amountCents,
          withdrawalId: id,
          reference,
        });
        if (row.status === 'received')
          await tx
            .update(withdrawals)
            .set({ status: 'under_review', processedBy: adminId })
            .where(eq(withdrawals.id, id));
        await audit(tx, adminId, 'partner.payout_requested', row, {
          reference,
          approval_id: approval.id,
        });
        return { paid: null, asked: await adminView(tx, id) };
      });
      if (done.asked)
        return {
          status: 202 as const,
          body: {
            withdrawal: done.asked,
            message: SUCCESS_MESSAGES.APPROVAL_REQUESTED,
            code: 'APPROVAL_REQUESTED',
          },
        };
      const { row, withdrawal } = done.paid!;
      await tellPaid(row, reference);
      return {
        status: 200 as const,
        body: { withdrawal, message: 'The request is paid out' },
      };
    },

    /**
     * A second operator approves a payout asked for above the threshold: the withdrawal is paid
     * out with the request's reference, the partner told. 403 for its requester and for the
     * partner, 409 once decided.
     */
    async approvePayout(adminId: number, approvalId: number) {
      const { row, withdrawal, reference } = await inTransaction(db, async (tx) => {
        const withdrawalId = await payoutWithdrawalOf(tx, approvalId);
        const approval = await approvalRepository.lockForDecision(
          tx,
          approvalId,
          'payout',
          adminId,
          'approve',
        );
        const row = await lockOpen(tx, adminId, withdrawalId);
        await approvalRepository.approve(tx, approvalId, adminId, now());
        const reference = approval.reference!;
        const paid = await payOut(tx, adminId, row, reference, {
          approval_id: approvalId,
          requested_by: approval.requestedBy,
        });
        return { ...paid, reference };
      });
      await tellPaid(row, reference);
      return {
        withdrawal,
        message: SUCCESS_MESSAGES.APPROVAL_APPROVED,
        code: 'APPROVAL_APPROVED',
      };
    },

    /** Declines a payout waiting for approval (or its requester withdraws it): open, unpaid. */
    async declinePayout(adminId: number, approvalId: number, reason: string) {
      const withdrawal = await inTransaction(db, async (tx) => {
        const withdrawalId = await payoutWithdrawalOf(tx, approvalId);
        await approvalRepository.lockForDecision(tx, approvalId, 'payout', adminId, 'decline');
        const row = await lockOpen(tx, adminId, withdrawalId);
        await approvalRepository.decline(tx, approvalId, adminId, now(), reason);
        await audit(tx, adminId, 'partner.payout_declined', row, {
          reason,
          approval_id: approvalId,
        });
        return adminView(tx, row.id);
      });
      return {
        withdrawal,
        message: SUCCESS_MESSAGES.APPROVAL_DECLINED,
        code: 'APPROVAL_DECLINED',
      };
    },

    /** Cancelled with a reason: the amount goes back to the partner balance; the partner is told. */
    async reject(adminId: number, id: number, reason: string) {
      const { row, withdrawal } = await inTransaction(db, async (tx) => {
        const row = await lockOpen(tx, adminId, id);
        // a payout waiting for approval will not happen now
        const pending = await approvalRepository.pendingPayout(tx, id);
        if (pending) await approvalRepository.decline(tx, pending.id, adminId, now(), reason);
        const returned = await ledgerRepository.post(
          tx,
          {
            kind: 'refund',
            actorId: adminId,
            systemMemo: { code: 'partner_withdrawal_cancelled', params: { withdrawal_id: id } },
          },
          [
            { account: 'payouts', amountCents: -row.amountCents },
            { userId: row.userId, account: 'balance_partner', amountCents: row.amountCents },
          ],
        );
        await tx
          .update(withdrawals)
          .set({
            status: 'cancelled',
            reason,
            processedAt: now(),
            processedBy: adminId,
            returnTransactionId: returned.transactionId,
          })
          .where(eq(withdrawals.id, id));
        await audit(tx, adminId, 'partner.withdrawal_cancelled', row, { reason });
        return { row, withdrawal: await adminView(tx, id) };
      });
      const to = await recipientOf(row.userId);
      await notify(mailer, log, to, (language) =>
        withdrawalCancelledMail(language, {
          name: to.name,
          link,
          amountCents: row.amountCents,
          reason,
        }),
      );
      return { withdrawal, message: 'The request is cancelled and the amount returned' };
    },
  };
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;
