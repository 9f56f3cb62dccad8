import type { PartnerSettings } from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { auditRepository } from '../../db/audit.ts';
import type { ServiceDeps } from '../deps.ts';
import { partnerRepository } from './partner.repository.ts';

/**
 * The programme's operator settings: each level's percentage (rewards already granted keep the
 * one of their time) and the promocode discount tiers (promocodes already made keep theirs).
 */
export function createPartnerSettings({ db }: Pick<ServiceDeps, 'db'>) {
  async function read(executor: Executor): Promise<PartnerSettings> {
    const [levels, tiers] = await Promise.all([
      partnerRepository.rewardLevels(executor),
      partnerRepository.discountTiers(executor),
    ]);
    return { reward_percents: levels.map((bp) => bp / 100), discount_tiers: tiers };
  }

  return {
    read: () => read(db),

    /** Replaces both, audited with what they were. */
    async update(adminId: number, next: PartnerSettings): Promise<PartnerSettings> {
      return inTransaction(db, async (tx) => {
        // one change at a time: the rows are replaced under this lock
        await tx.execute(
          sql`lock table partner_reward_levels, partner_discount_tiers in exclusive mode`,
        );
        const before = await read(tx);
        for (const [i, percent] of next.reward_percents.entries()) {
          await tx.execute(sql`
            insert into partner_reward_levels (level, percent_bp)
            values (${i + 1}, ${Math.round(percent * 100)})
            on conflict (level) do update set percent_bp = excluded.percent_bp`);
        }
        await tx.execute(sql`delete from partner_discount_tiers`);
        await tx.execute(sql`
          insert into partner_discount_tiers (active_referrals, discount_percent)
          values ${sql.join(
            next.discount_tiers.map((tier) => sql`(${tier.active_referrals}, ${tier.discount})`),
            sql`, `,
          )}`);
        const after = await read(tx);
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'partner.settings',
          subjectType: 'partner_settings',
          subjectId: null,
          targetUserId: null,
          details: { before, after },
        });
        return after;
      });
    },
  };
}

export type PartnerSettingsService = ReturnType<typeof createPartnerSettings>;
