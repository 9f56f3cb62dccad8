import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { executePrepared } from './prepared.ts';

/**
 * The partner rewards of a charge, written by whatever makes the charge final (a server created,
 * an upgrade applied, a renewal or a subscription paid) in its own transaction, and cancelled by
 * a refund while they are pending. The partner module releases them and reads them.
 */
export const partnerRewards = {
  /**
   * Gives each referrer of the charge's payer (levels 1 to 3) the level's percentage of what was
   * paid, in whole cents rounded down, pending; and adds it to the partner's totals. One
   * statement: the payer's three referrers are columns of their row. A charge refunded, one
   * already rewarded (retries) and rewards under a cent give nothing.
   * @returns the rewards written
   */
  async grant(tx: Executor, chargeId: number | null, now: Date): Promise<number> {
    if (chargeId === null) return 0;
    const result = await executePrepared(
      tx,
      sql`
      with granted as (
        insert into partner_rewards (created_at, partner_id, referral_id, level, charge_id,
          base_cents, percent_bp, amount_cents, status)
        select ${now}, x.partner_id, u.id, x.level, c.id, c.amount_cents, l.percent_bp,
          c.amount_cents * l.percent_bp / 10000, 'pending'
        from charges c
        join users u on u.id = c.user_id
        cross join lateral (values (1, u.referrer_id), (2, u.referrer2_id), (3, u.referrer3_id))
          as x(level, partner_id)
        join partner_reward_levels l on l.level = x.level
        where c.id = ${chargeId} and c.status = 'paid' and x.partner_id is not null
          and c.amount_cents * l.percent_bp / 10000 > 0
        on conflict (charge_id, level) do nothing
        returning partner_id, level, base_cents, amount_cents
      )
      insert into partner_levels as p (partner_id, level, rewards, turnover_cents, reward_cents)
      select partner_id, level, 1, base_cents, amount_cents from granted
      order by partner_id, level
      on conflict (partner_id, level) do update set
        rewards = p.rewards + 1,
        turnover_cents = p.turnover_cents + excluded.turnover_cents,
        reward_cents = p.reward_cents + excluded.reward_cents`,
    );
    return result.rowCount ?? 0;
  },

  /** Cancels the charge's pending rewards (its refund) and takes them off the partners' totals. */
  async cancel(tx: Executor, chargeId: number): Promise<number> {
    const result = await tx.execute(sql`
      with cancelled as (
        update partner_rewards set status = 'cancelled', settled_at = now()
        where charge_id = ${chargeId} and status = 'pending'
        returning partner_id, level, base_cents, amount_cents
      )
      update partner_levels p set
        rewards = p.rewards - 1,
        turnover_cents = p.turnover_cents - c.base_cents,
        reward_cents = p.reward_cents - c.amount_cents
      from cancelled c
      where p.partner_id = c.partner_id and p.level = c.level`);
    return result.rowCount ?? 0;
  },
};
