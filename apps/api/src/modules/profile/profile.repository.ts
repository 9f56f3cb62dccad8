import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
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
   * The user's live sign-ins, newest use first: created is the family's first token, last use its
   * newest one (made at each refresh), the browser the one it signed in with (carried over).
   */
  async liveSessions(db: Executor, userId: number, at: Date): Promise<LiveSessionRow[]> {
    const rows = await db
      .select({
        familyId: refreshTokens.familyId,
        createdAt: sql<Date>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
        lastUsedAt: sql<Date>`max(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
        userAgent: sql<
          string | null
        >`(array_agg(${refreshTokens.userAgent} order by ${refreshTokens.createdAt} desc, ${refreshTokens.id} desc))[1]`,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.userId, userId))
      .groupBy(refreshTokens.familyId)
      .having(
        sql`bool_and(${refreshTokens.revokedAt} is null)
          and bool_or(${refreshTokens.rotatedAt} is null and ${refreshTokens.expiresAt} > ${at})`,
      )
      .orderBy(sql`max(${refreshTokens.createdAt}) desc`);
    return rows;
  },

  /**
   * Revokes every sign-in of the user but `keepFamilyId` (all of them when it is null) and returns
   * how many of them were live. Revoking a family's every token also stops a token being issued
   * to it meanwhile (rotateRefreshToken checks the family).
   */
  async revokeOtherSessions(
    db: Executor,
    userId: number,
    keepFamilyId: string | null,
    at: Date,
  ): Promise<number> {
    const revoked = await db
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          isNull(refreshTokens.revokedAt),
          keepFamilyId === null ? undefined : ne(refreshTokens.familyId, keepFamilyId),
        ),
      )
      .returning({
        familyId: refreshTokens.familyId,
        rotatedAt: refreshTokens.rotatedAt,
        expiresAt: refreshTokens.expiresAt,
      });
    const live = revoked.filter((token) => token.rotatedAt === null && token.expiresAt > at);
    return new Set(live.map((token) => token.familyId)).size;
  },
};
