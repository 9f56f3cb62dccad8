import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.ts';

interface Item {
  key: string;
  n: number;
}

/** A batcher whose writes wait until the test lets them finish: the batches it was given. */
function recording({ max = 10, concurrency = 1, failing = new Set<number>() } = {}) {
  const batches: number[][] = [];
  const open: Array<() => void> = [];
  const batcher = createBatcher<Item, string>({
    max,
    concurrency,
    keyOf: (item) => item.key,
    write: async (items) => {
      batches.push(items.map((i) => i.n));
      await new Promise<void>((resolve) => open.push(resolve));
      if (items.some((i) => failing.has(i.n))) throw new Error(`batch of ${items[0]!.n} failed`);
      return items.map((i) => `stored ${i.n}`);
    },
  });
  /** Lets the writes started so far finish, and waits for what follows them. */
  const finish = async () => {
    for (const resolve of open.splice(0)) resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { batcher, batches, finish };
}

describe('createBatcher (group commit)', () => {
  it('writes the first item at once, alone; what comes meanwhile goes in the next batch', async () => {
    const { batcher, batches, finish } = recording();
    const first = batcher.add({ key: 'a', n: 1 });
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => batcher.add({ key: `k${n}`, n }));
    expect(batches).toEqual([[1]]);
    await finish();
    expect(await first).toBe('stored 1');
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await finish();
    expect(await Promise.all(later)).toEqual(['stored 2', 'stored 3', 'stored 4']);
  });

  it('one key’s items never share a batch and are written in the order they came', async () => {
    const { batcher, batches, finish } = recording();
    const all = [
      batcher.add({ key: 'x', n: 0 }),
      batcher.add({ key: 'a', n: 1 }),
      batcher.add({ key: 'a', n: 2 }),
      batcher.add({ key: 'b', n: 3 }),
      batcher.add({ key: 'a', n: 4 }),
    ];
    for (let i = 0; i < 4; i += 1) await finish();
    expect(batches).toEqual([[0], [1, 3], [2], [4]]);
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4].map((n) => `stored ${n}`));
  });

  it('a batch holds at most `max` items', async () => {
    const { batcher, batches, finish } = recording({ max: 2 });
    const all = [0, 1, 2, 3, 4].map((n) => batcher.add({ key: `k${n}`, n }));
    for (let i = 0; i < 4; i += 1) await finish();
    expect(batches).toEqual([[0], [1, 2], [3, 4]]);
    await Promise.all(all);
  });

  it('a failed write fails its own items only; the next batch is still written', async () => {
    const { batcher, batches, finish } = recording({ failing: new Set([2]) });
    const first = batcher.add({ key: 'a', n: 1 });
    const failed = [batcher.add({ key: 'b', n: 2 }), batcher.add({ key: 'c', n: 3 })].map((p) =>
      p.catch((error: Error) => error.message),
    );
    const after = batcher.add({ key: 'b', n: 4 });
    for (let i = 0; i < 3; i += 1) await finish();
    expect(await first).toBe('stored 1');
    expect(await Promise.all(failed)).toEqual(['batch of 2 failed', 'batch of 2 failed']);
    expect(await after).toBe('stored 4');
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it('with room for two writes at once, a key being written waits for its write to end', async () => {
    const { batcher, batches, finish } = recording({ concurrency: 2 });
    const all = [
      batcher.add({ key: 'a', n: 1 }),
      batcher.add({ key: 'a', n: 2 }),
      batcher.add({ key: 'b', n: 3 }),
    ];
    // 1 is written; 2 waits for it, 3 starts beside it
    expect(batches).toEqual([[1], [3]]);
    await finish();
    expect(batches).toEqual([[1], [3], [2]]);
    await finish();
    expect(await Promise.all(all)).toEqual(['stored 1', 'stored 2', 'stored 3']);
  });
});
