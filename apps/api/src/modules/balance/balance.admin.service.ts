import {
  centsToDollars,
  SUCCESS_MESSAGES,
  type AdjustmentResponse,
  type AdminPayment,
  type MoneyApprovalResponse,
  type LedgerAccount,
  type Page,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import type { Tx } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { approvalRepository, needsApproval } from '../../db/approvals.ts';
import { auditRepository } from '../../db/audit.ts';
import { pagingOf } from '../../db/paging.ts';
import { isNegativeBalance, ledgerRepository } from '../../db/ledger.ts';
import { refuseOwnAccount } from '../../db/operators.ts';
import type { Outcome } from '../../plugins/idempotency.ts';
import { toAdminUser } from '../../db/user-response.ts';
import { userRepository } from '../../db/users.ts';
import type { ServiceDeps } from '../deps.ts';
import { balanceAdminRepository } from './balance.admin.repository.ts';
import { createCreditNotices } from './balance.credits.ts';
import { toPayment } from './balance.mapper.ts';
import { balanceRepository, type PaymentStatusValue } from './balance.repository.ts';
import { creditCryptoPayment, rejectCryptoPayment } from './crypto-ledger.ts';

type PeopleRow = NonNullable<Awaited<ReturnType<typeof balanceAdminRepository.paymentWithPeople>>>;

function toAdminPayment(row: PeopleRow): AdminPayment {
  const { payment, user, reviewer } = row;
  return {
    ...toPayment(payment),
    user,
    reviewed_by: reviewer?.id ? reviewer : null,
    reviewed_at: payment.reviewedAt?.toISOString() ?? null,
    chain: payment.chain,
  };
}

export type BalanceAdminService = ReturnType<typeof createBalanceAdminService>;

/**
 * The operator's side of money: the crypto review queue and manual balance corrections. Every
 * change is written with its audit row in one transaction; money put on a user's balance is told
 * to the user once it has committed (the routes' afterCommit).
 */
export function createBalanceAdminService(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'config' | 'mailer' | 'log'>,
) {
  const { db, now } = deps;
  const credits = createCreditNotices(deps);

  /** A crypto payment to review, locked: 404 unknown, 403 the operator's own, 409 reviewed. */
  async function reviewable(tx: Tx, adminId: number, id: number) {
    const payment = await balanceRepository.lockPayment(tx, id);
    if (!payment || payment.method !== 'crypto') throw new AppError(404, 'NOT_FOUND');
    refuseOwnAccount(adminId, payment.userId);
    if (payment.status !== 'under_review') throw new AppError(409, 'PAYMENT_ALREADY_REVIEWED');
    return payment;
  }

  async function answer(tx: Tx, id: number, code: 'PAYMENT_CONFIRMED' | 'PAYMENT_REJECTED') {
    const row = await balanceAdminRepository.paymentWithPeople(tx, id);
    return {
      status: 200,
      body: { payment: toAdminPayment(row!), message: SUCCESS_MESSAGES[code], code },
    };
  }

  async function userOr404(userId: number, on: Executor = db) {
    const user = await userRepository.findById(on, userId);
    if (!user) throw new AppError(404, 'NOT_FOUND');
    return user;
  }

  async function approvalAnswer(
    tx: Tx,
    id: number,
    status: 200 | 202,
    code: 'APPROVAL_REQUESTED' | 'APPROVAL_DECLINED',
  ): Promise<Outcome<MoneyApprovalResponse>> {
    const approval = await approvalRepository.view(tx, id);
    return { status, body: { approval, message: SUCCESS_MESSAGES[code], code } };
  }

  /**
   * Posts an adjustment by `actorId` (the operator, or the approver of a request): the ledger
   * transaction, the user's history row, the audit (with the request's `approved` details).
   */
  async function post(
    tx: Tx,
    actorId: number,
    userId: number,
    { account, amount, reason }: { account: LedgerAccount; amount: number; reason: string },
    approved: { approval_id: number; requested_by: number } | Record<string, never> = {},
  ): Promise<AdjustmentResponse> {
    let posted;
    try {
      posted = await ledgerRepository.post(tx, { kind: 'adjustment', actorId, memo: reason }, [
        { userId, account, amountCents: amount },
        { account: 'adjustments', amountCents: -amount },
      ]);
    } catch (error) {
      if (isNegativeBalance(error)) throw fieldError(422, 'amount', 'INSUFFICIENT_FUNDS');
      throw error;
    }
    if (account === 'balance' && amount > 0) {
      await balanceRepository.insertPayment(tx, {
        userId,
        method: 'adjustment',
        amountCents: amount,
        status: 'paid',
        reason,
        paidAt: now(),
        reviewedBy: actorId,
        reviewedAt: now(),
        ledgerTransactionId: posted.transactionId,
      });
    } else if (account === 'balance') {
      await balanceRepository.insertCharge(tx, {
        userId,
        amountCents: -amount,
        descriptionEn: `Balance correction: ${reason}`,
        descriptionRu: `Корректировка баланса: ${reason}`,
        ledgerTransactionId: posted.transactionId,
      });
    }
    await auditRepository.insert(tx, {
      actorId,
      action: 'balance.adjust',
      subjectType: 'user',
      subjectId: String(userId),
      targetUserId: userId,
      details: {
        account,
        amount: centsToDollars(amount),
        reason,
        ledger_transaction_id: posted.transactionId,
        ...approved,
      },
    });
    const entry = posted.entries.find((e) => e.userId === userId)!;
    const user = await userRepository.findById(tx, userId);
    return {
      user: toAdminUser(user!),
      entry: {
        id: entry.id,
        transaction_id: posted.transactionId,
        created_at: now().toISOString(),
        kind: 'adjustment',
        account,
        amount: centsToDollars(amount),
        balance_after: centsToDollars(entry.balanceAfterCents ?? 0),
        memo: reason,
        memo_code: null,
        memo_params: null,
      },
      message: SUCCESS_MESSAGES.BALANCE_ADJUSTED,
      code: 'BALANCE_ADJUSTED',
    };
  }

  return {
    /** The user's notice of a confirmed crypto payment. */
    tellConfirmed: (paymentId: number) => credits.paymentPaid(paymentId),

    /**
     * The user's notice of an adjustment that credited the main balance (none for a debit, nor
     * for one that only waits for approval).
     */
    async tellAdjusted(body: AdjustmentResponse | MoneyApprovalResponse) {
      if (!('entry' in body)) return;
      const { user, entry } = body;
      if (entry.account !== 'balance' || entry.amount <= 0) return;
      await credits.adjusted(user.id, {
        amountCents: Math.round(entry.amount * 100),
        balanceAfterCents: Math.round(entry.balance_after * 100),
        reason: entry.memo ?? '',
      });
    },

    async payments(filter: {
      status: PaymentStatusValue;
      method?: string | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminPayment>> {
      const { limit, offset } = pagingOf(filter.page, filter.per_page);
      const { rows, total } = await balanceAdminRepository.payments(db, filter, limit, offset);
      return {
        data: rows.map(toAdminPayment),
        meta: { page: filter.page, per_page: filter.per_page, total },
      };
    },

    /** Credits a crypto payment under review: Paid, the balance up, audited. */
    async confirm(tx: Tx, adminId: number, id: number): Promise<Outcome> {
      const payment = await reviewable(tx, adminId, id);
      await creditCryptoPayment(tx, payment, { actorId: adminId, at: now() });
      return answer(tx, id, 'PAYMENT_CONFIRMED');
    },

    /** Rejects a crypto payment under review with a reason the user sees. */
    async reject(tx: Tx, adminId: number, id: number, reason: string): Promise<Outcome> {
      const payment = await reviewable(tx, adminId, id);
      await rejectCryptoPayment(tx, payment, { actorId: adminId, at: now(), reason });
      return answer(tx, id, 'PAYMENT_REJECTED');
    },

    /**
     * A manual correction with a reason: a ledger transaction against the provider's
     * `adjustments` account, shown to the user in their histories (a credit as a top-up, a
     * debit as a charge), audited. Within the operator's daily limit (422
     * ADJUSTMENT_DAILY_LIMIT); above OPERATOR_APPROVAL_ABOVE it is only asked for (202): it
     * waits for a second operator's approval (approveAdjustment).
     */
    async adjust(
      tx: Tx,
      adminId: number,
      userId: number,
      request: { account: LedgerAccount; amount: number; reason: string },
    ): Promise<Outcome<AdjustmentResponse | MoneyApprovalResponse>> {
      await userOr404(userId, tx);
      refuseOwnAccount(adminId, userId);
      const { account, amount, reason } = request;
      const { operatorApprovalAboveCents, operatorDailyAdjustMaxCents } = deps.config;
      await approvalRepository.holdAdjustLimit(tx, adminId, amount, operatorDailyAdjustMaxCents);
      if (!needsApproval(amount, operatorApprovalAboveCents))
        return { status: 201, body: await post(tx, adminId, userId, request) };
      const row = await approvalRepository.create(tx, {
        kind: 'adjustment',
        requestedBy: adminId,
        userId,
        amountCents: amount,
        account,
        reason,
      });
      await auditRepository.insert(tx, {
        actorId: adminId,
        action: 'balance.adjust_requested',
        subjectType: 'user',
        subjectId: String(userId),
        targetUserId: userId,
        details: { approval_id: row.id, account, amount: centsToDollars(amount), reason },
      });
      return approvalAnswer(tx, row.id, 202, 'APPROVAL_REQUESTED');
    },

    /**
     * A second operator approves an adjustment asked for above the threshold: it takes effect
     * now, through the ledger (403 for its requester and for the owner of the money, 409 once
     * decided, 422 INSUFFICIENT_FUNDS for a debit the purse no longer covers: it stays pending).
     */
    async approveAdjustment(
      tx: Tx,
      adminId: number,
      id: number,
    ): Promise<Outcome<AdjustmentResponse>> {
      const row = await approvalRepository.lockForDecision(
        tx,
        id,
        'adjustment',
        adminId,
        'approve',
      );
      const body = await post(
        tx,
        adminId,
        row.userId,
        { account: row.account!, amount: row.amountCents, reason: row.reason! },
        { approval_id: row.id, requested_by: row.requestedBy },
      );
      await approvalRepository.approve(tx, id, adminId, now(), body.entry.transaction_id);
      return {
        status: 200,
        body: {
          ...body,
          approval: await approvalRepository.view(tx, id),
          message: SUCCESS_MESSAGES.APPROVAL_APPROVED,
          code: 'APPROVAL_APPROVED',
        },
      };
    },

    /** Declines a pending adjustment with a reason (its requester may withdraw it so): nothing moves. */
    async declineAdjustment(
      tx: Tx,
      adminId: number,
      id: number,
      reason: string,
    ): Promise<Outcome<MoneyApprovalResponse>> {
      const row = await approvalRepository.lockForDecision(
        tx,
        id,
        'adjustment',
        adminId,
        'decline',
      );
      await approvalRepository.decline(tx, id, adminId, now(), reason);
      await auditRepository.insert(tx, {
        actorId: adminId,
        action: 'balance.adjust_declined',
        subjectType: 'user',
        subjectId: String(row.userId),
        targetUserId: row.userId,
        details: {
          approval_id: row.id,
          account: row.account,
          amount: centsToDollars(row.amountCents),
          reason,
        },
      });
      return approvalAnswer(tx, id, 200, 'APPROVAL_DECLINED');
    },

    /** Money waiting for a second operator (adjustments and payouts), or every request. */
    approvals: (query: { status: 'pending' | 'all'; page: number; per_page: number }) =>
      approvalRepository.page(db, query),
  };
}
