import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payeerSign, PAYEER_STATUS_FIELDS } from '../src/integrations/payments/payeer.ts';
import { balancesOf, quickUser, uniqueEmail, useTestApp, type TestApp } from './helpers.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';

/**
 * TRUST_PROXY decides whose address the API sees: the rate limits, the gateways' address
 * allow-lists and the logs all follow `request.ip`. The client writes X-Forwarded-For itself, so
 * only what the trusted proxies added may be believed. Every machine here is a loopback address
 * of its own (all of 127.0.0.0/8 is this machine on Linux): the clients connect from 127.0.0.5
 * and up, the proxies from 127.0.0.2 and 127.0.0.3, and each proxy appends its peer to the
 * header as nginx's `$proxy_add_x_forwarded_for` does.
 */

interface Answer {
  status: number;
  body: string;
}

/** A request from the local address `from` (a client on a machine of its own). */
function requestFrom(
  from: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: from },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A wrong sign-in of a new e-mail each time (no account's own limit applies), with a forged header. */
function wrongSignIn(from: string, base: string, forged: string): Promise<Answer> {
  return requestFrom(from, `${base}/api/user/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
    body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'wrong password 1' }),
  });
}

const LIMIT = 3;

/** Spends a client's sign-in budget with a different forged address each time, then one more. */
async function afterTheLimit(from: string, base: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i <= LIMIT; i += 1)
    statuses.push((await wrongSignIn(from, base, `198.51.100.${i + 1}`)).status);
  return statuses;
}

/** The client addresses of the request log's sign-in lines (`remoteAddress` is `request.ip`). */
function loggedAddresses(t: TestApp): string[] {
  const addresses = new Set<string>();
  for (const line of t.logs) {
    const entry = JSON.parse(line) as { req?: { url?: string; remoteAddress?: string } };
    if (entry.req?.url === '/api/user/auth/login' && entry.req.remoteAddress)
      addresses.add(entry.req.remoteAddress);
  }
  return [...addresses].sort();
}

/**
 * A chain of appending proxies in front of `t` for the calling describe block, the nearest to
 * the API first, each connecting from its own loopback address (127.0.0.2, 127.0.0.3, ...);
 * `entry()` is the URL of the farthest, where clients connect.
 */
function useProxies(t: TestApp, count: number): { entry: () => string } {
  const chain: RoundRobinProxy[] = [];
  beforeAll(async () => {
    for (let i = 0; i < count; i += 1)
      chain.push(
        await startRoundRobinProxy({
          targets: [chain.at(-1)?.url ?? t.url],
          localAddress: `127.0.0.${i + 2}`,
          forwardedFor: 'append',
        }),
      );
  });
  afterAll(async () => {
    for (const proxy of chain.reverse()) await proxy.close();
  });
  return { entry: () => chain.at(-1)!.url };
}

describe('TRUST_PROXY=1 behind one proxy that appends to X-Forwarded-For', () => {
  const t = useTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_MAX: String(LIMIT) } });
  const proxies = useProxies(t, 1);

  it('limits the real client whatever address it claims, and only that client', async () => {
    expect(await afterTheLimit('127.0.0.5', proxies.entry())).toEqual([401, 401, 401, 429]);
    // another client behind the same proxy has its own budget
    expect((await wrongSignIn('127.0.0.6', proxies.entry(), '127.0.0.5')).status).toBe(401);
    // the log names the clients, never what they claimed nor the proxy
    expect(loggedAddresses(t)).toEqual(['127.0.0.5', '127.0.0.6']);
  });
});

describe('behind two proxies', () => {
  describe.each([
    ['a count of hops', '2'],
    ['the proxies by address and network', '127.0.0.2, 127.0.0.3/32'],
  ])('TRUST_PROXY as %s', (_name, trustProxy) => {
    const t = useTestApp({ env: { TRUST_PROXY: trustProxy, RATE_LIMIT_AUTH_MAX: String(LIMIT) } });
    const proxies = useProxies(t, 2);

    it('sees the client the outer proxy saw, not the forged address before it', async () => {
      expect(await afterTheLimit('127.0.0.7', proxies.entry())).toEqual([401, 401, 401, 429]);
      expect((await wrongSignIn('127.0.0.8', proxies.entry(), '127.0.0.7')).status).toBe(401);
      expect(loggedAddresses(t)).toEqual(['127.0.0.7', '127.0.0.8']);
    });
  });

  describe('TRUST_PROXY=1 (one hop too few)', () => {
    const t = useTestApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_MAX: String(LIMIT) } });
    const proxies = useProxies(t, 2);

    it('takes the outer proxy for the client: wrong, but never what a client claims', async () => {
      await wrongSignIn('127.0.0.9', proxies.entry(), '203.0.113.1');
      expect(loggedAddresses(t)).toEqual(['127.0.0.3']);
    });
  });
});

describe('IPv6 clients', () => {
  // the API's own peer (the loopback) is the trusted proxy: the header's last address is the client
  const t = useTestApp({ env: { TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH_MAX: String(LIMIT) } });

  it('are counted by their /64: a new address of the same network gets no new budget', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= LIMIT + 1; i += 1)
      statuses.push((await wrongSignIn('127.0.0.1', t.url, `2001:db8:a:b::${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await wrongSignIn('127.0.0.1', t.url, '2001:db8:a:b:ffff::1')).status).toBe(429);
    // the next /64 is someone else
    expect((await wrongSignIn('127.0.0.1', t.url, '2001:db8:a:c::1')).status).toBe(401);
    // the log keeps the whole address
    expect(loggedAddresses(t)).toContain('2001:db8:a:b::1');
  });
});

describe('the development routes', () => {
  // no SMTP: the mails go to the development mailbox
  const t = useTestApp({ env: { TRUST_PROXY: 'loopback', SMTP_URL: '' } });

  it('answer this machine only: another is told the route does not exist', async () => {
    const mailbox = `${t.url}/api/dev/mailbox.json`;
    expect((await requestFrom('127.0.0.1', mailbox)).status).toBe(200);
    const remote = await requestFrom('127.0.0.1', mailbox, {
      headers: { 'x-forwarded-for': '192.168.1.20' },
    });
    expect(remote.status).toBe(404);
    expect(JSON.parse(remote.body)).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    const checkout = `${t.url}/api/dev/sandbox-gateway/checkout`;
    expect((await requestFrom('127.0.0.1', checkout)).status).not.toBe(404);
    const remoteCheckout = await requestFrom('127.0.0.1', checkout, {
      headers: { 'x-forwarded-for': '192.168.1.20' },
    });
    expect(remoteCheckout.status).toBe(404);
  });

  describe('with DEV_ROUTES_PUBLIC=true', () => {
    const open = useTestApp({
      env: { TRUST_PROXY: 'loopback', SMTP_URL: '', DEV_ROUTES_PUBLIC: 'true' },
    });

    it('answer other machines too', async () => {
      const remote = await requestFrom('127.0.0.1', `${open.url}/api/dev/mailbox.json`, {
        headers: { 'x-forwarded-for': '192.168.1.20' },
      });
      expect(remote.status).toBe(200);
    });
  });
});

describe('a Payeer notification through a proxy', () => {
  const KEY = 'payeer-secret-key-for-tests';
  const SHOP = '287654321';
  const t = useTestApp({
    env: {
      TRUST_PROXY: '1',
      PAYMENT_DRIVERS: 'payeer',
      PAYEER_SHOP_ID: SHOP,
      PAYEER_SECRET_KEY: KEY,
      PAYEER_ALLOWED_IPS: '185.71.65.92',
    },
  });
  const proxies = useProxies(t, 1);

  it("is refused from an address that only claims to be Payeer's, and credits nothing", async () => {
    const user = await quickUser(t);
    const deposit = await t.api.post(
      '/api/user/balance/deposit',
      { method: 'card', amount: '75' },
      { token: user.token, headers: { 'idempotency-key': crypto.randomUUID() } },
    );
    expect(deposit.status).toBe(201);
    const orderId = String(deposit.body.payment.id);
    const fields: Record<string, string> = {
      m_operation_id: '9001',
      m_operation_ps: '2609',
      m_operation_date: '19.08.2025 21:52:46',
      m_operation_pay_date: '19.08.2025 21:53:01',
      m_shop: SHOP,
      m_orderid: orderId,
      m_amount: '75.00',
      m_curr: 'USD',
      m_desc: Buffer.from(`TradeHost balance top-up #${orderId}`).toString('base64'),
      m_status: 'success',
    };
    fields.m_sign = payeerSign(
      PAYEER_STATUS_FIELDS.map((name) => fields[name]!),
      KEY,
    );
    const res = await requestFrom('127.0.0.5', `${proxies.entry()}/api/payments/webhook/payeer`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '185.71.65.92, 127.0.0.1',
      },
      body: new URLSearchParams(fields).toString(),
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('SIGNATURE_INVALID');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
    const { rows } = await t.sql.query('select status from payments where id = $1', [orderId]);
    expect(rows[0].status).not.toBe('paid');
  });
});
