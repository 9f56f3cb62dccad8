import {
  centsToDollars,
  SUCCESS_MESSAGES,
  type AdjustmentResponse,
  type AdminPayment,
  type LedgerAccount,
  type Page,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import type { Tx } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
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

  return {
    /** The user's notice of a confirmed crypto payment. */
    tellConfirmed: (paymentId: number) => credits.paymentPaid(paymentId),

    /** The user's notice of an adjustment that credited the main balance (none for a debit). */
    async tellAdjusted({ user, entry }: AdjustmentResponse) {
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
     * debit as a charge), audited.
     */
    async adjust(
      tx: Tx,
      adminId: number,
      userId: number,
      request: { account: LedgerAccount; amount: number; reason: string },
    ): Promise<Outcome<AdjustmentResponse>> {
      await userOr404(userId, tx);
      refuseOwnAccount(adminId, userId);
      const { account, amount, reason } = request;
      let posted;
      try {
        posted = await ledgerRepository.post(
          tx,
          { kind: 'adjustment', actorId: adminId, memo: reason },
          [
            { userId, account, amountCents: amount },
            { account: 'adjustments', amountCents: -amount },
          ],
        );
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
          reviewedBy: adminId,
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
        actorId: adminId,
        action: 'balance.adjust',
        subjectType: 'user',
        subjectId: String(userId),
        targetUserId: userId,
        details: {
          account,
          amount: centsToDollars(amount),
          reason,
          ledger_transaction_id: posted.transactionId,
        },
      });
      const entry = posted.entries.find((e) => e.userId === userId)!;
      const user = await userRepository.findById(tx, userId);
      return {
        status: 201,
        body: {
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
        },
      };
    },
  };
}
