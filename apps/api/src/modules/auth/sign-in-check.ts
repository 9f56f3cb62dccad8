import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { SecurityContext } from '../../db/security-events.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { signInLockedMail } from '../../integrations/mail/sign-in-templates.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyDummyPassword, verifyPassword } from '../../lib/password.ts';
import type { ServiceDeps } from '../deps.ts';
import {
  SignInRefusedError,
  UnknownEmails,
  verdict,
  type ThrottleState,
  type Verdict,
} from './sign-in-guard.ts';
import { signInGuardRepository as repo } from './sign-in-guard.repository.ts';

/** Concurrent tries of one account that lose the compare-and-set look again this often. */
const CLAIM_ROUNDS = 3;

const notFound = () => new AppError(401, 'LOGIN_NOT_FOUND');

/**
 * The start of a sign-in: the account of the e-mail, its limit (sign-in-guard.ts) and the
 * password. Answers the account when the password is right (the try stays counted as a failure
 * until `succeeded`: the second factor may still be to come); otherwise throws 401
 * LOGIN_NOT_FOUND, or 429 LOGIN_THROTTLED / LOGIN_LOCKED, the same for an unknown e-mail as for
 * an account, after the same work: one lookup statement, one claim statement, one argon2
 * verification (against a dummy hash for an unknown e-mail), one log statement (which adds no
 * row for an unknown e-mail) and, on a lock, one more; the lock's mail is sent without waiting.
 */
export function createSignInCheck({
  db,
  config,
  mailer,
  now,
  log,
}: Pick<ServiceDeps, 'db' | 'config' | 'mailer' | 'now' | 'log'>) {
  const unknownEmails = new UnknownEmails();

  /** Counts the try (before the password is checked) or refuses it. */
  async function admit(
    email: string,
    found: { user: UserRow | undefined; state: ThrottleState },
  ): Promise<{ user: UserRow | undefined; claimed: ThrottleState; at: Date }> {
    let { user, state } = found;
    for (let round = 1; ; round += 1) {
      const at = now();
      const seen = user ? state : unknownEmails.get(email);
      const decided: Verdict = verdict(seen, at);
      if (decided.kind !== 'try') throw new SignInRefusedError(decided.kind, decided.retryAfterMs);
      // set before anything is awaited, so that a concurrent try sees it (as an account's sees
      // the claimed row)
      if (!user) unknownEmails.set(email, decided.claimed);
      const won = await repo.claim(db, user?.id ?? null, seen, decided.claimed);
      if (!user || won) return { user, claimed: decided.claimed, at };
      // another try of this account counted itself first: look at the state it left
      if (round >= CLAIM_ROUNDS) throw new SignInRefusedError('throttled', 1000);
      ({ user, state } = await repo.lookup(db, email));
    }
  }

  return {
    async check(email: string, password: string, context: SecurityContext): Promise<UserRow> {
      const { user, claimed, at } = await admit(email, await repo.lookup(db, email));
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
      const until = claimed.lockedUntil;
      await repo.record(db, userId, 'sign_in_locked', at, context, { until: until.toISOString() });
      if (user) {
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
      throw new SignInRefusedError('locked', until.getTime() - at.getTime());
    },

    /** The sign-in succeeded (the password, and the second factor where one is on): forgets the failures. */
    succeeded: (userId: number) => repo.clear(db, userId),

    /** Forgets the account's failures and ends its lock (a completed password reset). */
    unlock: (executor: Executor, userId: number) => repo.clear(executor, userId),
  };
}
