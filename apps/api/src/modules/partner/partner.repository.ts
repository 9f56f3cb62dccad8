import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { executePrepared } from '../../db/prepared.ts';
import { ledgerRepository } from '../../db/ledger.ts';

/** A period [from, to) as SQL conditions on a time column; either end may be open. */
function inPeriod(column: SQL, period: { from?: Date; to?: Date }): SQL {
  const parts: SQL[] = [sql`true`];
  if (period.from) parts.push(sql`${column} >= ${period.from}`);
  if (period.to) parts.push(sql`${column} < ${period.to}`);
  return sql.join(parts, sql` and `);
}

const int = (value: string | number | null | undefined) => Number(value ?? 0);

/**
 * A referral counted active: an Active paid (not trial) server, or a paid monitoring subscription
 * running now. `u` is the referral's users row.
 */
const isActiveClient = (now: Date) => sql`(
  exists (select 1 from vps_servers s
          where s.user_id = u.id and s.status = 'active' and not s.is_trial)
  or exists (select 1 from monitoring_subscriptions m
             where m.user_id = u.id and m.plan = 'paid' and m.ends_at > ${now}))`;

export interface NetworkRow {
  id: number;
  email: string;
  createdAt: Date;
  level: number;
  active: boolean;
  referrals: number;
  turnoverCents: number;
  rewardCents: number;
}

/** SQL of the partner programme. */
export const partnerRepository = {
  async partner(db: Executor, userId: number) {
    const { rows } = await db.execute<{
      referral_code: string;
      balance_partner_cents: string;
      pending_cents: string;
    }>(sql`
      select referral_code, balance_partner_cents,
        (select coalesce(sum(amount_cents), 0) from partner_rewards
         where partner_id = ${userId} and status = 'pending') as pending_cents
      from users where id = ${userId}`);
    const row = rows[0];
    return row
      ? {
          referralCode: row.referral_code,
          availableCents: int(row.balance_partner_cents),
          pendingCents: int(row.pending_cents),
        }
      : undefined;
  },

  /** The partner's active referrals on each level. */
  async activeCounts(
    db: Executor,
    partnerId: number,
    now: Date,
  ): Promise<[number, number, number]> {
    const { rows } = await db.execute<{ l1: string; l2: string; l3: string }>(sql`
      select count(*) filter (where u.referrer_id = ${partnerId}) as l1,
        count(*) filter (where u.referrer2_id = ${partnerId}) as l2,
        count(*) filter (where u.referrer3_id = ${partnerId}) as l3
      from users u
      where (u.referrer_id = ${partnerId} or u.referrer2_id = ${partnerId}
             or u.referrer3_id = ${partnerId})
        and ${isActiveClient(now)}`);
    const row = rows[0];
    return [int(row?.l1), int(row?.l2), int(row?.l3)];
  },

  /** The partner's active first-level referrals alone (what the discount tiers go by). */
  async activeReferrals(db: Executor, partnerId: number, now: Date): Promise<number> {
    const { rows } = await db.execute<{ n: string }>(sql`
      select count(*) as n from users u
      where u.referrer_id = ${partnerId} and ${isActiveClient(now)}`);
    return int(rows[0]?.n);
  },

  /** The reward percentage of levels 1-3, in basis points. */
  async rewardLevels(db: Executor): Promise<number[]> {
    const { rows } = await db.execute<{ level: number; percent_bp: number }>(
      sql`select level, percent_bp from partner_reward_levels order by level`,
    );
    return [1, 2, 3].map((level) => rows.find((row) => row.level === level)?.percent_bp ?? 0);
  },

  /** The promocode discount tiers, lowest first. */
  async discountTiers(db: Executor) {
    const { rows } = await db.execute<{ active_referrals: number; discount_percent: number }>(
      sql`select active_referrals, discount_percent from partner_discount_tiers
          order by active_referrals`,
    );
    return rows.map((row) => ({
      active_referrals: row.active_referrals,
      discount: row.discount_percent,
    }));
  },

  /**
   * The partner's totals of levels 1-3 (zeros for a level without any), each with its
   * percentage now (basis points): one read.
   */
  async levels(db: Executor, partnerId: number) {
    const { rows } = await db.execute<{
      level: number;
      percent_bp: number;
      users: number | null;
      turnover_cents: string | null;
      reward_cents: string | null;
    }>(sql`
      select r.level, r.percent_bp, p.users, p.turnover_cents, p.reward_cents
      from partner_reward_levels r
      left join partner_levels p on p.partner_id = ${partnerId} and p.level = r.level
      order by r.level`);
    return [1, 2, 3].map((level) => {
      const row = rows.find((r) => r.level === level);
      return {
        level,
        percentBp: row?.percent_bp ?? 0,
        users: row?.users ?? 0,
        turnoverCents: int(row?.turnover_cents),
        rewardCents: int(row?.reward_cents),
      };
    });
  },

  async rewardsByDay(db: Executor, partnerId: number, period: { from?: Date; to?: Date }) {
    const { rows } = await db.execute<{ day: string; cents: string }>(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
        sum(amount_cents) as cents
      from partner_rewards
      where partner_id = ${partnerId} and status <> 'cancelled'
        and ${inPeriod(sql`created_at`, period)}
      group by 1 order by 1`);
    return rows.map((row) => ({ day: row.day, cents: int(row.cents) }));
  },

  /** Clicks, registrations and first payments of first-level referrals, by day (UTC). */
  async conversionByDay(db: Executor, partnerId: number, period: { from?: Date; to?: Date }) {
    const { rows } = await db.execute<{
      day: string;
      clicks: string;
      registrations: string;
      paying: string;
    }>(sql`
      with clicks as (
        select to_char(day, 'YYYY-MM-DD') as day, count(*) as n from partner_clicks
        where partner_id = ${partnerId} and ${inPeriod(sql`created_at`, period)}
        group by 1
      ), registrations as (
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n
        from users where referrer_id = ${partnerId} and ${inPeriod(sql`created_at`, period)}
        group by 1
      ), paying as (
        select to_char(first at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n
        from (select min(created_at) as first from partner_rewards
              where partner_id = ${partnerId} and level = 1 and status <> 'cancelled'
              group by referral_id) f
        where ${inPeriod(sql`first`, period)}
        group by 1
      )
      select day, coalesce(c.n, 0) as clicks, coalesce(r.n, 0) as registrations,
        coalesce(p.n, 0) as paying
      from clicks c full join registrations r using (day) full join paying p using (day)
      order by day`);
    return rows.map((row) => ({
      day: row.day,
      clicks: int(row.clicks),
      registrations: int(row.registrations),
      paying: int(row.paying),
    }));
  },

  /** The period's rewards by status, and the turnover they were counted on. */
  async rewardTotals(db: Executor, partnerId: number, period: { from?: Date; to?: Date }) {
    const { rows } = await db.execute<{ pending: string; available: string; turnover: string }>(
      sql`
      select coalesce(sum(amount_cents) filter (where status = 'pending'), 0) as pending,
        coalesce(sum(amount_cents) filter (where status = 'available'), 0) as available,
        coalesce(sum(base_cents) filter (where status <> 'cancelled'), 0) as turnover
      from partner_rewards
      where partner_id = ${partnerId} and ${inPeriod(sql`created_at`, period)}`,
    );
    const row = rows[0];
    return {
      pendingCents: int(row?.pending),
      availableCents: int(row?.available),
      turnoverCents: int(row?.turnover),
    };
  },

  /**
   * A page of the network: the referrals of `parentId` (a level down from it), or those matching
   * `search` on all three levels, newest first, each with its figures. `total` of the unsearched
   * list is the parent's stored count, not a count of rows; `parentLevel` is the parent's level
   * below the partner (null when it is the partner or not in the network), for the caller to
   * refuse a parent that is not theirs to open.
   */
  async network(
    db: Executor,
    input: {
      partnerId: number;
      parentId: number;
      search: string | undefined;
      limit: number;
      offset: number;
      now: Date;
    },
  ): Promise<{ rows: NetworkRow[]; total: number; parentLevel: number | null }> {
    const { partnerId, parentId, search, now } = input;
    const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = pattern
      ? sql`(u.referrer_id = ${partnerId} or u.referrer2_id = ${partnerId}
             or u.referrer3_id = ${partnerId})
            and (u.email ilike ${pattern} or u.name ilike ${pattern})`
      : sql`u.referrer_id = ${parentId}`;
    // one statement: the page's ids first, then the figures of those alone (not of the rows an
    // offset skips), beside the total (the stored count unless searching); a page past the end
    // is one row with the total and no referral
    const total = pattern
      ? sql`select count(*) from users u where ${where}`
      : sql`select users from partner_levels where partner_id = ${parentId} and level = 1`;
    const { rows } = await executePrepared<{
      total: string;
      parent_level: number | null;
      id: string | null;
      email: string;
      created_at: Date | string;
      level: number;
      active: boolean;
      referrals: number | null;
      turnover_cents: string;
      reward_cents: string;
    }>(
      db,
      sql`
      with page as (
        select u.id from users u where ${where}
        order by u.id desc limit ${input.limit} offset ${input.offset}
      ), figures as (
        select u.id, u.email, u.created_at,
          case ${partnerId}::bigint when u.referrer_id then 1 when u.referrer2_id then 2 else 3 end
            as level,
          ${isActiveClient(now)} as active,
          (select users from partner_levels l where l.partner_id = u.id and l.level = 1)
            as referrals,
          (select coalesce(sum(amount_cents), 0) from charges c
           where c.user_id = u.id and c.status = 'paid') as turnover_cents,
          (select coalesce(sum(amount_cents), 0) from partner_rewards r
           where r.partner_id = ${partnerId} and r.referral_id = u.id and r.status <> 'cancelled')
            as reward_cents
        from page join users u using (id)
      )
      select t.total, t.parent_level, f.* from (
        select coalesce((${total}), 0) as total,
          (select case ${partnerId}::bigint when referrer_id then 1 when referrer2_id then 2
             when referrer3_id then 3 end
           from users where id = ${parentId}) as parent_level
      ) t
      left join figures f on true
      order by f.id desc`,
    );
    return {
      rows: rows
        .filter((row) => row.id !== null)
        .map((row) => ({
          id: Number(row.id),
          email: row.email,
          createdAt: new Date(row.created_at),
          level: row.level,
          active: row.active,
          referrals: row.level === 3 ? 0 : (row.referrals ?? 0),
          turnoverCents: int(row.turnover_cents),
          rewardCents: int(row.reward_cents),
        })),
      total: int(rows[0]?.total),
      parentLevel: rows[0]?.parent_level ?? null,
    };
  },

  /**
   * Moves due rewards (pending since before `dueBefore`), oldest first, at most `limit`, into
   * their partners' balances: one ledger transaction each (partner_rewards -> the purse).
   * Rows another release is moving are skipped. How many moved.
   */
  async release(db: Executor, dueBefore: Date, now: Date, limit: number): Promise<number> {
    const { rows } = await db.execute<{
      id: string;
      partner_id: string;
      amount_cents: string;
      level: number;
      charge_id: string;
    }>(sql`
      select id, partner_id, amount_cents, level, charge_id from partner_rewards
      where status = 'pending' and created_at <= ${dueBefore}
      order by created_at, id limit ${limit}
      for update skip locked`);
    for (const row of rows) {
      const partnerId = Number(row.partner_id);
      const amountCents = Number(row.amount_cents);
      const posted = await ledgerRepository.post(
        db,
        {
          kind: 'reward',
          systemMemo: {
            code: 'partner_reward',
            params: { level: row.level, charge_id: Number(row.charge_id) },
          },
        },
        [
          { account: 'partner_rewards', amountCents: -amountCents },
          { userId: partnerId, account: 'balance_partner', amountCents },
        ],
      );
      await db.execute(sql`
        update partner_rewards
        set status = 'available', settled_at = ${now},
          ledger_transaction_id = ${posted.transactionId}
        where id = ${row.id}`);
    }
    return rows.length;
  },
};
