import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { postKeyed, type Json, type TestApp } from './helpers.ts';

/**
 * Crypto top-ups through the API as a user makes them: a request (the exact amount to send),
 * then the report of its payment (the payer's wallet and the TXID).
 */

export const CRYPTO_REQUEST = '/api/user/balance/crypto-request';
export const CRYPTO_REQUESTS = '/api/user/balance/crypto-requests';
export const CRYPTO_REPORT = '/api/user/balance/crypto';
export const PAYER_WALLET = 'TPayerWalletAddress0000000000001';

/** A fresh 64-hex transaction id. */
export const newTxid = () => randomBytes(32).toString('hex');

/** A request of `amount` dollars on `network`: its answer (payment Processing, address, QR). */
export async function cryptoRequest(
  t: TestApp,
  user: { token: string },
  amount: string | number = '50.00',
  network = 'USDT-TRC20',
): Promise<Json> {
  const res = await postKeyed(t, CRYPTO_REQUEST, { network, amount }, user);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The report of a request's payment: the raw answer. */
export function reportCrypto(
  t: TestApp,
  user: { token: string },
  paymentId: number,
  txid: string = newTxid(),
  wallet = PAYER_WALLET,
) {
  return postKeyed(t, CRYPTO_REPORT, { payment_id: paymentId, wallet, txid }, user);
}

/**
 * A crypto payment Under review: a request of `amount` dollars, reported. Its amount is the
 * request's payable one (the dollars and its tag of cents).
 */
export async function cryptoPayment(
  t: TestApp,
  user: { token: string },
  amount: string | number = '50.00',
  network = 'USDT-TRC20',
): Promise<Json> {
  const request = await cryptoRequest(t, user, amount, network);
  const res = await reportCrypto(t, user, request.payment.id);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.payment;
}

/** Dollars as the cents they are. */
export const centsOf = (dollars: number) => Math.round(dollars * 100);
