import { and, asc, eq, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { passkeys, recoveryCodes, userTotp, type PasskeyRow } from '../../db/schema/index.ts';

export type TotpRow = typeof userTotp.$inferSelect;

/** The second factors' rows: the authenticator, the recovery codes and the passkeys. */
export const factorsRepository = {
  /**
   * Locks the account's row: what decides on a first set of recovery codes (the authenticator's
   * confirmation, a passkey's registration) goes one at a time, so two never both make a set.
   */
  async lockAccount(db: Executor, userId: number): Promise<void> {
    await db.execute(sql`select id from users where id = ${userId} for update`);
  },

  async totpOf(db: Executor, userId: number): Promise<TotpRow | undefined> {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId));
    return row;
  },

  /** Locks the user's authenticator row (an enrolment and its confirmation go one at a time). */
  async lockTotp(db: Executor, userId: number): Promise<TotpRow | undefined> {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).for('update');
    return row;
  },

  /** A new, unconfirmed secret in place of an earlier unconfirmed one. */
  async putPendingTotp(db: Executor, userId: number, sealed: string, at: Date): Promise<void> {
    await db
      .insert(userTotp)
      .values({ userId, secret: sealed, createdAt: at, confirmedAt: null, lastStep: null })
      .onConflictDoUpdate({
        target: userTotp.userId,
        set: { secret: sealed, createdAt: at, confirmedAt: null, lastStep: null },
      });
  },

  async confirmTotp(db: Executor, userId: number, step: number, at: Date): Promise<void> {
    await db
      .update(userTotp)
      .set({ confirmedAt: at, lastStep: step })
      .where(eq(userTotp.userId, userId));
  },

  async deleteTotp(db: Executor, userId: number): Promise<boolean> {
    const removed = await db
      .delete(userTotp)
      .where(eq(userTotp.userId, userId))
      .returning({ userId: userTotp.userId });
    return removed.length > 0;
  },

  /** Replaces the user's recovery codes with `hashes`. */
  async replaceRecoveryCodes(
    db: Executor,
    userId: number,
    hashes: string[],
    at: Date,
  ): Promise<void> {
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    if (hashes.length > 0)
      await db
        .insert(recoveryCodes)
        .values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
  },

  async deleteRecoveryCodes(db: Executor, userId: number): Promise<void> {
    await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  },

  /** How many codes are unused, and when the set was made. */
  async recoveryState(
    db: Executor,
    userId: number,
  ): Promise<{ left: number; createdAt: Date | null }> {
    const [row] = await db
      .select({
        left: sql<number>`(count(*) filter (where ${recoveryCodes.usedAt} is null))::int`,
        createdAt: max(recoveryCodes.createdAt),
      })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId));
    return { left: row?.left ?? 0, createdAt: row?.createdAt ?? null };
  },

  async passkeysOf(db: Executor, userId: number): Promise<PasskeyRow[]> {
    return db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  },

  async insertPasskey(
    db: Executor,
    values: Omit<typeof passkeys.$inferInsert, 'id'>,
  ): Promise<PasskeyRow> {
    const [row] = await db.insert(passkeys).values(values).returning();
    return row!;
  },

  async renamePasskey(
    db: Executor,
    userId: number,
    id: number,
    name: string,
  ): Promise<PasskeyRow | undefined> {
    const [row] = await db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    return row;
  },

  async deletePasskey(db: Executor, userId: number, id: number): Promise<PasskeyRow | undefined> {
    const [row] = await db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    return row;
  },
};
