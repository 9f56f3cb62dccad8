import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../db/paging.ts';
import { refreshTokens, users, type UserRow } from '../../db/schema/index.ts';

/** A live sign-in: a refresh-token family with an unused, unexpired token and no revoked one. */
export interface LiveSessionRow {
  familyId: string;
  createdAt: Date;
  lastUsedAt: Date;
  userAgent: string | null;
}

/** SQL of the profile: the user's name and avatar, and the sessions (refresh-token families). */
export const profileRepository = {
  async setName(db: Executor, userId: number, name: string): Promise<UserRow | undefined> {
    const [row] = await db.update(users).set({ name }).where(eq(users.id, userId)).returning();
    return row;
  },

  /** The avatar now, locked until the transaction ends (two uploads replace one another in turn). */
  async lockPhotoPath(
    db: Executor,
    userId: number,
  ): Promise<{ photoPath: string | null } | undefined> {
    const [row] = await db
      .select({ photoPath: users.photoPath })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    return row;
  },

  async setPhotoPath(
    db: Executor,
    userId: number,
    photoPath: string | null,
  ): Promise<UserRow | undefined> {
    const [row] = await db.update(users).set({ photoPath }).where(eq(users.id, userId)).returning();
    return row;
  },

  /**
   * A page of the user's live sign-ins, `current` (the asking one) first, then the others newest
   * use first: created is the family's first token, last use its newest one (made at each
   * refresh), the browser the one it signed in with (carried over). `total` and `others` (live
   * ones but `current`) count them all, also for a page past the end. One statement.
   */
  async liveSessions(
    db: Executor,
    userId: number,
    current: string | null,
    at: Date,
    { limit, offset }: Paging,
  ): Promise<{ rows: LiveSessionRow[]; total: number; others: number }> {
    const { rows } = await db.execute<{
      total: string;
      others: string;
      family_id: string | null;
      created_at: string;
      last_used_at: string;
      user_agent: string | null;
    }>(sql`
      with live as (
        select ${refreshTokens.familyId} as family_id,
          min(${refreshTokens.createdAt}) as created_at,
          max(${refreshTokens.createdAt}) as last_used_at,
          (array_agg(${refreshTokens.userAgent}
            order by ${refreshTokens.createdAt} desc, ${refreshTokens.id} desc))[1] as user_agent
        from ${refreshTokens}
        where ${refreshTokens.userId} = ${userId}
        group by ${refreshTokens.familyId}
        having bool_and(${refreshTokens.revokedAt} is null)
          and bool_or(${refreshTokens.rotatedAt} is null and ${refreshTokens.expiresAt} > ${at})
      ), counts as (
        select count(*) as total,
          count(*) filter (where family_id is distinct from ${current}::uuid) as others
        from live
      )
      select counts.total, counts.others, page.*
      from counts left join lateral (
        select * from live
        order by family_id is not distinct from ${current}::uuid desc, last_used_at desc, family_id
        limit ${limit} offset ${offset}
      ) page on true`);
    return {
      total: Number(rows[0]?.total ?? 0),
      others: Number(rows[0]?.others ?? 0),
      rows: rows
        .filter((row) => row.family_id !== null)
        .map((row) => ({
          familyId: row.family_id!,
          createdAt: new Date(row.created_at),
          lastUsedAt: new Date(row.last_used_at),
          userAgent: row.user_agent,
        })),
    };
  },
};
