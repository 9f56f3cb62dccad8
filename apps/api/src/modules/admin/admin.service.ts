import {
  centsToDollars,
  SUCCESS_MESSAGES,
  type AdminPayment,
  type AdminUser,
  type AuditEntry,
  type LedgerAccount,
  type LedgerEntry,
  type Page,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { Tx } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { auditRepository } from '../audit/audit.repository.ts';
import { toPayment } from '../balance/balance.mapper.ts';
import { balanceRepository, type PaymentStatusValue } from '../balance/balance.repository.ts';
import { pagingOf } from '../../db/paging.ts';
import { isNegativeBalance, ledgerRepository } from '../../db/ledger.ts';
import type { Outcome } from '../idempotency/idempotency.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../user/user.repository.ts';
import { adminRepository } from './admin.repository.ts';

type PeopleRow = NonNullable<Awaited<ReturnType<typeof adminRepository.paymentWithPeople>>>;

function toAdminPayment(row: PeopleRow): AdminPayment {
  const { payment, user, reviewer } = row;
  return {
    ...toPayment(payment),
    user,
    reviewed_by: reviewer?.id ? reviewer : null,
    reviewed_at: payment.reviewedAt?.toISOString() ?? null,
  };
}

function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    name: row.name,
    role: row.role,
    balance: centsToDollars(row.balanceCents),
    balance_partner: centsToDollars(row.balancePartnerCents),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

/** The operator area. Every change is written with its audit row in one transaction. */
export function createAdminService({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  async function reviewable(tx: Tx, id: number) {
    const payment = await balanceRepository.lockPayment(tx, id);
    if (!payment || payment.method !== 'crypto') throw new AppError(404, 'NOT_FOUND');
    if (payment.status !== 'under_review') throw new AppError(409, 'PAYMENT_ALREADY_REVIEWED');
    return payment;
  }

  async function answer(tx: Tx, id: number, code: 'PAYMENT_CONFIRMED' | 'PAYMENT_REJECTED') {
    const row = await adminRepository.paymentWithPeople(tx, id);
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
    isAdmin: (userId: number) => adminRepository.isAdmin(db, userId),

    async payments(filter: {
      status: PaymentStatusValue;
      method?: string | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminPayment>> {
      const { limit, offset } = pagingOf(filter.page, filter.per_page);
      const { rows, total } = await adminRepository.payments(db, filter, limit, offset);
      return {
        data: rows.map(toAdminPayment),
        meta: { page: filter.page, per_page: filter.per_page, total },
      };
    },

    /** Credits a crypto payment under review: Paid, the balance up, audited. */
    async confirm(tx: Tx, adminId: number, id: number): Promise<Outcome> {
      const payment = await reviewable(tx, id);
      const posted = await ledgerRepository.post(
        tx,
        { kind: 'topup', actorId: adminId, memo: `crypto ${payment.network} ${payment.txid}` },
        [
          { account: `crypto:${payment.network}`, amountCents: -payment.amountCents },
          { userId: payment.userId, account: 'balance', amountCents: payment.amountCents },
        ],
      );
      const at = now();
      await balanceRepository.updatePayment(tx, id, {
        status: 'paid',
        paidAt: at,
        reviewedBy: adminId,
        reviewedAt: at,
        ledgerTransactionId: posted.transactionId,
      });
      await auditRepository.insert(tx, {
        actorId: adminId,
        action: 'payment.confirm',
        subjectType: 'payment',
        subjectId: String(id),
        targetUserId: payment.userId,
        details: {
          amount: centsToDollars(payment.amountCents),
          network: payment.network,
          txid: payment.txid,
        },
      });
      return answer(tx, id, 'PAYMENT_CONFIRMED');
    },

    /** Rejects a crypto payment under review with a reason the user sees. */
    async reject(tx: Tx, adminId: number, id: number, reason: string): Promise<Outcome> {
      const payment = await reviewable(tx, id);
      await balanceRepository.updatePayment(tx, id, {
        status: 'rejected',
        reason,
        reviewedBy: adminId,
        reviewedAt: now(),
      });
      await auditRepository.insert(tx, {
        actorId: adminId,
        action: 'payment.reject',
        subjectType: 'payment',
        subjectId: String(id),
        targetUserId: payment.userId,
        details: { amount: centsToDollars(payment.amountCents), reason, txid: payment.txid },
      });
      return answer(tx, id, 'PAYMENT_REJECTED');
    },

    async users(filter: {
      query: string;
      page: number;
      per_page: number;
    }): Promise<Page<AdminUser>> {
      const { limit, offset } = pagingOf(filter.page, filter.per_page);
      const { rows, total } = await adminRepository.users(db, filter.query, limit, offset);
      return {
        data: rows.map(toAdminUser),
        meta: { page: filter.page, per_page: filter.per_page, total },
      };
    },

    async user(userId: number): Promise<{ user: AdminUser }> {
      return { user: toAdminUser(await userOr404(userId)) };
    },

    async ledger(userId: number, page: number, perPage: number): Promise<Page<LedgerEntry>> {
      await userOr404(userId);
      const { limit, offset } = pagingOf(page, perPage);
      const { rows, total } = await ledgerRepository.pageForUser(db, userId, limit, offset);
      return {
        data: rows.map((row) => ({
          id: row.id,
          transaction_id: row.transactionId,
          created_at: row.createdAt.toISOString(),
          kind: row.kind,
          account: row.account as LedgerAccount,
          amount: centsToDollars(row.amountCents),
          balance_after: centsToDollars(row.balanceAfterCents ?? 0),
          memo: row.memo,
        })),
        meta: { page, per_page: perPage, total },
      };
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
    ): Promise<Outcome> {
      await userOr404(userId, tx);
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
          },
          message: SUCCESS_MESSAGES.BALANCE_ADJUSTED,
          code: 'BALANCE_ADJUSTED',
        },
      };
    },

    async audit(page: number, perPage: number): Promise<Page<AuditEntry>> {
      const { limit, offset } = pagingOf(page, perPage);
      const { rows, total } = await auditRepository.page(db, limit, offset);
      return {
        data: rows.map(({ entry, actor, target }) => ({
          id: entry.id,
          created_at: entry.createdAt.toISOString(),
          actor: actor?.id ? actor : null,
          action: entry.action,
          subject_type: entry.subjectType,
          subject_id: entry.subjectId,
          target_user: target?.id ? target : null,
          details: entry.details,
        })),
        meta: { page, per_page: perPage, total },
      };
    },
  };
}
