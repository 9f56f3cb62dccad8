/**
 * Reads by key, gathered: a read asked for while `concurrency` statements are on their way waits
 * for one of them to come back, and then goes out with every other read that waited, as one
 * statement. An idle server reads at once; a busy one makes one round trip for many requests
 * where it made one each (the round trip, not the row, is what a read by primary key costs).
 *
 * A read never joins a statement already sent, so it sees everything committed before it was
 * asked for, as a statement of its own would. Reads of one key that wait together share the
 * answer (one object: a caller must not change it). A failed statement fails each read it carried.
 */
export interface ReadBatcherOptions<K, V> {
  /** Reads the keys (distinct, at most `max`); a key absent from the answer reads as undefined. */
  read: (keys: K[]) => Promise<Map<K, V>>;
  /** The most keys one statement reads. */
  max: number;
  /** The most statements on their way at once. */
  concurrency: number;
}

interface Reader<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

export function createReadBatcher<K, V>({ read, max, concurrency }: ReadBatcherOptions<K, V>) {
  /** The reads waiting, by key, in the order their keys were first asked for. */
  const waiting = new Map<K, Reader<V>[]>();
  let reading = 0;

  async function readBatch(batch: Map<K, Reader<V>[]>): Promise<void> {
    try {
      const found = await read([...batch.keys()]);
      for (const [key, readers] of batch) for (const r of readers) r.resolve(found.get(key));
    } catch (error) {
      for (const readers of batch.values()) for (const r of readers) r.reject(error);
    }
  }

  function pump(): void {
    while (reading < concurrency && waiting.size > 0) {
      const batch = new Map<K, Reader<V>[]>();
      for (const [key, readers] of waiting) {
        if (batch.size === max) break;
        batch.set(key, readers);
        waiting.delete(key);
      }
      reading += 1;
      void readBatch(batch).then(() => {
        reading -= 1;
        pump();
      });
    }
  }

  return {
    load(key: K): Promise<V | undefined> {
      return new Promise<V | undefined>((resolve, reject) => {
        const readers = waiting.get(key);
        if (readers) readers.push({ resolve, reject });
        else waiting.set(key, [{ resolve, reject }]);
        pump();
      });
    },
  };
}
