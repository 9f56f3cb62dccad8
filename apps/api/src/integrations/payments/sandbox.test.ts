import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { GatewaySignatureError, type CheckoutOrder } from './port.ts';
import {
  CHECKOUT_FIELDS,
  NOTIFICATION_FIELDS,
  createSandboxGateway,
  sandboxSignature,
  verifySandbox,
  type NotificationFields,
} from './sandbox.ts';

const SECRET = 's'.repeat(40);
const config = loadConfig({
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(40),
  DATABASE_URL: 'postgres://u@127.0.0.1/db',
  PUBLIC_URL: 'https://console.example',
  PAYMENT_NOTIFY_BASE_URL: 'https://hooks.example/',
  SANDBOX_GATEWAY_SECRET: SECRET,
  SANDBOX_GATEWAY_DELAY_MS: '0',
  PAYMENT_DRIVERS: 'sandbox',
});
const gateway = createSandboxGateway(config);

const order: CheckoutOrder = {
  orderId: 'pay_42',
  amountCents: 1250,
  currency: 'USD',
  description: 'Top-up: 12.50 USD "card" <test>',
  method: 'card',
  returnUrl: 'https://console.example/balance-operations?payment=42',
  language: 'ru',
};

function notification(overrides: Partial<NotificationFields> = {}): Record<string, string> {
  const fields: NotificationFields = {
    order_id: 'pay_42',
    amount: '12.50',
    currency: 'USD',
    status: 'paid',
    operation_id: 'op-1',
    ...overrides,
  };
  return { ...fields, signature: sandboxSignature(SECRET, 'notification', fields) };
}

describe('sandbox checkout', () => {
  it('posts the signed order to the sandbox page, with the notification address of the config', () => {
    const form = gateway.checkout(order);
    expect(form.url).toBe('https://console.example/api/dev/sandbox-gateway/checkout');
    expect(form.httpMethod).toBe('POST');
    expect(form.orderSum).toBe('12.50');
    expect(form.fields).toEqual({
      order_id: 'pay_42',
      amount: '12.50',
      currency: 'USD',
      method: 'card',
      description: order.description,
      return_url: order.returnUrl,
      notify_url: 'https://hooks.example/api/payments/webhook/sandbox',
      lang: 'ru',
      signature: form.signature,
    });
  });

  it('signs an HMAC-SHA256 of the kind and the fields in their fixed order', () => {
    const { fields, signature } = gateway.checkout(order);
    const canonical = JSON.stringify(['checkout', ...CHECKOUT_FIELDS.map((name) => fields[name])]);
    expect(signature).toBe(createHmac('sha256', SECRET).update(canonical).digest('hex'));
    expect(verifySandbox(SECRET, 'checkout', fields)).toMatchObject({ amount: '12.50' });
  });

  it.each([
    [1, '0.01'],
    [5, '0.05'],
    [1250, '12.50'],
    [100_000, '1000.00'],
    [100_000_000, '1000000.00'],
  ])('writes %i cents as "%s"', (amountCents, text) => {
    expect(gateway.checkout({ ...order, amountCents }).fields.amount).toBe(text);
  });

  it.each(CHECKOUT_FIELDS)('refuses a checkout whose %s was changed', (name) => {
    const { fields } = gateway.checkout(order);
    const changed = { ...fields, [name]: `${fields[name]}1` };
    expect(() => verifySandbox(SECRET, 'checkout', changed)).toThrow(GatewaySignatureError);
  });

  it.each([...CHECKOUT_FIELDS, 'signature'])('refuses a checkout without %s', (name) => {
    const fields: Record<string, string> = { ...gateway.checkout(order).fields };
    delete fields[name];
    expect(() => verifySandbox(SECRET, 'checkout', fields)).toThrow(GatewaySignatureError);
  });

  it('refuses a signature made with another secret, or written in capitals', () => {
    const { fields } = gateway.checkout(order);
    const other = createSandboxGateway({
      ...config,
      payments: { ...config.payments, sandbox: { secret: 'o'.repeat(40), delayMs: 0 } },
    });
    expect(() => verifySandbox(SECRET, 'checkout', other.checkout(order).fields)).toThrow(
      GatewaySignatureError,
    );
    const upper = { ...fields, signature: fields.signature!.toUpperCase() };
    expect(() => verifySandbox(SECRET, 'checkout', upper)).toThrow(GatewaySignatureError);
  });

  it('never accepts a checkout signature as a notification signature', () => {
    // the same values under the notification's names, signed as a checkout
    const values = {
      order_id: 'pay_42',
      amount: '12.50',
      currency: 'USD',
      status: 'paid',
      operation_id: 'x',
    };
    const asCheckout = createHmac('sha256', SECRET)
      .update(JSON.stringify(['checkout', ...NOTIFICATION_FIELDS.map((name) => values[name])]))
      .digest('hex');
    expect(() =>
      gateway.parseNotification({ ...values, signature: asCheckout }, { ip: '::1' }),
    ).toThrow(GatewaySignatureError);
  });
});

describe('sandbox notifications', () => {
  it('reads a paid notification in cents', () => {
    expect(gateway.parseNotification(notification(), { ip: '127.0.0.1' })).toEqual({
      orderId: 'pay_42',
      amountCents: 1250,
      currency: 'USD',
      outcome: 'paid',
      operationId: 'op-1',
    });
  });

  it('reads a failed notification', () => {
    const parsed = gateway.parseNotification(notification({ status: 'failed' }), { ip: '::1' });
    expect(parsed.outcome).toBe('failed');
  });

  it.each(NOTIFICATION_FIELDS)('refuses a notification whose %s was changed', (name) => {
    const fields = notification();
    const changed = { ...fields, [name]: name === 'status' ? 'failed' : `${fields[name]}0` };
    expect(() => gateway.parseNotification(changed, { ip: '::1' })).toThrow(GatewaySignatureError);
  });

  it.each([...NOTIFICATION_FIELDS, 'signature'])('refuses a notification without %s', (name) => {
    const fields = notification();
    delete fields[name];
    expect(() => gateway.parseNotification(fields, { ip: '::1' })).toThrow(GatewaySignatureError);
  });

  it.each(['12.505', '-1.00', '1e3', '12,50', '0.00', ''])(
    'refuses the signed amount "%s"',
    (amount) => {
      expect(() => gateway.parseNotification(notification({ amount }), { ip: '::1' })).toThrow(
        GatewaySignatureError,
      );
    },
  );

  it('refuses a signed status other than paid or failed', () => {
    expect(() =>
      gateway.parseNotification(notification({ status: 'pending' }), { ip: '::1' }),
    ).toThrow(GatewaySignatureError);
  });

  it('answers OK, or REFUSED (200 all the same, so the sandbox stops retrying)', () => {
    expect(gateway.acknowledge('pay_42', true)).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'OK',
    });
    expect(gateway.acknowledge('pay_42', false)).toMatchObject({ status: 200, body: 'REFUSED' });
  });
});
