import { and, desc, eq, gt, isNull, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  emailVerifications,
  passwordResetCodes,
  refreshTokens,
  users,
  type PasswordResetCodeRow,
  type RefreshTokenRow,
} from '../../db/schema/index.ts';

/**
 * A refresh token that can still start a session, rotated or not: neither revoked nor expired at
 * `at`, of a family none of whose members is revoked.
 */
const alive = (at: Date) =>
  and(
    isNull(refreshTokens.revokedAt),
    gt(refreshTokens.expiresAt, at),
    sql`not exists (select 1 from refresh_tokens member where member.family_id = ${refreshTokens.familyId} and member.revoked_at is not null)`,
  );

/** SQL for e-mail confirmations, password reset codes and refresh tokens. */
export const authRepository = {
  async insertEmailVerification(
    db: Executor,
    values: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date },
  ): Promise<void> {
    await db.insert(emailVerifications).values(values);
  },

  /** When the user's newest confirmation link was made, if any. */
  async lastEmailVerificationAt(db: Executor, userId: number): Promise<Date | null> {
    const [row] = await db
      .select({ at: max(emailVerifications.createdAt) })
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, userId));
    return row?.at ?? null;
  },

  async findEmailVerification(db: Executor, tokenHash: string) {
    const [row] = await db
      .select({
        id: emailVerifications.id,
        userId: emailVerifications.userId,
        expiresAt: emailVerifications.expiresAt,
        usedAt: emailVerifications.usedAt,
        userVerifiedAt: users.emailVerifiedAt,
      })
      .from(emailVerifications)
      .innerJoin(users, eq(users.id, emailVerifications.userId))
      .where(eq(emailVerifications.tokenHash, tokenHash));
    return row;
  },

  /** True when this call used the link (false when another request did first). */
  async useEmailVerification(db: Executor, id: number, at: Date): Promise<boolean> {
    const rows = await db
      .update(emailVerifications)
      .set({ usedAt: at })
      .where(and(eq(emailVerifications.id, id), isNull(emailVerifications.usedAt)))
      .returning({ id: emailVerifications.id });
    return rows.length === 1;
  },

  /** A new code replaces the older ones: they stop working. */
  async replaceResetCode(
    db: Executor,
    values: { userId: number; codeHash: string; createdAt: Date; expiresAt: Date },
  ): Promise<void> {
    await db
      .delete(passwordResetCodes)
      .where(and(eq(passwordResetCodes.userId, values.userId), isNull(passwordResetCodes.usedAt)));
    await db.insert(passwordResetCodes).values(values);
  },

  /** The user's current unused code, locked until the transaction ends (attempts are counted one at a time). */
  async lockCurrentResetCode(
    db: Executor,
    userId: number,
  ): Promise<PasswordResetCodeRow | undefined> {
    const [row] = await db
      .select()
      .from(passwordResetCodes)
      .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.usedAt)))
      .orderBy(desc(passwordResetCodes.createdAt), desc(passwordResetCodes.id))
      .limit(1)
      .for('update');
    return row;
  },

  async countResetAttempt(db: Executor, id: number): Promise<void> {
    await db
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(eq(passwordResetCodes.id, id));
  },

  async useResetCode(db: Executor, id: number, at: Date): Promise<void> {
    await db.update(passwordResetCodes).set({ usedAt: at }).where(eq(passwordResetCodes.id, id));
  },

  async insertRefreshToken(
    db: Executor,
    values: {
      familyId: string;
      userId: number;
      tokenHash: string;
      createdAt: Date;
      expiresAt: Date;
      userAgent: string | null;
      sessionStartedAt: Date;
    },
  ): Promise<void> {
    await db.insert(refreshTokens).values(values);
  },

  /**
   * Marks a live token rotated (by the attempt `attemptHash`, when one was named) and returns
   * it; nothing when it is unknown, expired, revoked, already rotated, or of a family with a
   * revoked member (so a token issued while its family was being revoked dies with it). The
   * condition sits in the UPDATE itself, so of two concurrent refreshes with one token exactly
   * one gets the row.
   */
  async rotateRefreshToken(
    db: Executor,
    tokenHash: string,
    at: Date,
    attemptHash: string | null,
  ): Promise<RefreshTokenRow | undefined> {
    const [row] = await db
      .update(refreshTokens)
      .set({ rotatedAt: at, rotatedBy: attemptHash })
      .where(
        and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.rotatedAt), alive(at)),
      )
      .returning();
    return row;
  },

  /**
   * The token when the attempt `attemptHash` rotated it after `since` and it would
   * otherwise still be live: the same refresh sent again, whose first answer was lost.
   */
  async findRetriedRotation(
    db: Executor,
    tokenHash: string,
    attemptHash: string,
    since: Date,
    at: Date,
  ): Promise<RefreshTokenRow | undefined> {
    const [row] = await db
      .select()
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          eq(refreshTokens.rotatedBy, attemptHash),
          gt(refreshTokens.rotatedAt, since),
          alive(at),
        ),
      );
    return row;
  },

  async findRefreshToken(db: Executor, tokenHash: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    return row;
  },
};
