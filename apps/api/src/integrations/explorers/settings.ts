/**
 * The chain explorers' settings: CRYPTO_EXPLORER (which explorer reads which network; off unless
 * set), CRYPTO_CONFIRMATIONS (the depth at which a payment counts as final) and TRONGRID_API_KEY.
 */

/** The networks an explorer driver reads, each with its driver. */
export const EXPLORER_DRIVERS = { 'USDT-TRC20': 'trongrid', BTC: 'esplora' } as const;
export type ExplorerNetwork = keyof typeof EXPLORER_DRIVERS;

/** CRYPTO_EXPLORER=on: the public explorers. */
export const PUBLIC_EXPLORERS: Record<ExplorerNetwork, string> = {
  'USDT-TRC20': 'https://api.trongrid.io',
  BTC: 'https://mempool.space/api',
};

/**
 * Blocks on top of a payment's own before it is credited by itself. TRON: 19, a solidified block
 * (more than two thirds of its 27 block producers have built on it; TronGrid's "confirmed").
 * BTC: 2, the block and one more (a one-block reorganisation no longer takes it away).
 */
export const DEFAULT_CONFIRMATIONS: Record<ExplorerNetwork, number> = { 'USDT-TRC20': 19, BTC: 2 };

/** How long one call to an explorer may take. */
export const EXPLORER_TIMEOUT_MS = 5_000;

export interface ExplorerSettings {
  /** The explorers switched on: network and API root. Empty: operators check by hand. */
  drivers: { network: ExplorerNetwork; url: string }[];
  tronGridApiKey: string | undefined;
  confirmations: Record<ExplorerNetwork, number>;
  timeoutMs: number;
}

const isNetwork = (id: string): id is ExplorerNetwork => Object.hasOwn(EXPLORER_DRIVERS, id);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** CRYPTO_EXPLORER's explorers, or null when it is not off, on or a list NETWORK=url. */
export function parseCryptoExplorer(value: string | undefined): ExplorerSettings['drivers'] | null {
  const text = (value ?? 'off').trim();
  if (text === 'off') return [];
  if (text === 'on')
    return Object.entries(PUBLIC_EXPLORERS).map(([network, url]) => ({
      network: network as ExplorerNetwork,
      url,
    }));
  const drivers: ExplorerSettings['drivers'] = [];
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const network = pair.slice(0, at).trim();
    const url = pair.slice(at + 1).trim();
    if (at < 0 || !isNetwork(network) || !isHttpUrl(url)) return null;
    if (drivers.some((d) => d.network === network)) return null;
    drivers.push({ network, url });
  }
  return drivers;
}

/** CRYPTO_CONFIRMATIONS over the defaults, or null when it is not a list NETWORK=1..1000. */
export function parseConfirmations(
  value: string | undefined,
): ExplorerSettings['confirmations'] | null {
  const confirmations = { ...DEFAULT_CONFIRMATIONS };
  if (value === undefined || value.trim() === '') return confirmations;
  for (const pair of value.split(',')) {
    const [network = '', depth = ''] = pair.split('=').map((s) => s.trim());
    const n = Number(depth);
    if (!isNetwork(network) || !/^\d{1,4}$/.test(depth) || n < 1 || n > 1000) return null;
    confirmations[network] = n;
  }
  return confirmations;
}

export const CRYPTO_EXPLORER_FORMS =
  'off, on (TronGrid and mempool.space), or a comma list of NETWORK=url for USDT-TRC20 and BTC';
export const CRYPTO_CONFIRMATIONS_FORMS =
  'a comma list of NETWORK=blocks (1 to 1000) for USDT-TRC20 and BTC, such as USDT-TRC20=19,BTC=2';
