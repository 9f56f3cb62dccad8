import { centsToDollars, type ChainCheck } from '@tradehost/contracts';
import { auditRepository } from '../../db/audit.ts';
import { ledgerRepository } from '../../db/ledger.ts';
import type { Tx } from '../../db/transaction.ts';
import { balanceRepository, type PaymentRow } from './balance.repository.ts';

/**
 * The one way a crypto payment under review is decided, whoever decides it: an operator (the
 * review queue) or the chain explorer's check (crypto.service.ts). The caller holds the payment's
 * row lock (balanceRepository.lockPayment) and has seen it Under review, so a payment is credited
 * or rejected once: a second decider, waiting on the lock, finds it decided. Each writes its
 * audit row (actor null: the explorer) in the same transaction.
 */

/** Credits a crypto payment under review: Paid, the balance up by its amount. */
export async function creditCryptoPayment(
  tx: Tx,
  payment: PaymentRow,
  by: { actorId: number | null; at: Date; chain?: ChainCheck },
): Promise<void> {
  const posted = await ledgerRepository.post(
    tx,
    {
      kind: 'topup',
      actorId: by.actorId,
      systemMemo: {
        code: 'topup_crypto',
        // a payment under review has both (payments_crypto_check)
        params: { payment_id: payment.id, network: payment.network!, txid: payment.txid! },
      },
    },
    [
      { account: `crypto:${payment.network}`, amountCents: -payment.amountCents },
      { userId: payment.userId, account: 'balance', amountCents: payment.amountCents },
    ],
  );
  await balanceRepository.updatePayment(tx, payment.id, {
    status: 'paid',
    paidAt: by.at,
    reviewedBy: by.actorId,
    reviewedAt: by.at,
    ledgerTransactionId: posted.transactionId,
    ...(by.chain ? { chain: by.chain } : {}),
  });
  await auditRepository.insert(tx, {
    actorId: by.actorId,
    action: 'payment.confirm',
    subjectType: 'payment',
    subjectId: String(payment.id),
    targetUserId: payment.userId,
    details: {
      amount: centsToDollars(payment.amountCents),
      network: payment.network,
      txid: payment.txid,
      ...(by.chain ? { confirmations: by.chain.confirmations, explorer: by.chain.driver } : {}),
    },
  });
}

/** Rejects a crypto payment under review with a reason the user sees. */
export async function rejectCryptoPayment(
  tx: Tx,
  payment: PaymentRow,
  by: { actorId: number | null; at: Date; reason: string; chain?: ChainCheck },
): Promise<void> {
  await balanceRepository.updatePayment(tx, payment.id, {
    status: 'rejected',
    reason: by.reason,
    reviewedBy: by.actorId,
    reviewedAt: by.at,
    ...(by.chain ? { chain: by.chain } : {}),
  });
  await auditRepository.insert(tx, {
    actorId: by.actorId,
    action: 'payment.reject',
    subjectType: 'payment',
    subjectId: String(payment.id),
    targetUserId: payment.userId,
    details: {
      amount: centsToDollars(payment.amountCents),
      reason: by.reason,
      txid: payment.txid,
      ...(by.chain ? { explorer: by.chain.driver, mismatch: by.chain.reason } : {}),
    },
  });
}
