import { describe, expect, it } from 'vitest';
import { createReadBatcher } from './read-batcher.ts';

/** A batcher whose reads wait until the test lets them finish: the key lists it was asked. */
function recording({ max = 10, concurrency = 1 } = {}) {
  const statements: number[][] = [];
  const open: Array<() => void> = [];
  const batcher = createReadBatcher<number, string>({
    max,
    concurrency,
    read: async (keys) => {
      statements.push(keys);
      await new Promise<void>((resolve) => open.push(resolve));
      if (keys.includes(13)) throw new Error('no thirteen');
      return new Map(keys.filter((k) => k % 2 === 0).map((k) => [k, `row ${k}`]));
    },
  });
  /** Lets the reads sent so far finish, and waits for what follows them. */
  const finish = async () => {
    for (const resolve of open.splice(0)) resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { batcher, statements, finish };
}

describe('read batcher', () => {
  it('reads at once when nothing is on its way', async () => {
    const { batcher, statements, finish } = recording();
    const read = batcher.load(2);
    expect(statements).toEqual([[2]]);
    await finish();
    await expect(read).resolves.toBe('row 2');
  });

  it('gathers the reads asked for while a statement is out into one, and answers each its own', async () => {
    const { batcher, statements, finish } = recording();
    const first = batcher.load(2);
    const waiting = [4, 5, 6].map((k) => batcher.load(k));
    expect(statements).toEqual([[2]]);
    await finish();
    expect(statements).toEqual([[2], [4, 5, 6]]);
    await finish();
    await expect(first).resolves.toBe('row 2');
    await expect(Promise.all(waiting)).resolves.toEqual(['row 4', undefined, 'row 6']);
  });

  it('never adds a read to a statement already sent: it waits for the next', async () => {
    const { batcher, statements, finish } = recording();
    void batcher.load(2);
    const later = batcher.load(2);
    expect(statements).toEqual([[2]]);
    await finish();
    expect(statements).toEqual([[2], [2]]);
    await finish();
    await expect(later).resolves.toBe('row 2');
  });

  it('reads a key asked for twice in one wait once, and answers both', async () => {
    const { batcher, statements, finish } = recording();
    void batcher.load(0);
    const both = [batcher.load(8), batcher.load(8)];
    await finish();
    expect(statements[1]).toEqual([8]);
    await finish();
    await expect(Promise.all(both)).resolves.toEqual(['row 8', 'row 8']);
  });

  it('keeps at most `concurrency` statements out and `max` keys in one', async () => {
    const { batcher, statements, finish } = recording({ max: 2, concurrency: 2 });
    const reads = [1, 2, 3, 4, 5, 6, 7].map((k) => batcher.load(k));
    expect(statements).toEqual([[1], [2]]);
    await finish();
    expect(statements).toEqual([[1], [2], [3, 4], [5, 6]]);
    await finish();
    expect(statements).toEqual([[1], [2], [3, 4], [5, 6], [7]]);
    await finish();
    await expect(Promise.all(reads)).resolves.toEqual([
      undefined,
      'row 2',
      undefined,
      'row 4',
      undefined,
      'row 6',
      undefined,
    ]);
  });

  it('fails each read of a failed statement, and only those', async () => {
    const { batcher, finish } = recording();
    void batcher.load(0);
    const failing = Promise.allSettled([batcher.load(12), batcher.load(13)]);
    await finish();
    const next = batcher.load(14);
    await finish();
    await finish();
    expect(await failing).toEqual([
      { status: 'rejected', reason: new Error('no thirteen') },
      { status: 'rejected', reason: new Error('no thirteen') },
    ]);
    await expect(next).resolves.toBe('row 14');
  });
});
