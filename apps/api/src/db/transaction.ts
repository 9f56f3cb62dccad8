import { pgErrorOf } from '../lib/errors.ts';
import type { Db, Executor } from './client.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** serialization_failure and deadlock_detected: the transaction may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryable(error: unknown): boolean {
  const code = pgErrorOf(error)?.code;
  return code !== undefined && RETRYABLE.has(code);
}

/** Thrown when a transaction kept failing on serialization or deadlocks: the caller says "busy". */
export class TransactionRetriesExhausted extends Error {
  constructor(cause: unknown) {
    super('the transaction kept conflicting with others', { cause });
    this.name = 'TransactionRetriesExhausted';
  }
}

/**
 * Runs `work` in a transaction, running it again (with a short random pause) when PostgreSQL
 * reports a serialization failure or a deadlock, up to `attempts` times.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 8): Promise<T> {
  return withRetries(() => db.transaction(work), attempts);
}

/**
 * Runs `attempt` (a transaction, or a statement that is one) again, with a short random pause,
 * while PostgreSQL reports a serialization failure or a deadlock, up to `attempts` times.
 */
export async function withRetries<T>(attempt: () => Promise<T>, attempts = 8): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (tried >= attempts) throw new TransactionRetriesExhausted(error);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** tried));
    }
  }
}

export type { Executor };
