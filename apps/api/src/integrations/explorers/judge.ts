import type { ChainLookup } from './port.ts';

/** What a payment must be to count for a top-up request. */
export interface Expected {
  /** The provider's wallet of the network. */
  address: string;
  /** The token (the USDT contract), or null for the coin. */
  token: string | null;
  /** The exact amount in the asset's smallest unit; null when none was fixed (BTC unpriced). */
  units: bigint | null;
  decimals: number;
  /** Decimals an amount is shown with at least (USDT as dollars: 2); none unless told. */
  shownDecimals?: number;
  /** The request's creation: a payment made before it is not for it. */
  notBefore: Date;
  /** The depth at which it counts as final (CRYPTO_CONFIRMATIONS). */
  confirmations: number;
}

/** What the explorer showed, kept on the payment for the operator (and the next check). */
export interface Seen {
  /** Where the transaction paid: our address when it did, else the first address it paid. */
  to: string | null;
  /** What it paid there, in the asset ("50.37", "0.00052345"); null for another token. */
  amount: string | null;
  /** The token it paid in, when it is not the expected one. */
  token: string | null;
  confirmations: number;
  block_time: string | null;
}

export type MismatchReason = 'destination' | 'token' | 'amount' | 'before_request';

export type Verdict =
  | { kind: 'not_found' }
  /** It does not pay this request: refused, whatever its depth. */
  | { kind: 'mismatch'; reason: MismatchReason; seen: Seen }
  /** It pays this request exactly, not yet deep enough. */
  | { kind: 'pending'; seen: Seen }
  /** It pays this request exactly and is deep enough: credit it. */
  | { kind: 'ready'; seen: Seen }
  /** It pays our address, but no exact amount was fixed to compare: the operator decides. */
  | { kind: 'unpriced'; seen: Seen };

/** Bech32 addresses (bc1…) are case-blind; base58 ones (TRON's, BTC's 1… and 3…) are not. */
export function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  return /^(bc1|tb1|bcrt1)/i.test(a) && a.toLowerCase() === b.toLowerCase();
}

/**
 * An amount in smallest units as a decimal of the asset, with at least `shown` decimals:
 * 50370000n, 6 -> "50.37"; 1000000n, 6, 2 -> "1.00".
 */
export function formatUnits(units: bigint, decimals: number, shown = 0): string {
  const text = units.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text
    .slice(text.length - decimals)
    .replace(/0+$/, '')
    .padEnd(Math.min(shown, decimals), '0');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A decimal of the asset in smallest units: "50.37", 6 -> 50370000n; null if finer than that. */
export function parseUnits(amount: string, decimals: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

/**
 * Whether a transaction pays a request: to our address, in the expected token, exactly the
 * amount (the sum of its payments to our address: a wallet may split one), not before the
 * request was made; and how deep it is.
 */
export function judge(lookup: ChainLookup, expected: Expected): Verdict {
  if (!lookup.found) return { kind: 'not_found' };
  const { confirmations } = lookup;
  const block_time = lookup.blockTime?.toISOString() ?? null;
  const ours = lookup.transfers.filter((t) => sameAddress(t.to, expected.address));
  const inToken = ours.filter((t) => t.token === expected.token);
  if (inToken.length === 0) {
    const other = ours[0];
    if (other) {
      const seen = { to: other.to, amount: null, token: other.token, confirmations, block_time };
      return { kind: 'mismatch', reason: 'token', seen };
    }
    const first = lookup.transfers.find((t) => t.token === expected.token) ?? lookup.transfers[0];
    const seen: Seen = {
      to: first?.to ?? null,
      amount:
        first && first.token === expected.token
          ? formatUnits(first.units, expected.decimals, expected.shownDecimals)
          : null,
      token: first && first.token !== expected.token ? first.token : null,
      confirmations,
      block_time,
    };
    return { kind: 'mismatch', reason: 'destination', seen };
  }
  const paid = inToken.reduce((sum, t) => sum + t.units, 0n);
  const seen: Seen = {
    to: inToken[0]!.to,
    amount: formatUnits(paid, expected.decimals, expected.shownDecimals),
    token: null,
    confirmations,
    block_time,
  };
  if (lookup.blockTime && lookup.blockTime < expected.notBefore)
    return { kind: 'mismatch', reason: 'before_request', seen };
  if (expected.units === null) return { kind: 'unpriced', seen };
  if (paid !== expected.units) return { kind: 'mismatch', reason: 'amount', seen };
  return { kind: confirmations >= expected.confirmations ? 'ready' : 'pending', seen };
}
