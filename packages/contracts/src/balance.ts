import * as z from 'zod/mini';
import { EMAIL_MAX } from './limits.ts';
import { parseAmountToCents } from './money.ts';
import { emailSchema } from './auth.ts';
import { idSchema } from './input.ts';

/**
 * Balance contracts: top-ups (card, e-wallet, crypto, partner balance), transfers, the four
 * histories. Amounts travel as dollars (a number or a decimal string, at most two decimals) and
 * the request schemas turn them into integer cents; answers carry dollars with two decimals.
 */

export { MAX_AMOUNT_CENTS, centsToDollars, formatCents, parseAmountToCents } from './money.ts';

export const CURRENCY = 'USD';

/** SPEC 9: bank card, e-wallet, crypto wallet, account balance (the partner balance moved in). */
export const PAYMENT_METHODS = ['card', 'ewallet', 'crypto', 'balance'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods paid on a gateway's page. */
export const GATEWAY_METHODS = ['card', 'ewallet'] as const;
export type GatewayMethod = (typeof GATEWAY_METHODS)[number];

/** SPEC 4, every operation status; each history uses its own subset. */
export const OPERATION_STATUSES = [
  'received',
  'sent',
  'under_review',
  'paid_out',
  'cancelled',
  'paid',
  'not_paid',
  'processing',
  'rejected',
  'deleted',
] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** Card and e-wallet: processing -> paid | not_paid. Crypto: under_review -> paid | rejected. */
export const PAYMENT_STATUSES = [
  'processing',
  'paid',
  'not_paid',
  'under_review',
  'rejected',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const CHARGE_STATUSES = ['paid', 'cancelled'] as const;
export const WITHDRAWAL_STATUSES = ['received', 'under_review', 'paid_out', 'cancelled'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const TRANSFER_DIRECTIONS = ['sent', 'received'] as const;

/** A positive amount in dollars, parsed to cents. */
export const amountSchema = z.pipe(
  z
    .union([z.string(), z.number()], { error: 'AMOUNT_INVALID' })
    .check(z.refine((value) => parseAmountToCents(value) !== null, { error: 'AMOUNT_INVALID' })),
  z.transform((value) => parseAmountToCents(value) as number),
);

/** A non-zero amount in dollars that may start with a minus sign, parsed to signed cents. */
export const signedAmountSchema = z.pipe(
  z
    .union([z.string(), z.number()], { error: 'AMOUNT_INVALID' })
    .check(z.refine((value) => parseSignedCents(value) !== null, { error: 'AMOUNT_INVALID' })),
  z.transform((value) => parseSignedCents(value) as number),
);

export function parseSignedCents(value: unknown): number | null {
  if (typeof value === 'number') {
    const cents = parseAmountToCents(Math.abs(value));
    return cents === null ? null : Math.sign(value) * cents;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const negative = text.startsWith('-');
  const cents = parseAmountToCents(negative ? text.slice(1) : text.replace(/^\+/, ''));
  return cents === null ? null : negative ? -cents : cents;
}

export const CRYPTO_NETWORK_ID = /^[A-Z0-9]{2,10}(?:-[A-Z0-9]{2,10})?$/;
export const WALLET_MAX = 128;
export const TXID_MAX = 128;

const walletSchema = z
  .string({ error: 'WALLET_INVALID' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'WALLET_REQUIRED', abort: true }),
    z.regex(/^[A-Za-z0-9:_-]{16,128}$/, { error: 'WALLET_INVALID' }),
  );

/**
 * A transaction id as payments keep and compare it: a 64-digit hex hash (TRON, BTC, the EVM
 * networks) in lower case without the 0x some explorers put before it, so one transaction is one
 * id however it was copied; any other form (base58, base64url) as given.
 */
export function normalizeTxid(txid: string): string {
  const text = txid.trim();
  const hex = /^(?:0x)?([0-9a-f]{64})$/i.exec(text)?.[1];
  return hex ? hex.toLowerCase() : text;
}

/** A transaction hash: hex (with or without 0x) or base58/base64url; normalizeTxid'd. */
const txidSchema = z.pipe(
  z
    .string({ error: 'TXID_INVALID' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'TXID_REQUIRED', abort: true }),
      z.regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'TXID_INVALID' }),
    ),
  z.transform(normalizeTxid),
);

// ---- methods ------------------------------------------------------------------------------

export const cryptoNetworkSchema = z.object({
  /** e.g. USDT-TRC20, BTC. */
  id: z.string(),
  /** e.g. "USDT (TRC-20)". */
  name: z.string(),
});
export type CryptoNetwork = z.infer<typeof cryptoNetworkSchema>;

export const paymentMethodInfoSchema = z.object({
  id: z.enum(PAYMENT_METHODS),
  /** Dollars. */
  min: z.number(),
  /** Dollars. */
  max: z.number(),
  /** False when no gateway serving it is configured. */
  available: z.boolean(),
  /** Crypto only: the networks the provider has a wallet on. */
  networks: z.optional(z.array(cryptoNetworkSchema)),
});
export type PaymentMethodInfo = z.infer<typeof paymentMethodInfoSchema>;

export const paymentMethodsResponseSchema = z.object({
  currency: z.literal(CURRENCY),
  methods: z.array(paymentMethodInfoSchema),
});
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponseSchema>;

// ---- payments (top-ups) -------------------------------------------------------------------

/** A payment's method: a top-up method, or `adjustment` (an operator's correction, with its reason). */
export const PAYMENT_KINDS = [...PAYMENT_METHODS, 'adjustment'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const paymentSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  method: z.enum(PAYMENT_KINDS),
  /** Dollars. */
  amount: z.number(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  /** Crypto: the network, the payer's wallet and the transaction id. */
  network: z.nullable(z.string()),
  wallet: z.nullable(z.string()),
  txid: z.nullable(z.string()),
  /** Rejected crypto payments and adjustments: the operator's reason, shown to the user. */
  reason: z.nullable(z.string()),
  paid_at: z.nullable(z.iso.datetime()),
  /**
   * Crypto: the exact amount to send in the network's asset ("50.37" USDT, "0.0005037" BTC),
   * null when only dollars were fixed (BTC without a price); absent for other methods.
   */
  pay_amount: z.optional(z.nullable(z.string())),
  /** Its asset: USDT, BTC. */
  pay_asset: z.optional(z.nullable(z.string())),
  /** A crypto top-up request: until when it can be paid and reported. */
  expires_at: z.optional(z.nullable(z.iso.datetime())),
});
export type Payment = z.infer<typeof paymentSchema>;

export const depositRequestSchema = z.object({
  method: z.enum(['card', 'ewallet', 'balance'], { error: 'METHOD_UNAVAILABLE' }),
  amount: amountSchema,
});
export type DepositRequest = z.input<typeof depositRequestSchema>;

/** Where the console sends the browser: a form with these fields, submitted to `url`. */
export const checkoutSchema = z.object({
  url: z.string(),
  http_method: z.enum(['GET', 'POST']),
  fields: z.record(z.string(), z.string()),
  /** SPEC 3: order id, order sum, currency and signature of the payment. */
  order_id: z.string(),
  order_sum: z.string(),
  currency: z.string(),
  signature: z.string(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const depositResponseSchema = z.object({
  payment: paymentSchema,
  /** Card and e-wallet: the gateway's page. Balance: null (the money has moved). */
  checkout: z.nullable(checkoutSchema),
  message: z.string(),
  code: z.optional(z.string()),
});
export type DepositResponse = z.infer<typeof depositResponseSchema>;

export const cryptoWalletQuerySchema = z.object({
  network: z.string({ error: 'NETWORK_UNKNOWN' }).check(z.maxLength(32)),
});
export const cryptoWalletResponseSchema = z.object({
  network: z.string(),
  /** The provider's wallet to send to. */
  address: z.string(),
  /** SPEC 3 "wallet QR url": an SVG data URL of the address. */
  wallet_qr_url: z.string(),
});
export type CryptoWalletResponse = z.infer<typeof cryptoWalletResponseSchema>;

/** How long a crypto top-up request holds its amount: pay and report within this. */
export const CRYPTO_REQUEST_HOURS = 24;

/**
 * A crypto top-up starts with a request: the network and the dollars wanted. The answer fixes
 * the exact amount to send (the dollars plus a few cents that no other open request of the
 * network has), so the payment on the chain can be told from anyone else's.
 */
export const cryptoTopUpRequestSchema = z.object({
  network: z
    .string({ error: 'NETWORK_UNKNOWN' })
    .check(z.maxLength(32, { error: 'NETWORK_UNKNOWN' })),
  amount: amountSchema,
});
export type CryptoTopUpRequest = z.input<typeof cryptoTopUpRequestSchema>;

/** An open request: the payment (Processing) and where and how to pay it. */
export const cryptoTopUpSchema = z.object({
  /** `amount` is the payable dollars (all of them are credited); `pay_amount` the asset's. */
  payment: paymentSchema,
  /** The provider's wallet of the network. */
  address: z.string(),
  /** BTC with a fixed amount: the BIP 21 URI (`bitcoin:<address>?amount=<btc>`); else null. */
  payment_uri: z.nullable(z.string()),
  /** An SVG data URL of the QR code: of payment_uri when there is one, else of the address. */
  wallet_qr_url: z.string(),
});
export type CryptoTopUp = z.infer<typeof cryptoTopUpSchema>;

export const cryptoTopUpResponseSchema = z.extend(cryptoTopUpSchema, {
  message: z.string(),
  code: z.optional(z.string()),
});
export type CryptoTopUpResponse = z.infer<typeof cryptoTopUpResponseSchema>;

/** The reader's open requests (still to be paid and reported), newest first. */
export const cryptoTopUpsResponseSchema = z.object({ data: z.array(cryptoTopUpSchema) });
export type CryptoTopUpsResponse = z.infer<typeof cryptoTopUpsResponseSchema>;

/** SPEC 5: the payment of a request is reported with the payer's wallet and the TXID. */
export const cryptoPaymentRequestSchema = z.object({
  payment_id: idSchema('bigserial'),
  wallet: walletSchema,
  txid: txidSchema,
});
export type CryptoPaymentRequest = z.input<typeof cryptoPaymentRequestSchema>;

export const paymentResponseSchema = z.object({
  payment: paymentSchema,
  message: z.optional(z.string()),
  code: z.optional(z.string()),
});
export type PaymentResponse = z.infer<typeof paymentResponseSchema>;

// ---- transfers ----------------------------------------------------------------------------

export const transferRequestSchema = z.object({
  email: z.pipe(
    z.string({ error: 'EMAIL_INVALID' }).check(z.maxLength(EMAIL_MAX, { error: 'EMAIL_INVALID' })),
    emailSchema,
  ),
  amount: amountSchema,
});
export type TransferRequest = z.input<typeof transferRequestSchema>;

export const counterpartySchema = z.object({ name: z.string(), email: z.string() });

/** The confirmation step: who receives the money, before it moves. */
export const transferPreviewResponseSchema = z.object({
  recipient: counterpartySchema,
  amount: z.number(),
});
export type TransferPreviewResponse = z.infer<typeof transferPreviewResponseSchema>;

export const transferSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  amount: z.number(),
  /** Sent by the reader or received by them; also the operation status (Sent, Received). */
  status: z.enum(TRANSFER_DIRECTIONS),
  counterparty: counterpartySchema,
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferResponseSchema = z.object({
  transfer: transferSchema,
  /** Dollars left on the sender's balance. */
  balance: z.number(),
  message: z.string(),
  code: z.optional(z.string()),
});
export type TransferResponse = z.infer<typeof transferResponseSchema>;

// ---- histories ----------------------------------------------------------------------------

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;

/** The `page` and `per_page` query fields of a list, with its page size by default. */
export function pagingFields(perPageDefault = PER_PAGE_DEFAULT) {
  return {
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
    per_page: z._default(
      z.coerce.number().check(z.int(), z.minimum(1), z.maximum(PER_PAGE_MAX)),
      perPageDefault,
    ),
  };
}

const periodFields = {
  from: z.optional(z.iso.datetime({ offset: true, error: 'PERIOD_INVALID' })),
  to: z.optional(z.iso.datetime({ offset: true, error: 'PERIOD_INVALID' })),
};
/** The period's end after its start (PERIOD_INVALID on `to`). */
const endsAfterStart = <T extends { from?: string | undefined; to?: string | undefined }>() =>
  z.refine<T>((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
    error: 'PERIOD_INVALID',
    path: ['to'],
  });

/** A period [from, to). Dates are ISO-8601; either end may be open ("All"). */
export const periodSchema = z.object(periodFields).check(endsAfterStart());
export type Period = z.infer<typeof periodSchema>;

/** A period [from, to) and a page. */
export const historyQuerySchema = z
  .object({ ...periodFields, ...pagingFields() })
  .check(endsAfterStart());
export type HistoryQuery = z.input<typeof historyQuerySchema>;
export type HistoryFilter = z.output<typeof historyQuerySchema>;

export const pageMetaSchema = z.object({
  page: z.int(),
  per_page: z.int(),
  total: z.int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

export function pageOf<T extends z.core.$ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMetaSchema });
}
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export const chargeSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  amount: z.number(),
  /** What the balance paid for ("VPS Standard, 1 month"), in the account's language. */
  description: z.string(),
  status: z.enum(CHARGE_STATUSES),
});
export type Charge = z.infer<typeof chargeSchema>;

export const withdrawalSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  amount: z.number(),
  method: z.string(),
  wallet: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  /** The day by which it is processed (5 working days after the request). */
  due_at: z.iso.datetime(),
  processed_at: z.nullable(z.iso.datetime()),
  /** Paid out: the payment's reference. */
  payout_reference: z.nullable(z.string()),
  /** Cancelled: why. */
  reason: z.nullable(z.string()),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const paymentsPageSchema = pageOf(paymentSchema);
export const transfersPageSchema = pageOf(transferSchema);
export const chargesPageSchema = pageOf(chargeSchema);
export const withdrawalsPageSchema = pageOf(withdrawalSchema);

/** The four histories of the balance page, as path segments of /user/balance/history/{kind}. */
export const HISTORY_KINDS = ['payments', 'transfers', 'charges', 'withdrawals'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** The header every money-moving POST carries: a fresh UUID per intent, reused on retry. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;
