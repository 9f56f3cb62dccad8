import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { refreshTokens } from './schema/index.ts';

/** Which sign-ins of a user to end: one, all of them, or all but the asking one. */
export type SessionsToEnd =
  | { userId: number; familyId: string }
  | { userId: number; all: true }
  | { userId: number; except: string | null };

/**
 * Sign-ins (refresh-token families) shared by the modules that end them: sign-out, refresh-token
 * reuse and password reset (auth), the profile's password change and session list. Ending one
 * revokes its every token, which also stops a token being issued to it meanwhile
 * (rotateRefreshToken checks the family); the caller then tells lib/session-revocations, after
 * the commit, so that its access tokens stop at once.
 */
export const sessionsRepository = {
  /**
   * Ends the matching sign-ins at `at`: `ended`, every family with a token revoked now (their
   * access tokens must stop), and `live`, how many of them could still have been used.
   */
  async end(
    db: Executor,
    which: SessionsToEnd,
    at: Date,
  ): Promise<{ ended: string[]; live: number }> {
    const revoked = await db
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(
        and(
          eq(refreshTokens.userId, which.userId),
          isNull(refreshTokens.revokedAt),
          'familyId' in which
            ? eq(refreshTokens.familyId, which.familyId)
            : 'except' in which && which.except !== null
              ? ne(refreshTokens.familyId, which.except)
              : undefined,
        ),
      )
      .returning({
        familyId: refreshTokens.familyId,
        rotatedAt: refreshTokens.rotatedAt,
        expiresAt: refreshTokens.expiresAt,
      });
    const live = new Set(
      revoked.filter((t) => t.rotatedAt === null && t.expiresAt > at).map((t) => t.familyId),
    );
    return { ended: [...new Set(revoked.map((t) => t.familyId))], live: live.size };
  },

  /** The sign-ins ended after `since`, whose access tokens may still be unexpired. */
  async endedSince(db: Executor, since: Date): Promise<string[]> {
    const rows = await db
      .selectDistinct({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(gt(refreshTokens.revokedAt, since));
    return rows.map((row) => row.familyId);
  },
};
