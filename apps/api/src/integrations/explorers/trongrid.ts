import { getJson, trimBase, type HttpSettings } from './http.ts';
import { ExplorerUnavailable, type ChainExplorer, type ChainLookup } from './port.ts';
import { tronAddress } from './tron-address.ts';

/** Tether's USDT contract on TRON's main network. */
export const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export interface TronGridSettings {
  /** https://api.trongrid.io, or another node with TronGrid's v1 API. */
  baseUrl: string;
  /** TRONGRID_API_KEY, sent as TRON-PRO-API-KEY (TronGrid limits calls without one). */
  apiKey?: string | undefined;
  timeoutMs: number;
  /** The token a payment must be in; USDT's contract unless told. */
  contract?: string;
  fetch?: typeof fetch;
}

/** An event of GET /v1/transactions/{id}/events, as far as it is read. */
interface TronEvent {
  block_number?: number;
  block_timestamp?: number;
  contract_address?: string;
  event_name?: string;
  result?: Record<string, string>;
  /** Set (true) on events of a block not yet solidified. */
  _unconfirmed?: boolean;
}

/**
 * USDT-TRC20 through TronGrid: a transaction's TRC-20 transfers are the `Transfer` events it
 * emitted (GET /v1/transactions/{txid}/events; only a transaction that succeeded emits any), and
 * its depth is the newest block (GET /wallet/getnowblock) less its block, plus one. A transaction
 * without events (unknown, not yet indexed, or a plain TRX transfer) is not found. Addresses in
 * events are hex; they are compared in base58, as wallets show them.
 */
export function createTronGridExplorer(settings: TronGridSettings): ChainExplorer {
  const base = trimBase(settings.baseUrl);
  const http: HttpSettings = {
    timeoutMs: settings.timeoutMs,
    headers: settings.apiKey ? { 'TRON-PRO-API-KEY': settings.apiKey } : {},
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  };
  const token = settings.contract ?? USDT_TRC20_CONTRACT;

  async function newestBlock(): Promise<number> {
    const now = (await getJson(`${base}/wallet/getnowblock`, http)) as {
      block_header?: { raw_data?: { number?: unknown } };
    } | null;
    const number = now?.block_header?.raw_data?.number;
    if (typeof number !== 'number' || !Number.isSafeInteger(number))
      throw new ExplorerUnavailable('trongrid: getnowblock has no block number');
    return number;
  }

  return {
    network: 'USDT-TRC20',
    driver: 'trongrid',
    token,

    async lookup(txid: string): Promise<ChainLookup> {
      const answer = (await getJson(
        `${base}/v1/transactions/${encodeURIComponent(txid)}/events`,
        http,
      )) as { success?: boolean; data?: TronEvent[] } | null;
      if (answer === null) return { found: false };
      if (answer.success === false || !Array.isArray(answer.data))
        throw new ExplorerUnavailable('trongrid: the events answer has no data');
      const events = answer.data;
      const first = events[0];
      if (!first) return { found: false };
      const block = first.block_number;
      if (typeof block !== 'number')
        throw new ExplorerUnavailable('trongrid: an event without a block');
      const transfers = events.flatMap((event) => {
        const to = event.result?.to;
        const value = event.result?.value;
        if (event.event_name !== 'Transfer' || !to || !value || !/^\d{1,78}$/.test(value))
          return [];
        return [
          {
            to: tronAddress(to),
            units: BigInt(value),
            token: event.contract_address ? tronAddress(event.contract_address) : null,
          },
        ];
      });
      const confirmations = Math.max(0, (await newestBlock()) - block + 1);
      return {
        found: true,
        confirmations,
        blockTime:
          typeof first.block_timestamp === 'number' ? new Date(first.block_timestamp) : null,
        transfers,
      };
    },
  };
}
