import type { LedgerMemo } from '@tradehost/contracts';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../lib/errors.ts';
import type { Executor } from './client.ts';
import { isNegativeBalance, ledgerRepository } from './ledger.ts';
import { partnerRewards } from './partner-rewards.ts';
import { charges } from './schema/index.ts';

/**
 * What a purchase (a VPS rental, a monitoring subscription) takes from and gives back to a user's
 * balance: a charge (balance -> revenue, a `charges` row in the user's history) and its refund
 * (revenue -> balance, the charge marked cancelled). Both run inside the caller's transaction, so
 * the money moves exactly when what it pays for is written.
 */

/** The ledger memos of a charge given back. */
export type RefundMemo = Extract<
  LedgerMemo,
  { code: 'vps_create_refund' | 'vps_upgrade_refund' | 'vps_upgrade_revoked_refund' }
>;

export interface ChargeInput {
  userId: number;
  amountCents: number;
  /** The history's line in both languages ("VPS #12 Trader, London (LD4): 3 months"). */
  descriptionEn: string;
  descriptionRu: string;
  /** The operator who made it, when not the user or the lifecycle. */
  actorId?: number | null;
}

export interface Charged {
  chargeId: number;
  /** The user's balance after the charge. */
  balanceCents: number;
}

export const billing = {
  /**
   * Takes `amountCents` from the user's balance. A balance that would go below zero fails the
   * statement, and so the caller's transaction, with 422 'Insufficient funds for payment'.
   */
  async charge(tx: Executor, input: ChargeInput): Promise<Charged> {
    let posted;
    try {
      posted = await ledgerRepository.post(
        tx,
        {
          kind: 'charge',
          actorId: input.actorId ?? null,
          systemMemo: {
            code: 'charge',
            params: { description_en: input.descriptionEn, description_ru: input.descriptionRu },
          },
        },
        [
          { userId: input.userId, account: 'balance', amountCents: -input.amountCents },
          { account: 'revenue', amountCents: input.amountCents },
        ],
      );
    } catch (error) {
      if (isNegativeBalance(error)) throw new AppError(422, 'INSUFFICIENT_FUNDS_PAYMENT');
      throw error;
    }
    const [row] = await tx
      .insert(charges)
      .values({
        userId: input.userId,
        amountCents: input.amountCents,
        descriptionEn: input.descriptionEn,
        descriptionRu: input.descriptionRu,
        ledgerTransactionId: posted.transactionId,
      })
      .returning({ id: charges.id });
    const purse = posted.entries.find((entry) => entry.userId === input.userId)!;
    return { chargeId: row!.id, balanceCents: purse.balanceAfterCents ?? 0 };
  },

  /**
   * Gives a charge back: the whole amount returns to the balance and the charge shows as
   * Cancelled, and the partner rewards it gave that are still pending are cancelled. A charge
   * already cancelled is left alone (false), so a refund cannot pay twice. `why` is the ledger's
   * memo of the refund (a VPS refund's code and server).
   */
  async refund(
    tx: Executor,
    chargeId: number,
    why: RefundMemo,
    actorId: number | null = null,
  ): Promise<boolean> {
    // only a paid charge turns cancelled; a second refund (waiting on this row's lock) finds none
    const [charge] = await tx
      .update(charges)
      .set({ status: 'cancelled' })
      .where(and(eq(charges.id, chargeId), eq(charges.status, 'paid')))
      .returning({ userId: charges.userId, amountCents: charges.amountCents });
    if (!charge) return false;
    await ledgerRepository.post(tx, { kind: 'refund', actorId, systemMemo: why }, [
      { account: 'revenue', amountCents: -charge.amountCents },
      { userId: charge.userId, account: 'balance', amountCents: charge.amountCents },
    ]);
    await partnerRewards.cancel(tx, chargeId);
    return true;
  },
};
