import { getJson, getText, trimBase, type HttpSettings } from './http.ts';
import { ExplorerUnavailable, type ChainExplorer, type ChainLookup } from './port.ts';

export interface EsploraSettings {
  /** The API's root: https://mempool.space/api, https://blockstream.info/api, or one's own. */
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** GET /tx/{txid}, as far as it is read (amounts in satoshis). */
interface EsploraTx {
  vout?: { scriptpubkey_address?: string; value?: number }[];
  status?: { confirmed?: boolean; block_height?: number; block_time?: number };
}

/** How long a price read from the explorer is used before it is read again. */
const PRICE_TTL_MS = 60_000;

/**
 * BTC through an Esplora API (Blockstream's, mempool.space's): a transaction's payments are its
 * outputs with an address (GET /tx/{txid}), its depth the tip's height (GET /blocks/tip/height)
 * less its block's, plus one. mempool.space also publishes a price (GET /v1/prices, `USD`),
 * kept a minute once read; a plain Esplora has none (404) and usdPrice says undefined.
 */
export function createEsploraExplorer(settings: EsploraSettings): ChainExplorer {
  const base = trimBase(settings.baseUrl);
  const http: HttpSettings = {
    timeoutMs: settings.timeoutMs,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  };
  let price: { usd: number; at: number } | undefined;

  async function tipHeight(): Promise<number> {
    const text = await getText(`${base}/blocks/tip/height`, http);
    const height = Number(text?.trim());
    if (text === null || !Number.isSafeInteger(height) || height < 0)
      throw new ExplorerUnavailable('esplora: the tip height is not a number');
    return height;
  }

  return {
    network: 'BTC',
    driver: 'esplora',
    token: null,

    async lookup(txid: string): Promise<ChainLookup> {
      const tx = (await getJson(
        `${base}/tx/${encodeURIComponent(txid)}`,
        http,
      )) as EsploraTx | null;
      if (tx === null) return { found: false };
      if (!Array.isArray(tx.vout) || typeof tx.status !== 'object')
        throw new ExplorerUnavailable('esplora: the transaction has no outputs or status');
      const transfers = tx.vout.flatMap((out) =>
        out.scriptpubkey_address && Number.isSafeInteger(out.value)
          ? [{ to: out.scriptpubkey_address, units: BigInt(out.value!), token: null }]
          : [],
      );
      const { confirmed, block_height: height, block_time: time } = tx.status;
      if (!confirmed || typeof height !== 'number')
        return { found: true, confirmations: 0, blockTime: null, transfers };
      return {
        found: true,
        confirmations: Math.max(0, (await tipHeight()) - height + 1),
        blockTime: typeof time === 'number' ? new Date(time * 1000) : null,
        transfers,
      };
    },

    async usdPrice(): Promise<number | undefined> {
      if (price && Date.now() - price.at < PRICE_TTL_MS) return price.usd;
      const prices = (await getJson(`${base}/v1/prices`, http)) as { USD?: unknown } | null;
      const usd =
        typeof prices?.USD === 'number' && Number.isFinite(prices.USD) && prices.USD > 0
          ? prices.USD
          : undefined;
      // a price is kept a minute; none (a plain Esplora) is asked again next time
      if (usd !== undefined) price = { usd, at: Date.now() };
      return usd;
    },
  };
}
