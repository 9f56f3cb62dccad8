import { AppError } from '../../lib/errors.ts';

/**
 * Sign-in is limited per account, not only per address (the route's per-IP rate limit), so that
 * an attacker rotating addresses gets nowhere:
 *
 * - the first 4 failures in a row are free;
 * - from the 5th try on, each try must wait 2^(try−5) seconds after the last failure (1, 2, 4, 8,
 *   16, 32 s, at most 60): an earlier one is answered 429 LOGIN_THROTTLED with Retry-After, and
 *   the password is not checked;
 * - the 10th failure locks the account for 15 minutes: every sign-in, even with the right
 *   password, is answered 429 LOGIN_LOCKED with Retry-After, and the owner is mailed (in their
 *   language, with the address and the time, and a link to reset the password). After the lock
 *   the owner signs in as usual; one more failure locks again at once. An attacker could so lock
 *   an account 96 times a day: the owner is mailed for the first SIGN_IN_LOCK_MAILS_PER_DAY locks
 *   of any 24 hours only (each lock is still in the security log, with `mailed`);
 * - a successful sign-in, or a completed password reset, forgets the failures; so does a day
 *   without any (a typo a month ago does not count).
 *
 * A try is counted before its password is checked (and forgotten if the password was right), so
 * that concurrent tries cannot all slip through while the first is being checked.
 *
 * The answers must not tell whether an e-mail has an account: an unknown e-mail goes through the
 * very same steps (the same `verdict`, the same statements against no row, the same one argon2
 * verification against a dummy hash). Its failures are counted, with REDIS_URL, in Redis, shared
 * by the instances as an account's row is (unknown-email-throttles.ts: under a keyed hash of the
 * e-mail, kept a day; an account's try makes the same Redis calls, which write nothing); without
 * Redis, in this process by `UnknownEmails` (the 50,000 most recently tried for a day).
 *
 * The residue, accepted: a count in memory is one instance's and is lost on restart, while an
 * account's is in the database. So behind several instances without Redis, someone who has locked
 * an address through one instance and tries it through another sees "locked" for an account and a
 * plain refusal for an unknown e-mail. With Redis that gap opens only around an outage of Redis:
 * a try Redis does not answer is counted in the instance's memory (which also keeps what the
 * instance counted in Redis itself, so a lock made through it still shows there), and what was
 * counted in memory is not carried into Redis once it is back. Seeing the difference needs both
 * an outage and tries through several instances; a sign-in never fails for want of Redis.
 */
export const SIGN_IN_FREE_FAILURES = 4;
export const SIGN_IN_LOCK_AFTER = 10;
export const SIGN_IN_LOCK_MS = 15 * 60_000;
export const SIGN_IN_DELAY_CAP_MS = 60_000;
/** Lock mails an account's owner gets at most in 24 hours (an attacker could cause 96). */
export const SIGN_IN_LOCK_MAILS_PER_DAY = 3;
/** Failures older than this are forgotten. */
export const SIGN_IN_FAILURE_MEMORY_MS = 24 * 3600_000;
/** Unknown e-mails remembered at most (the least recently tried are forgotten first). */
export const UNKNOWN_EMAILS_MAX = 50_000;

/** The failed sign-ins of an account (a `login_throttle` row) or of an unknown e-mail. */
export interface ThrottleState {
  failures: number;
  lastFailureAt: Date | null;
  lockedUntil: Date | null;
}

export const NO_FAILURES: ThrottleState = { failures: 0, lastFailureAt: null, lockedUntil: null };

export type Verdict =
  | { kind: 'locked' | 'throttled'; retryAfterMs: number }
  /** The try may go on; `claimed` is the state that counts it as a failure (until it succeeds). */
  | { kind: 'try'; claimed: ThrottleState };

/** How long a try must wait after the last of `failures` failures in a row. */
export function delayAfter(failures: number): number {
  if (failures < SIGN_IN_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - SIGN_IN_FREE_FAILURES) * 1000, SIGN_IN_DELAY_CAP_MS);
}

/** Whether a sign-in may be tried at `at`, and the state that counts it. */
export function verdict(state: ThrottleState, at: Date): Verdict {
  const time = at.getTime();
  if (state.lockedUntil && state.lockedUntil.getTime() > time)
    return { kind: 'locked', retryAfterMs: state.lockedUntil.getTime() - time };
  const last = state.lastFailureAt?.getTime();
  const failures =
    last === undefined || time - last >= SIGN_IN_FAILURE_MEMORY_MS ? 0 : state.failures;
  if (last !== undefined && failures > 0) {
    const waitUntil = last + delayAfter(failures);
    if (waitUntil > time) return { kind: 'throttled', retryAfterMs: waitUntil - time };
  }
  const next = failures + 1;
  return {
    kind: 'try',
    claimed: {
      failures: next,
      lastFailureAt: at,
      lockedUntil: next >= SIGN_IN_LOCK_AFTER ? new Date(time + SIGN_IN_LOCK_MS) : null,
    },
  };
}

/** 429 LOGIN_THROTTLED or LOGIN_LOCKED; the route sends `retryAfterSeconds` as Retry-After. */
export class SignInRefusedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(kind: 'locked' | 'throttled', retryAfterMs: number) {
    super(429, kind === 'locked' ? 'LOGIN_LOCKED' : 'LOGIN_THROTTLED');
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

/** The failures of e-mails that have no account, in this process (see above). */
export class UnknownEmails {
  private readonly states = new Map<string, ThrottleState>();
  private readonly max: number;

  constructor(max = UNKNOWN_EMAILS_MAX) {
    this.max = max;
  }

  get(email: string): ThrottleState {
    return this.states.get(email.toLowerCase()) ?? NO_FAILURES;
  }

  set(email: string, state: ThrottleState): void {
    const key = email.toLowerCase();
    // re-inserted, so the Map's order is the order of the last tries: the oldest go first
    this.states.delete(key);
    this.states.set(key, state);
    for (const oldest of this.states.keys()) {
      if (this.states.size <= this.max) break;
      this.states.delete(oldest);
    }
  }

  get size(): number {
    return this.states.size;
  }
}
