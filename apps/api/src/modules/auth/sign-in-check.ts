import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { SecurityContext } from '../../db/security-events.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { signInLockedMail } from '../../integrations/mail/sign-in-templates.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyDummyPassword, verifyPassword } from '../../lib/password.ts';
import type { ServiceDeps } from '../deps.ts';
import {
  SIGN_IN_LOCK_MAILS_PER_DAY,
  SignInRefusedError,
  verdict,
  type ThrottleState,
  type Verdict,
} from './sign-in-guard.ts';
import { signInGuardRepository as repo } from './sign-in-guard.repository.ts';
import { createUnknownEmailThrottles, type UnknownEmailTally } from './unknown-email-throttles.ts';

/** Concurrent tries of one e-mail that lose the compare-and-set look again this often. */
const CLAIM_ROUNDS = 3;
/** The span the lock mails are capped in (SIGN_IN_LOCK_MAILS_PER_DAY). */
const LOCK_MAILS_SPAN_MS = 24 * 3600_000;

const notFound = () => new AppError(401, 'LOGIN_NOT_FOUND');

/**
 * The start of a sign-in: the account of the e-mail, its limit (sign-in-guard.ts) and the
 * password. Answers the account when the password is right (the try stays counted as a failure
 * until `succeeded`: the second factor may still be to come); otherwise throws 401
 * LOGIN_NOT_FOUND, or 429 LOGIN_THROTTLED / LOGIN_LOCKED, the same for an unknown e-mail as for
 * an account, after the same work: one lookup statement (and, beside it, one read of the unknown
 * e-mails' counts), one claim statement (and one claim of the unknown e-mails' counts, which
 * writes nothing for an account), one argon2 verification (against a dummy hash for an unknown
 * e-mail), one log statement (which adds no row for an unknown e-mail) and, on a lock, a count
 * of the earlier locks and one more log statement; the lock's mail is sent without waiting.
 */
export function createSignInCheck({
  db,
  config,
  mailer,
  redis,
  now,
  log,
}: Pick<ServiceDeps, 'db' | 'config' | 'mailer' | 'redis' | 'now' | 'log'>) {
  const unknownEmails = createUnknownEmailThrottles({ redis, config, log });

  /**
   * Counts the try (before the password is checked) or refuses it. An account's count is its
   * row, an unknown e-mail's the tally; both are asked either way, in parallel.
   */
  async function admit(
    email: string,
    tally: UnknownEmailTally,
  ): Promise<{ user: UserRow | undefined; claimed: ThrottleState; at: Date }> {
    for (let round = 1; ; round += 1) {
      const [{ user, state }, kept] = await Promise.all([repo.lookup(db, email), tally.read()]);
      const seen = user ? state : kept;
      const at = now();
      const decided: Verdict = verdict(seen, at);
      if (decided.kind !== 'try') throw new SignInRefusedError(decided.kind, decided.retryAfterMs);
      const [rowSet, keptSet] = await Promise.all([
        repo.claim(db, user?.id ?? null, seen, decided.claimed),
        tally.claim(user ? null : seen, decided.claimed),
      ]);
      if (user ? rowSet : keptSet) return { user, claimed: decided.claimed, at };
      // another try of this e-mail counted itself first: look at the state it left
      if (round >= CLAIM_ROUNDS) throw new SignInRefusedError('throttled', 1000);
    }
  }

  /**
   * Logs the lock and mails the owner, unless the account was locked SIGN_IN_LOCK_MAILS_PER_DAY
   * times in the last 24 hours already (decided before the answer, so the log says whether it
   * was mailed); for an unknown e-mail the same statements, against no row.
   */
  async function locked(
    user: UserRow | undefined,
    until: Date,
    at: Date,
    context: SecurityContext,
  ) {
    const userId = user?.id ?? null;
    const since = new Date(at.getTime() - LOCK_MAILS_SPAN_MS);
    const earlier = await repo.locksSince(db, userId, since);
    const mailed = user !== undefined && earlier < SIGN_IN_LOCK_MAILS_PER_DAY;
    await repo.record(db, userId, 'sign_in_locked', at, context, {
      until: until.toISOString(),
      mailed,
    });
    if (!user || !mailed) return;
    // not awaited: the answer must come as soon as an unknown e-mail's (notify never throws)
    void notify(mailer, log, user, (language) =>
      signInLockedMail(language, {
        name: user.name,
        at,
        until,
        ip: context.ip ?? null,
        resetLink: `${config.publicUrl}/forgot-password`,
      }),
    );
  }

  return {
    async check(email: string, password: string, context: SecurityContext): Promise<UserRow> {
      const { user, claimed, at } = await admit(email, unknownEmails.tally(email));
      const right = user
        ? await verifyPassword(user.passwordHash, password)
        : (await verifyDummyPassword(password), false);
      // the try stays counted until the whole sign-in succeeds (`succeeded`): with a second
      // factor on, the password alone only opens the second step, and a thief who knows it must
      // not get a fresh half-session (5 code tries) on every try without ever meeting the lock
      if (user && right) return user;
      const userId = user?.id ?? null;
      await repo.record(db, userId, 'sign_in_failed', at, context, { failures: claimed.failures });
      if (!claimed.lockedUntil) throw notFound();
      await locked(user, claimed.lockedUntil, at, context);
      throw new SignInRefusedError('locked', claimed.lockedUntil.getTime() - at.getTime());
    },

    /** The sign-in succeeded (the password, and the second factor where one is on): forgets the failures. */
    succeeded: (userId: number) => repo.clear(db, userId),

    /** Forgets the account's failures and ends its lock (a completed password reset). */
    unlock: (executor: Executor, userId: number) => repo.clear(executor, userId),
  };
}
