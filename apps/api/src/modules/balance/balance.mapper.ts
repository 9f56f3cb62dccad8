import { centsToDollars, type Charge, type Payment, type Transfer } from '@tradehost/contracts';
import type { charges } from '../../db/schema/index.ts';
import type { PaymentRow } from './balance.repository.ts';
import { CRYPTO_ASSETS } from './crypto-assets.ts';

/** A numeric column's text without the zeros of its scale: "50.37000000" -> "50.37". */
export function decimalText(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** A crypto payment's asset amount and time limit (none for other methods). */
function cryptoFields(row: PaymentRow): Partial<Payment> {
  if (row.method !== 'crypto') return {};
  const asset = row.payAmount === null ? undefined : CRYPTO_ASSETS[row.network ?? ''];
  // USDT as dollars are written, with their cents; BTC to the satoshi, without trailing zeros
  const amount = asset?.dollar
    ? Number(row.payAmount).toFixed(2)
    : decimalText(row.payAmount ?? '');
  return {
    pay_amount: asset ? amount : null,
    pay_asset: asset?.asset ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    method: row.method,
    amount: centsToDollars(row.amountCents),
    currency: row.currency,
    status: row.status,
    network: row.network,
    wallet: row.wallet,
    txid: row.txid,
    reason: row.reason,
    paid_at: row.paidAt?.toISOString() ?? null,
    ...cryptoFields(row),
  };
}

export interface TransferView {
  id: number;
  createdAt: Date;
  amountCents: number;
  fromUserId: number;
  fromName: string;
  fromEmail: string;
  toName: string;
  toEmail: string;
}

/** A transfer as `viewerId` sees it: Sent with the recipient, or Received with the sender. */
export function toTransfer(row: TransferView, viewerId: number): Transfer {
  const sent = row.fromUserId === viewerId;
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    amount: centsToDollars(row.amountCents),
    status: sent ? 'sent' : 'received',
    counterparty: sent
      ? { name: row.toName, email: row.toEmail }
      : { name: row.fromName, email: row.fromEmail },
  };
}

export function toCharge(row: typeof charges.$inferSelect, language: 'en' | 'ru'): Charge {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    amount: centsToDollars(row.amountCents),
    description: language === 'ru' ? row.descriptionRu : row.descriptionEn,
    status: row.status,
  };
}

export { toWithdrawal } from '../../db/withdrawal-view.ts';
