import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES } from '@tradehost/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { payeerSign, PAYEER_STATUS_FIELDS } from '../src/integrations/payments/payeer.ts';
import { sandboxSignature } from '../src/integrations/payments/sandbox.ts';
import { requestHash } from '../src/plugins/idempotency.ts';
import {
  balancesOf,
  fund,
  ledgerInvariants,
  memosOf,
  quickUser,
  refusal,
  uniqueEmail,
  useTestApp,
  type ApiResponse,
  type Json,
  type TestApp,
} from './helpers.ts';
import {
  cryptoPayment,
  cryptoRequest,
  CRYPTO_REQUEST,
  newTxid,
  reportCrypto,
} from './crypto-helpers.ts';

const t = useTestApp({ notifyItself: true });

const METHODS = '/api/user/balance/methods';
const DEPOSIT = '/api/user/balance/deposit';
const CRYPTO = '/api/user/balance/crypto';
const WALLET = '/api/user/balance/crypto-wallet';
const PREVIEW = '/api/user/balance/transfer/preview';
const TRANSFER = '/api/user/balance/transfer';
const PAYMENT = (id: number | string) => `/api/user/balance/payments/${id}`;
const HISTORY = (kind: string, query = '') => `/api/user/balance/history/${kind}${query}`;

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Unauthorized' };

type User = Awaited<ReturnType<typeof quickUser>>;

/** A money-moving POST with a fresh Idempotency-Key unless one is given. */
function send(
  app: TestApp,
  path: string,
  body: unknown,
  user: { token: string },
  key: string | null = randomUUID(),
): Promise<ApiResponse> {
  return app.api.post(path, body, {
    token: user.token,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/** Row counts of every money table and the given users' purses: what a refusal must leave alone. */
async function moneyState(app: TestApp, ...users: User[]) {
  const { rows } = await app.sql.query<Record<string, string>>(
    `select (select count(*) from payments) as payments,
            (select count(*) from transfers) as transfers,
            (select count(*) from ledger_transactions) as ledger_transactions,
            (select count(*) from ledger_entries) as ledger_entries,
            (select count(*) from charges) as charges,
            (select coalesce(jsonb_agg(jsonb_build_array(id, status) order by id), '[]') from payments) as statuses`,
  );
  const balances = await Promise.all(users.map((u) => balancesOf(app, u.id)));
  return { ...rows[0], balances };
}

async function countOf(app: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await app.sql.query<{ n: string }>(sql, params);
  return Number(rows[0]!.n);
}

/** A card top-up of `amount` through the API: the payment and its checkout form. */
async function cardPayment(app: TestApp, user: User, amount: string | number = '25.00') {
  const res = await send(app, DEPOSIT, { method: 'card', amount }, user);
  expect(res.status).toBe(201);
  return res.body as Json;
}

/** A gateway notification POSTed as a form, the way gateways send them. */
async function notify(app: TestApp, driver: string, fields: Record<string, string>) {
  const res = await fetch(`${app.url}/api/payments/webhook/${driver}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('application/json');
  return { status: res.status, text, body: json ? JSON.parse(text) : text };
}

/** A signed sandbox notification. */
function sandboxNote(
  app: TestApp,
  orderId: string | number,
  overrides: Partial<Record<'amount' | 'currency' | 'status' | 'operation_id', string>> = {},
) {
  const note = {
    order_id: String(orderId),
    amount: '25.00',
    currency: 'USD',
    status: 'paid',
    operation_id: randomUUID(),
    ...overrides,
  };
  return {
    ...note,
    signature: sandboxSignature(app.config.payments.sandbox.secret, 'notification', note),
  };
}

/** Polls the user's payment until its status is `status` (the status page after the gateway). */
async function waitForStatus(app: TestApp, user: User, id: number, status: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const res = await app.api.get(PAYMENT(id), { token: user.token });
    expect(res.status).toBe(200);
    if (res.body.payment.status === status) return res.body.payment as Json;
    if (Date.now() > deadline)
      throw new Error(`payment ${id} still ${res.body.payment.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hidden inputs of an HTML form, unescaped as a browser reads them. */
function hiddenInputs(html: string): Record<string, string> {
  const unescape = (s: string) =>
    s
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[unescape(m[1]!)] = unescape(m[2]!);
  return fields;
}

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

describe('GET /api/user/balance/methods', () => {
  it('lists the four methods with the default minimums, the sandbox on and the crypto networks', async () => {
    const user = await quickUser(t);
    const res = await t.api.get(METHODS, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'USD',
      methods: [
        { id: 'card', min: 10, max: 10000, available: true },
        { id: 'ewallet', min: 5, max: 10000, available: true },
        {
          id: 'crypto',
          min: 20,
          max: 1000000,
          available: true,
          networks: [
            { id: 'USDT-TRC20', name: 'USDT (TRC-20)' },
            { id: 'BTC', name: 'Bitcoin' },
          ],
        },
        { id: 'balance', min: 1, max: 1000000, available: true },
      ],
    });
  });

  it('answers 401 without a token', async () => {
    expect(await t.api.get(METHODS)).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  describe('with TOPUP_MINIMUMS', () => {
    const custom = useTestApp({
      env: { TOPUP_MINIMUMS: 'card=25,ewallet=7.5,crypto=100,balance=0.5' },
    });

    it('takes the minimums from the configuration and enforces them', async () => {
      const user = await quickUser(custom);
      const res = await custom.api.get(METHODS, { token: user.token });
      expect(res.body.methods.map((m: Json) => [m.id, m.min])).toEqual([
        ['card', 25],
        ['ewallet', 7.5],
        ['crypto', 100],
        ['balance', 0.5],
      ]);
      expect((await send(custom, DEPOSIT, { method: 'card', amount: '24.99' }, user)).body).toEqual(
        refusal('AMOUNT_BELOW_MINIMUM', { amount: [ERROR_MESSAGES.AMOUNT_BELOW_MINIMUM] }),
      );
      expect((await send(custom, DEPOSIT, { method: 'card', amount: '25' }, user)).status).toBe(
        201,
      );
      expect(
        (await send(custom, DEPOSIT, { method: 'ewallet', amount: '7.49' }, user)).status,
      ).toBe(422);
      expect(
        (await send(custom, DEPOSIT, { method: 'ewallet', amount: '7.50' }, user)).status,
      ).toBe(201);
    });
  });

  describe('without card and e-wallet gateways', () => {
    // outside production an empty PAYMENT_DRIVERS means "unset" (the sandbox); production has none
    // (production also wants an https PUBLIC_URL)
    const bare = useTestApp({
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://console.example' },
    });

    it('marks card, e-wallet and crypto unavailable and refuses a card top-up', async () => {
      const user = await quickUser(bare);
      const res = await bare.api.get(METHODS, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.methods.map((m: Json) => [m.id, m.available])).toEqual([
        ['card', false],
        ['ewallet', false],
        ['crypto', false],
        ['balance', true],
      ]);
      expect(res.body.methods[2].networks).toEqual([]);
      const before = await moneyState(bare, user);
      for (const method of ['card', 'ewallet']) {
        const refused = await send(bare, DEPOSIT, { method, amount: '50' }, user);
        expect(refused.status).toBe(422);
        expect(refused.body).toEqual(
          refusal('METHOD_UNAVAILABLE', { method: [ERROR_MESSAGES.METHOD_UNAVAILABLE] }),
        );
      }
      expect((await bare.api.get(`${WALLET}?network=BTC`, { token: user.token })).body.code).toBe(
        'NETWORK_UNKNOWN',
      );
      expect(await moneyState(bare, user)).toEqual(before);
      // the sandbox page is not served either
      expect((await bare.api.get('/api/dev/sandbox-gateway/checkout')).status).toBe(404);
      expect(await ledgerInvariants(bare)).toEqual({
        unbalanced: 0,
        sum: 0,
        drift: 0,
        negative: 0,
      });
    });
  });
});

describe('POST /api/user/balance/deposit (card and e-wallet)', () => {
  it('creates a Processing payment and a signed checkout form for the sandbox gateway', async () => {
    const user = await quickUser(t);
    for (const method of ['card', 'ewallet'] as const) {
      const res = await send(t, DEPOSIT, { method, amount: '12.5' }, user);
      expect(res.status).toBe(201);
      const { payment, checkout } = res.body;
      expect(res.body).toMatchObject({
        message: 'The payment has been created. Complete it on the payment page.',
        code: 'PAYMENT_CREATED',
      });
      expect(payment).toMatchObject({
        method,
        amount: 12.5,
        currency: 'USD',
        status: 'processing',
        network: null,
        wallet: null,
        txid: null,
        reason: null,
        paid_at: null,
      });
      expect(checkout).toMatchObject({
        url: 'http://localhost:5173/api/dev/sandbox-gateway/checkout',
        http_method: 'POST',
        order_id: String(payment.id),
        order_sum: '12.50',
        currency: 'USD',
      });
      const { signature, ...signed } = checkout.fields;
      expect(signed).toEqual({
        order_id: String(payment.id),
        amount: '12.50',
        currency: 'USD',
        method,
        description: `TradeHost balance top-up #${payment.id}`,
        return_url: `http://localhost:5173/balance-operations?payment=${payment.id}`,
        notify_url: `${t.url}/api/payments/webhook/sandbox`,
        lang: 'en',
      });
      expect(signature).toBe(checkout.signature);
      expect(signature).toBe(
        sandboxSignature(t.config.payments.sandbox.secret, 'checkout', signed),
      );
      const { rows } = await t.sql.query(
        'select user_id, driver, amount_cents, status from payments where id = $1',
        [payment.id],
      );
      expect(rows[0]).toEqual({
        user_id: String(user.id),
        driver: 'sandbox',
        amount_cents: '1250',
        status: 'processing',
      });
    }
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('refuses amounts below the minimum and above the maximum', async () => {
    const user = await quickUser(t);
    const before = await moneyState(t, user);
    for (const [method, amount, code] of [
      ['card', '9.99', 'AMOUNT_BELOW_MINIMUM'],
      ['ewallet', 4.99, 'AMOUNT_BELOW_MINIMUM'],
      ['card', '10000.01', 'AMOUNT_ABOVE_MAXIMUM'],
      ['ewallet', 20000, 'AMOUNT_ABOVE_MAXIMUM'],
    ] as const) {
      const res = await send(t, DEPOSIT, { method, amount }, user);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal(code, { amount: [ERROR_MESSAGES[code]] }));
    }
    expect(await moneyState(t, user)).toEqual(before);
    // the limits themselves are accepted
    expect((await send(t, DEPOSIT, { method: 'card', amount: 10 }, user)).status).toBe(201);
    expect((await send(t, DEPOSIT, { method: 'card', amount: '10000.00' }, user)).status).toBe(201);
  });

  it('refuses amounts that are not dollars with at most two decimals', async () => {
    const user = await quickUser(t);
    const before = await moneyState(t, user);
    for (const amount of ['1.234', '-5', 'abc', 0, 1e21, '', null, '1e3', ' ', -10, 12.345]) {
      const res = await send(t, DEPOSIT, { method: 'card', amount }, user);
      expect(res.status, JSON.stringify(amount)).toBe(422);
      expect(res.body).toEqual(
        refusal('AMOUNT_INVALID', { amount: [ERROR_MESSAGES.AMOUNT_INVALID] }),
      );
    }
    const unknown = await send(t, DEPOSIT, { method: 'cash', amount: 20 }, user);
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('METHOD_UNAVAILABLE');
    expect(await moneyState(t, user)).toEqual(before);
  });

  it('answers 401 without a token and creates nothing', async () => {
    const before = await moneyState(t);
    const res = await t.api.post(
      DEPOSIT,
      { method: 'card', amount: 20 },
      { headers: { 'idempotency-key': randomUUID() } },
    );
    expect(res).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await moneyState(t)).toEqual(before);
  });
});

describe('the sandbox gateway over HTTP', () => {
  /** What the console and the browser do: post the form, read the page, press a button. */
  async function payOnSandboxPage(user: User, amount: string, decision: 'approve' | 'decline') {
    const { payment, checkout } = await cardPayment(t, user, amount);
    const page = await fetch(`${t.url}${new URL(checkout.url).pathname}`, {
      method: checkout.http_method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(checkout.fields),
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(`${checkout.order_sum} USD`);
    const form = /<form method="post" action="([^"]+)">/.exec(html);
    expect(form?.[1]).toBe('/api/dev/sandbox-gateway/decision');
    const hidden = hiddenInputs(html);
    expect(hidden).toEqual(checkout.fields);

    const decided = await fetch(`${t.url}${form![1]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, decision }),
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    // back to the console's balance page, which reads ?payment= and polls the payment
    const back = new URL(decided.headers.get('location')!);
    expect(back.href).toBe(checkout.fields.return_url);
    expect(back.searchParams.get('payment')).toBe(String(payment.id));
    return { payment, checkout, hidden };
  }

  it('approve: the signed callback marks the payment Paid and credits the balance exactly once', async () => {
    const user = await quickUser(t);
    const { payment, hidden } = await payOnSandboxPage(user, '37.45', 'approve');
    const paid = await waitForStatus(t, user, payment.id, 'paid');
    expect(paid).toMatchObject({ id: payment.id, amount: 37.45, status: 'paid' });
    expect(paid.paid_at).not.toBeNull();
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3745, partner: 0 });

    // the page refuses a second decision on the order; nothing more arrives
    const again = await fetch(`${t.url}/api/dev/sandbox-gateway/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
    await sleep(150);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3745, partner: 0 });
    expect(
      await countOf(t, 'select count(*) as n from ledger_entries where user_id = $1', [user.id]),
    ).toBe(1);
  });

  it('decline: the payment becomes Not paid and nothing is credited', async () => {
    const user = await quickUser(t);
    const { payment } = await payOnSandboxPage(user, '20', 'decline');
    const notPaid = await waitForStatus(t, user, payment.id, 'not_paid');
    expect(notPaid.paid_at).toBeNull();
    await sleep(100);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
    expect(
      await countOf(t, 'select count(*) as n from ledger_entries where user_id = $1', [user.id]),
    ).toBe(0);
  });

  it('refuses a checkout whose fields were tampered with', async () => {
    const user = await quickUser(t);
    const { checkout } = await cardPayment(t, user, '50');
    const page = await fetch(`${t.url}/api/dev/sandbox-gateway/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...checkout.fields, amount: '0.50' }),
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('signature does not match');
  });
});

describe('POST /api/payments/webhook/:driver', () => {
  it('credits a paid notification once, however often it is replayed, and answers OK', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '25.00');
    const note = sandboxNote(t, payment.id);
    const first = await notify(t, 'sandbox', note);
    expect(first).toMatchObject({ status: 200, text: 'OK' });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 2500, partner: 0 });

    const replays = await Promise.all([
      notify(t, 'sandbox', note),
      notify(t, 'sandbox', note),
      notify(t, 'sandbox', sandboxNote(t, payment.id)), // a new operation id, same order
      notify(t, 'sandbox', note),
    ]);
    for (const replay of replays) expect(replay).toMatchObject({ status: 200, text: 'OK' });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 2500, partner: 0 });
    const { rows } = await t.sql.query(
      'select status, operation_id, ledger_transaction_id from payments where id = $1',
      [payment.id],
    );
    expect(rows[0]).toMatchObject({ status: 'paid', operation_id: note.operation_id });
    expect(
      await countOf(t, 'select count(*) as n from ledger_entries where transaction_id = $1', [
        rows[0].ledger_transaction_id,
      ]),
    ).toBe(2);
    // the ledger names the payment, its method, gateway and operation for the operator's words
    expect(await memosOf(t, user.id)).toEqual([
      {
        kind: 'topup',
        memo: null,
        memo_code: 'topup_gateway',
        memo_params: {
          payment_id: payment.id,
          method: 'card',
          gateway: 'sandbox',
          operation_id: note.operation_id,
        },
      },
    ]);
    expect(
      await countOf(t, 'select count(*) as n from ledger_entries where user_id = $1', [user.id]),
    ).toBe(1);
  });

  it('credits concurrent first deliveries of the same notification once', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '40');
    const note = sandboxNote(t, payment.id, { amount: '40.00' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => notify(t, 'sandbox', note)));
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, text: 'OK' });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 4000, partner: 0 });
  });

  it('marks a failed notification Not paid, and a late paid one after it still credits', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '30');
    expect(
      await notify(t, 'sandbox', sandboxNote(t, payment.id, { amount: '30.00', status: 'failed' })),
    ).toMatchObject({ status: 200, text: 'OK' });
    await waitForStatus(t, user, payment.id, 'not_paid');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });

    expect(
      await notify(t, 'sandbox', sandboxNote(t, payment.id, { amount: '30.00' })),
    ).toMatchObject({ status: 200, text: 'OK' });
    await waitForStatus(t, user, payment.id, 'paid');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3000, partner: 0 });

    // a failure arriving after the payment is Paid changes nothing
    expect(
      await notify(t, 'sandbox', sandboxNote(t, payment.id, { amount: '30.00', status: 'failed' })),
    ).toMatchObject({ status: 200, text: 'OK' });
    await waitForStatus(t, user, payment.id, 'paid');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3000, partner: 0 });
  });

  it('refuses a wrong amount or currency: nothing credited, the mismatch audited', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '25.00');
    const before = await moneyState(t, user);
    for (const overrides of [{ amount: '2500.00' }, { amount: '24.99' }, { currency: 'EUR' }]) {
      const res = await notify(t, 'sandbox', sandboxNote(t, payment.id, overrides));
      // the sandbox's protocol: read and refused (200 REFUSED), so it does not retry
      expect(res).toMatchObject({ status: 200, text: 'REFUSED' });
    }
    expect(await moneyState(t, user)).toEqual(before);
    const { rows } = await t.sql.query(
      `select actor_id, subject_type, subject_id, target_user_id, details from audit_log
       where action = 'payment.mismatch' and subject_id = $1 order by id`,
      [String(payment.id)],
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      actor_id: null,
      subject_type: 'payment',
      target_user_id: String(user.id),
      details: {
        driver: 'sandbox',
        expected: { amount: '25.00', currency: 'USD' },
        received: { amount: '2500.00', currency: 'USD' },
      },
    });
    expect(rows[2].details.received).toEqual({ amount: '25.00', currency: 'EUR' });

    // the right notification still credits afterwards
    expect(await notify(t, 'sandbox', sandboxNote(t, payment.id))).toMatchObject({
      status: 200,
      text: 'OK',
    });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 2500, partner: 0 });
  });

  it('answers 403 SIGNATURE_INVALID to a bad signature and changes nothing', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '25.00');
    const before = await moneyState(t, user);
    const audits = await countOf(t, 'select count(*) as n from audit_log');
    const good = sandboxNote(t, payment.id);
    const forged = [
      { ...good, amount: '2500.00' }, // signed for 25.00
      { ...good, signature: '0'.repeat(64) },
      { ...good, signature: good.signature.toUpperCase() },
      { ...good, signature: '' },
      Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'signature')),
      Object.fromEntries(Object.entries(good).filter(([k]) => k !== 'operation_id')),
      {
        ...good,
        signature: sandboxSignature('another-secret-another-secret-another', 'notification', {
          ...good,
        }),
      },
      // a checkout's signature never passes for a notification's
      {
        ...good,
        signature: sandboxSignature(t.config.payments.sandbox.secret, 'checkout', good as never),
      },
    ];
    for (const fields of forged) {
      const res = await notify(t, 'sandbox', fields);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'SIGNATURE_INVALID', message: 'The signature is invalid' });
    }
    expect(await moneyState(t, user)).toEqual(before);
    expect(await countOf(t, 'select count(*) as n from audit_log')).toBe(audits);
  });

  it('refuses a notification for an unknown order, another driver or a crypto payment', async () => {
    const user = await quickUser(t);
    const crypto = await cryptoPayment(t, user, '25', 'BTC');
    const before = await moneyState(t, user);
    for (const orderId of ['999999999', 'abc', '-1', String(crypto.id)]) {
      const res = await notify(t, 'sandbox', sandboxNote(t, orderId));
      expect(res).toMatchObject({ status: 200, text: 'REFUSED' });
    }
    expect(await moneyState(t, user)).toEqual(before);
  });

  it('answers 404 NOT_FOUND for a driver that is not on', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user);
    for (const driver of ['payeer', 'stripe']) {
      const res = await notify(t, driver, sandboxNote(t, payment.id));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    }
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('also reads a JSON notification', async () => {
    const user = await quickUser(t);
    const { payment } = await cardPayment(t, user, '25.00');
    const res = await t.api.post('/api/payments/webhook/sandbox', sandboxNote(t, payment.id));
    expect(res).toMatchObject({ status: 200, text: 'OK' });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 2500, partner: 0 });
  });
});

describe('the Payeer driver', () => {
  const KEY = 'payeer-secret-key-for-tests';
  const SHOP = '287654321';
  const p = useTestApp({
    env: {
      PAYMENT_DRIVERS: 'payeer,sandbox',
      PAYEER_SHOP_ID: SHOP,
      PAYEER_SECRET_KEY: KEY,
      PAYEER_ALLOWED_IPS: '127.0.0.1',
    },
  });

  /** A status notification as Payeer posts it, signed with the shop's key. */
  function payeerNote(
    orderId: string,
    overrides: Record<string, string> = {},
  ): Record<string, string> {
    const fields: Record<string, string> = {
      m_operation_id: String(Math.floor(Math.random() * 1e9)),
      m_operation_ps: '2609',
      m_operation_date: '19.08.2025 21:52:46',
      m_operation_pay_date: '19.08.2025 21:53:01',
      m_shop: SHOP,
      m_orderid: orderId,
      m_amount: '75.00',
      m_curr: 'USD',
      m_desc: Buffer.from(`TradeHost balance top-up #${orderId}`).toString('base64'),
      m_status: 'success',
      ...overrides,
    };
    const values = PAYEER_STATUS_FIELDS.map((name) => fields[name]!);
    return { ...fields, m_sign: payeerSign(values, KEY) };
  }

  it('sends the browser to Payeer with a signed form, and credits a signed success notification once', async () => {
    const user = await quickUser(p);
    const { payment, checkout } = await cardPayment(p, user, '75');
    const orderId = String(payment.id);
    expect(checkout).toMatchObject({
      url: 'https://payeer.com/merchant/',
      http_method: 'POST',
      order_id: orderId,
      order_sum: '75.00',
    });
    expect(checkout.fields).toMatchObject({
      m_shop: SHOP,
      m_orderid: orderId,
      m_amount: '75.00',
      m_curr: 'USD',
      m_sign: checkout.signature,
    });
    expect(checkout.signature).toBe(
      payeerSign([SHOP, orderId, '75.00', 'USD', checkout.fields.m_desc], KEY),
    );

    const note = payeerNote(orderId);
    for (let i = 0; i < 3; i += 1) {
      const res = await notify(p, 'payeer', note);
      expect(res).toMatchObject({ status: 200, text: `${orderId}|success` });
    }
    expect(await balancesOf(p, user.id)).toEqual({ balance: 7500, partner: 0 });
    const paid = await p.api.get(PAYMENT(orderId), { token: user.token });
    expect(paid.body.payment.status).toBe('paid');
    const { rows } = await p.sql.query('select driver, operation_id from payments where id = $1', [
      payment.id,
    ]);
    expect(rows[0]).toEqual({ driver: 'payeer', operation_id: note.m_operation_id });
    expect((await memosOf(p, user.id))[0]).toMatchObject({
      memo: null,
      memo_code: 'topup_gateway',
      memo_params: { payment_id: payment.id, gateway: 'payeer', operation_id: note.m_operation_id },
    });
  });

  it('answers <orderid>|error to a refused one, 403 to a bad signature, and credits nothing', async () => {
    const user = await quickUser(p);
    const { payment } = await cardPayment(p, user, '75');
    const orderId = String(payment.id);
    const before = await moneyState(p, user);
    expect(await notify(p, 'payeer', payeerNote(orderId, { m_amount: '7.50' }))).toMatchObject({
      status: 200,
      text: `${orderId}|error`,
    });
    expect(await notify(p, 'payeer', payeerNote('424242424'))).toMatchObject({
      status: 200,
      text: '424242424|error',
    });
    const forged = { ...payeerNote(orderId), m_amount: '750.00' };
    const res = await notify(p, 'payeer', forged);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'SIGNATURE_INVALID', message: 'The signature is invalid' });
    const otherShop = payeerNote(orderId, { m_shop: '111' });
    expect((await notify(p, 'payeer', otherShop)).status).toBe(403);
    expect(await moneyState(p, user)).toEqual(before);

    // a failed operation: Not paid
    expect(await notify(p, 'payeer', payeerNote(orderId, { m_status: 'fail' }))).toMatchObject({
      status: 200,
      text: `${orderId}|success`,
    });
    expect((await p.api.get(PAYMENT(orderId), { token: user.token })).body.payment.status).toBe(
      'not_paid',
    );
    expect(await balancesOf(p, user.id)).toEqual({ balance: 0, partner: 0 });
    expect(await ledgerInvariants(p)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  describe('from an address that is not Payeer', () => {
    const q = useTestApp({
      env: {
        PAYMENT_DRIVERS: 'payeer',
        PAYEER_SHOP_ID: SHOP,
        PAYEER_SECRET_KEY: KEY,
        PAYEER_ALLOWED_IPS: '185.71.65.92',
      },
    });

    it('refuses a correctly signed notification with 403', async () => {
      const user = await quickUser(q);
      const { payment } = await cardPayment(q, user, '75');
      const res = await notify(q, 'payeer', payeerNote(String(payment.id)));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('SIGNATURE_INVALID');
      expect(await balancesOf(q, user.id)).toEqual({ balance: 0, partner: 0 });
    });
  });
});

describe('POST /api/user/balance/deposit (the partner balance)', () => {
  it('moves the partner balance to the balance as a Paid payment', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 5000, 'balance_partner');
    const res = await send(t, DEPOSIT, { method: 'balance', amount: '12.34' }, user);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      checkout: null,
      message: 'The partner balance has been moved to the balance',
      code: 'BALANCE_MOVED',
      payment: { method: 'balance', amount: 12.34, status: 'paid' },
    });
    expect(res.body.payment.paid_at).not.toBeNull();
    expect(await balancesOf(t, user.id)).toEqual({ balance: 1234, partner: 3766 });
    // the operator's ledger says what it was, not '—'
    expect((await memosOf(t, user.id))[0]).toEqual({
      kind: 'partner_move',
      memo: null,
      memo_code: 'partner_move',
      memo_params: {},
    });
  });

  it('answers 422 INSUFFICIENT_FUNDS when the partner balance is short, and moves nothing', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1000, 'balance_partner');
    const before = await moneyState(t, user);
    const res = await send(t, DEPOSIT, { method: 'balance', amount: '10.01' }, user);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refusal('INSUFFICIENT_FUNDS', { amount: ['Insufficient funds'] }));
    expect(res.body.message).toBe('Insufficient funds');
    expect(await moneyState(t, user)).toEqual(before);
    // all of it is fine
    expect((await send(t, DEPOSIT, { method: 'balance', amount: 10 }, user)).status).toBe(201);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 1000, partner: 0 });
  });
});

describe('crypto top-ups', () => {
  const txid = () => `0x${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`;
  const WALLET_OF_PAYER = 'TPayerWalletAddress0000000000001';

  it("returns the provider's wallet address and its QR code as an SVG data URL", async () => {
    const user = await quickUser(t);
    for (const network of ['USDT-TRC20', 'usdt-trc20', 'BTC']) {
      const res = await t.api.get(`${WALLET}?network=${network}`, { token: user.token });
      expect(res.status).toBe(200);
      const wallet = t.config.payments.cryptoWallets.find((w) => w.id === network.toUpperCase())!;
      expect(res.body).toMatchObject({ network: wallet.id, address: wallet.address });
      const prefix = 'data:image/svg+xml;base64,';
      expect(res.body.wallet_qr_url.startsWith(prefix)).toBe(true);
      const svg = Buffer.from(res.body.wallet_qr_url.slice(prefix.length), 'base64').toString();
      expect(svg).toMatch(/^<svg[\s>]/);
      expect(svg.trimEnd()).toMatch(/<\/svg>$/);
    }
  });

  it('answers 422 NETWORK_UNKNOWN for a network without a wallet', async () => {
    const user = await quickUser(t);
    for (const query of ['?network=DOGE', '?network=', '']) {
      const res = await t.api.get(`${WALLET}${query}`, { token: user.token });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject(refusal('NETWORK_UNKNOWN'));
    }
    expect((await t.api.get(`${WALLET}?network=BTC`)).status).toBe(401);
  });

  it('puts a reported payment Under review without crediting anything', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '150.5', 'usdt-trc20');
    const id = txid();
    const res = await reportCrypto(t, user, request.payment.id, id, ` ${WALLET_OF_PAYER} `);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'The payment has been sent for review',
      code: 'CRYPTO_SUBMITTED',
      payment: {
        method: 'crypto',
        amount: request.payment.amount,
        status: 'under_review',
        network: 'USDT-TRC20',
        wallet: WALLET_OF_PAYER,
        // kept as payments compare it: lower case, without 0x
        txid: id.slice(2),
        reason: null,
        paid_at: null,
      },
    });
    expect(res.body.payment.amount).toBeGreaterThan(150.5);
    expect(res.body.payment.amount).toBeLessThan(151.5);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
    const own = await t.api.get(PAYMENT(res.body.payment.id), { token: user.token });
    expect(own.body.payment.status).toBe('under_review');
  });

  it('refuses a TXID used before (any case, any user) with 422 TXID_TAKEN and the spec texts', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const id = txid();
    const first = await cryptoRequest(t, user, 30, 'BTC');
    expect((await reportCrypto(t, user, first.payment.id, id)).status).toBe(201);
    for (const [who, again, network, amount] of [
      [user, id, 'BTC', 30],
      [user, id, 'BTC', 45],
      [user, id, 'USDT-TRC20', 30],
      [user, id.toUpperCase().replace('0X', '0x'), 'BTC', 30],
      [other, id, 'BTC', 30],
    ] as const) {
      const request = await cryptoRequest(t, who, amount, network);
      const before = await moneyState(t, user, other);
      const res = await reportCrypto(t, who, request.payment.id, again);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: 'TXID_TAKEN',
        message: 'The transaction id has already been taken',
        errors: { txid: ['This txid is already in use.'] },
      });
      expect(await moneyState(t, user, other)).toEqual(before);
    }
  });

  it('refuses the same hex TXID again with or without its 0x prefix', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const hex = `${randomUUID()}${randomUUID()}`.replaceAll('-', '');
    const first = await cryptoRequest(t, user, 30);
    expect((await reportCrypto(t, user, first.payment.id, hex)).status).toBe(201);
    for (const again of [`0x${hex}`, `0X${hex.toUpperCase()}`]) {
      const request = await cryptoRequest(t, other, 30, 'BTC');
      const before = await moneyState(t, user, other);
      const res = await reportCrypto(t, other, request.payment.id, again);
      expect(res.status, again).toBe(422);
      expect(res.body.code).toBe('TXID_TAKEN');
      expect(await moneyState(t, user, other)).toEqual(before);
    }
  });

  it('refuses a bad wallet, a bad or missing TXID, an unknown network and a small amount', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, 25, 'BTC');
    const good = { payment_id: request.payment.id, wallet: WALLET_OF_PAYER, txid: txid() };
    const before = await moneyState(t, user);
    for (const [path, body, code, field] of [
      [CRYPTO, { ...good, wallet: 'short' }, 'WALLET_INVALID', 'wallet'],
      [CRYPTO, { ...good, wallet: 'has spaces in the middle of it' }, 'WALLET_INVALID', 'wallet'],
      [CRYPTO, { ...good, wallet: '   ' }, 'WALLET_REQUIRED', 'wallet'],
      [CRYPTO, { ...good, txid: 'not a txid!' }, 'TXID_INVALID', 'txid'],
      [CRYPTO, { ...good, txid: 'abc' }, 'TXID_INVALID', 'txid'],
      [CRYPTO, { ...good, txid: '' }, 'TXID_REQUIRED', 'txid'],
      [CRYPTO, { ...good, txid: undefined }, 'TXID_INVALID', 'txid'],
      [CRYPTO_REQUEST, { network: 'DOGE', amount: 25 }, 'NETWORK_UNKNOWN', 'network'],
      [CRYPTO_REQUEST, { network: 'BTC', amount: '19.99' }, 'AMOUNT_BELOW_MINIMUM', 'amount'],
      [CRYPTO_REQUEST, { network: 'BTC', amount: '1.234' }, 'AMOUNT_INVALID', 'amount'],
    ] as const) {
      const res = await send(t, path, body, user);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject(refusal(code));
      // the first text of the field is the one that names the problem
      expect(res.body.errors[field][0]).toBe(ERROR_MESSAGES[code]);
    }
    expect(await moneyState(t, user)).toEqual(before);
  });
});

describe('transfers', () => {
  it('previews the recipient by name and moves nothing', async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t, { name: 'Rita Recipient' });
    await fund(t, sender.id, 10_000);
    const before = await moneyState(t, sender, recipient);
    const res = await t.api.post(
      PREVIEW,
      { email: recipient.email, amount: '40.5' },
      { token: sender.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      recipient: { name: 'Rita Recipient', email: recipient.email },
      amount: 40.5,
    });
    expect(await moneyState(t, sender, recipient)).toEqual(before);
  });

  it("refuses an unknown or unverified recipient with 'E-mail does not exist'", async () => {
    const sender = await quickUser(t);
    await fund(t, sender.id, 10_000);
    const unverified = await quickUser(t);
    await t.sql.query('update users set email_verified_at = null where id = $1', [unverified.id]);
    const before = await moneyState(t, sender, unverified);
    for (const email of ['nobody-here@example.com', unverified.email]) {
      for (const res of [
        await t.api.post(PREVIEW, { email, amount: 5 }, { token: sender.token }),
        await send(t, TRANSFER, { email, amount: 5 }, sender),
      ]) {
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          code: 'RECIPIENT_NOT_FOUND',
          message: 'E-mail does not exist',
          errors: { email: ['E-mail does not exist'] },
        });
      }
    }
    expect(await moneyState(t, sender, unverified)).toEqual(before);
  });

  it('refuses a transfer to oneself', async () => {
    const sender = await quickUser(t);
    await fund(t, sender.id, 10_000);
    const before = await moneyState(t, sender);
    for (const res of [
      await t.api.post(PREVIEW, { email: sender.email, amount: 5 }, { token: sender.token }),
      await send(t, TRANSFER, { email: sender.email.toUpperCase(), amount: 5 }, sender),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        refusal('TRANSFER_TO_SELF', { email: [ERROR_MESSAGES.TRANSFER_TO_SELF] }),
      );
    }
    expect(await moneyState(t, sender)).toEqual(before);
  });

  it("refuses more than the balance with 'Insufficient funds for the transfer', balances unchanged", async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, 1000);
    await fund(t, sender.id, 5000, 'balance_partner'); // the partner balance does not count
    const before = await moneyState(t, sender, recipient);
    for (const res of [
      await t.api.post(
        PREVIEW,
        { email: recipient.email, amount: '10.01' },
        { token: sender.token },
      ),
      await send(t, TRANSFER, { email: recipient.email, amount: '10.01' }, sender),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: 'INSUFFICIENT_FUNDS_TRANSFER',
        message: 'Insufficient funds for the transfer',
        errors: { amount: ['Insufficient funds for the transfer'] },
      });
    }
    expect(await moneyState(t, sender, recipient)).toEqual(before);
  });

  it('moves exactly the amount, to the recipient named case-insensitively', async () => {
    const sender = await quickUser(t, { name: 'Sam Sender' });
    const recipient = await quickUser(t, { name: 'Rita Recipient', email: uniqueEmail('rita') });
    await fund(t, sender.id, 10_000);
    await fund(t, recipient.id, 77);
    const res = await send(
      t,
      TRANSFER,
      { email: `  ${recipient.email.toUpperCase()} `, amount: '99.99' },
      sender,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'The transfer is complete',
      code: 'TRANSFER_DONE',
      balance: 0.01,
      transfer: {
        amount: 99.99,
        status: 'sent',
        counterparty: { name: 'Rita Recipient', email: recipient.email },
      },
    });
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 1, partner: 0 });
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 77 + 9999, partner: 0 });
    const { rows } = await t.sql.query(
      'select from_user_id, to_user_id, amount_cents from transfers where id = $1',
      [res.body.transfer.id],
    );
    expect(rows[0]).toEqual({
      from_user_id: String(sender.id),
      to_user_id: String(recipient.id),
      amount_cents: '9999',
    });
    // the posting names the transfer and both parties, for the operator's ledger of either
    const { rows: posted } = await t.sql.query(
      `select t.kind, t.memo, t.memo_code, t.memo_params from transfers r
       join ledger_transactions t on t.id = r.ledger_transaction_id where r.id = $1`,
      [res.body.transfer.id],
    );
    const memo = {
      kind: 'transfer',
      memo: null,
      memo_code: 'transfer',
      memo_params: {
        transfer_id: res.body.transfer.id,
        from_user_id: sender.id,
        to_user_id: recipient.id,
      },
    };
    expect(posted).toEqual([memo]);
    expect((await memosOf(t, sender.id))[0]).toEqual(memo);
    expect((await memosOf(t, recipient.id))[0]).toEqual(memo);
    // the recipient sees it as received from the sender
    const theirs = await t.api.get(HISTORY('transfers'), { token: recipient.token });
    expect(theirs.body.data[0]).toMatchObject({
      id: res.body.transfer.id,
      status: 'received',
      amount: 99.99,
      counterparty: { name: 'Sam Sender', email: sender.email },
    });
    // the answer's transfer is the sender's row of the history, to the millisecond
    const mine = await t.api.get(HISTORY('transfers'), { token: sender.token });
    expect(mine.body.data[0]).toEqual(res.body.transfer);
  });

  it('refuses an invalid e-mail or amount', async () => {
    const sender = await quickUser(t);
    await fund(t, sender.id, 1000);
    const recipient = await quickUser(t);
    const before = await moneyState(t, sender, recipient);
    const email = await send(t, TRANSFER, { email: 'not-an-email', amount: 1 }, sender);
    expect(email.status).toBe(422);
    expect(email.body).toEqual(refusal('EMAIL_INVALID', { email: [ERROR_MESSAGES.EMAIL_INVALID] }));
    for (const amount of [0, '-1', '0.001', 'ten']) {
      const res = await send(t, TRANSFER, { email: recipient.email, amount }, sender);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('AMOUNT_INVALID');
    }
    expect(await moneyState(t, sender, recipient)).toEqual(before);
  });
});

describe('a token of a deleted account', () => {
  it('answers 401 UNAUTHORIZED on the money routes, never a 500', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    await t.sql.query('delete from users where id = $1', [user.id]);
    const before = await moneyState(t, other);
    for (const [path, body] of [
      [TRANSFER, { email: other.email, amount: 1 }],
      [PREVIEW, { email: other.email, amount: 1 }],
      [DEPOSIT, { method: 'card', amount: 20 }],
      [DEPOSIT, { method: 'balance', amount: 20 }],
      [CRYPTO_REQUEST, { network: 'BTC', amount: 25 }],
      [CRYPTO, { payment_id: 1, wallet: 'TPayerWalletAddress0000000000001', txid: newTxid() }],
    ] as const) {
      expect(await send(t, path, body, user), path).toMatchObject({
        status: 401,
        body: UNAUTHORIZED,
      });
    }
    expect(await moneyState(t, other)).toEqual(before);
  });
});

describe('the Idempotency-Key of money-moving POSTs', () => {
  async function pair(cents = 10_000) {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, cents);
    return { sender, recipient };
  }

  it('answers 400 IDEMPOTENCY_KEY_REQUIRED without the header and IDEMPOTENCY_KEY_INVALID for a malformed one', async () => {
    const { sender, recipient } = await pair();
    const body = { email: recipient.email, amount: 5 };
    const request = await cryptoRequest(t, sender, 25, 'BTC');
    const before = await moneyState(t, sender, recipient);
    for (const path of [TRANSFER, DEPOSIT, CRYPTO_REQUEST, CRYPTO]) {
      const missing = await send(
        t,
        path,
        path === TRANSFER
          ? body
          : path === DEPOSIT
            ? { method: 'card', amount: 20 }
            : path === CRYPTO_REQUEST
              ? { network: 'BTC', amount: 25 }
              : {
                  payment_id: request.payment.id,
                  wallet: 'TPayerWalletAddress0000000000001',
                  txid: newTxid(),
                },
        sender,
        null,
      );
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(refusal('IDEMPOTENCY_KEY_REQUIRED'));
    }
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'key/with/slashes', '']) {
      const res = await send(t, TRANSFER, body, sender, key);
      expect(res.status, key).toBe(400);
      expect(res.body).toEqual(
        refusal(key === '' ? 'IDEMPOTENCY_KEY_REQUIRED' : 'IDEMPOTENCY_KEY_INVALID'),
      );
    }
    expect(await moneyState(t, sender, recipient)).toEqual(before);
  });

  it('replays the first answer for the same key and body: same transfer, money moved once', async () => {
    const { sender, recipient } = await pair();
    const key = randomUUID();
    const first = await send(t, TRANSFER, { email: recipient.email, amount: '12.5' }, sender, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // "12.50" is the same amount as 12.5: the same request
    const again = await send(t, TRANSFER, { amount: 12.5, email: recipient.email }, sender, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.transfer.id).toBe(first.body.transfer.id);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 10_000 - 1250, partner: 0 });
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 1250, partner: 0 });
    expect(
      await countOf(t, 'select count(*) as n from transfers where from_user_id = $1', [sender.id]),
    ).toBe(1);
  });

  it('moves money once for concurrent requests with the same key', async () => {
    const { sender, recipient } = await pair();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(t, TRANSFER, { email: recipient.email, amount: 10 }, sender, key),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses).toContain(201);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body).toEqual(refusal('IDEMPOTENCY_KEY_IN_PROGRESS'));
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.transfer.id));
    expect(ids.size).toBe(1);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9000, partner: 0 });
  });

  it('refuses the same key with another body or on another route: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { sender, recipient } = await pair();
    const key = randomUUID();
    expect(
      (await send(t, TRANSFER, { email: recipient.email, amount: 5 }, sender, key)).status,
    ).toBe(201);
    const before = await moneyState(t, sender, recipient);
    for (const [path, body] of [
      [TRANSFER, { email: recipient.email, amount: 6 }],
      [DEPOSIT, { method: 'card', amount: 20 }],
    ] as const) {
      const res = await send(t, path, body, sender, key);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal('IDEMPOTENCY_KEY_REUSED'));
    }
    expect(await moneyState(t, sender, recipient)).toEqual(before);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS while a request holds the key, and takes over a stale claim', async () => {
    const { sender, recipient } = await pair();
    const body = { email: recipient.email, amount: 7 };
    const hash = requestHash({ email: recipient.email, amount: 700 });
    const key = randomUUID();
    await t.sql.query(
      `insert into idempotency_keys (user_id, key, scope, request_hash) values ($1, $2, $3, $4)`,
      [sender.id, key, 'POST /user/balance/transfer', hash],
    );
    const before = await moneyState(t, sender, recipient);
    const busy = await send(t, TRANSFER, body, sender, key);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual(refusal('IDEMPOTENCY_KEY_IN_PROGRESS'));
    expect(await moneyState(t, sender, recipient)).toEqual(before);

    // the claim of a request that died two minutes ago is taken over
    await t.sql.query(
      `update idempotency_keys set created_at = now() - interval '2 minutes' where user_id = $1 and key = $2`,
      [sender.id, key],
    );
    const taken = await send(t, TRANSFER, body, sender, key);
    expect(taken.status).toBe(201);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9300, partner: 0 });
    const replay = await send(t, TRANSFER, body, sender, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.transfer.id).toBe(taken.body.transfer.id);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9300, partner: 0 });
  });

  it('keeps the key of a slow request: a retry meanwhile is told 409 at once, and the money moves once', async () => {
    const { sender, recipient } = await pair();
    const key = randomUUID();
    const body = { email: recipient.email, amount: 10 };
    const waitingOnLocks = () =>
      countOf(
        t,
        `select count(*) as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`,
      );
    // the first request waits on a row lock, inside the transaction that holds its claim
    const blocker = await t.sql.connect();
    let first: Promise<ApiResponse>;
    try {
      await blocker.query('begin');
      await blocker.query('select id from users where id = $1 for update', [recipient.id]);
      first = send(t, TRANSFER, body, sender, key);
      const deadline = Date.now() + 5_000;
      while ((await waitingOnLocks()) !== 1) {
        if (Date.now() > deadline) throw new Error('timed out');
        await sleep(20);
      }
      // its claim is not committed, and the retry does not wait for it
      expect(
        await countOf(t, 'select count(*) as n from idempotency_keys where key = $1', [key]),
      ).toBe(0);
      const retry = await send(t, TRANSFER, body, sender, key);
      expect(retry).toMatchObject({ status: 409, body: refusal('IDEMPOTENCY_KEY_IN_PROGRESS') });
      expect(await waitingOnLocks()).toBe(1);
    } finally {
      await blocker.query('rollback');
      blocker.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9000, partner: 0 });
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 1000, partner: 0 });
    const replay = await send(t, TRANSFER, body, sender, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.transfer.id).toBe(done.body.transfer.id);
  });

  it('answers a request whose connection died with an error, moves nothing, and lets the retry do the work', async () => {
    const { sender, recipient } = await pair();
    const key = randomUUID();
    const body = { email: recipient.email, amount: 10 };
    const blocker = await t.sql.connect();
    let cut: ApiResponse;
    try {
      await blocker.query('begin');
      await blocker.query('select id from users where id = $1 for update', [recipient.id]);
      const first = send(t, TRANSFER, body, sender, key);
      // the request's own session, waiting on the row lock, is cut off
      const deadline = Date.now() + 5_000;
      let terminated = 0;
      while (terminated === 0) {
        if (Date.now() > deadline) throw new Error('timed out');
        await sleep(20);
        terminated = await countOf(
          t,
          `select count(*) as n from (
             select pg_terminate_backend(pid) from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'
               and pid <> pg_backend_pid()) as cut`,
        );
      }
      cut = await first;
    } finally {
      await blocker.query('rollback');
      blocker.release();
    }
    expect(cut.status).toBeGreaterThanOrEqual(500);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 10_000, partner: 0 });
    const retry = await send(t, TRANSFER, body, sender, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9000, partner: 0 });
  });

  it('replays a refusal for the same key, even after the balance would allow it', async () => {
    const { sender, recipient } = await pair(500);
    const key = randomUUID();
    const body = { email: recipient.email, amount: 10 };
    const refused = await send(t, TRANSFER, body, sender, key);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS_TRANSFER');
    await fund(t, sender.id, 5000);
    const again = await send(t, TRANSFER, body, sender, key);
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({
      code: 'INSUFFICIENT_FUNDS_TRANSFER',
      message: 'Insufficient funds for the transfer',
      errors: { amount: ['Insufficient funds for the transfer'] },
    });
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 5500, partner: 0 });
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 0, partner: 0 });
    // a new key does the work
    expect((await send(t, TRANSFER, body, sender)).status).toBe(201);
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 1000, partner: 0 });
  });

  it('keeps keys per user: another user may use the same key', async () => {
    const a = await pair();
    const b = await pair();
    const key = randomUUID();
    const first = await send(t, TRANSFER, { email: a.recipient.email, amount: 3 }, a.sender, key);
    const second = await send(t, TRANSFER, { email: b.recipient.email, amount: 4 }, b.sender, key);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.transfer.id).not.toBe(first.body.transfer.id);
    expect(await balancesOf(t, a.recipient.id)).toEqual({ balance: 300, partner: 0 });
    expect(await balancesOf(t, b.recipient.id)).toEqual({ balance: 400, partner: 0 });
  });

  it('replays a deposit and a crypto submission too', async () => {
    const user = await quickUser(t);
    const key = randomUUID();
    const first = await send(t, DEPOSIT, { method: 'card', amount: 20 }, user, key);
    const again = await send(t, DEPOSIT, { method: 'card', amount: '20.00' }, user, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.payment.id).toBe(first.body.payment.id);
    // a crypto request asked twice is one request, with one amount
    const requestKey = randomUUID();
    const r1 = await send(t, CRYPTO_REQUEST, { network: 'BTC', amount: 25 }, user, requestKey);
    const r2 = await send(t, CRYPTO_REQUEST, { network: 'BTC', amount: '25.00' }, user, requestKey);
    expect([r1.status, r2.status]).toEqual([201, 201]);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
    expect(r2.body.payment).toEqual(r1.body.payment);
    const cryptoKey = randomUUID();
    const body = {
      payment_id: r1.body.payment.id,
      wallet: 'TPayerWalletAddress0000000000001',
      txid: randomUUID().replaceAll('-', ''),
    };
    const c1 = await send(t, CRYPTO, body, user, cryptoKey);
    const c2 = await send(t, CRYPTO, body, user, cryptoKey);
    expect([c1.status, c2.status]).toEqual([201, 201]);
    expect(c2.body.payment.id).toBe(c1.body.payment.id);
    expect(
      await countOf(t, 'select count(*) as n from payments where user_id = $1', [user.id]),
    ).toBe(2);
  });
});

describe('the four histories', () => {
  const JAN = '2025-01-10T12:00:00.000Z';
  const FEB_1 = '2025-02-01T00:00:00.000Z';
  const FEB = '2025-02-15T12:00:00.000Z';
  const MAR_1 = '2025-03-01T00:00:00.000Z';
  const MAR = '2025-03-20T12:00:00.000Z';
  const FEB_PERIOD = `?from=${encodeURIComponent(FEB_1)}&to=${encodeURIComponent(MAR_1)}`;

  async function payment(user: User, at: string, fields: Record<string, unknown> = {}) {
    const row = {
      method: 'card',
      driver: 'sandbox',
      amount_cents: 1000,
      status: 'processing',
      network: null,
      wallet: null,
      txid: null,
      reason: null,
      ...fields,
    };
    const { rows } = await t.sql.query<{ id: string }>(
      `insert into payments (user_id, method, driver, amount_cents, status, network, wallet, txid, reason, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        user.id,
        row.method,
        row.driver,
        row.amount_cents,
        row.status,
        row.network,
        row.wallet,
        row.txid,
        row.reason,
        at,
      ],
    );
    return Number(rows[0]!.id);
  }

  /** What the balance paid for: a ledger transaction to revenue and its charges row. */
  async function charge(user: User, cents: number, en: string, ru: string, at: string) {
    const client = await t.sql.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string }>(
        `insert into ledger_transactions (kind, memo) values ('charge', $1) returning id`,
        [en],
      );
      const tx = rows[0]!.id;
      await client.query(
        `insert into ledger_entries (transaction_id, user_id, account, amount_cents)
         values ($1, $2, 'balance', $3), ($1, null, 'revenue', $4)`,
        [tx, user.id, -cents, cents],
      );
      const inserted = await client.query<{ id: string }>(
        `insert into charges (user_id, amount_cents, description_en, description_ru, ledger_transaction_id, created_at)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [user.id, cents, en, ru, tx, at],
      );
      await client.query('commit');
      return Number(inserted.rows[0]!.id);
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * A withdrawal row as of `at`, due a week later; its ledger transaction is the provider's own
   * (`adjustments` -> `payouts`), so no purse moves: the histories only read the row.
   */
  async function withdrawal(user: User, at: string, wallet: string, status = 'under_review') {
    const { rows } = await t.sql.query<{ id: string }>(
      `with tx as (insert into ledger_transactions (kind, memo) values ('withdrawal', 'test') returning id),
       entries as (insert into ledger_entries (transaction_id, account, amount_cents)
                   select id, account, amount from tx,
                   (values ('adjustments', -5000), ('payouts', 5000)) as e(account, amount))
       insert into withdrawals (user_id, amount_cents, method, wallet, status, created_at, due_at,
         ledger_transaction_id, payout_reference, reason, return_transaction_id)
       select $1, 5000, 'USDT-TRC20', $2, $3, $4, $4::timestamptz + interval '7 days', tx.id,
         case when $3 = 'paid_out' then 'REF-1' end,
         case when $3 = 'cancelled' then 'Test' end,
         case when $3 = 'cancelled' then tx.id end
       from tx returning id`,
      [user.id, wallet, status, at],
    );
    return Number(rows[0]!.id);
  }
  const weekAfter = (at: string) => new Date(Date.parse(at) + 7 * 86_400_000).toISOString();

  async function transfer(from: User, to: User, amount: number, at: string) {
    const res = await send(t, TRANSFER, { email: to.email, amount }, from);
    expect(res.status).toBe(201);
    await t.sql.query('update transfers set created_at = $1 where id = $2', [
      at,
      res.body.transfer.id,
    ]);
    return res.body.transfer.id as number;
  }

  const ids = (res: ApiResponse) => res.body.data.map((row: Json) => row.id);

  /** The raw CSV: bytes, text without the BOM, and the headers. */
  async function csv(user: User, kind: string, query = '') {
    const res = await fetch(`${t.url}${HISTORY(`${kind}.csv`, query)}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { res, bytes, text: bytes.subarray(3).toString('utf8') };
  }

  it('lists top-ups newest first, by period, a page at a time, only the reader’s own', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const jan = await payment(user, JAN);
    const febStart = await payment(user, FEB_1, { method: 'ewallet', amount_cents: 1234 });
    const feb = await payment(user, FEB, { status: 'not_paid' });
    const marStart = await payment(user, MAR_1);
    const mar = await payment(user, MAR, {
      method: 'crypto',
      driver: null,
      status: 'rejected',
      network: 'BTC',
      wallet: 'bc1qwalletofthepayer0001',
      txid: randomUUID().replaceAll('-', ''),
      reason: 'No such transaction',
    });
    await payment(other, FEB);

    const all = await t.api.get(HISTORY('payments'), { token: user.token });
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([mar, marStart, feb, febStart, jan]);
    expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 5 });
    expect(all.body.data[0]).toMatchObject({
      method: 'crypto',
      status: 'rejected',
      reason: 'No such transaction',
      created_at: MAR,
    });
    expect(all.body.data[3]).toMatchObject({ method: 'ewallet', amount: 12.34, currency: 'USD' });

    // [from, to): the first instant is in, the last one is out
    const february = await t.api.get(HISTORY('payments', FEB_PERIOD), { token: user.token });
    expect(ids(february)).toEqual([feb, febStart]);
    expect(february.body.meta.total).toBe(2);
    const since = await t.api.get(HISTORY('payments', `?from=${encodeURIComponent(FEB_1)}`), {
      token: user.token,
    });
    expect(ids(since)).toEqual([mar, marStart, feb, febStart]);
    const until = await t.api.get(HISTORY('payments', `?to=${encodeURIComponent(FEB_1)}`), {
      token: user.token,
    });
    expect(ids(until)).toEqual([jan]);
    // an offset other than Z names the same instant
    const local = await t.api.get(
      HISTORY(
        'payments',
        `?from=${encodeURIComponent('2025-02-01T03:00:00+03:00')}&to=${encodeURIComponent('2025-03-01T03:00:00+03:00')}`,
      ),
      { token: user.token },
    );
    expect(ids(local)).toEqual([feb, febStart]);

    const page2 = await t.api.get(HISTORY('payments', '?per_page=2&page=2'), { token: user.token });
    expect(ids(page2)).toEqual([feb, febStart]);
    expect(page2.body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    const page3 = await t.api.get(HISTORY('payments', '?per_page=2&page=3'), { token: user.token });
    expect(ids(page3)).toEqual([jan]);
    const beyond = await t.api.get(HISTORY('payments', '?per_page=2&page=9'), {
      token: user.token,
    });
    expect(beyond.body).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 5 } });
    const max = await t.api.get(HISTORY('payments', '?per_page=100'), { token: user.token });
    expect(max.status).toBe(200);
  });

  it('lists transfers sent and received with the other party', async () => {
    const a = await quickUser(t, { name: 'Alice Sender' });
    const b = await quickUser(t, { name: 'Bob Receiver' });
    const c = await quickUser(t);
    await fund(t, a.id, 10_000);
    await fund(t, b.id, 10_000);
    const sentJan = await transfer(a, b, 1, JAN);
    const receivedFeb = await transfer(b, a, 2, FEB);
    const sentMar = await transfer(a, b, 3, MAR);
    await transfer(b, c, 4, FEB);

    const all = await t.api.get(HISTORY('transfers'), { token: a.token });
    expect(ids(all)).toEqual([sentMar, receivedFeb, sentJan]);
    expect(all.body.data).toEqual([
      {
        id: sentMar,
        created_at: MAR,
        amount: 3,
        status: 'sent',
        counterparty: { name: 'Bob Receiver', email: b.email },
      },
      {
        id: receivedFeb,
        created_at: FEB,
        amount: 2,
        status: 'received',
        counterparty: { name: 'Bob Receiver', email: b.email },
      },
      {
        id: sentJan,
        created_at: JAN,
        amount: 1,
        status: 'sent',
        counterparty: { name: 'Bob Receiver', email: b.email },
      },
    ]);
    const february = await t.api.get(HISTORY('transfers', FEB_PERIOD), { token: a.token });
    expect(ids(february)).toEqual([receivedFeb]);
    const bobs = await t.api.get(HISTORY('transfers'), { token: b.token });
    expect(bobs.body.meta.total).toBe(4);
    const cs = await t.api.get(HISTORY('transfers'), { token: c.token });
    expect(cs.body.data.map((r: Json) => r.status)).toEqual(['received']);
  });

  it('lists charges in the reader’s language, and withdrawals', async () => {
    const user = await quickUser(t);
    const other = await quickUser(t);
    await fund(t, user.id, 10_000);
    await fund(t, other.id, 10_000);
    const jan = await charge(user, 500, 'VPS Standard, 1 month', 'VPS Стандарт, 1 месяц', JAN);
    const feb = await charge(user, 700, 'Monitoring, 1 month', 'Мониторинг, 1 месяц', FEB);
    await charge(other, 100, 'Other', 'Другое', FEB);
    const all = await t.api.get(HISTORY('charges'), { token: user.token });
    expect(all.body).toEqual({
      data: [
        { id: feb, created_at: FEB, amount: 7, description: 'Monitoring, 1 month', status: 'paid' },
        {
          id: jan,
          created_at: JAN,
          amount: 5,
          description: 'VPS Standard, 1 month',
          status: 'paid',
        },
      ],
      meta: { page: 1, per_page: 20, total: 2 },
    });
    await t.sql.query(`update users set language = 'ru' where id = $1`, [user.id]);
    const ru = await t.api.get(HISTORY('charges', FEB_PERIOD), { token: user.token });
    expect(ru.body.data).toEqual([
      { id: feb, created_at: FEB, amount: 7, description: 'Мониторинг, 1 месяц', status: 'paid' },
    ]);

    const w1 = await withdrawal(user, JAN, 'TWalletOfThePartner000000000001', 'paid_out');
    const w2 = await withdrawal(user, MAR, 'TWalletOfThePartner000000000002');
    await withdrawal(other, MAR, 'TWalletOfSomebodyElse0000000001');
    const withdrawals = await t.api.get(HISTORY('withdrawals'), { token: user.token });
    expect(withdrawals.body).toEqual({
      data: [
        {
          id: w2,
          created_at: MAR,
          amount: 50,
          method: 'USDT-TRC20',
          wallet: 'TWalletOfThePartner000000000002',
          status: 'under_review',
          due_at: weekAfter(MAR),
          processed_at: null,
          payout_reference: null,
          reason: null,
        },
        {
          id: w1,
          created_at: JAN,
          amount: 50,
          method: 'USDT-TRC20',
          wallet: 'TWalletOfThePartner000000000001',
          status: 'paid_out',
          due_at: weekAfter(JAN),
          processed_at: null,
          payout_reference: 'REF-1',
          reason: null,
        },
      ],
      meta: { page: 1, per_page: 20, total: 2 },
    });
    const none = await t.api.get(HISTORY('withdrawals', FEB_PERIOD), { token: user.token });
    expect(none.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
  });

  it('answers 422 PERIOD_INVALID when the period ends before it starts, and refuses bad paging', async () => {
    const user = await quickUser(t);
    for (const kind of ['payments', 'transfers', 'charges', 'withdrawals']) {
      for (const query of [
        `?from=${encodeURIComponent(MAR_1)}&to=${encodeURIComponent(FEB_1)}`,
        `?from=${encodeURIComponent(FEB_1)}&to=${encodeURIComponent(FEB_1)}`,
        '?from=yesterday',
        '?to=2025-02-01',
        // no year 0 in PostgreSQL: refused, not a 500
        `?from=${encodeURIComponent('0000-01-01T00:00:00Z')}`,
        `?to=${encodeURIComponent('0001-01-01T00:30:00+01:00')}`,
      ]) {
        for (const path of [HISTORY(kind, query), HISTORY(`${kind}.csv`, query)]) {
          const res = await t.api.get(path, { token: user.token });
          expect(res.status, path).toBe(422);
          expect(res.body).toMatchObject({
            code: 'PERIOD_INVALID',
            message: 'The period is invalid',
          });
        }
      }
      for (const query of ['?per_page=101', '?per_page=0', '?page=0', '?page=abc']) {
        const res = await t.api.get(HISTORY(kind, query), { token: user.token });
        expect(res.status, query).toBe(422);
      }
      expect(await t.api.get(HISTORY(kind))).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect((await t.api.get(HISTORY(`${kind}.csv`))).status).toBe(401);
    }
  });

  it('answers 404 for another user’s payment or an unknown one', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const theirs = await payment(other, FEB);
    for (const id of [theirs, 987654321]) {
      const res = await t.api.get(PAYMENT(id), { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
    }
    expect((await t.api.get(PAYMENT(theirs), { token: other.token })).status).toBe(200);
  });

  describe('CSV export', () => {
    it('sends the period as an attachment: BOM, a header line, CRLF rows', async () => {
      const [user, other] = [await quickUser(t), await quickUser(t)];
      const feb = await payment(user, FEB, { amount_cents: 123456, status: 'not_paid' });
      const mar = await payment(user, MAR, {
        method: 'crypto',
        driver: null,
        status: 'rejected',
        network: 'USDT-TRC20',
        wallet: 'TPayerWalletAddress0000000000001',
        txid: 'abcdef0123456789abcdef',
        reason: 'Sent to "another" address, not ours',
      });
      await payment(user, JAN);
      await payment(other, FEB);
      const { res, bytes, text } = await csv(
        user,
        'payments',
        `?from=${encodeURIComponent(FEB_1)}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.split('\r\n')).toEqual([
        'Date,ID,Method,Amount,Currency,Status,Network,TXID,Reason',
        `${MAR},${mar},crypto,10.00,USD,Rejected,USDT-TRC20,abcdef0123456789abcdef,"Sent to ""another"" address, not ours"`,
        `${FEB},${feb},card,1234.56,USD,Not paid,,,`,
        '',
      ]);
    });

    it('neutralises formulas and quotes commas, quotes and line breaks', async () => {
      const user = await quickUser(t);
      const evil = await quickUser(t, { name: '=HYPERLINK("http://evil.example","click"), ok' });
      await fund(t, user.id, 10_000);
      await fund(t, evil.id, 10_000);
      const toEvil = await transfer(user, evil, 1.5, FEB);
      const c1 = await charge(user, 250, '=SUM(A1:A9)', '=SUM(A1:A9)', JAN);
      const c2 = await charge(user, 100, '+1 555 0100', '+1', FEB);
      const c3 = await charge(user, 100, '-2+3', '-2+3', MAR);
      const c4 = await charge(user, 100, '@cmd', '@cmd', MAR_1);
      const c5 = await charge(
        user,
        100,
        'VPS "Pro", 1 month\nrenewal',
        'VPS',
        '2025-04-01T00:00:00.000Z',
      );

      const transfers = await csv(user, 'transfers');
      expect(transfers.text.split('\r\n')).toEqual([
        'Date,ID,Status,Amount,Name,E-mail',
        `${FEB},${toEvil},Sent,1.50,"'=HYPERLINK(""http://evil.example"",""click""), ok",${evil.email}`,
        '',
      ]);
      const charges = await csv(user, 'charges');
      expect(charges.res.headers.get('content-disposition')).toMatch(/filename="charges-/);
      expect(charges.text).toBe(
        [
          'Date,ID,Description,Amount,Status',
          `2025-04-01T00:00:00.000Z,${c5},"VPS ""Pro"", 1 month\nrenewal",1.00,Paid`,
          `${MAR},${c3},'-2+3,1.00,Paid`,
          `${MAR_1},${c4},'@cmd,1.00,Paid`,
          `${FEB},${c2},'+1 555 0100,1.00,Paid`,
          `${JAN},${c1},'=SUM(A1:A9),2.50,Paid`,
          '',
        ].join('\r\n'),
      );
    });

    it('neutralises formulas in the payments and the withdrawals files too', async () => {
      const user = await quickUser(t);
      const evil = '=HYPERLINK("http://x")';
      const p = await payment(user, FEB, { status: 'rejected', reason: evil });
      const w = await withdrawal(user, FEB, evil);
      expect((await csv(user, 'payments')).text.split('\r\n')[1]).toBe(
        `${FEB},${p},card,10.00,USD,Rejected,,,"'=HYPERLINK(""http://x"")"`,
      );
      expect((await csv(user, 'withdrawals')).text.split('\r\n')[1]).toBe(
        `${FEB},${w},USDT-TRC20,"'=HYPERLINK(""http://x"")",50.00,Under review`,
      );
    });

    it('exports the header alone for an empty period, and withdrawals with their wallets', async () => {
      const user = await quickUser(t);
      const w = await withdrawal(user, FEB, 'TWalletOfThePartner000000000009', 'cancelled');
      const empty = await csv(user, 'withdrawals', `?to=${encodeURIComponent(FEB_1)}`);
      expect(empty.text).toBe('Date,ID,Method,Wallet,Amount,Status\r\n');
      const all = await csv(user, 'withdrawals');
      expect(all.text).toBe(
        `Date,ID,Method,Wallet,Amount,Status\r\n${FEB},${w},USDT-TRC20,TWalletOfThePartner000000000009,50.00,Cancelled\r\n`,
      );
    });
  });
});
