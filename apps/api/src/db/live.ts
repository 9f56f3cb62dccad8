import type { LiveEvent } from '@tradehost/contracts';
import type pg from 'pg';
import type { Db, Executor } from './client.ts';

/**
 * After-commit work and the live updates published with it.
 *
 * `trackCommits(db)` (createDb does it) makes every `db.transaction` collect the work given to
 * `afterCommit(tx, fn)` and run it once the transaction has committed, never when it rolls back
 * (a retried transaction collects afresh). Savepoints (`tx.transaction`) share their
 * transaction's list: what they register runs after the outer commit.
 *
 * `publishLive(executor, userId, event)` sends a live update to the user's consoles (pub/sub
 * channel `user:<id>`, GET /api/user/events) after the commit of `executor` (at once when it is
 * not a transaction). Where it goes is bound by `bindLive` (the events module, with app.pubsub);
 * before that, or without it (scripts, tests building a bare Db), updates are dropped. A failure
 * is the sink's to log: publishing never fails or slows the caller's work.
 */

export interface LiveSink {
  toUser(userId: number, event: LiveEvent): void;
}

interface Pending {
  db: Db;
  work: (() => void)[];
}

/** The transaction's session (shared by its savepoints) -> what runs after its commit. */
const pendingBySession = new WeakMap<object, Pending>();
const sinks = new WeakMap<Db, LiveSink>();

/**
 * Drizzle's session behind `executor`: one object per transaction (shared by its savepoints),
 * holding the pg connection its SQL runs on (the pool, or the transaction's client).
 */
export function sessionOf(executor: Executor): { client: pg.Pool | pg.PoolClient } {
  return (executor as unknown as { session: { client: pg.Pool | pg.PoolClient } }).session;
}

export function trackCommits(db: Db): Db {
  const transaction = db.transaction.bind(db);
  const tracked: Db['transaction'] = async (work, config) => {
    const pending: Pending = { db, work: [] };
    const result = await transaction(async (tx) => {
      const session = sessionOf(tx);
      pendingBySession.set(session, pending);
      try {
        return await work(tx);
      } finally {
        pendingBySession.delete(session);
      }
    }, config);
    for (const fn of pending.work) {
      try {
        fn();
      } catch {
        // after-commit work is hints: it must not turn a committed change into an error
      }
    }
    return result;
  };
  Object.defineProperty(db, 'transaction', { value: tracked, configurable: true, writable: true });
  return db;
}

/** Runs `fn` after `executor`'s commit (on the next turn when it is the database itself). */
export function afterCommit(executor: Executor, fn: (db: Db) => void): void {
  const pending = pendingBySession.get(sessionOf(executor));
  if (pending) {
    pending.work.push(() => fn(pending.db));
    return;
  }
  // not in a tracked transaction: the database itself, whose statements commit as they run
  if (sinks.has(executor as Db)) setImmediate(() => fn(executor as Db));
}

export function bindLive(db: Db, sink: LiveSink): void {
  sinks.set(db, sink);
}

export function publishLive(executor: Executor, userId: number, event: LiveEvent): void {
  afterCommit(executor, (db) => sinks.get(db)?.toUser(userId, event));
}
