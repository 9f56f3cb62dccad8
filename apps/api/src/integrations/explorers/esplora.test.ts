import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTxid, startFakeEsplora, type FakeEsplora } from '../../../test/explorer-fakes.ts';
import { createEsploraExplorer } from './esplora.ts';
import { judge, type Expected } from './judge.ts';
import { ExplorerUnavailable } from './port.ts';

const OURS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

let fake: FakeEsplora;
beforeAll(async () => {
  fake = await startFakeEsplora();
});
afterAll(() => fake.close());

const explorer = (timeoutMs = 2_000) => createEsploraExplorer({ baseUrl: fake.url, timeoutMs });

/** 50,370 sat, final at 2 blocks. */
const expected = (over: Partial<Expected> = {}): Expected => ({
  address: OURS,
  token: null,
  units: 50_370n,
  decimals: 8,
  notBefore: new Date(Date.now() - 3_600_000),
  confirmations: 2,
  ...over,
});

describe('the Esplora driver', () => {
  it('reads the outputs of a confirmed transaction and its depth from the tip', async () => {
    const txid = newTxid();
    fake.transaction(
      txid,
      [
        { address: OTHER, value: 1_000_000 },
        { address: OURS, value: 50_370 },
      ],
      fake.tipHeight - 1,
    );
    const lookup = await explorer().lookup(txid);
    expect(lookup).toMatchObject({
      found: true,
      confirmations: 2,
      transfers: [
        { to: OTHER, units: 1_000_000n, token: null },
        { to: OURS, units: 50_370n, token: null },
      ],
    });
    expect(judge(lookup, expected())).toMatchObject({
      kind: 'ready',
      seen: { to: OURS, amount: '0.0005037', confirmations: 2 },
    });
    expect(fake.calls.slice(-2).map((c) => c.path)).toEqual([
      `/api/tx/${txid}`,
      '/api/blocks/tip/height',
    ]);
  });

  it('counts a transaction in the mempool as unconfirmed, and one block as pending', async () => {
    const waiting = newTxid();
    fake.transaction(waiting, [{ address: OURS, value: 50_370 }]);
    const lookup = await explorer().lookup(waiting);
    expect(lookup).toEqual({
      found: true,
      confirmations: 0,
      blockTime: null,
      transfers: [{ to: OURS, units: 50_370n, token: null }],
    });
    expect(judge(lookup, expected())).toMatchObject({ kind: 'pending' });
    const shallow = newTxid();
    fake.transaction(shallow, [{ address: OURS, value: 50_370 }], fake.tipHeight);
    expect(judge(await explorer().lookup(shallow), expected())).toMatchObject({
      kind: 'pending',
      seen: { confirmations: 1 },
    });
  });

  it('says not found for an unknown or malformed id (404, 400)', async () => {
    expect(await explorer().lookup(newTxid())).toEqual({ found: false });
    expect(await explorer().lookup('not-a-hash')).toEqual({ found: false });
  });

  it('finds a wrong amount, a wrong destination, and leaves an unpriced amount to the operator', async () => {
    const short = newTxid();
    fake.transaction(short, [{ address: OURS, value: 50_000 }], fake.tipHeight - 5);
    expect(judge(await explorer().lookup(short), expected())).toMatchObject({
      kind: 'mismatch',
      reason: 'amount',
      seen: { amount: '0.0005' },
    });
    const elsewhere = newTxid();
    fake.transaction(elsewhere, [{ address: OTHER, value: 50_370 }], fake.tipHeight - 5);
    expect(judge(await explorer().lookup(elsewhere), expected())).toMatchObject({
      kind: 'mismatch',
      reason: 'destination',
      seen: { to: OTHER, amount: '0.0005037' },
    });
    // a bech32 address in capitals is the same address
    const upper = newTxid();
    fake.transaction(upper, [{ address: OURS.toUpperCase(), value: 50_370 }], fake.tipHeight - 5);
    expect(judge(await explorer().lookup(upper), expected({ units: null }))).toMatchObject({
      kind: 'unpriced',
      seen: { amount: '0.0005037' },
    });
  });

  it('reads mempool.space’s price, and none from a plain Esplora', async () => {
    fake.usd = 97_123.45;
    const priced = explorer();
    expect(await priced.usdPrice!()).toBe(97_123.45);
    fake.usd = 1;
    // read again only after a minute
    expect(await priced.usdPrice!()).toBe(97_123.45);
    fake.usd = undefined;
    expect(await explorer().usdPrice!()).toBeUndefined();
    fake.usd = 100_000;
  });

  it('is unavailable when the explorer answers 503 or too slowly', async () => {
    const txid = newTxid();
    fake.transaction(txid, [{ address: OURS, value: 50_370 }], fake.tipHeight);
    fake.mode = 'down';
    try {
      await expect(explorer().lookup(txid)).rejects.toThrow(ExplorerUnavailable);
      await expect(explorer().usdPrice!()).rejects.toThrow(/HTTP 503/);
      fake.mode = 'slow';
      fake.slowMs = 500;
      await expect(explorer(100).lookup(txid)).rejects.toThrow(/timed out/);
    } finally {
      fake.mode = 'up';
    }
    expect(await explorer().lookup(txid)).toMatchObject({ found: true, confirmations: 1 });
  });
});
