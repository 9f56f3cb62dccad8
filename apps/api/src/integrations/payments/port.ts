import type { GatewayMethod } from '@tradehost/contracts';
import type { GatewayId } from '../../config.ts';

export type { GatewayId };

/** What the balance service asks a gateway to charge. */
export interface CheckoutOrder {
  /** Our payment's order id (unique, stable): what the gateway's notification names. */
  orderId: string;
  amountCents: number;
  currency: 'USD';
  /** Shown on the gateway's page. */
  description: string;
  method: GatewayMethod;
  /** Where the gateway sends the browser back (the balance page with ?payment=<id>). */
  returnUrl: string;
  language: 'en' | 'ru';
}

/** A form the console submits in the browser to open the gateway's payment page. */
export interface CheckoutForm {
  url: string;
  httpMethod: 'GET' | 'POST';
  fields: Record<string, string>;
  /** The order's signature as the gateway defines it (also one of `fields`). */
  signature: string;
  /** The order sum as the gateway writes it ("12.50"). */
  orderSum: string;
}

/** A verified notification of a gateway about one order. */
export interface GatewayNotification {
  orderId: string;
  amountCents: number;
  currency: string;
  outcome: 'paid' | 'failed';
  /** The gateway's own id of the operation. */
  operationId: string;
}

/** The HTTP answer a gateway expects to a notification. */
export interface GatewayAck {
  status: number;
  contentType: string;
  body: string;
}

/** A notification whose signature (or sender) does not verify: answered 403, nothing changes. */
export class GatewaySignatureError extends Error {
  constructor(message = 'the notification signature does not verify') {
    super(message);
    this.name = 'GatewaySignatureError';
  }
}

/** One card / e-wallet payment provider. */
export interface PaymentGateway {
  readonly id: GatewayId;
  /** Which of card and e-wallet it serves. */
  readonly methods: readonly GatewayMethod[];
  checkout(order: CheckoutOrder): CheckoutForm;
  /**
   * Verifies and reads a notification: `fields` is the parsed form (or JSON) body, `ip` the
   * sender's address. Throws GatewaySignatureError when it does not verify.
   */
  parseNotification(fields: Record<string, string>, meta: { ip: string }): GatewayNotification;
  /** The answer to a notification that was handled (`ok`) or refused for its content. */
  acknowledge(orderId: string, ok: boolean): GatewayAck;
}
