/**
 * A chain explorer: reads one transaction of a crypto network and says where it sent what, and
 * how deep it is. The balance module judges it against a top-up request (judge.ts); the drivers
 * only read (trongrid.ts for USDT-TRC20, esplora.ts for BTC).
 */

/** One payment a transaction made: to whom, how much, of which token. */
export interface ChainTransfer {
  /** The receiving address as the network writes it (TRON base58 `T…`, BTC `bc1…`). */
  to: string;
  /** In the asset's smallest unit (USDT: 10⁻⁶, BTC: the satoshi). */
  units: bigint;
  /** The token's contract (TRC-20), or null for the network's own coin. */
  token: string | null;
}

export type ChainLookup =
  /** The explorer does not know the transaction (yet): not broadcast, or not indexed so far. */
  | { found: false }
  | {
      found: true;
      /** 0 while it waits in the mempool; 1 in the newest block. */
      confirmations: number;
      /** The time of its block; null while unconfirmed. */
      blockTime: Date | null;
      transfers: ChainTransfer[];
    };

export interface ChainExplorer {
  /** The network it reads, a CRYPTO_WALLETS id: USDT-TRC20, BTC. */
  readonly network: string;
  /** The driver, for logs and the operator: trongrid, esplora. */
  readonly driver: string;
  /** The token a payment must be in (the USDT contract), or null for the coin itself. */
  readonly token: string | null;
  /**
   * The transaction. Throws ExplorerUnavailable when the explorer cannot say (down, slow,
   * refusing, answering nonsense): the caller keeps the payment waiting and asks again later.
   */
  lookup(txid: string): Promise<ChainLookup>;
  /**
   * Dollars per whole coin, when the explorer publishes a price (mempool.space does, a plain
   * Esplora does not: undefined); for fixing a BTC amount when a request is made.
   */
  usdPrice?(): Promise<number | undefined>;
}

/** The explorer could not answer (a timeout, a refused connection, a 5xx or 429, bad JSON). */
export class ExplorerUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExplorerUnavailable';
  }
}
