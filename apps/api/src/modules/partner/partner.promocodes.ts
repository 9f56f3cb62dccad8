import {
  PARTNER_PROMOCODES_MAX,
  SUCCESS_MESSAGES,
  type AvailableDiscount,
  type PartnerPromocode,
  type PartnerPromocodes,
} from '@tradehost/contracts';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { promocodes } from '../../db/schema/index.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import type { ServiceDeps } from '../deps.ts';
import { partnerRepository } from './partner.repository.ts';

type PromocodeRow = typeof promocodes.$inferSelect;

const toPromocode = (row: PromocodeRow): PartnerPromocode => ({
  id: row.id,
  name: row.code,
  discount: row.discountPercent,
  times_used: row.timesUsed,
  created_at: row.createdAt.toISOString(),
});

/**
 * A partner's own promocodes: a discount on a 1-month rental, as large as the partner's tier
 * allows (operator-editable tiers by active first-level referrals). A deleted one stops working
 * and stays, with its uses, in the orders that took it.
 */
export function createPromocodes({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  const mine = (userId: number) =>
    and(eq(promocodes.ownerUserId, userId), isNull(promocodes.deletedAt));

  async function available(executor: Executor, userId: number): Promise<AvailableDiscount> {
    const [tiers, active] = await Promise.all([
      partnerRepository.discountTiers(executor),
      partnerRepository.activeReferrals(executor, userId, now()),
    ]);
    const reached = tiers.filter((tier) => tier.active_referrals <= active);
    return {
      available_discounts: [...new Set(reached.map((tier) => tier.discount))],
      active_referrals: active,
      tiers,
      next_tier: tiers.find((tier) => tier.active_referrals > active) ?? null,
    };
  }

  return {
    available: (userId: number) => available(db, userId),

    async list(userId: number): Promise<PartnerPromocodes> {
      const rows = await db
        .select()
        .from(promocodes)
        .where(mine(userId))
        .orderBy(asc(promocodes.id));
      return { data: rows.map(toPromocode) };
    },

    async create(userId: number, input: { name: string; discount: number }) {
      return inTransaction(db, async (tx) => {
        // the partner's row locked: two creations at once count each other against the limit
        await tx.execute(sql`select id from users where id = ${userId} for update`);
        const { available_discounts } = await available(tx, userId);
        if (!available_discounts.includes(input.discount))
          throw fieldError(422, 'discount', 'DISCOUNT_NOT_AVAILABLE');
        const [held] = await tx.select({ n: count() }).from(promocodes).where(mine(userId));
        if ((held?.n ?? 0) >= PARTNER_PROMOCODES_MAX) throw new AppError(422, 'PROMOCODES_LIMIT');
        let row: PromocodeRow | undefined;
        try {
          [row] = await tx
            .insert(promocodes)
            .values({
              code: input.name,
              discountPercent: input.discount,
              ownerUserId: userId,
              createdBy: userId,
              createdAt: now(),
            })
            .returning();
        } catch (error) {
          if (isUniqueViolation(error, 'promocodes_code_key'))
            throw fieldError(422, 'name', 'PROMOCODE_TAKEN');
          throw error;
        }
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'partner.promocode_create',
          subjectType: 'promocode',
          subjectId: String(row!.id),
          targetUserId: userId,
          details: { code: row!.code, discount_percent: row!.discountPercent },
        });
        return {
          promocode: toPromocode(row!),
          message: SUCCESS_MESSAGES.PROMOCODE_CREATED,
          code: 'PROMOCODE_CREATED',
        };
      });
    },

    /** Stops a promocode of the partner's; its history stays. 404: not theirs, or deleted. */
    async remove(userId: number, id: number) {
      return inTransaction(db, async (tx) => {
        const [row] = await tx
          .update(promocodes)
          .set({ active: false, deletedAt: now() })
          .where(and(eq(promocodes.id, id), mine(userId)))
          .returning();
        if (!row) throw new AppError(404, 'NOT_FOUND');
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'partner.promocode_delete',
          subjectType: 'promocode',
          subjectId: String(row.id),
          targetUserId: userId,
          details: { code: row.code, times_used: row.timesUsed },
        });
        return { message: SUCCESS_MESSAGES.PROMOCODE_DELETED, code: 'PROMOCODE_DELETED' };
      });
    },
  };
}

export type Promocodes = ReturnType<typeof createPromocodes>;
