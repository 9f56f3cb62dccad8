import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { validatorCompiler } from 'fastify-type-provider-zod';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { GatewaySignatureError, type CheckoutOrder } from './port.ts';
import { createSandboxGateway } from './sandbox.ts';
import { sandboxGatewayRoutes } from './sandbox-gateway.ts';

/** What the shop's notification endpoint received. */
interface Received {
  path: string;
  contentType: string;
  fields: Record<string, string>;
}

/**
 * The shop's side, as a plain HTTP server: records every notification and answers with the next
 * of `answers` (200 "OK" once they run out).
 */
class NotifyServer {
  readonly received: Received[] = [];
  answers: { status: number; body: string }[] = [];
  private waiters: (() => void)[] = [];
  private readonly server: Server = createServer((request, response) => {
    void this.record(request).then(() => {
      const { status, body } = this.answers.shift() ?? { status: 200, body: 'OK' };
      response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      for (const wake of this.waiters.splice(0)) wake();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Resolves once `count` notifications have arrived in all (fails the test after 5 s). */
  async waitFor(count: number): Promise<Received[]> {
    const deadline = Date.now() + 5_000;
    while (this.received.length < count) {
      if (Date.now() > deadline)
        throw new Error(`${this.received.length} of ${count} notifications`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received;
  }

  private async record(request: IncomingMessage) {
    let body = '';
    for await (const chunk of request) body += chunk;
    this.received.push({
      path: request.url ?? '',
      contentType: request.headers['content-type'] ?? '',
      fields: Object.fromEntries(new URLSearchParams(body)),
    });
  }
}

const PUBLIC_URL = 'https://console.example';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function testConfig(notifyBase: string, delayMs = 0): Config {
  return loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'x'.repeat(40),
    DATABASE_URL: 'postgres://u@127.0.0.1/db',
    PUBLIC_URL,
    PAYMENT_NOTIFY_BASE_URL: notifyBase,
    SANDBOX_GATEWAY_DELAY_MS: String(delayMs),
    PAYMENT_DRIVERS: 'sandbox,payeer',
    PAYEER_SHOP_ID: '12345',
    PAYEER_SECRET_KEY: 'payeer-secret',
  });
}

/** The sandbox page on a real port, as buildApp registers it (under /api), plus a JSON route. */
async function startGateway(config: Config, logs: string[]) {
  const app = Fastify({
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk));
          done();
        },
      }),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  await app.register(sandboxGatewayRoutes, { prefix: '/api', config, retryDelaysMs: [20, 20] });
  app.post('/api/json-only', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const order: CheckoutOrder = {
  orderId: 'pay_1',
  amountCents: 1250,
  currency: 'USD',
  description: 'Top-up <b>&</b> "quoted"',
  method: 'card',
  returnUrl: `${PUBLIC_URL}/balance-operations?payment=1`,
  language: 'en',
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name) => ENTITIES[name]!);

/** The page's form as a browser submits it: every hidden input, plus the button pressed. */
function formOf(html: string, decision: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
  )) {
    form.append(unescape(name!), unescape(value!));
  }
  form.append('decision', decision);
  return form;
}

describe('the sandbox gateway over HTTP', () => {
  const notify = new NotifyServer();
  const logs: string[] = [];
  let config: Config;
  let app: FastifyInstance;
  let base: string;
  let orderNo = 0;

  beforeAll(async () => {
    config = testConfig(await notify.start());
    ({ app, base } = await startGateway(config, logs));
  });
  afterAll(async () => {
    await app.close();
    await notify.stop();
  });
  afterEach(() => {
    notify.received.length = 0;
    notify.answers = [];
  });

  const gateway = () => createSandboxGateway(config);
  /** A fresh order id per test: the page refuses to decide one order twice. */
  const nextOrder = (overrides: Partial<CheckoutOrder> = {}): CheckoutOrder => ({
    ...order,
    orderId: `pay_${++orderNo}`,
    ...overrides,
  });

  /** Opens the page as the console's form does: a POST to the form's address on our server. */
  async function openPage(fields: Record<string, string>) {
    const response = await fetch(`${base}/api/dev/sandbox-gateway/checkout`, {
      method: 'POST',
      body: new URLSearchParams(fields),
    });
    return { status: response.status, html: await response.text(), headers: response.headers };
  }

  async function decide(form: URLSearchParams) {
    return fetch(`${base}/api/dev/sandbox-gateway/decision`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
  }

  it('shows the order with Pay and Decline, escaped, without scripts', async () => {
    const checkout = gateway().checkout(nextOrder());
    expect(new URL(checkout.url).pathname).toBe('/api/dev/sandbox-gateway/checkout');
    const { status, html, headers } = await openPage(checkout.fields);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('12.50 USD');
    expect(html).toContain(checkout.fields.order_id);
    expect(html).toContain('Bank card');
    expect(html).toContain('Top-up &lt;b&gt;&amp;&lt;/b&gt; &quot;quoted&quot;');
    expect(html).not.toContain('<b>&</b>');
    expect(html).toMatch(
      /<button class="pay" type="submit" name="decision" value="approve">Pay<\/button>/,
    );
    expect(html).toMatch(/<button [^>]*value="decline">Decline<\/button>/);
    expect(html).toContain('<form method="post" action="/api/dev/sandbox-gateway/decision">');
    expect(html).not.toMatch(/<script/i);
  });

  it('speaks Russian when the order says lang=ru', async () => {
    const checkout = gateway().checkout(nextOrder({ language: 'ru', method: 'ewallet' }));
    const { html } = await openPage(checkout.fields);
    expect(html).toContain('<html lang="ru">');
    expect(html).toContain('Оплатить');
    expect(html).toContain('Отклонить');
    expect(html).toContain('Электронный кошелёк');
  });

  it('also opens by GET, with the fields in the query', async () => {
    const checkout = gateway().checkout(nextOrder());
    const response = await fetch(
      `${base}/api/dev/sandbox-gateway/checkout?${new URLSearchParams(checkout.fields)}`,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('12.50 USD');
  });

  it('approve: back to the shop at once, then a signed "paid" notification', async () => {
    const checkoutOrder = nextOrder();
    const checkout = gateway().checkout(checkoutOrder);
    const { html } = await openPage(checkout.fields);

    const response = await decide(formOf(html, 'approve'));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(checkoutOrder.returnUrl);

    const [received] = await notify.waitFor(1);
    expect(received!.path).toBe('/api/payments/webhook/sandbox');
    expect(received!.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(received!.fields).sort()).toEqual(
      ['amount', 'currency', 'operation_id', 'order_id', 'signature', 'status'].sort(),
    );
    const parsed = gateway().parseNotification(received!.fields, { ip: '127.0.0.1' });
    expect(parsed).toEqual({
      orderId: checkoutOrder.orderId,
      amountCents: 1250,
      currency: 'USD',
      outcome: 'paid',
      operationId: received!.fields.operation_id,
    });
    expect(parsed.operationId).toMatch(/^[0-9a-f-]{36}$/);
    await sleep(30);
    expect(notify.received).toHaveLength(1);
  });

  it('decline: a signed "failed" notification', async () => {
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    expect((await decide(formOf(html, 'decline'))).status).toBe(303);
    const [received] = await notify.waitFor(1);
    const parsed = gateway().parseNotification(received!.fields, { ip: '127.0.0.1' });
    expect(parsed.outcome).toBe('failed');
  });

  it('a notification changed on its way does not verify', async () => {
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    await decide(formOf(html, 'approve'));
    const [received] = await notify.waitFor(1);
    const changed = { ...received!.fields, amount: '125.00' };
    expect(() => gateway().parseNotification(changed, { ip: '127.0.0.1' })).toThrow(
      GatewaySignatureError,
    );
  });

  it('refuses a tampered amount with an error page (400), on the page and on the decision', async () => {
    const checkout = gateway().checkout(nextOrder());
    const tampered = { ...checkout.fields, amount: '1.25' };
    const { status, html } = await openPage(tampered);
    expect(status).toBe(400);
    expect(html).toContain('signature does not match');
    expect(html).not.toContain('value="approve"');

    const { html: page } = await openPage(checkout.fields);
    const form = formOf(page, 'approve');
    form.set('amount', '1.25');
    const response = await decide(form);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    await sleep(50);
    expect(notify.received).toHaveLength(0);
  });

  it('refuses a page without a signature', async () => {
    const fields: Record<string, string> = { ...gateway().checkout(nextOrder()).fields };
    delete fields.signature;
    expect((await openPage(fields)).status).toBe(400);
  });

  it('never sends the browser to another site, even on a signed order (open redirect)', async () => {
    for (const returnUrl of [
      'https://evil.example/balance',
      'http://console.example/balance',
      'https://console.example.evil.example/',
      '//evil.example/',
    ]) {
      const checkout = gateway().checkout(nextOrder({ returnUrl }));
      const { status, html } = await openPage(checkout.fields);
      expect(status, returnUrl).toBe(400);
      expect(html).toContain('return address is not on the shop');

      const form = formOf(
        Object.entries(checkout.fields)
          .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
          .join(''),
        'approve',
      );
      const response = await decide(form);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
    await sleep(50);
    expect(notify.received).toHaveLength(0);
  });

  it('refuses a decision other than approve or decline, and a second decision on one order', async () => {
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    expect((await decide(formOf(html, 'maybe'))).status).toBe(400);
    expect((await decide(formOf(html, 'approve'))).status).toBe(303);
    const again = await decide(formOf(html, 'decline'));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already been paid or declined');
    await notify.waitFor(1);
    await sleep(50);
    expect(notify.received).toHaveLength(1);
  });

  it('retries a notification the shop answered with 500, with the same signed fields', async () => {
    notify.answers = [{ status: 500, body: 'busy' }];
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    await decide(formOf(html, 'approve'));
    const [first, second] = await notify.waitFor(2);
    expect(second!.fields).toEqual(first!.fields);
    expect(gateway().parseNotification(second!.fields, { ip: '127.0.0.1' }).outcome).toBe('paid');
    expect(logs.join('')).toContain('sandbox gateway: notification failed');
  });

  it('gives up after the last retry, and logs it', async () => {
    notify.answers = [500, 502, 503, 500].map((status) => ({ status, body: 'busy' }));
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    await decide(formOf(html, 'approve'));
    await notify.waitFor(3);
    await sleep(100);
    // the first attempt and one per retry delay (two in this app)
    expect(notify.received).toHaveLength(3);
    expect(logs.join('')).toContain('notification undelivered, giving up');
  });

  it('does not resend a notification the shop read and refused (200, not OK), and logs it', async () => {
    notify.answers = [{ status: 200, body: 'REFUSED' }];
    const checkout = gateway().checkout(nextOrder());
    const { html } = await openPage(checkout.fields);
    await decide(formOf(html, 'approve'));
    await notify.waitFor(1);
    await sleep(100);
    expect(notify.received).toHaveLength(1);
    expect(logs.join('')).toContain('the shop refused the notification');
  });

  it('keeps forms to itself: the rest of the API still refuses form bodies', async () => {
    const response = await fetch(`${base}/api/json-only`, {
      method: 'POST',
      body: new URLSearchParams({ a: '1' }),
    });
    expect(response.status).toBe(415);
  });
});

describe('the sandbox gateway on close', () => {
  it('retries a shop that is down (network errors), then gives up', async () => {
    const notify = new NotifyServer();
    const notifyBase = await notify.start();
    await notify.stop(); // nothing listens there now: every attempt is a network error
    const logs: string[] = [];
    const config = testConfig(notifyBase, 0);
    const { app, base } = await startGateway(config, logs);
    const checkout = createSandboxGateway(config).checkout(order);
    const page = await fetch(`${base}/api/dev/sandbox-gateway/checkout`, {
      method: 'POST',
      body: new URLSearchParams(checkout.fields),
    });
    const response = await fetch(`${base}/api/dev/sandbox-gateway/decision`, {
      method: 'POST',
      body: formOf(await page.text(), 'approve'),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    await sleep(100);
    expect(logs.join('')).toContain('notification undelivered, giving up');
    await app.close();
  });

  it('sends nothing once the app has closed before the delay ran out', async () => {
    const notify = new NotifyServer();
    const config = testConfig(await notify.start(), 200);
    const { app, base } = await startGateway(config, []);
    const checkout = createSandboxGateway(config).checkout(order);
    const page = await fetch(`${base}/api/dev/sandbox-gateway/checkout`, {
      method: 'POST',
      body: new URLSearchParams(checkout.fields),
    });
    const response = await fetch(`${base}/api/dev/sandbox-gateway/decision`, {
      method: 'POST',
      body: formOf(await page.text(), 'approve'),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    await app.close();
    await sleep(400);
    expect(notify.received).toHaveLength(0);
    await notify.stop();
  });
});
