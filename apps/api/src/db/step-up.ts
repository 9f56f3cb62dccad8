import { STEP_UP_WINDOW_MS, type StepUpMethod } from '@tradehost/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { StepUpRequiredError } from '../lib/errors.ts';
import type { Db, Executor } from './client.ts';
import {
  passkeys,
  recoveryCodes,
  securityEvents,
  sessionProofs,
  userTotp,
} from './schema/index.ts';
import { securityLog, type SecurityContext } from './security-events.ts';
import { sessionsRepository } from './sessions.ts';

/**
 * The advisory-lock class of a sign-in's step-up attempts (pg_advisory_xact_lock's first int key;
 * the idempotency keys use 1003).
 */
const STEP_UP_LOCK_CLASS = 1_004;

/**
 * Wrong proofs in a row after which the sign-in is ended, as an exchange signs a session out
 * after a few wrong confirmations: whoever holds a stolen session gets this many guesses at the
 * password or code, then has to sign in again (where the account's own sign-in limits apply).
 */
export const STEP_UP_MAX_FAILURES = 5;

/**
 * What a proof's check found: right, wrong (a strike), or a kind of proof the account does not
 * take (the password once a second factor is on): neither checked nor counted.
 */
export type ProofCheck = 'right' | 'wrong' | 'not-allowed';

/** What became of a proof: its check's finding, or 'ended' once the sign-in is over. */
export type ProofVerdict = ProofCheck | 'ended';

/**
 * A wrong proof of the sign-in `where.sessionId`, logged (`step_up_failed`, with the count): the
 * STEP_UP_MAX_FAILURES-th in a row ends the sign-in (its proof forgotten, `session_ended`), and
 * `ended` names what to revoke.
 */
async function strike(
  tx: Executor,
  userId: number,
  method: StepUpMethod,
  at: Date,
  where: SecurityContext & { sessionId: string },
): Promise<{ verdict: ProofVerdict; ended: string[] }> {
  const { sessionId } = where;
  const failures = (await stepUp.failuresInARow(tx, userId, sessionId)) + 1;
  await securityLog.record(tx, userId, 'step_up_failed', at, where, { method, failures });
  if (failures < STEP_UP_MAX_FAILURES) return { verdict: 'wrong', ended: [] };
  await stepUp.forget(tx, sessionId);
  const { ended } = await sessionsRepository.end(tx, { userId, familyId: sessionId }, at);
  await securityLog.record(tx, userId, 'session_ended', at, where, { reason: 'step_up_failed' });
  return { verdict: 'ended', ended };
}

/**
 * Step-up: before money or secrets leave, the sign-in must have proved its owner (the password,
 * or a second factor where one is on) within STEP_UP_WINDOW_MS. Proofs are kept per sign-in
 * (session_proofs), so every instance sees them.
 */
export const stepUp = {
  /**
   * The proofs the account can give: its second factors when it has any (the password alone
   * is then not enough), else the password.
   */
  async methods(db: Executor, userId: number): Promise<StepUpMethod[]> {
    const [row] = await db
      .select({
        totp: sql<boolean>`exists (select 1 from ${userTotp} where ${userTotp.userId} = ${userId} and ${userTotp.confirmedAt} is not null)`,
        passkeys: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
        recovery: sql<boolean>`exists (select 1 from ${recoveryCodes} where ${recoveryCodes.userId} = ${userId} and ${recoveryCodes.usedAt} is null)`,
      })
      .from(sql`(select 1) as one`);
    const methods: StepUpMethod[] = [];
    if (row?.totp) methods.push('totp');
    if (row?.passkeys) methods.push('passkey');
    if (methods.length > 0 && row?.recovery) methods.push('recovery_code');
    return methods.length > 0 ? methods : ['password'];
  },

  /** The sign-in `sessionId` proved its owner at `at` (a sign-in itself is one). */
  async record(db: Executor, sessionId: string, userId: number, at: Date): Promise<void> {
    await db
      .insert(sessionProofs)
      .values({ sessionId, userId, provedAt: at })
      .onConflictDoUpdate({ target: sessionProofs.sessionId, set: { provedAt: at } });
  },

  /**
   * The sign-in `sessionId` proved its owner with `method` (`step_up` in the log): money and
   * secrets may leave for STEP_UP_WINDOW_MS, and its count of wrong proofs starts again.
   */
  async proved(
    db: Executor,
    userId: number,
    sessionId: string,
    method: StepUpMethod,
    at: Date,
    context: SecurityContext,
  ): Promise<void> {
    await stepUp.record(db, sessionId, userId, at);
    await securityLog.record(db, userId, 'step_up', at, { ...context, sessionId }, { method });
  },

  /**
   * One proof of a sign-in, checked by `check` (which records a right one, `proved`, in the same
   * transaction) while the sign-in's attempts are held, one at a time, so that every wrong one
   * counts: the step-up's own proofs and a password change's current password alike, else a
   * stolen sign-in could guess the password wherever it was checked uncounted. A wrong one is a
   * strike; the STEP_UP_MAX_FAILURES-th in a row ends the sign-in, and none is checked after it
   * ('ended'). The caller revokes `ended` (lib/session-revocations) after the commit.
   */
  async attempt(
    db: Db,
    user: { id: number; sessionId: string },
    method: StepUpMethod,
    at: Date,
    context: SecurityContext,
    check: (tx: Executor) => Promise<ProofCheck>,
  ): Promise<{ verdict: ProofVerdict; ended: string[] }> {
    const where = { ...context, sessionId: user.sessionId };
    return db.transaction(async (tx) => {
      await stepUp.lockAttempts(tx, user.sessionId);
      if ((await stepUp.failuresInARow(tx, user.id, user.sessionId)) >= STEP_UP_MAX_FAILURES)
        return { verdict: 'ended', ended: [] };
      const found = await check(tx);
      return found === 'wrong'
        ? strike(tx, user.id, method, at, where)
        : { verdict: found, ended: [] };
    });
  },

  /** The sign-in's proof no longer counts (it ended, or failed its step-up too often). */
  async forget(db: Executor, sessionId: string): Promise<void> {
    await db.delete(sessionProofs).where(eq(sessionProofs.sessionId, sessionId));
  },

  /**
   * How many step-ups the sign-in `sessionId` has failed in a row: its step_up_failed events
   * since its last step_up (the security log is the count). Call it in a transaction that holds
   * lockAttempts, so that concurrent attempts are counted one at a time.
   */
  async failuresInARow(db: Executor, userId: number, sessionId: string): Promise<number> {
    return securityLog.count(
      db,
      userId,
      'step_up_failed',
      eq(securityEvents.sessionId, sessionId),
      sql`${securityEvents.id} > coalesce((select max(last.id) from ${securityEvents} last
        where last.user_id = ${userId} and last.session_id = ${sessionId}
          and last.kind = 'step_up'), 0)`,
    );
  },

  /** Holds the sign-in's step-up attempts to this transaction: one is checked at a time. */
  async lockAttempts(db: Executor, sessionId: string): Promise<void> {
    await db.execute(
      sql`select pg_advisory_xact_lock(${STEP_UP_LOCK_CLASS}::int, hashtext(${sessionId}::text))`,
    );
  },

  /** True when the sign-in proved its owner within the window before `at`. */
  async isFresh(db: Executor, sessionId: string, userId: number, at: Date): Promise<boolean> {
    const [row] = await db
      .select({ provedAt: sessionProofs.provedAt })
      .from(sessionProofs)
      .where(and(eq(sessionProofs.sessionId, sessionId), eq(sessionProofs.userId, userId)));
    if (!row) return false;
    const age = at.getTime() - row.provedAt.getTime();
    return age >= 0 && age <= STEP_UP_WINDOW_MS;
  },

  /** Throws 403 STEP_UP_REQUIRED (with the methods) unless the sign-in has a fresh proof. */
  async require(
    db: Executor,
    user: { id: number; sessionId: string | null },
    at: Date,
  ): Promise<void> {
    if (user.sessionId && (await stepUp.isFresh(db, user.sessionId, user.id, at))) return;
    throw new StepUpRequiredError(await stepUp.methods(db, user.id));
  },
};
