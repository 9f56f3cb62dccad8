import type { SecurityEventKind } from '@tradehost/contracts';
import { and, count, desc, eq, gt, type SQL } from 'drizzle-orm';
import type { Executor } from './client.ts';
import type { Paging } from './paging.ts';
import { securityEvents, type SecurityEventRow } from './schema/index.ts';

/** The longest User-Agent kept with an event (real ones are a few hundred characters). */
const USER_AGENT_MAX = 512;

/** Where a security event came from: the request's address, browser and sign-in. */
export interface SecurityContext {
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
  sessionId?: string | null | undefined;
}

/** The context of a Fastify request (`request.ip`, its User-Agent, its signed-in session). */
export function securityContextOf(request: {
  ip: string;
  headers: { 'user-agent'?: string | undefined };
  user?: { sessionId: string | null } | null;
}): SecurityContext {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    sessionId: request.user?.sessionId ?? null,
  };
}

/** The account's append-only security log (a trigger refuses UPDATE and DELETE). */
export const securityLog = {
  /** Writes one event; in the caller's transaction when `db` is one, so it stands or falls with the change. */
  async record(
    db: Executor,
    userId: number,
    kind: SecurityEventKind,
    at: Date,
    context: SecurityContext = {},
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await db.insert(securityEvents).values({
      userId,
      kind,
      at,
      ip: context.ip ?? null,
      userAgent: context.userAgent?.slice(0, USER_AGENT_MAX) || null,
      sessionId: context.sessionId ?? null,
      detail,
    });
  },

  /** A page of the user's events, newest first, and how many there are. */
  async page(
    db: Executor,
    userId: number,
    paging: Paging,
  ): Promise<{ rows: SecurityEventRow[]; total: number }> {
    const [rows, [totals]] = await Promise.all([
      db
        .select()
        .from(securityEvents)
        .where(eq(securityEvents.userId, userId))
        .orderBy(desc(securityEvents.id))
        .limit(paging.limit)
        .offset(paging.offset),
      db.select({ total: count() }).from(securityEvents).where(eq(securityEvents.userId, userId)),
    ]);
    return { rows, total: totals?.total ?? 0 };
  },

  /**
   * How many events of `kind` the user has had that also meet `conditions`: one count for the
   * daily caps (countSince) and a sign-in's step-ups failed in a row (db/step-up.ts).
   */
  async count(
    db: Executor,
    userId: number,
    kind: SecurityEventKind,
    ...conditions: SQL[]
  ): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(securityEvents)
      .where(and(eq(securityEvents.userId, userId), eq(securityEvents.kind, kind), ...conditions));
    return row?.n ?? 0;
  },

  /** How many events of `kind` the user has had since `since` (the daily caps). */
  async countSince(
    db: Executor,
    userId: number,
    kind: SecurityEventKind,
    since: Date,
  ): Promise<number> {
    return securityLog.count(db, userId, kind, gt(securityEvents.at, since));
  },
};
