import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatCents } from '@tradehost/contracts';
import type { Config } from '../../config.ts';
import { parseGatewayAmount, requireFields } from './fields.ts';
import {
  GatewaySignatureError,
  type CheckoutForm,
  type CheckoutOrder,
  type GatewayAck,
  type GatewayNotification,
  type PaymentGateway,
} from './port.ts';

/**
 * The sandbox gateway's driver: what a hosted card / e-wallet page asks of a shop (a signed form,
 * signed notifications) without any money or outside service, so development, the tests and the
 * end-to-end journeys pay "for real" over HTTP. Its page is sandbox-gateway.ts.
 */

/** The page, under the API prefix. */
export const SANDBOX_CHECKOUT_PATH = '/dev/sandbox-gateway/checkout';
/** Where the page's Pay / Decline buttons post. */
export const SANDBOX_DECISION_PATH = '/dev/sandbox-gateway/decision';
export const SANDBOX_WEBHOOK_PATH = '/api/payments/webhook/sandbox';

/** The signed fields of a checkout, in the order of the canonical string. */
export const CHECKOUT_FIELDS = [
  'order_id',
  'amount',
  'currency',
  'method',
  'description',
  'return_url',
  'notify_url',
  'lang',
] as const;

/** The signed fields of a notification, in the order of the canonical string. */
export const NOTIFICATION_FIELDS = [
  'order_id',
  'amount',
  'currency',
  'status',
  'operation_id',
] as const;

export type SignedKind = 'checkout' | 'notification';
export type CheckoutFields = Record<(typeof CHECKOUT_FIELDS)[number], string>;
export type NotificationFields = Record<(typeof NOTIFICATION_FIELDS)[number], string>;
type FieldsOf<K extends SignedKind> = K extends 'checkout' ? CheckoutFields : NotificationFields;

const namesOf = (kind: SignedKind): readonly string[] =>
  kind === 'checkout' ? CHECKOUT_FIELDS : NOTIFICATION_FIELDS;

/**
 * HMAC-SHA256 (hex) of the canonical string: a JSON array of the kind and the field values in
 * their fixed order. JSON quotes every value, so no value can shift a separator ("a:b" + "c" and
 * "a" + "b:c" sign differently), and the kind keeps a checkout's signature from passing for a
 * notification's.
 */
export function sandboxSignature<K extends SignedKind>(
  secret: string,
  kind: K,
  fields: FieldsOf<K>,
): string {
  const values = namesOf(kind).map((name) => (fields as Record<string, string>)[name]);
  return createHmac('sha256', secret)
    .update(JSON.stringify([kind, ...values]))
    .digest('hex');
}

/**
 * The signed fields of `fields` when its `signature` matches (compared in constant time);
 * GatewaySignatureError when a field is missing or the signature does not match.
 */
export function verifySandbox<K extends SignedKind>(
  secret: string,
  kind: K,
  fields: Record<string, string | undefined>,
): FieldsOf<K> {
  const signed = requireFields(fields, namesOf(kind)) as FieldsOf<K>;
  const given = fields.signature ?? '';
  const expected = sandboxSignature(secret, kind, signed);
  // equal lengths first: timingSafeEqual throws on unequal buffers
  if (
    !/^[0-9a-f]{64}$/.test(given) ||
    !timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))
  ) {
    throw new GatewaySignatureError(`the sandbox ${kind} signature does not verify`);
  }
  return signed;
}

/** The sandbox driver (never in production: the config refuses it there). */
export function createSandboxGateway(config: Config): PaymentGateway {
  const { secret } = config.payments.sandbox;
  return {
    id: 'sandbox',
    methods: ['card', 'ewallet'],

    checkout(order: CheckoutOrder): CheckoutForm {
      const fields: CheckoutFields = {
        order_id: order.orderId,
        amount: formatCents(order.amountCents),
        currency: order.currency,
        method: order.method,
        description: order.description,
        return_url: order.returnUrl,
        notify_url: `${config.payments.notifyBaseUrl}${SANDBOX_WEBHOOK_PATH}`,
        lang: order.language,
      };
      const signature = sandboxSignature(secret, 'checkout', fields);
      return {
        url: `${config.publicUrl}/api${SANDBOX_CHECKOUT_PATH}`,
        // POST keeps the order out of addresses, histories and access logs
        httpMethod: 'POST',
        fields: { ...fields, signature },
        signature,
        orderSum: fields.amount,
      };
    },

    parseNotification(fields): GatewayNotification {
      const signed = verifySandbox(secret, 'notification', fields);
      const amountCents = parseGatewayAmount(signed.amount);
      if (signed.status !== 'paid' && signed.status !== 'failed') {
        throw new GatewaySignatureError(`unknown sandbox status "${signed.status}"`);
      }
      return {
        orderId: signed.order_id,
        amountCents,
        currency: signed.currency,
        outcome: signed.status,
        operationId: signed.operation_id,
      };
    },

    /**
     * "OK" when handled. A notification refused for its content (an unknown order, another sum)
     * is answered 200 "REFUSED" all the same: sending it again cannot change the answer, so the
     * sandbox stops retrying and logs the refusal. Only a signature failure (403, from the
     * webhook route) or a server error makes it retry.
     */
    acknowledge(_orderId: string, ok: boolean): GatewayAck {
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: ok ? 'OK' : 'REFUSED' };
    },
  };
}
