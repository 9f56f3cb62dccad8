import { createHash } from 'node:crypto';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@tradehost/contracts';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from './auth.ts';
import type { Db, Executor } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { inTransaction, withRetries, type Tx } from '../db/transaction.ts';
import { AppError, pgErrorOf } from '../lib/errors.ts';
import { errorBody } from './error-handler.ts';
import { executePrepared } from '../db/prepared.ts';

/**
 * A claim older than this, still without an answer, was left by the claim design before this one
 * (a committed claim whose request died): it is taken over. Claims are now made in the work's
 * transaction, so a request that dies leaves none.
 */
export const STALE_CLAIM_SECONDS = 60;

/**
 * The advisory-lock class of Idempotency-Keys: the first of pg_try_advisory_xact_lock's two int
 * keys (the second is a hash of the user and key). Two-key locks are a space of their own, apart
 * from the one-key locks of the migrations and pg-boss.
 */
const KEY_LOCK_CLASS = 1_003;

/**
 * The key's lock, taken for the rest of the transaction (or of the one statement) if free:
 * true when taken, false when a request with the same key holds it.
 */
function keyLock(userId: number, key: string): SQL {
  return sql`pg_try_advisory_xact_lock(${KEY_LOCK_CLASS}::int, hashtext(${userId}::bigint || ':' || ${key}::text))`;
}

/** The keys' reference to their user: an account deleted since takes its keys with it. */
const USER_KEY_FK = 'idempotency_keys_user_id_users_id_fk';

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

/**
 * A money-moving route's whole work as CTEs of one SQL statement (`respondInOne`): they write
 * only when the CTE named `free` has a row (the key was free, and this statement claims it), and
 * end with one named `answer`, of one row (`status` int, `body` jsonb) when the work was done and
 * none when it refused.
 */
export interface StatementWork<F> {
  ctes: (free: SQL) => SQL;
  /** A jsonb expression read back whatever happened: what the work's refusal and after-commit
   * steps tell from. */
  facts: SQL;
  /** Throws why the work refused (no `answer` row), from its facts: an AppError is answered
   * and stored as the key's answer. */
  refusal: (facts: F) => never;
  /** The statement's failure as the route sees it (a purse's check violation as a 422). */
  failure?: (error: unknown) => unknown;
}

/** Answers that are final for the request: replayed to a retry. 409 and 429 are not. */
const isFinal = (status: number) => status < 500 && status !== 409 && status !== 429;

export type Idempotency = ReturnType<typeof createIdempotency>;

/**
 * Money-moving POSTs run through here. A request claims its key in the transaction of its work,
 * whose last statement stores its answer: the answer exists exactly when the money moved, and a
 * request that fails or dies leaves no claim. The claim takes a transaction-scoped advisory lock
 * on the key, so a retry while the first request runs is told so at once (409) rather than
 * waiting for it. A retry with the same key and request gets the stored answer again; with
 * another request, 422. A refusal (4xx) is stored and replayed too; a failure (5xx) stores
 * nothing, so a retry does the work.
 */
export function createIdempotency(db: Db) {
  const whereKey = (userId: number, key: string) =>
    and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  /** The key claimed in `tx`, or what stands in the way: a stored answer to replay, or 409/422. */
  async function claim(
    tx: Tx,
    userId: number,
    key: string,
    scope: string,
    hash: string,
  ): Promise<{ claimed: true } | { claimed: false; replay: Outcome }> {
    let row;
    try {
      [row] = (
        await executePrepared<{ locked: boolean; inserted: boolean }>(
          tx,
          sql`with lock as (
                select ${keyLock(userId, key)} as locked
              ), claim as (
                insert into ${idempotencyKeys} (user_id, key, scope, request_hash)
                select ${userId}::bigint, ${key}::text, ${scope}::text, ${hash}::text
                from lock where locked
                on conflict do nothing
                returning 1
              )
              select locked, exists (select from claim) as inserted from lock`,
        )
      ).rows;
    } catch (error) {
      // a still valid token of an account deleted since: as signed out, not a 500
      if (pgErrorOf(error)?.constraint === USER_KEY_FK)
        throw new Unclaimable(new AppError(401, 'UNAUTHORIZED'));
      throw error;
    }
    if (row!.inserted) return { claimed: true };
    // another request with this key is under way
    if (!row!.locked) throw new Unclaimable(new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'));

    // answered before (or claimed the way claims were made before this design)
    const [existing] = await tx.select().from(idempotencyKeys).where(whereKey(userId, key));
    if (!existing) return claim(tx, userId, key, scope, hash); // deleted meanwhile
    if (!isSameRequest(existing, scope, hash))
      throw new Unclaimable(new AppError(422, 'IDEMPOTENCY_KEY_REUSED'));
    const answer = answerOf(existing);
    if (answer) return { claimed: false, replay: answer };
    // an unanswered claim committed by the earlier design: taken over once its request is
    // surely dead (its transaction rolled back long ago)
    if (await takeOverStale(tx, userId, key)) return claim(tx, userId, key, scope, hash);
    throw new Unclaimable(new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'));
  }

  /**
   * Deletes the key's claim when it has no answer and is older than STALE_CLAIM_SECONDS: a
   * claim committed by the earlier design, whose request is surely dead (its transaction rolled
   * back long ago). Whether it did.
   */
  async function takeOverStale(executor: Executor, userId: number, key: string) {
    const stale = await executor
      .delete(idempotencyKeys)
      .where(
        and(
          whereKey(userId, key),
          isNull(idempotencyKeys.responseStatus),
          sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`,
        ),
      )
      .returning({ key: idempotencyKeys.key });
    return stale.length > 0;
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
      const ref = keyRef(request);
      const outcome = await run(ref, (tx) => work(tx, ref.userId));
      if (afterCommit && !outcome.replayed) await afterCommit(outcome, ref.userId);
      return sendOutcome(reply, outcome);
    },

    /**
     * `respond` for a route whose whole work is one SQL statement (a transfer): the key's claim,
     * the work and its stored answer are that one statement, which commits on its own, in one
     * round trip where a transaction takes one per statement and two more to begin and commit
     * (and holds the purses' row locks that much shorter). The same rules hold: one answer per
     * key, a retry under way told 409 at once, a refusal stored and replayed. `afterCommit` gets
     * the work's facts.
     */
    async respondInOne<F>(
      request: FastifyRequest,
      reply: FastifyReply,
      work: (userId: number) => StatementWork<F>,
      afterCommit?: (facts: F) => Promise<void>,
    ) {
      const ref = keyRef(request);
      const outcome = await runInOne(ref, work(ref.userId));
      if (afterCommit && !outcome.replayed) await afterCommit(outcome.facts);
      return sendOutcome(reply, outcome);
    },
  };
  return api;

  /** The signed-in user's key for this request, its scope (the route) and what it stands for. */
  function keyRef(request: FastifyRequest): KeyRef {
    return {
      userId: currentUser(request).id,
      key: idempotencyKeyOf(request),
      scope: `${request.method} ${request.routeOptions.url?.replace(/^\/api/, '')}`,
      request: { ...(request.params as object), ...(request.body as object) },
    };
  }

  /** The work's own outcome when it ran, or the stored answer (status and body) when replayed. */
  async function run<O extends Outcome>(
    ref: KeyRef,
    work: (tx: Tx) => Promise<O>,
  ): Promise<(O & { replayed: false }) | (Outcome & { replayed: true })> {
    const { userId, key, scope } = ref;
    const hash = requestHash(ref.request);
    try {
      return await inTransaction(db, async (tx) => {
        const claimed = await claim(tx, userId, key, scope, hash);
        if (!claimed.claimed) return { ...claimed.replay, replayed: true as const };
        const result = await work(tx);
        await executePrepared(
          tx,
          sql`update ${idempotencyKeys}
              set response_status = ${result.status}::int, response_body = ${JSON.stringify(result.body)}::jsonb
              where user_id = ${userId}::bigint and key = ${key}::text`,
        );
        return { ...result, replayed: false as const };
      });
    } catch (error) {
      return refused(ref, hash, error);
    }
  }

  /**
   * runInOne's statement: the key locked (pg_try_advisory_xact_lock, held to the statement's
   * commit) and looked up; `free` when it is locked and has no row; the work; and the answer
   * stored as the key's row, inserted only now. A request with the same key that committed
   * after this statement's snapshot makes that insert fail on the primary key, the work and all
   * undone; run again, the statement finds its answer.
   */
  function inOneStatement(ref: KeyRef, hash: string, work: StatementWork<unknown>) {
    const { userId, key, scope } = ref;
    return sql`with lock as (
          select ${keyLock(userId, key)} as locked
        ), prior as (
          select scope, request_hash, response_status, response_body,
            created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}) as stale
          from ${idempotencyKeys} where user_id = ${userId}::bigint and key = ${key}::text
        ), free as (
          select from lock where locked and not exists (select from prior)
        ), ${work.ctes(sql`free`)}, stored as (
          insert into ${idempotencyKeys} (user_id, key, scope, request_hash, response_status, response_body)
          select ${userId}::bigint, ${key}::text, ${scope}::text, ${hash}::text, status, body from answer
          returning response_status as status, response_body as body
        )
        select (select locked from lock) as locked, (select to_jsonb(prior) from prior) as prior,
          (select to_jsonb(stored) from stored) as answer, ${work.facts} as facts`;
  }

  async function runInOne<F>(
    ref: KeyRef,
    work: StatementWork<F>,
  ): Promise<(Outcome & { replayed: false; facts: F }) | (Outcome & { replayed: true })> {
    const hash = requestHash(ref.request);
    const statement = inOneStatement(ref, hash, work as StatementWork<unknown>);
    try {
      // twice at most: the second run after a same-key request committed meanwhile finds it
      for (let run = 1; ; run += 1) {
        let row;
        try {
          [row] = (await withRetries(() => executePrepared<InOneRow<F>>(db, statement))).rows;
        } catch (error) {
          if (run < 2 && pgErrorOf(error)?.constraint === 'idempotency_keys_user_id_key_pk')
            continue;
          throw work.failure ? work.failure(error) : error;
        }
        const { locked, prior, answer, facts } = row!;
        if (answer) return { ...answer, replayed: false, facts };
        // another request with this key is under way
        if (!locked) throw new Unclaimable(new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'));
        if (!prior) work.refusal(facts);
        if (prior.scope !== ref.scope || prior.request_hash !== hash)
          throw new Unclaimable(new AppError(422, 'IDEMPOTENCY_KEY_REUSED'));
        if (prior.response_status !== null)
          return { status: prior.response_status, body: prior.response_body, replayed: true };
        // an unanswered claim of the earlier design, taken over once surely dead
        if (!(run < 2 && prior.stale && (await takeOverStale(db, ref.userId, ref.key))))
          throw new Unclaimable(new AppError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS'));
      }
    } catch (error) {
      return refused(ref, hash, error);
    }
  }

  /**
   * A request that did not get through its work: a refusal (a final 4xx) is stored as the key's
   * answer on its own (the work's statements, claim and all, rolled back) and thrown to be
   * answered. Should a retry have claimed the key meanwhile, its answer is the key's answer,
   * replayed. Anything else (a 5xx, a failure) is thrown as is and stores nothing.
   */
  async function refused(
    ref: KeyRef,
    hash: string,
    error: unknown,
  ): Promise<Outcome & { replayed: true }> {
    const { userId, key, scope } = ref;
    if (error instanceof Unclaimable) throw error.refusal;
    if (!(error instanceof AppError && isFinal(error.statusCode))) throw error;
    let stored;
    try {
      stored = await executePrepared(
        db,
        sql`insert into ${idempotencyKeys} (user_id, key, scope, request_hash, response_status, response_body)
            values (${userId}::bigint, ${key}::text, ${scope}::text, ${hash}::text,
              ${error.statusCode}::int, ${JSON.stringify(errorBody(error.code, error.errors))}::jsonb)
            on conflict do nothing`,
      );
    } catch (failure) {
      // the key of an account deleted since (its token still valid): refused, nothing to keep
      if (pgErrorOf(failure)?.constraint === USER_KEY_FK) throw error;
      throw failure;
    }
    if (stored.rowCount === 0) {
      const [existing] = await db.select().from(idempotencyKeys).where(whereKey(userId, key));
      const answer = existing && isSameRequest(existing, scope, hash) && answerOf(existing);
      if (answer) return { ...answer, replayed: true };
    }
    throw error;
  }
}

/** An Idempotency-Key, whose user's it is, and the request it stands for. */
interface KeyRef {
  userId: number;
  key: string;
  scope: string;
  request: unknown;
}

/** What runInOne's statement reads back. */
interface InOneRow<F> {
  locked: boolean;
  prior: {
    scope: string;
    request_hash: string;
    response_status: number | null;
    response_body: unknown;
    stale: boolean;
  } | null;
  answer: Outcome | null;
  facts: F;
}

type KeyRow = typeof idempotencyKeys.$inferSelect;

/** Whether a stored key stands for this request: the same route, parameters and body. */
const isSameRequest = (row: KeyRow, scope: string, hash: string) =>
  row.scope === scope && row.requestHash === hash;

/** A stored key's answer, replayed to a retry; undefined while its request has none yet. */
const answerOf = (row: KeyRow): Outcome | undefined =>
  row.responseStatus === null ? undefined : { status: row.responseStatus, body: row.responseBody };

/** What keeps a request from its key: answered as is, never stored as the key's answer. */
class Unclaimable extends Error {
  readonly refusal: AppError;
  constructor(refusal: AppError) {
    super(refusal.code);
    this.refusal = refusal;
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
