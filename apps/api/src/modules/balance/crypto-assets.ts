/**
 * The asset each network's payment is made in. USDT is a dollar: a request's dollars are sent as
 * that many USDT. BTC's amount follows a price fixed when the request is made. Other networks of
 * CRYPTO_WALLETS have none here: their requests fix dollars only, and the operator converts.
 */
export const CRYPTO_ASSETS: Record<string, { asset: string; decimals: number; dollar: boolean }> = {
  'USDT-TRC20': { asset: 'USDT', decimals: 6, dollar: true },
  'USDT-ERC20': { asset: 'USDT', decimals: 6, dollar: true },
  'USDT-BEP20': { asset: 'USDT', decimals: 18, dollar: true },
  BTC: { asset: 'BTC', decimals: 8, dollar: false },
};
