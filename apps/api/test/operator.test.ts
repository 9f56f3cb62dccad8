import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSignature } from '../src/integrations/payments/sandbox.ts';
import {
  balancesOf,
  fund,
  grantRoles,
  ledgerInvariants,
  memosOf,
  postKeyed,
  quickUser,
  refusal,
  uniqueEmail,
  useTestApp,
  type ApiResponse,
  type Json,
} from './helpers.ts';

const t = useTestApp();

const QUEUE = '/api/admin/payments';
const CONFIRM = (id: number | string) => `/api/admin/payments/${id}/confirm`;
const REJECT = (id: number | string) => `/api/admin/payments/${id}/reject`;
const USERS = '/api/admin/users';
const USER = (id: number | string) => `/api/admin/users/${id}`;
const LEDGER = (id: number | string) => `/api/admin/users/${id}/ledger`;
const ADJUST = (id: number | string) => `/api/admin/users/${id}/adjustments`;
const AUDIT = '/api/admin/audit';

const FORBIDDEN = { code: 'FORBIDDEN', message: 'Forbidden' };
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Unauthorized' };

type User = Awaited<ReturnType<typeof quickUser>>;

let admin: User;
beforeAll(async () => {
  admin = await quickUser(t, { role: 'admin', name: 'Olga Operator' });
});

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

const post = (path: string, body: unknown, who: { token: string }, key?: string | null) =>
  postKeyed(t, path, body, who, key);

const txid = () => `${randomUUID()}${randomUUID()}`.replaceAll('-', '');

/**
 * A crypto payment the user reported, Under review: a request of `amount` dollars, whose amount
 * is the dollars and a tag of cents of its own, and its TXID.
 */
async function cryptoPayment(user: User, amount: string | number = '50.00') {
  const request = await post(
    '/api/user/balance/crypto-request',
    { network: 'USDT-TRC20', amount },
    user,
  );
  expect(request.status).toBe(201);
  const res = await post(
    '/api/user/balance/crypto',
    {
      payment_id: request.body.payment.id,
      wallet: 'TPayerWalletAddress0000000000001',
      txid: txid(),
    },
    user,
  );
  expect(res.status).toBe(201);
  return res.body.payment as Json;
}

/** A payment's amount in cents. */
const centsOf = (payment: Json) => Math.round((payment.amount as number) * 100);

async function moneyState(...users: User[]) {
  const { rows } = await t.sql.query<Record<string, string>>(
    `select (select count(*) from payments) as payments,
            (select count(*) from charges) as charges,
            (select count(*) from ledger_entries) as ledger_entries,
            (select count(*) from audit_log) as audit_log,
            (select coalesce(jsonb_agg(jsonb_build_array(id, status, reason) order by id), '[]') from payments) as statuses`,
  );
  return { ...rows[0], balances: await Promise.all(users.map((u) => balancesOf(t, u.id))) };
}

async function auditRows(action: string, subjectId: string) {
  const { rows } = await t.sql.query(
    `select actor_id, action, subject_type, subject_id, target_user_id, details, created_at
     from audit_log where action = $1 and subject_id = $2 order by id`,
    [action, subjectId],
  );
  return rows;
}

describe('access to /api/admin', () => {
  const routes = (id: number): [string, string, unknown][] => [
    ['GET', QUEUE, undefined],
    ['POST', CONFIRM(id), undefined],
    ['POST', REJECT(id), { reason: 'No such transaction' }],
    ['GET', USERS, undefined],
    ['GET', USER(id), undefined],
    ['GET', LEDGER(id), undefined],
    ['POST', ADJUST(id), { amount: '1000', reason: 'Let me in' }],
    ['GET', AUDIT, undefined],
  ];

  it('answers 401 without a token and 403 FORBIDDEN to a non-admin, whatever the request', async () => {
    const user = await quickUser(t);
    const payment = await cryptoPayment(user);
    const before = await moneyState(user);
    for (const [method, path, body] of routes(payment.id)) {
      const anonymous = await t.api.request(method, path, {
        body,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(anonymous, `${method} ${path}`).toMatchObject({ status: 401, body: UNAUTHORIZED });
      const withKey = await t.api.request(method, path, {
        body,
        token: user.token,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(withKey, `${method} ${path}`).toMatchObject({ status: 403, body: FORBIDDEN });
      // no hints either: a malformed request of a non-admin is forbidden, not validated
      const malformed = await t.api.request(
        method,
        method === 'GET' ? `${path}?page=0&per_page=1000&status=nope` : path,
        { body: method === 'POST' ? { amount: 'x', reason: '' } : undefined, token: user.token },
      );
      expect(malformed, `${method} ${path} malformed`).toMatchObject({
        status: 403,
        body: FORBIDDEN,
      });
    }
    expect(await moneyState(user)).toEqual(before);
  });

  it('takes the area away from a demoted operator at once, and gives it to a promoted one', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    expect((await t.api.get(QUEUE, { token: operator.token })).status).toBe(200);
    await t.sql.query('delete from operator_roles where user_id = $1', [operator.id]);
    for (const [method, path, body] of routes(operator.id)) {
      const res = await t.api.request(method, path, {
        body,
        token: operator.token,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: FORBIDDEN });
    }
    expect(await balancesOf(t, operator.id)).toEqual({ balance: 0, partner: 0 });
    await grantRoles(t, operator.id, ['admin']);
    expect((await t.api.get(AUDIT, { token: operator.token })).status).toBe(200);
  });

  it('requires an Idempotency-Key on the operator’s money-moving POSTs', async () => {
    const user = await quickUser(t);
    const payment = await cryptoPayment(user);
    const before = await moneyState(user);
    for (const [path, body] of [
      [CONFIRM(payment.id), undefined],
      [REJECT(payment.id), { reason: 'No' }],
      [ADJUST(user.id), { amount: 5, reason: 'Goodwill' }],
    ] as const) {
      const res = await post(path, body, admin, null);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal('IDEMPOTENCY_KEY_REQUIRED'));
    }
    expect(await moneyState(user)).toEqual(before);
  });
});

describe('the crypto review queue', () => {
  it('lists payments Under review oldest first, with their users, and nothing else', async () => {
    const [ann, ben] = [
      await quickUser(t, { name: 'Ann Payer' }),
      await quickUser(t, { name: 'Ben Payer' }),
    ];
    // the queue of this test: everything else already in it is reviewed first
    await t.sql.query(
      `update payments set status = 'rejected', reason = 'cleared' where status = 'under_review'`,
    );
    const newest = await cryptoPayment(ann, '20');
    const oldest = await cryptoPayment(ben, '30');
    const middle = await cryptoPayment(ann, '40');
    await t.sql.query(`update payments set created_at = now() - interval '3 days' where id = $1`, [
      oldest.id,
    ]);
    await t.sql.query(`update payments set created_at = now() - interval '1 day' where id = $1`, [
      middle.id,
    ]);
    // a card payment is never in the queue
    await post('/api/user/balance/deposit', { method: 'card', amount: 15 }, ann);

    const res = await t.api.get(QUEUE, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: Json) => p.id)).toEqual([oldest.id, middle.id, newest.id]);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 3 });
    expect(res.body.data[0]).toMatchObject({
      method: 'crypto',
      amount: oldest.amount,
      pay_amount: oldest.pay_amount,
      status: 'under_review',
      network: 'USDT-TRC20',
      wallet: 'TPayerWalletAddress0000000000001',
      txid: oldest.txid,
      user: { id: ben.id, email: ben.email, name: 'Ben Payer' },
      reviewed_by: null,
      reviewed_at: null,
    });
    const page = await t.api.get(`${QUEUE}?per_page=2&page=2`, { token: admin.token });
    expect(page.body.data.map((p: Json) => p.id)).toEqual([newest.id]);
    const processing = await t.api.get(`${QUEUE}?status=processing&method=card`, {
      token: admin.token,
    });
    expect(processing.body.data.every((p: Json) => p.method === 'card')).toBe(true);
    expect(processing.body.data.some((p: Json) => p.user.id === ann.id)).toBe(true);
  });
});

describe('confirming and rejecting', () => {
  it('confirms: Paid, the balance credited once, audited with who and whom', async () => {
    const user = await quickUser(t, { name: 'Cora Crypto' });
    const payment = await cryptoPayment(user, '123.45');
    const key = randomUUID();
    const res = await post(CONFIRM(payment.id), undefined, admin, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'The payment is confirmed and the balance credited',
      code: 'PAYMENT_CONFIRMED',
      payment: {
        id: payment.id,
        status: 'paid',
        amount: payment.amount,
        user: { id: user.id, email: user.email, name: 'Cora Crypto' },
        reviewed_by: { id: admin.id, email: admin.email, name: 'Olga Operator' },
      },
    });
    expect(res.body.payment.reviewed_at).not.toBeNull();
    expect(res.body.payment.paid_at).not.toBeNull();
    expect(await balancesOf(t, user.id)).toEqual({ balance: centsOf(payment), partner: 0 });
    // the operator's ledger gets the payment, network and TXID as a code to put into words
    const ledger = await t.api.get(LEDGER(user.id), { token: admin.token });
    expect(ledger.body.data).toMatchObject([
      {
        kind: 'topup',
        amount: payment.amount,
        memo: null,
        memo_code: 'topup_crypto',
        memo_params: { payment_id: payment.id, network: 'USDT-TRC20', txid: payment.txid },
      },
    ]);

    const own = await t.api.get(`/api/user/balance/payments/${payment.id}`, { token: user.token });
    expect(own.body.payment).toMatchObject({ status: 'paid', amount: payment.amount });

    const audit = await auditRows('payment.confirm', String(payment.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: String(admin.id),
      subject_type: 'payment',
      target_user_id: String(user.id),
      details: { amount: payment.amount, network: 'USDT-TRC20', txid: payment.txid },
    });

    // the same key replays; a new key is refused: the payment has been reviewed
    const replay = await post(CONFIRM(payment.id), undefined, admin, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const before = await moneyState(user);
    const again = await post(CONFIRM(payment.id), undefined, admin);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 'PAYMENT_ALREADY_REVIEWED',
      message: 'This payment has already been reviewed',
    });
    const reject = await post(REJECT(payment.id), { reason: 'Too late' }, admin);
    expect(reject.status).toBe(409);
    expect(reject.body.code).toBe('PAYMENT_ALREADY_REVIEWED');
    expect(await moneyState(user)).toEqual(before);
    expect(await balancesOf(t, user.id)).toEqual({ balance: centsOf(payment), partner: 0 });
  });

  it('credits once when two operators confirm at the same moment', async () => {
    const user = await quickUser(t);
    const payment = await cryptoPayment(user, '70');
    const second = await quickUser(t, { role: 'admin' });
    const answers = await Promise.all([
      post(CONFIRM(payment.id), undefined, admin),
      post(CONFIRM(payment.id), undefined, second),
      post(CONFIRM(payment.id), undefined, admin),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await balancesOf(t, user.id)).toEqual({ balance: centsOf(payment), partner: 0 });
    expect(await auditRows('payment.confirm', String(payment.id))).toHaveLength(1);
  });

  it('rejects only with a reason, and shows the reason to the user', async () => {
    const user = await quickUser(t);
    const payment = await cryptoPayment(user, '60');
    const before = await moneyState(user);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: null }]) {
      const res = await post(REJECT(payment.id), body, admin);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal('REASON_REQUIRED', { reason: ['A reason is required'] }));
      expect(res.body.message).toBe('A reason is required');
    }
    const long = await post(REJECT(payment.id), { reason: 'x'.repeat(501) }, admin);
    expect(long.status).toBe(422);
    expect(long.body.code).toBe('REASON_TOO_LONG');
    expect(await moneyState(user)).toEqual(before);

    const res = await post(
      REJECT(payment.id),
      { reason: '  No such transaction on TRON  ' },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'The payment has been rejected',
      code: 'PAYMENT_REJECTED',
      payment: {
        status: 'rejected',
        reason: 'No such transaction on TRON',
        reviewed_by: { id: admin.id },
        paid_at: null,
      },
    });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
    const own = await t.api.get(`/api/user/balance/payments/${payment.id}`, { token: user.token });
    expect(own.body.payment).toMatchObject({
      status: 'rejected',
      reason: 'No such transaction on TRON',
    });
    const history = await t.api.get('/api/user/balance/history/payments', { token: user.token });
    expect(history.body.data[0]).toMatchObject({
      id: payment.id,
      reason: 'No such transaction on TRON',
    });
    expect(await auditRows('payment.reject', String(payment.id))).toMatchObject([
      {
        actor_id: String(admin.id),
        target_user_id: String(user.id),
        details: { reason: 'No such transaction on TRON', amount: payment.amount },
      },
    ]);

    const confirm = await post(CONFIRM(payment.id), undefined, admin);
    expect(confirm.status).toBe(409);
    expect(confirm.body.code).toBe('PAYMENT_ALREADY_REVIEWED');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('answers 404 for a card payment or an unknown one', async () => {
    const user = await quickUser(t);
    const card = await post('/api/user/balance/deposit', { method: 'card', amount: 20 }, user);
    const before = await moneyState(user);
    for (const id of [card.body.payment.id, 987654321]) {
      for (const res of [
        await post(CONFIRM(id), undefined, admin),
        await post(REJECT(id), { reason: 'Nope' }, admin),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
      }
    }
    expect(await moneyState(user)).toEqual(before);
  });
});

describe('users, ledgers and adjustments', () => {
  it('finds users by a part of the e-mail or the name, with their balances', async () => {
    const tag = randomUUID().slice(0, 8);
    const zoe = await quickUser(t, { name: `Zoe ${tag}-Trader`, email: uniqueEmail(`zoe${tag}`) });
    const max = await quickUser(t, { name: 'Max 100% Trader', email: uniqueEmail(`max${tag}`) });
    await fund(t, zoe.id, 1234);
    await fund(t, zoe.id, 56, 'balance_partner');

    const byName = await t.api.get(
      `${USERS}?query=${encodeURIComponent(`zoe ${tag}`.toUpperCase())}`,
      {
        token: admin.token,
      },
    );
    expect(byName.status).toBe(200);
    expect(byName.body.data).toEqual([
      {
        id: zoe.id,
        created_at: expect.any(String),
        email: zoe.email,
        name: `Zoe ${tag}-Trader`,
        role: 'user',
        balance: 12.34,
        balance_partner: 0.56,
      },
    ]);
    expect(byName.body.meta).toEqual({ page: 1, per_page: 20, total: 1 });
    const byEmail = await t.api.get(`${USERS}?query=${encodeURIComponent(`max${tag}`)}`, {
      token: admin.token,
    });
    expect(byEmail.body.data.map((u: Json) => u.id)).toEqual([max.id]);
    // % and _ are letters here, not patterns
    const percent = await t.api.get(`${USERS}?query=${encodeURIComponent('100%')}`, {
      token: admin.token,
    });
    expect(percent.body.data.map((u: Json) => u.id)).toEqual([max.id]);
    const none = await t.api.get(`${USERS}?query=${encodeURIComponent(`${tag}_nobody`)}`, {
      token: admin.token,
    });
    expect(none.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });

    const one = await t.api.get(USER(zoe.id), { token: admin.token });
    expect(one.body.user).toMatchObject({ id: zoe.id, balance: 12.34, balance_partner: 0.56 });
    expect(await t.api.get(USER(987654321), { token: admin.token })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'Not found' },
    });
  });

  it('shows a user’s ledger newest first with signed amounts and the balance after each', async () => {
    const user = await quickUser(t);
    const friend = await quickUser(t);
    await fund(t, user.id, 10_000);
    const sent = await post(
      '/api/user/balance/transfer',
      { email: friend.email, amount: 25 },
      user,
    );
    expect(sent.status).toBe(201);
    await fund(t, user.id, 300, 'balance_partner');
    const adjusted = await post(ADJUST(user.id), { amount: '-0.50', reason: 'Fee' }, admin);
    expect(adjusted.status).toBe(201);

    const res = await t.api.get(LEDGER(user.id), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 50, total: 4 });
    expect(
      res.body.data.map((e: Json) => [
        e.kind,
        e.account,
        e.amount,
        e.balance_after,
        e.memo,
        e.memo_code,
        e.memo_params,
      ]),
    ).toEqual([
      ['adjustment', 'balance', -0.5, 74.5, 'Fee', null, null],
      ['adjustment', 'balance_partner', 3, 3, 'test funding', null, null],
      [
        'transfer',
        'balance',
        -25,
        75,
        null,
        'transfer',
        { transfer_id: sent.body.transfer.id, from_user_id: user.id, to_user_id: friend.id },
      ],
      ['adjustment', 'balance', 100, 100, 'test funding', null, null],
    ]);
    expect(res.body.data[0].transaction_id).toBe(adjusted.body.entry.transaction_id);
    const page = await t.api.get(`${LEDGER(user.id)}?per_page=1&page=2`, { token: admin.token });
    expect(page.body.data.map((e: Json) => e.amount)).toEqual([3]);
    const theirs = await t.api.get(LEDGER(friend.id), { token: admin.token });
    expect(
      theirs.body.data.map((e: Json) => [e.kind, e.amount, e.balance_after, e.memo_params]),
    ).toEqual([['transfer', 25, 25, res.body.data[2].memo_params]]);
    expect((await t.api.get(LEDGER(987654321), { token: admin.token })).status).toBe(404);
  });

  it('credits with a reason: a top-up of method adjustment in the user’s history, audited', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1000);
    const res = await post(
      ADJUST(user.id),
      { amount: '25.5', reason: ' Refund of order 17 ' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'The balance has been adjusted',
      code: 'BALANCE_ADJUSTED',
      user: { id: user.id, balance: 35.5, balance_partner: 0 },
      entry: {
        kind: 'adjustment',
        account: 'balance',
        amount: 25.5,
        balance_after: 35.5,
        memo: 'Refund of order 17',
        memo_code: null,
        memo_params: null,
      },
    });
    // the operator's own text is the memo, as typed: no code puts it into other words
    expect((await memosOf(t, user.id))[0]).toEqual({
      kind: 'adjustment',
      memo: 'Refund of order 17',
      memo_code: null,
      memo_params: null,
    });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3550, partner: 0 });
    const history = await t.api.get('/api/user/balance/history/payments', { token: user.token });
    expect(history.body.data).toMatchObject([
      { method: 'adjustment', amount: 25.5, status: 'paid', reason: 'Refund of order 17' },
    ]);
    expect(history.body.data[0].paid_at).not.toBeNull();
    expect(await auditRows('balance.adjust', String(user.id))).toMatchObject([
      {
        actor_id: String(admin.id),
        subject_type: 'user',
        target_user_id: String(user.id),
        details: {
          account: 'balance',
          amount: 25.5,
          reason: 'Refund of order 17',
          ledger_transaction_id: res.body.entry.transaction_id,
        },
      },
    ]);
  });

  it('debits with a reason: a charge in the user’s history, in their language', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1000);
    const res = await post(ADJUST(user.id), { amount: '-4', reason: 'Chargeback' }, admin);
    expect(res.status).toBe(201);
    expect(res.body.entry).toMatchObject({ amount: -4, balance_after: 6 });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 600, partner: 0 });
    const charges = await t.api.get('/api/user/balance/history/charges', { token: user.token });
    expect(charges.body.data).toMatchObject([
      { amount: 4, description: 'Balance correction: Chargeback', status: 'paid' },
    ]);
    await t.sql.query(`update users set language = 'ru' where id = $1`, [user.id]);
    const ru = await t.api.get('/api/user/balance/history/charges', { token: user.token });
    expect(ru.body.data[0].description).toBe('Корректировка баланса: Chargeback');
    const payments = await t.api.get('/api/user/balance/history/payments', { token: user.token });
    expect(payments.body.data).toEqual([]);
  });

  it('adjusts the partner balance too, without a history row', async () => {
    const user = await quickUser(t);
    const res = await post(
      ADJUST(user.id),
      { account: 'balance_partner', amount: 12, reason: 'Partner reward fix' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ balance: 0, balance_partner: 12 });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 1200 });
    const payments = await t.api.get('/api/user/balance/history/payments', { token: user.token });
    expect(payments.body.data).toEqual([]);
  });

  it('refuses a debit below zero with 422 INSUFFICIENT_FUNDS, and a blank reason, changing nothing', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1000);
    await fund(t, user.id, 100, 'balance_partner');
    const before = await moneyState(user);
    const short = await post(ADJUST(user.id), { amount: '-10.01', reason: 'Too much' }, admin);
    expect(short.status).toBe(422);
    expect(short.body).toEqual(refusal('INSUFFICIENT_FUNDS', { amount: ['Insufficient funds'] }));
    const partner = await post(
      ADJUST(user.id),
      { account: 'balance_partner', amount: '-1.01', reason: 'Too much' },
      admin,
    );
    expect(partner.status).toBe(422);
    expect(partner.body.code).toBe('INSUFFICIENT_FUNDS');
    for (const reason of ['', '   ', undefined]) {
      const res = await post(ADJUST(user.id), { amount: 5, reason }, admin);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal('REASON_REQUIRED', { reason: ['A reason is required'] }));
    }
    for (const amount of [0, '0.00', '1.234', 'ten', '--5']) {
      const res = await post(ADJUST(user.id), { amount, reason: 'Typo' }, admin);
      expect(res.status, String(amount)).toBe(422);
      expect(res.body.code).toBe('AMOUNT_INVALID');
    }
    const unknown = await post(ADJUST(987654321), { amount: 5, reason: 'Ghost' }, admin);
    expect(unknown.status).toBe(404);
    expect(await moneyState(user)).toEqual(before);
    // all of it may go
    expect((await post(ADJUST(user.id), { amount: '-10', reason: 'Close' }, admin)).status).toBe(
      201,
    );
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 100 });
  });
});

describe('the audit log', () => {
  it('lists every operator action and refused notification, newest first, with who, what and when', async () => {
    const other = await quickUser(t, { role: 'admin', name: 'Igor Inspector' });
    const user = await quickUser(t, { name: 'Audited User' });
    const confirmed = await cryptoPayment(user, '20');
    const rejected = await cryptoPayment(user, '21');
    const started = Date.now();
    expect((await post(CONFIRM(confirmed.id), undefined, admin)).status).toBe(200);
    expect((await post(REJECT(rejected.id), { reason: 'Wrong network' }, other)).status).toBe(200);
    const adjusted = await post(ADJUST(user.id), { amount: 1, reason: 'Goodwill' }, other);
    expect(adjusted.status).toBe(201);
    // a gateway notification with another amount: audited with no actor
    const card = await post('/api/user/balance/deposit', { method: 'card', amount: 30 }, user);
    const note = {
      order_id: String(card.body.payment.id),
      amount: '3000.00',
      currency: 'USD',
      status: 'paid',
      operation_id: randomUUID(),
    };
    const mismatch = await fetch(`${t.url}/api/payments/webhook/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...note,
        signature: sandboxSignature(t.config.payments.sandbox.secret, 'notification', note),
      }),
    });
    expect(await mismatch.text()).toBe('REFUSED');

    const res: ApiResponse = await t.api.get(`${AUDIT}?per_page=4`, { token: other.token });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ page: 1, per_page: 4 });
    expect(res.body.meta.total).toBeGreaterThanOrEqual(4);
    const actorOf = (u: User, name: string) => ({ id: u.id, email: u.email, name });
    const target = actorOf(user, 'Audited User');
    expect(res.body.data).toMatchObject([
      {
        actor: null,
        action: 'payment.mismatch',
        subject_type: 'payment',
        subject_id: String(card.body.payment.id),
        target_user: target,
        details: { expected: { amount: '30.00' }, received: { amount: '3000.00' } },
      },
      {
        actor: actorOf(other, 'Igor Inspector'),
        action: 'balance.adjust',
        subject_type: 'user',
        subject_id: String(user.id),
        target_user: target,
        details: { amount: 1, reason: 'Goodwill', account: 'balance' },
      },
      {
        actor: actorOf(other, 'Igor Inspector'),
        action: 'payment.reject',
        subject_id: String(rejected.id),
        target_user: target,
        details: { reason: 'Wrong network' },
      },
      {
        actor: actorOf(admin, 'Olga Operator'),
        action: 'payment.confirm',
        subject_id: String(confirmed.id),
        target_user: target,
        details: { amount: confirmed.amount, network: 'USDT-TRC20', txid: confirmed.txid },
      },
    ]);
    for (const row of res.body.data) {
      const at = Date.parse(row.created_at);
      expect(at).toBeGreaterThanOrEqual(started - 5_000);
      expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
    }
    const ids = res.body.data.map((r: Json) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });
});
