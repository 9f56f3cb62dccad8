/**
 * Group commit: callers add items one at a time and each gets its own answer, but the items are
 * written together in batches. While batches are being written the next one gathers, so an idle
 * server writes an item at once and a busy one writes many per round trip.
 *
 * Items with the same key are never written at the same time: not in one batch (so one statement
 * can write a batch without touching a row twice) nor in two batches at once (so items of one key
 * are written in the order they came).
 */
export interface BatcherOptions<T, R> {
  /** Writes a batch; answers in the items' order. A throw fails every item of the batch. */
  write: (items: T[]) => Promise<R[]>;
  keyOf: (item: T) => string;
  /** The most items one batch holds. */
  max: number;
  /** The most batches written at once. */
  concurrency: number;
}

interface Waiting<T, R> {
  item: T;
  key: string;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<T, R>({ write, keyOf, max, concurrency }: BatcherOptions<T, R>) {
  let queue: Waiting<T, R>[] = [];
  let writing = 0;
  /** Keys of the batches being written. */
  const busy = new Set<string>();

  /** The next batch: the earliest items of keys not being written, one per key, at most `max`. */
  function nextBatch(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    for (const waiting of queue) {
      if (batch.length < max && !busy.has(waiting.key)) {
        busy.add(waiting.key);
        batch.push(waiting);
      } else rest.push(waiting);
    }
    queue = rest;
    return batch;
  }

  async function writeBatch(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      for (const w of batch) busy.delete(w.key);
    }
  }

  /** Starts batches while there is room and something to write. */
  function pump(): void {
    while (writing < concurrency) {
      const batch = nextBatch();
      if (batch.length === 0) return;
      writing += 1;
      void writeBatch(batch).then(() => {
        writing -= 1;
        pump();
      });
    }
  }

  return {
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, key: keyOf(item), resolve, reject });
        pump();
      });
    },
  };
}
