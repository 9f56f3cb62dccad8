import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Chain explorers on 127.0.0.1 that speak the real APIs, for the explorer drivers and the crypto
 * top-up tests: TronGrid (GET /v1/transactions/{id}/events, GET|POST /wallet/getnowblock) and an
 * Esplora (GET /api/tx/{id}, /api/blocks/tip/height, mempool.space's /api/v1/prices). The answer
 * shapes follow the providers' documentation (developers.tron.network, Blockstream's esplora
 * API.md, mempool.space/docs/api). Each can be taken down (503) or made slow (past a timeout).
 */

/** One request a fake received. */
export interface FakeCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface FakeExplorer {
  url: string;
  calls: FakeCall[];
  /** 'up' answers; 'down' answers 503; 'slow' answers after `slowMs`. */
  mode: 'up' | 'down' | 'slow';
  slowMs: number;
  close(): Promise<void>;
}

type Handler = (call: FakeCall, url: URL) => { status: number; type: string; body: string };

async function serve(handler: Handler, prefix = ''): Promise<FakeExplorer & { server: Server }> {
  const fake = {
    url: '',
    calls: [] as FakeCall[],
    mode: 'up' as FakeExplorer['mode'],
    slowMs: 1_000,
  };
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const call = { method: request.method ?? 'GET', path: url.pathname, headers: request.headers };
    fake.calls.push(call);
    request.resume();
    const answer = () => {
      if (response.destroyed) return;
      if (fake.mode === 'down') {
        response.writeHead(503, { 'content-type': 'text/html' });
        return response.end('<html><body><h1>503 Service Unavailable</h1></body></html>');
      }
      const { status, type, body } = handler(call, url);
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    if (fake.mode === 'slow') setTimeout(answer, fake.slowMs).unref();
    else answer();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}${prefix}`;
  return Object.assign(fake, {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

const json = (status: number, body: unknown) => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

/** A random 64-hex transaction id. */
export const newTxid = () => randomBytes(32).toString('hex');

// ---- TRON ----------------------------------------------------------------------------------

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The 20-byte account of a base58 TRON address, as an event's result writes it: 0x and hex. */
export function tronHex(address: string): string {
  let value = 0n;
  for (const char of address) value = value * 58n + BigInt(ALPHABET.indexOf(char));
  const bytes = value.toString(16).padStart(50, '0');
  return `0x${bytes.slice(2, 42)}`;
}

/** A valid TRON address of 20 random bytes (base58check of 0x41 and the bytes). */
export function randomTronAddress(): string {
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)]);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest();
  const whole = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  let value = BigInt(`0x${whole.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  return text;
}

/** Tether's USDT contract on TRON (the real one) and another TRC-20 token's (USDC's). */
export const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const USDC_CONTRACT = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';

export interface TronTransfer {
  txid: string;
  to: string;
  /** In the token's smallest unit (USDT: 6 decimals), as a decimal string. */
  value: string;
  from?: string;
  contract?: string;
  /** The block it is in; the fake's newest block unless told. */
  block?: number;
  /** Milliseconds; now unless told. */
  timestamp?: number;
}

export interface FakeTronGrid extends FakeExplorer {
  /** The newest block (GET /wallet/getnowblock). */
  nowBlock: number;
  /** Unknown transactions: TronGrid's empty list, or a 404. */
  unknownAs: 'empty' | 404;
  /** Puts a TRC-20 Transfer event on a transaction (a transaction may carry several). */
  transfer(transfer: TronTransfer): void;
}

/**
 * TronGrid. An event of GET /v1/transactions/{id}/events as TronGrid writes it: block_number,
 * block_timestamp (ms), contract_address (base58), event_index, event_name, the result's fields
 * by position and by name (addresses as 0x and 40 hex digits, amounts as decimal strings),
 * result_type, event, transaction_id, and `_unconfirmed: true` while its block is not solidified
 * (19 blocks). An unknown id answers an empty list; /wallet/getnowblock the block header.
 */
export async function startFakeTronGrid(): Promise<FakeTronGrid> {
  const events = new Map<string, Record<string, unknown>[]>();
  const base = await serve((call, url) => {
    const match = /^\/v1\/transactions\/([^/]+)\/events$/.exec(call.path);
    if (call.method === 'GET' && match) {
      const list = (events.get(match[1]!) ?? []).map((event) => ({
        ...event,
        ...(fake.nowBlock - (event.block_number as number) + 1 < 19 ? { _unconfirmed: true } : {}),
      }));
      const onlyConfirmed = url.searchParams.get('only_confirmed') === 'true';
      const data = onlyConfirmed ? list.filter((e) => !e._unconfirmed) : list;
      if (data.length === 0 && fake.unknownAs === 404)
        return json(404, { success: false, error: 'transaction not found', statusCode: 404 });
      return json(200, { data, success: true, meta: { at: Date.now(), page_size: data.length } });
    }
    if (call.path === '/wallet/getnowblock' && (call.method === 'GET' || call.method === 'POST')) {
      return json(200, {
        blockID: `${fake.nowBlock.toString(16).padStart(16, '0')}${'ab'.repeat(24)}`,
        block_header: {
          raw_data: {
            number: fake.nowBlock,
            txTrieRoot: 'cd'.repeat(32),
            witness_address: '41' + 'ef'.repeat(20),
            parentHash: `${(fake.nowBlock - 1).toString(16).padStart(16, '0')}${'ab'.repeat(24)}`,
            version: 31,
            timestamp: Date.now(),
          },
          witness_signature: '12'.repeat(65),
        },
      });
    }
    return json(404, { success: false, error: `no route ${call.method} ${call.path}` });
  });
  const fake = Object.assign(base, {
    nowBlock: 70_000_000,
    unknownAs: 'empty' as const,
    transfer(transfer: TronTransfer) {
      const list = events.get(transfer.txid) ?? [];
      const from = tronHex(transfer.from ?? randomTronAddress());
      const to = tronHex(transfer.to);
      list.push({
        block_number: transfer.block ?? fake.nowBlock,
        block_timestamp: transfer.timestamp ?? Date.now(),
        caller_contract_address: transfer.contract ?? USDT_CONTRACT,
        contract_address: transfer.contract ?? USDT_CONTRACT,
        event_index: list.length,
        event_name: 'Transfer',
        result: { 0: from, 1: to, 2: transfer.value, from, to, value: transfer.value },
        result_type: { from: 'address', to: 'address', value: 'uint256' },
        event: 'Transfer(address indexed from, address indexed to, uint256 value)',
        transaction_id: transfer.txid,
      });
      events.set(transfer.txid, list);
    },
  }) as FakeTronGrid;
  return fake;
}

// ---- Bitcoin -------------------------------------------------------------------------------

export interface BtcOutput {
  address: string;
  /** Satoshis. */
  value: number;
}

export interface FakeEsplora extends FakeExplorer {
  tipHeight: number;
  /** GET /api/v1/prices's USD (mempool.space); undefined answers 404, as a plain Esplora. */
  usd: number | undefined;
  /** A transaction with these outputs; in the block `height` (unconfirmed without one). */
  transaction(txid: string, outputs: BtcOutput[], height?: number, time?: number): void;
}

/**
 * An Esplora under /api, as Blockstream's and mempool.space's: GET /api/tx/{id} is the
 * transaction (vin, vout with scriptpubkey_address and value in satoshis, status with
 * confirmed, block_height, block_hash, block_time) or 404 "Transaction not found";
 * /api/blocks/tip/height the height as text; /api/v1/prices mempool.space's price object.
 */
export async function startFakeEsplora(): Promise<FakeEsplora> {
  const txs = new Map<string, Record<string, unknown>>();
  const text = (status: number, body: string) => ({ status, type: 'text/plain', body });
  const base = await serve((call) => {
    if (call.method !== 'GET') return text(404, 'Not Found');
    const path = call.path.replace(/^\/api/, '');
    const tx = /^\/tx\/([^/]+)$/.exec(path);
    if (tx) {
      if (!/^[0-9a-f]{64}$/.test(tx[1]!)) return text(400, 'Invalid hex string');
      const found = txs.get(tx[1]!);
      return found ? json(200, found) : text(404, 'Transaction not found');
    }
    if (path === '/blocks/tip/height') return text(200, String(fake.tipHeight));
    if (path === '/v1/prices') {
      if (fake.usd === undefined) return text(404, 'Not Found');
      const usd = fake.usd;
      return json(200, {
        time: Math.floor(Date.now() / 1000),
        USD: usd,
        EUR: Math.round(usd * 0.92),
        GBP: Math.round(usd * 0.79),
        CAD: Math.round(usd * 1.37),
        CHF: Math.round(usd * 0.88),
        AUD: Math.round(usd * 1.52),
        JPY: Math.round(usd * 150),
      });
    }
    return text(404, 'Not Found');
  }, '/api');
  const fake = Object.assign(base, {
    tipHeight: 880_000,
    usd: 100_000 as number | undefined,
    transaction(txid: string, outputs: BtcOutput[], height?: number, time?: number) {
      txs.set(txid, {
        txid,
        version: 2,
        locktime: 0,
        vin: [
          {
            txid: newTxid(),
            vout: 1,
            prevout: {
              scriptpubkey: `0014${'11'.repeat(20)}`,
              scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${'11'.repeat(20)}`,
              scriptpubkey_type: 'v0_p2wpkh',
              scriptpubkey_address: 'bc1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3xmz8ga',
              value: outputs.reduce((sum, o) => sum + o.value, 0) + 5_000,
            },
            scriptsig: '',
            scriptsig_asm: '',
            witness: ['30'.repeat(71), '02'.repeat(33)],
            is_coinbase: false,
            sequence: 4294967293,
          },
        ],
        vout: outputs.map((output) => ({
          scriptpubkey: `0014${'22'.repeat(20)}`,
          scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${'22'.repeat(20)}`,
          scriptpubkey_type: 'v0_p2wpkh',
          scriptpubkey_address: output.address,
          value: output.value,
        })),
        size: 222,
        weight: 561,
        fee: 5_000,
        status:
          height === undefined
            ? { confirmed: false }
            : {
                confirmed: true,
                block_height: height,
                block_hash: `00000000000000000002${'ab'.repeat(22)}`,
                block_time: time ?? Math.floor(Date.now() / 1000),
              },
      });
    },
  }) as FakeEsplora;
  return fake;
}
