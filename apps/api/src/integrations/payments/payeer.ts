/**
 * Payeer merchant (https://payeer.com/merchant/): the production card / e-wallet gateway.
 *
 * Why Payeer: one hosted page takes bank cards and the Payeer e-wallet (our two gateway
 * methods) in USD, the currency of our accounts; forex traders, our customers, widely hold
 * Payeer wallets; and the protocol is small: a signed redirect form and a signed server-to-server
 * notification, both with one shared secret key, with no SDK and no card data on our side.
 *
 * The protocol, as Payeer's merchant documentation ("Payeer Merchant", PayeerMerchanten.pdf /
 * PayeerMerchantru.pdf; its form and handler examples are reproduced in payeer.test.ts) and
 * Payeer's own modules define it, e.g. github.com/payeer/opencart
 * catalog/controller/payment/payeer.php, and github.com/aleksandrzhiliaev/omnipay-payeer
 * src/Message/{PurchaseRequest,CompletePurchaseRequest}.php:
 *
 * - Payment form, POSTed by the browser to https://payeer.com/merchant/: m_shop (merchant id),
 *   m_orderid, m_amount (two decimals, "100.00"), m_curr, m_desc (base64 of the description),
 *   m_sign = upper-case hex SHA-256 of "m_shop:m_orderid:m_amount:m_curr:m_desc[:m_params]:key".
 * - Status handler (the "Status URL" of the merchant settings), POSTed by Payeer from its own
 *   addresses: m_operation_id, m_operation_ps, m_operation_date, m_operation_pay_date, m_shop,
 *   m_orderid, m_amount, m_curr, m_desc, m_status, optional m_params, m_sign = upper-case hex
 *   SHA-256 of those values in that order, then the key, joined with ':'. m_status "success"
 *   means paid. The answer is the text "<m_orderid>|success", or "<m_orderid>|error".
 *
 * Not used: m_params (encrypted extra parameters and per-order success/fail/status URLs need a
 * second key). The Success, Fail and Status URLs are therefore set once in the merchant
 * settings: Status URL `${PAYMENT_NOTIFY_BASE_URL}/api/payments/webhook/payeer`, Success and
 * Fail URL the console's balance page.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { formatCents } from '@tradehost/contracts';
import type { PaymentsConfig } from '../../config.ts';
import { parseGatewayAmount, requireFields } from './fields.ts';
import {
  GatewaySignatureError,
  type CheckoutForm,
  type CheckoutOrder,
  type GatewayAck,
  type GatewayNotification,
  type PaymentGateway,
} from './port.ts';

export type PayeerSettings = NonNullable<PaymentsConfig['payeer']>;

/** The payment form's signed fields, in the order of the signature. */
export const PAYEER_FORM_FIELDS = ['m_shop', 'm_orderid', 'm_amount', 'm_curr', 'm_desc'] as const;

/** The notification's signed fields, in the order of the signature (m_params follows if sent). */
export const PAYEER_STATUS_FIELDS = [
  'm_operation_id',
  'm_operation_ps',
  'm_operation_date',
  'm_operation_pay_date',
  'm_shop',
  'm_orderid',
  'm_amount',
  'm_curr',
  'm_desc',
  'm_status',
] as const;

/** Payeer's m_sign: upper-case hex SHA-256 of the values and then the key, joined with ':'. */
export function payeerSign(values: readonly string[], secretKey: string): string {
  return createHash('sha256')
    .update([...values, secretKey].join(':'), 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** Base64 of the description's UTF-8 bytes, as m_desc carries it. */
export const payeerDescription = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** "::ffff:185.71.65.92" (an IPv4 peer on a dual-stack socket) is 185.71.65.92. */
const plainIp = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

function sameSign(given: string, expected: string): boolean {
  return (
    /^[0-9A-F]{64}$/.test(given) &&
    timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))
  );
}

export function createPayeerGateway(settings: PayeerSettings): PaymentGateway {
  const { shopId, secretKey, merchantUrl, allowedIps } = settings;
  const allowed = new Set(allowedIps.map(plainIp));

  return {
    id: 'payeer',
    methods: ['card', 'ewallet'],

    checkout(order: CheckoutOrder): CheckoutForm {
      const fields = {
        m_shop: shopId,
        m_orderid: order.orderId,
        m_amount: formatCents(order.amountCents),
        m_curr: order.currency,
        m_desc: payeerDescription(order.description),
      };
      const signature = payeerSign(
        PAYEER_FORM_FIELDS.map((name) => fields[name]),
        secretKey,
      );
      return {
        url: merchantUrl,
        httpMethod: 'POST',
        // m_process: the name/value of the documentation form's submit button
        fields: { ...fields, m_sign: signature, m_process: 'send' },
        signature,
        orderSum: fields.m_amount,
      };
    },

    parseNotification(fields, { ip }): GatewayNotification {
      if (allowed.size > 0 && !allowed.has(plainIp(ip))) {
        throw new GatewaySignatureError(`a Payeer notification from ${ip}, not a Payeer address`);
      }
      const signed = requireFields(fields, PAYEER_STATUS_FIELDS);
      const values = PAYEER_STATUS_FIELDS.map((name) => signed[name]);
      if (fields.m_params !== undefined) values.push(fields.m_params);
      if (!sameSign(fields.m_sign ?? '', payeerSign(values, secretKey))) {
        throw new GatewaySignatureError('the Payeer notification signature does not verify');
      }
      // a notification for another shop is not ours, even if it carried our key
      if (signed.m_shop !== shopId) {
        throw new GatewaySignatureError(`a Payeer notification for shop ${signed.m_shop}`);
      }
      return {
        orderId: signed.m_orderid,
        amountCents: parseGatewayAmount(signed.m_amount),
        currency: signed.m_curr,
        outcome: signed.m_status === 'success' ? 'paid' : 'failed',
        operationId: signed.m_operation_id,
      };
    },

    /** Payeer reads the text: "<order id>|success" settles it, "<order id>|error" does not. */
    acknowledge(orderId: string, ok: boolean): GatewayAck {
      return {
        status: 200,
        contentType: 'text/plain; charset=utf-8',
        body: `${orderId}|${ok ? 'success' : 'error'}`,
      };
    },
  };
}
