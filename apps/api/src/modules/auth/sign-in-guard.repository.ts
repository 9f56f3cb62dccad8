import type { SecurityEventKind } from '@tradehost/contracts';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { loginThrottle, users, type UserRow } from '../../db/schema/index.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { NO_FAILURES, type ThrottleState } from './sign-in-guard.ts';

/** The user id no account has: the statements of an unknown e-mail's sign-in run against it. */
const NO_USER = 0;
const USER_AGENT_MAX = 512;

/**
 * SQL of the per-account sign-in limit (`login_throttle`). The statements that write take a user
 * id that may be none (an unknown e-mail): then they run all the same and touch no row, so a
 * sign-in costs the database the same whether the e-mail has an account or not.
 */
export const signInGuardRepository = {
  /** The account of `email` (case-insensitive) with its failed sign-ins, in one statement. */
  async lookup(
    db: Executor,
    email: string,
  ): Promise<{ user: UserRow | undefined; state: ThrottleState }> {
    const [row] = await db
      .select({
        user: getTableColumns(users),
        failures: loginThrottle.failures,
        lastFailureAt: loginThrottle.lastFailureAt,
        lockedUntil: loginThrottle.lockedUntil,
      })
      .from(users)
      .leftJoin(loginThrottle, eq(loginThrottle.userId, users.id))
      .where(sql`lower(${users.email}) = lower(${email})`);
    if (!row) return { user: undefined, state: NO_FAILURES };
    const { user, failures, lastFailureAt, lockedUntil } = row;
    return {
      user,
      state: failures === null ? NO_FAILURES : { failures, lastFailureAt, lockedUntil },
    };
  },

  /**
   * Sets the account's state to `next` if it is still `seen` (compare and set: of two concurrent
   * tries, one wins and the other looks again). False when it was not, or there is no account.
   */
  async claim(
    db: Executor,
    userId: number | null,
    seen: ThrottleState,
    next: ThrottleState,
  ): Promise<boolean> {
    const id = userId ?? NO_USER;
    const rows = await db.execute<{ user_id: string }>(sql`
      insert into login_throttle (user_id, failures, last_failure_at, locked_until)
      select ${id}, ${next.failures}, ${iso(next.lastFailureAt)}::timestamptz, ${iso(next.lockedUntil)}::timestamptz
      where exists (select 1 from users where id = ${id})
      on conflict (user_id) do update
        set failures = excluded.failures,
            last_failure_at = excluded.last_failure_at,
            locked_until = excluded.locked_until
        where login_throttle.failures = ${seen.failures}
          and login_throttle.last_failure_at is not distinct from ${iso(seen.lastFailureAt)}::timestamptz
          and login_throttle.locked_until is not distinct from ${iso(seen.lockedUntil)}::timestamptz
      returning user_id`);
    return rows.rows.length === 1;
  },

  /** Forgets the account's failures (a successful sign-in, a completed password reset). */
  async clear(db: Executor, userId: number): Promise<void> {
    await db.delete(loginThrottle).where(eq(loginThrottle.userId, userId));
  },

  /**
   * How often the account was locked since `since` (what caps the lock mails), or, for no
   * account, the same count of no row's events (0).
   */
  locksSince: (db: Executor, userId: number | null, since: Date): Promise<number> =>
    securityLog.countSince(db, userId ?? NO_USER, 'sign_in_locked', since),

  /**
   * A security event of the account, or, for no account, the same insert that adds no row
   * (what securityLog.record writes, guarded by the account's existence).
   */
  async record(
    db: Executor,
    userId: number | null,
    kind: SecurityEventKind,
    at: Date,
    context: SecurityContext,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const id = userId ?? NO_USER;
    await db.execute(sql`
      insert into security_events (user_id, at, kind, ip, user_agent, session_id, detail)
      select id, ${at.toISOString()}::timestamptz, ${kind}, ${context.ip ?? null},
             ${context.userAgent?.slice(0, USER_AGENT_MAX) || null}, ${context.sessionId ?? null}::uuid,
             ${JSON.stringify(detail)}::jsonb
      from users where id = ${id}`);
  },
};

const iso = (date: Date | null) => date?.toISOString() ?? null;
