import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newTxid,
  randomTronAddress,
  startFakeTronGrid,
  tronHex,
  USDC_CONTRACT,
  USDT_CONTRACT,
  type FakeTronGrid,
} from '../../../test/explorer-fakes.ts';
import { judge, type Expected } from './judge.ts';
import { ExplorerUnavailable } from './port.ts';
import { tronAddress } from './tron-address.ts';
import { createTronGridExplorer, USDT_TRC20_CONTRACT } from './trongrid.ts';

const OURS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

let fake: FakeTronGrid;
beforeAll(async () => {
  fake = await startFakeTronGrid();
});
afterAll(() => fake.close());

const explorer = (timeoutMs = 2_000) =>
  createTronGridExplorer({ baseUrl: `${fake.url}/`, apiKey: 'test-key', timeoutMs });

/** 50.37 USDT, fixed when the request was made an hour ago, final at 19 blocks. */
const expected = (over: Partial<Expected> = {}): Expected => ({
  address: OURS,
  token: USDT_TRC20_CONTRACT,
  units: 50_370_000n,
  decimals: 6,
  notBefore: new Date(Date.now() - 3_600_000),
  confirmations: 19,
  ...over,
});

describe('TRON addresses', () => {
  it('turns the hex of an event back into the base58 address wallets show', () => {
    for (const address of [OURS, USDT_CONTRACT, USDC_CONTRACT, randomTronAddress()]) {
      expect(tronAddress(tronHex(address))).toBe(address);
      expect(tronAddress(`41${tronHex(address).slice(2)}`)).toBe(address);
    }
    expect(tronAddress(OURS)).toBe(OURS);
  });
});

describe('the TronGrid driver', () => {
  it('reads a USDT transfer to our wallet with its depth, and sends the API key', async () => {
    const txid = newTxid();
    fake.transfer({ txid, to: OURS, value: '50370000', block: fake.nowBlock - 25 });
    const lookup = await explorer().lookup(txid);
    expect(lookup).toMatchObject({
      found: true,
      confirmations: 26,
      transfers: [{ to: OURS, units: 50_370_000n, token: USDT_TRC20_CONTRACT }],
    });
    expect(judge(lookup, expected())).toMatchObject({
      kind: 'ready',
      seen: { to: OURS, amount: '50.37', confirmations: 26 },
    });
    const paths = fake.calls.slice(-2).map((c) => `${c.method} ${c.path}`);
    expect(paths).toEqual([`GET /v1/transactions/${txid}/events`, 'GET /wallet/getnowblock']);
    expect(fake.calls.at(-1)!.headers['tron-pro-api-key']).toBe('test-key');
  });

  it('counts a transfer in a block not yet solidified as pending', async () => {
    const txid = newTxid();
    fake.transfer({ txid, to: OURS, value: '50370000', block: fake.nowBlock - 3 });
    const lookup = await explorer().lookup(txid);
    expect(lookup).toMatchObject({ found: true, confirmations: 4 });
    expect(judge(lookup, expected())).toMatchObject({ kind: 'pending', seen: { amount: '50.37' } });
  });

  it('says not found for an unknown id, as an empty list or a 404', async () => {
    expect(await explorer().lookup(newTxid())).toEqual({ found: false });
    fake.unknownAs = 404;
    try {
      expect(await explorer().lookup(newTxid())).toEqual({ found: false });
    } finally {
      fake.unknownAs = 'empty';
    }
    expect(judge({ found: false }, expected())).toEqual({ kind: 'not_found' });
  });

  it('finds a wrong amount, a wrong destination, another token and an older payment', async () => {
    const cases: [string, Parameters<FakeTronGrid['transfer']>[0], string, object][] = [
      ['amount', { txid: newTxid(), to: OURS, value: '50000000' }, 'amount', { amount: '50' }],
      [
        'destination',
        { txid: newTxid(), to: randomTronAddress(), value: '50370000' },
        'destination',
        { amount: '50.37' },
      ],
      [
        'token',
        { txid: newTxid(), to: OURS, value: '50370000', contract: USDC_CONTRACT },
        'token',
        { to: OURS, token: USDC_CONTRACT, amount: null },
      ],
      [
        'before',
        { txid: newTxid(), to: OURS, value: '50370000', timestamp: Date.now() - 7_200_000 },
        'before_request',
        { amount: '50.37' },
      ],
    ];
    for (const [name, transfer, reason, seen] of cases) {
      fake.transfer({ ...transfer, block: fake.nowBlock - 30 });
      const verdict = judge(await explorer().lookup(transfer.txid), expected());
      expect(verdict, name).toMatchObject({ kind: 'mismatch', reason, seen });
    }
  });

  it('adds up a transaction that pays our wallet in two transfers', async () => {
    const txid = newTxid();
    fake.transfer({ txid, to: OURS, value: '50000000', block: fake.nowBlock - 20 });
    fake.transfer({ txid, to: OURS, value: '370000', block: fake.nowBlock - 20 });
    expect(judge(await explorer().lookup(txid), expected())).toMatchObject({ kind: 'ready' });
  });

  it('is unavailable when TronGrid answers 503 or too slowly', async () => {
    const txid = newTxid();
    fake.transfer({ txid, to: OURS, value: '50370000' });
    fake.mode = 'down';
    try {
      await expect(explorer().lookup(txid)).rejects.toThrow(ExplorerUnavailable);
      await expect(explorer().lookup(txid)).rejects.toThrow(/HTTP 503/);
      fake.mode = 'slow';
      fake.slowMs = 500;
      await expect(explorer(100).lookup(txid)).rejects.toThrow(/timed out/);
    } finally {
      fake.mode = 'up';
    }
    expect(await explorer().lookup(txid)).toMatchObject({ found: true });
  });

  it('is unavailable when nothing listens', async () => {
    const gone = createTronGridExplorer({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 1_000 });
    await expect(gone.lookup(newTxid())).rejects.toThrow(ExplorerUnavailable);
  });
});
