import { createHash } from 'node:crypto';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@tradehost/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from './auth.ts';
import type { Db, Executor } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { inTransaction, type Tx } from '../db/transaction.ts';
import { AppError, pgErrorOf } from '../lib/errors.ts';
import { errorBody } from './error-handler.ts';
import { executePrepared } from '../db/prepared.ts';

/** A claim older than this whose request never answered died with its (rolled back) transaction. */
export const STALE_CLAIM_SECONDS = 60;

export interface Outcome<T = unknown> {
  status: number;
  body: T;
}

/** The header in a route's schema (for the docs); idempotencyKeyOf checks it (400). */
export const idempotencyHeaders = z.object({ 'idempotency-key': z.optional(z.string()) });

/** The validated Idempotency-Key header, or 400. */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined || value === '') throw new AppError(400, 'IDEMPOTENCY_KEY_REQUIRED');
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value))
    throw new AppError(400, 'IDEMPOTENCY_KEY_INVALID');
  return value;
}

/** Same parameters and body (after validation: "12.5" and 12.50 are the same amount). */
export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Answers that are final for the request: replayed to a retry. 409 and 429 are not. */
const isFinal = (status: number) => status < 500 && status !== 409 && status !== 429;

export type Idempotency = ReturnType<typeof createIdempotency>;

/**
 * A claim's creation time, to the microsecond, as it identifies the claim: a takeover writes a
 * new one, so a request whose claim was taken over can tell it no longer holds the key.
 */
const claimedAt = sql<string>`${idempotencyKeys.createdAt}::text`;

/** Thrown inside the work's transaction when its claim was taken over: the work is undone. */
class ClaimLost extends Error {}

/**
 * Money-moving POSTs run through here. The first request with a key claims it (one INSERT),
 * does its work in a transaction that also stores its answer, so the answer exists exactly when
 * the money moved. A retry with the same key and request gets that answer again; with another
 * request, 422; while the first still runs, 409. A refusal (4xx) is stored and replayed too; a
 * failure (5xx) releases the key so the retry can do the work.
 */
export function createIdempotency(db: Db) {
  const whereKey = (userId: number, key: string) =>
    and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  /** The key while it still holds this request's claim, unanswered. */
  const whereClaim = (userId: number, key: string, at: string) =>
    and(
      whereKey(userId, key),
      isNull(idempotencyKeys.responseStatus),
      sql`${idempotencyKeys.createdAt} = ${at}::timestamptz`,
    );

  async function claim(
    userId: number,
    key: string,
    scope: string,
    hash: string,
  ): Promise<{ claimed: true; at: string } | { claimed: false; replay: Outcome }> {
    let inserted;
    try {
      [inserted] = (
        await executePrepared<{ at: string }>(
          db,
          sql`insert into ${idempotencyKeys} (user_id, key, scope, request_hash)
              values (${userId}::bigint, ${key}::text, ${scope}::text, ${hash}::text)
              on conflict do nothing
              returning created_at::text as at`,
        )
      ).rows;
    } catch (error) {
      // a still valid token of an account deleted since: as signed out, not a 500
      if (pgErrorOf(error)?.constraint === 'idempotency_keys_user_id_users_id_fk')
        throw new AppError(401, 'UNAUTHORIZED');
      throw error;
    }
    if (inserted) return { claimed: true, at: inserted.at };

    const [existing] = await db.select().from(idempotencyKeys).where(whereKey(userId, key));
    if (!existing) return claim(userId, key, scope, hash); // released meanwhile
    if (existing.scope !== scope || existing.requestHash !== hash)
      throw new AppError(422, 'IDEMPOTENCY_KEY_REUSED');
    if (existing.responseStatus !== null) {
      return {
        claimed: false as const,
        replay: { status: existing.responseStatus, body: existing.responseBody },
      };
    }
    // a claim whose request died long ago (its transaction rolled back): take it over. Should
    // that request still be running after all, its answer will not find its claim (whereClaim)
    // and its work is rolled back.
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now()` })
      .where(
        and(
          whereKey(userId, key),
          isNull(idempotencyKeys.responseStatus),
          sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`,
        ),
      )
      .returning({ at: claimedAt });
    if (taken) return { claimed: true, at: taken.at };
    throw new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  }

  const api = {
    run,
    /**
     * A money-moving route's answer: `work` runs once per Idempotency-Key of the signed-in user.
     * The key's scope is the route; the request it stands for is the route's parameters and
     * validated body (so "12.5" and 12.50 are the same request). `afterCommit` runs once the
     * work has committed (a mail), not for a replayed answer; it gets the work's outcome as the
     * work returned it, with whatever the outcome carries beside its status and body.
     */
    async respond<O extends Outcome>(
      request: FastifyRequest,
      reply: FastifyReply,
      work: (tx: Tx, userId: number) => Promise<O>,
      afterCommit?: (outcome: O, userId: number) => Promise<void>,
    ) {
      const userId = currentUser(request).id;
      const outcome = await run(
        {
          userId,
          key: idempotencyKeyOf(request),
          scope: `${request.method} ${request.routeOptions.url?.replace(/^\/api/, '')}`,
          request: { ...(request.params as object), ...(request.body as object) },
        },
        (tx) => work(tx, userId),
      );
      if (afterCommit && !outcome.replayed) await afterCommit(outcome, userId);
      return sendOutcome(reply, outcome);
    },
  };
  return api;

  /** The work's own outcome when it ran, or the stored answer (status and body) when replayed. */
  async function run<O extends Outcome>(
    ref: { userId: number; key: string; scope: string; request: unknown },
    work: (tx: Tx) => Promise<O>,
  ): Promise<(O & { replayed: false }) | (Outcome & { replayed: true })> {
    const { userId, key, scope } = ref;
    const claimed = await claim(userId, key, scope, requestHash(ref.request));
    if (!claimed.claimed) return { ...claimed.replay, replayed: true };
    const mine = whereClaim(userId, key, claimed.at);
    try {
      const outcome = await inTransaction(db, async (tx) => {
        const result = await work(tx);
        const stored = await executePrepared(
          tx,
          sql`update ${idempotencyKeys}
              set response_status = ${result.status}::int, response_body = ${JSON.stringify(result.body)}::jsonb
              where user_id = ${userId}::bigint and key = ${key}::text
                and response_status is null and created_at = ${claimed.at}::timestamptz`,
        );
        // taken over while this request ran: the other one does the work, this one undoes it
        if (stored.rowCount === 0) throw new ClaimLost();
        return result;
      });
      return { ...outcome, replayed: false as const };
    } catch (error) {
      if (error instanceof ClaimLost) throw new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      // only this request's own claim is answered or released, never one that took it over
      if (error instanceof AppError && isFinal(error.statusCode)) {
        await db
          .update(idempotencyKeys)
          .set({
            responseStatus: error.statusCode,
            responseBody: errorBody(error.code, error.errors),
          })
          .where(mine);
      } else {
        await db.delete(idempotencyKeys).where(mine);
      }
      throw error;
    }
  }
}

/**
 * Deletes answered keys (their answer stored) created before `olderThan`, at most `limit`, oldest
 * first; a claim not yet answered is never deleted, however old. A retry with a deleted key is a
 * new request (its claim finds no row). Returns how many were deleted.
 */
export async function deleteAnsweredKeys(
  db: Executor,
  olderThan: Date,
  limit: number,
): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select user_id, key from idempotency_keys
      where response_status is not null
        and created_at < ${olderThan.toISOString()}::timestamptz
      order by created_at
      limit ${limit}
      for update skip locked
    )
    delete from idempotency_keys k
    using due
    where k.user_id = due.user_id and k.key = due.key and k.response_status is not null`);
  return result.rowCount ?? 0;
}

/** Sends an outcome; a replayed one says so in `Idempotent-Replayed: true`. */
export function sendOutcome(reply: FastifyReply, outcome: Outcome & { replayed: boolean }) {
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(outcome.status).send(outcome.body);
}
