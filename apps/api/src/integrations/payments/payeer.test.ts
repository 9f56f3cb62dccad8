import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig, PAYEER_IPS } from '../../config.ts';
import {
  PAYEER_STATUS_FIELDS,
  createPayeerGateway,
  payeerDescription,
  payeerSign,
  type PayeerSettings,
} from './payeer.ts';
import { GatewaySignatureError, type CheckoutOrder } from './port.ts';

/** The documentation examples' key ("Ваш секретный ключ": "your secret key") and shop. */
const KEY = 'Ваш секретный ключ';
const SHOP = '12345';

const config = loadConfig({
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(40),
  DATABASE_URL: 'postgres://u@127.0.0.1/db',
  PUBLIC_URL: 'https://console.example',
  PAYMENT_DRIVERS: 'payeer',
  PAYEER_SHOP_ID: SHOP,
  PAYEER_SECRET_KEY: KEY,
});
const settings: PayeerSettings = config.payments.payeer!;
const gateway = createPayeerGateway(settings);

/** The documented formula, written out here on its own: SHA-256 of the values and key joined with ':'. */
const sha256Upper = (text: string) => createHash('sha256').update(text).digest('hex').toUpperCase();

const order: CheckoutOrder = {
  orderId: '1',
  amountCents: 10_000,
  currency: 'USD',
  description: 'Test',
  method: 'card',
  returnUrl: 'https://console.example/balance-operations?payment=1',
  language: 'en',
};

/** A status handler POST as Payeer sends it, signed with `key`. */
function statusFields(overrides: Record<string, string> = {}, key = KEY): Record<string, string> {
  const fields: Record<string, string> = {
    m_operation_id: '630437734',
    m_operation_ps: '2609',
    m_operation_date: '19.08.2024 21:52:46',
    m_operation_pay_date: '19.08.2024 21:53:01',
    m_shop: SHOP,
    m_orderid: '1',
    m_amount: '100.00',
    m_curr: 'USD',
    m_desc: 'VGVzdA==',
    m_status: 'success',
    ...overrides,
  };
  const values = PAYEER_STATUS_FIELDS.map((name) => fields[name]);
  if (fields.m_params !== undefined) values.push(fields.m_params);
  return { ...fields, m_sign: sha256Upper([...values, key].join(':')) };
}

const PAYEER_IP = { ip: PAYEER_IPS[0]! };

describe('Payeer payment form', () => {
  it('reproduces the documentation example: 12345, order 1, 100.00 RUB, "Test"', () => {
    // $arHash = [$m_shop, $m_orderid, $m_amount, $m_curr, $m_desc, $m_key];
    // strtoupper(hash('sha256', implode(':', $arHash)))
    const values = [SHOP, '1', '100.00', 'RUB', 'VGVzdA=='];
    expect(payeerDescription('Test')).toBe('VGVzdA==');
    expect(payeerSign(values, KEY)).toBe(sha256Upper(`12345:1:100.00:RUB:VGVzdA==:${KEY}`));
    // the same value from `sha256sum`, outside Node
    expect(payeerSign(values, KEY)).toBe(
      '325C506DF31ADECFC2EFE5226089E73E8FE99ADA4EBB0F9AE0CBEB3E637167E1',
    );
  });

  it('builds the documented form for an order in USD', () => {
    const form = gateway.checkout(order);
    const sign = sha256Upper(`12345:1:100.00:USD:VGVzdA==:${KEY}`);
    expect(sign).toBe('16E370FE2EE7327D287D350383CFD912739B5276E20B280F3AA203B7F9032AF4');
    expect(form).toEqual({
      url: 'https://payeer.com/merchant/',
      httpMethod: 'POST',
      fields: {
        m_shop: SHOP,
        m_orderid: '1',
        m_amount: '100.00',
        m_curr: 'USD',
        m_desc: 'VGVzdA==',
        m_sign: sign,
        m_process: 'send',
      },
      signature: sign,
      orderSum: '100.00',
    });
  });

  it('sends the description as base64 of its UTF-8 bytes', () => {
    const description = 'Пополнение баланса: 12.50 USD';
    const { fields } = gateway.checkout({ ...order, description });
    expect(fields.m_desc).toBe(Buffer.from(description, 'utf8').toString('base64'));
    expect(Buffer.from(fields.m_desc!, 'base64').toString('utf8')).toBe(description);
  });

  it.each([
    [5, '0.05'],
    [1250, '12.50'],
    [100_000, '1000.00'],
  ])('writes %i cents as m_amount "%s"', (amountCents, text) => {
    const form = gateway.checkout({ ...order, amountCents });
    expect(form.fields.m_amount).toBe(text);
    expect(form.orderSum).toBe(text);
    expect(form.signature).toBe(sha256Upper(`12345:1:${text}:USD:VGVzdA==:${KEY}`));
  });

  it.each([
    ['m_orderid', { orderId: '2' }],
    ['m_amount', { amountCents: 10_001 }],
    ['m_desc', { description: 'Test!' }],
  ] as const)('changes the signature with %s', (_name, change) => {
    expect(gateway.checkout({ ...order, ...change }).signature).not.toBe(
      gateway.checkout(order).signature,
    );
  });

  it('changes the signature with the shop and the key', () => {
    const base = gateway.checkout(order).signature;
    expect(
      createPayeerGateway({ ...settings, shopId: '12346' }).checkout(order).signature,
    ).not.toBe(base);
    expect(
      createPayeerGateway({ ...settings, secretKey: `${KEY}.` }).checkout(order).signature,
    ).not.toBe(base);
  });
});

describe('Payeer status handler', () => {
  it('reproduces the documentation handler: the ten fields, then the key, joined with ":"', () => {
    const fields = statusFields();
    expect(fields.m_sign).toBe(
      sha256Upper(
        `630437734:2609:19.08.2024 21:52:46:19.08.2024 21:53:01:12345:1:100.00:USD:VGVzdA==:success:${KEY}`,
      ),
    );
    expect(gateway.parseNotification(fields, PAYEER_IP)).toEqual({
      orderId: '1',
      amountCents: 10_000,
      currency: 'USD',
      outcome: 'paid',
      operationId: '630437734',
    });
  });

  it('includes m_params in the signature when it is sent', () => {
    const fields = statusFields({ m_params: 'ZW5jcnlwdGVk' });
    expect(gateway.parseNotification(fields, PAYEER_IP).outcome).toBe('paid');
    expect(() => gateway.parseNotification({ ...fields, m_params: 'b3RoZXI=' }, PAYEER_IP)).toThrow(
      GatewaySignatureError,
    );
  });

  it.each([
    ['m_amount', '1000.00'],
    ['m_curr', 'EUR'],
    ['m_orderid', '2'],
    ['m_status', 'fail'],
    ['m_operation_id', '630437735'],
    ['m_desc', 'VGVzdDE='],
  ])('refuses a notification whose %s was changed', (name, value) => {
    const changed = { ...statusFields(), [name]: value };
    expect(() => gateway.parseNotification(changed, PAYEER_IP)).toThrow(GatewaySignatureError);
  });

  it('refuses a notification signed with another key', () => {
    const fields = statusFields({}, `${KEY}!`);
    expect(() => gateway.parseNotification(fields, PAYEER_IP)).toThrow(GatewaySignatureError);
  });

  it('refuses a notification for another shop, even signed with our key', () => {
    const fields = statusFields({ m_shop: '99999' });
    expect(() => gateway.parseNotification(fields, PAYEER_IP)).toThrow(GatewaySignatureError);
  });

  it.each([...PAYEER_STATUS_FIELDS, 'm_sign'])('refuses a notification without %s', (name) => {
    const fields = statusFields();
    delete fields[name];
    expect(() => gateway.parseNotification(fields, PAYEER_IP)).toThrow(GatewaySignatureError);
  });

  it('accepts the documented Payeer addresses only, also written as IPv4-mapped IPv6', () => {
    const fields = statusFields();
    for (const ip of PAYEER_IPS)
      expect(gateway.parseNotification(fields, { ip }).outcome).toBe('paid');
    expect(gateway.parseNotification(fields, { ip: `::ffff:${PAYEER_IPS[1]}` }).outcome).toBe(
      'paid',
    );
    for (const ip of ['203.0.113.5', '::1', '127.0.0.1', '185.71.65.93']) {
      expect(() => gateway.parseNotification(fields, { ip })).toThrow(GatewaySignatureError);
    }
  });

  it('accepts any address when the list is empty', () => {
    const open = createPayeerGateway({ ...settings, allowedIps: [] });
    expect(open.parseNotification(statusFields(), { ip: '203.0.113.5' }).outcome).toBe('paid');
  });

  it.each(['fail', 'wait', ''])('reads the signed m_status "%s" as failed', (status) => {
    const parsed = gateway.parseNotification(statusFields({ m_status: status }), PAYEER_IP);
    expect(parsed.outcome).toBe('failed');
  });

  it.each([
    ['12.50', 1250],
    ['100', 10_000],
    ['0.0500', 5],
  ])('reads m_amount "%s" as %i cents', (amount, cents) => {
    const parsed = gateway.parseNotification(statusFields({ m_amount: amount }), PAYEER_IP);
    expect(parsed.amountCents).toBe(cents);
  });

  it.each(['12.505', '-12.50', '1e2', '12,50'])('refuses the signed m_amount "%s"', (amount) => {
    expect(() => gateway.parseNotification(statusFields({ m_amount: amount }), PAYEER_IP)).toThrow(
      GatewaySignatureError,
    );
  });

  it('answers "<order id>|success" or "<order id>|error" as plain text', () => {
    expect(gateway.acknowledge('1', true)).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: '1|success',
    });
    expect(gateway.acknowledge('1', false).body).toBe('1|error');
  });
});
