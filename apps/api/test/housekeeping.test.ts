import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxSignature } from '../src/integrations/payments/sandbox.ts';
import { requestHash } from '../src/plugins/idempotency.ts';
import {
  balancesOf,
  fund,
  ledgerInvariants,
  quickUser,
  useTestApp,
  type ApiResponse,
  type Json,
} from './helpers.ts';
import { cryptoPayment } from './crypto-helpers.ts';

const t = useTestApp();

const DEPOSIT = '/api/user/balance/deposit';
const TRANSFER = '/api/user/balance/transfer';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type User = Awaited<ReturnType<typeof quickUser>>;

const NOTHING = { expiredPayments: 0, deletedKeys: 0 };

/** The hourly work both schedules do: the balance's payment expiry and the keys' cleanup. */
const tick = async () => {
  const [expiredPayments, { deletedKeys }] = await Promise.all([
    t.app.balanceJobs.expirePayments(),
    t.app.jobs.housekeeping.tick(),
  ]);
  return { expiredPayments, deletedKeys };
};
/** A time `ms` before the app's clock. */
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

// each test sees only its own Processing payments and keys, so the report's counts are its own
beforeEach(async () => {
  await t.sql.query(`delete from payments where status = 'processing'`);
  await t.sql.query('delete from idempotency_keys');
});

/** A money-moving POST with a fresh Idempotency-Key unless one is given. */
function send(path: string, body: unknown, user: User, key = randomUUID()): Promise<ApiResponse> {
  return t.api.post(path, body, { token: user.token, headers: { 'idempotency-key': key } });
}

/** A card or e-wallet top-up through the API (Processing), created `age` ms before the clock. */
async function gatewayPayment(user: User, age: number, method = 'card', amount = '25.00') {
  const res = await send(DEPOSIT, { method, amount }, user);
  expect(res.status).toBe(201);
  const id = Number(res.body.payment.id);
  await setCreated(id, age);
  return id;
}

async function setCreated(paymentId: number, age: number) {
  await t.sql.query('update payments set created_at = $2 where id = $1', [paymentId, ago(age)]);
}

async function statusOf(paymentId: number): Promise<string> {
  const { rows } = await t.sql.query('select status from payments where id = $1', [paymentId]);
  return rows[0].status;
}

async function expiryAudit(paymentId: number) {
  const { rows } = await t.sql.query(
    `select actor_id, action, subject_type, subject_id, target_user_id, details
     from audit_log where action = 'payment.expired' and subject_id = $1`,
    [String(paymentId)],
  );
  return rows;
}

async function keyExists(userId: number, key: string): Promise<boolean> {
  const { rows } = await t.sql.query(
    'select 1 from idempotency_keys where user_id = $1 and key = $2',
    [userId, key],
  );
  return rows.length === 1;
}

/** A signed sandbox notification POSTed as a form, the way the gateway sends it. */
async function notify(orderId: number, amount = '25.00', status = 'paid') {
  const note = { order_id: String(orderId), amount, currency: 'USD', status };
  const fields = { ...note, operation_id: randomUUID() };
  const signature = sandboxSignature(t.config.payments.sandbox.secret, 'notification', fields);
  const res = await fetch(`${t.url}/api/payments/webhook/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, signature }),
  });
  return { status: res.status, text: await res.text() };
}

/** Every payment's status and the audit log's size: what a second tick must leave alone. */
async function state() {
  const { rows } = await t.sql.query(
    `select (select coalesce(jsonb_agg(jsonb_build_array(id, status) order by id), '[]')
             from payments) as payments,
            (select count(*) from audit_log) as audit,
            (select count(*) from idempotency_keys) as keys`,
  );
  return rows[0] as Json;
}

describe('expiring Processing payments', () => {
  it('defaults to 24 hours', () => {
    expect(t.config.payments.expireAfterHours).toBe(24);
  });

  it('makes a card or e-wallet payment Processing past the limit Not paid, audited; leaves the rest', async () => {
    const user = await quickUser(t);
    const under = await gatewayPayment(user, DAY - MINUTE);
    const over = await gatewayPayment(user, DAY + MINUTE);
    const overWallet = await gatewayPayment(user, 3 * DAY, 'ewallet', '10.00');
    // a paid card payment and a crypto payment under review, both long past the limit
    const paid = await gatewayPayment(user, 0);
    expect(await notify(paid)).toMatchObject({ status: 200, text: 'OK' });
    await setCreated(paid, 2 * DAY);
    const crypto = { body: { payment: await cryptoPayment(t, user, 30, 'BTC') } };
    await setCreated(crypto.body.payment.id, 2 * DAY);

    expect(await tick()).toEqual({ expiredPayments: 2, deletedKeys: 0 });
    expect(await statusOf(under)).toBe('processing');
    expect(await statusOf(over)).toBe('not_paid');
    expect(await statusOf(overWallet)).toBe('not_paid');
    expect(await statusOf(paid)).toBe('paid');
    expect(await statusOf(crypto.body.payment.id)).toBe('under_review');

    expect(await expiryAudit(over)).toEqual([
      {
        actor_id: null,
        action: 'payment.expired',
        subject_type: 'payment',
        subject_id: String(over),
        target_user_id: String(user.id),
        details: { method: 'card', driver: 'sandbox', amount: 25, currency: 'USD' },
      },
    ]);
    expect(await expiryAudit(overWallet)).toMatchObject([
      { details: { method: 'ewallet', amount: 10 } },
    ]);
    for (const id of [under, paid, crypto.body.payment.id])
      expect(await expiryAudit(id)).toEqual([]);

    // the user sees it Not paid; the operators see it in the audit log
    const own = await t.api.get(`/api/user/balance/payments/${over}`, { token: user.token });
    expect(own.body.payment.status).toBe('not_paid');
    const admin = await quickUser(t, { role: 'admin' });
    const audit = await t.api.get('/api/admin/audit', { token: admin.token });
    expect(audit.status).toBe(200);
    expect(audit.body.data).toContainEqual(
      expect.objectContaining({
        action: 'payment.expired',
        actor: null,
        subject_id: String(over),
        target_user: expect.objectContaining({ id: user.id }),
      }),
    );

    // a second tick changes nothing more
    const before = await state();
    expect(await tick()).toEqual(NOTHING);
    expect(await state()).toEqual(before);
    expect(await expiryAudit(over)).toHaveLength(1);
  });

  it('still credits a late successful notification for an expired payment, once', async () => {
    const user = await quickUser(t);
    const id = await gatewayPayment(user, DAY + HOUR, 'card', '40.00');
    expect(await tick()).toEqual({ expiredPayments: 1, deletedKeys: 0 });
    expect(await statusOf(id)).toBe('not_paid');

    expect(await notify(id, '40.00')).toMatchObject({ status: 200, text: 'OK' });
    expect(await statusOf(id)).toBe('paid');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 4000, partner: 0 });
    // repeated (and a late failure): acknowledged, nothing more credited
    expect(await notify(id, '40.00')).toMatchObject({ status: 200, text: 'OK' });
    expect(await notify(id, '40.00', 'failed')).toMatchObject({ status: 200, text: 'OK' });
    expect(await statusOf(id)).toBe('paid');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 4000, partner: 0 });
    const { rows } = await t.sql.query(
      'select count(*)::int as n from ledger_entries where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(1);

    // and the paid payment is no business of the next tick
    expect(await tick()).toEqual(NOTHING);
    expect(await statusOf(id)).toBe('paid');
    expect(await expiryAudit(id)).toHaveLength(1);
  });

  it('skips a payment a notification holds, without waiting for it; the notification decides', async () => {
    const user = await quickUser(t);
    const held = await gatewayPayment(user, 2 * DAY);
    const other = await gatewayPayment(user, 2 * DAY);
    // a notification's transaction holds the payment's row (handleNotification locks it first)
    const notification = await t.sql.connect();
    try {
      await notification.query('begin');
      await notification.query('select id from payments where id = $1 for update', [held]);
      expect(await tick()).toEqual({ expiredPayments: 1, deletedKeys: 0 });
      expect(await statusOf(other)).toBe('not_paid');
      expect(await statusOf(held)).toBe('processing');
    } finally {
      await notification.query('rollback');
      notification.release();
    }
    // the real notification comes and credits it: the next tick has nothing to expire
    expect(await notify(held)).toMatchObject({ status: 200, text: 'OK' });
    expect(await tick()).toEqual(NOTHING);
    expect(await statusOf(held)).toBe('paid');
    expect(await expiryAudit(held)).toEqual([]);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 2500, partner: 0 });
  });

  it('expires thousands in batches, and two ticks at once expire each payment once', async () => {
    const user = await quickUser(t);
    await t.sql.query(
      `insert into payments (user_id, method, driver, amount_cents, status, created_at)
       select $1, case when i % 2 = 0 then 'card' else 'ewallet' end, 'sandbox', 1000 + i,
              'processing', $2::timestamptz - make_interval(secs => i)
       from generate_series(1, 2500) as i`,
      [user.id, ago(DAY + MINUTE)],
    );
    const young = await gatewayPayment(user, HOUR);
    const reports = await Promise.all([tick(), tick()]);
    expect(reports.reduce((sum, r) => sum + r.expiredPayments, 0)).toBe(2500);
    const { rows } = await t.sql.query(
      `select count(*) filter (where p.status = 'not_paid')::int as expired,
              count(a.id)::int as audited,
              count(distinct a.subject_id)::int as distinct_audited
       from payments p
       left join audit_log a on a.subject_id = p.id::text and a.action = 'payment.expired'
       where p.user_id = $1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ expired: 2500, audited: 2500, distinct_audited: 2500 });
    expect(await statusOf(young)).toBe('processing');
    expect(await tick()).toEqual(NOTHING);
  });
});

describe('deleting old Idempotency-Keys', () => {
  async function pair(cents = 10_000) {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, cents);
    return { sender, recipient };
  }

  async function setKeyCreated(userId: number, key: string, age: number) {
    await t.sql.query(
      'update idempotency_keys set created_at = $3 where user_id = $1 and key = $2',
      [userId, key, ago(age)],
    );
  }

  it('deletes answered keys older than a day; a younger one and an unanswered claim stay', async () => {
    const { sender, recipient } = await pair();
    const body = { email: recipient.email, amount: 7 };
    const old = randomUUID();
    const first = await send(TRANSFER, body, sender, old);
    expect(first.status).toBe(201);
    const replayed = await send(TRANSFER, body, sender, old);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    await setKeyCreated(sender.id, old, DAY + MINUTE);

    const young = randomUUID();
    expect((await send(TRANSFER, { ...body, amount: 1 }, sender, young)).status).toBe(201);
    await setKeyCreated(sender.id, young, DAY - MINUTE);

    // a refusal is an answer too
    const refused = randomUUID();
    const refusal = await send(TRANSFER, { ...body, amount: 1_000_000 }, sender, refused);
    expect(refusal.status).toBe(422);
    await setKeyCreated(sender.id, refused, 2 * DAY);

    // a claim still waiting for its answer, however old it looks
    const claim = randomUUID();
    await t.sql.query(
      `insert into idempotency_keys (user_id, key, scope, request_hash, created_at)
       values ($1, $2, 'POST /user/balance/transfer', $3, $4)`,
      [sender.id, claim, requestHash({ email: recipient.email, amount: 300 }), ago(3 * DAY)],
    );
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9200, partner: 0 });

    expect(await tick()).toEqual({ expiredPayments: 0, deletedKeys: 2 });
    expect(await keyExists(sender.id, old)).toBe(false);
    expect(await keyExists(sender.id, refused)).toBe(false);
    expect(await keyExists(sender.id, young)).toBe(true);
    expect(await keyExists(sender.id, claim)).toBe(true);

    // the young key still replays
    const again = await send(TRANSFER, { ...body, amount: 1 }, sender, young);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 9200, partner: 0 });

    // the deleted key is a fresh request: a second transfer
    const fresh = await send(TRANSFER, body, sender, old);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.transfer.id).not.toBe(first.body.transfer.id);
    expect(await balancesOf(t, sender.id)).toEqual({ balance: 8500, partner: 0 });
    expect(await balancesOf(t, recipient.id)).toEqual({ balance: 1500, partner: 0 });
    // and is kept, replayed, again
    expect((await send(TRANSFER, body, sender, old)).headers.get('idempotent-replayed')).toBe(
      'true',
    );

    // a second tick changes nothing more
    const before = await state();
    expect(await tick()).toEqual(NOTHING);
    expect(await state()).toEqual(before);
    expect(await keyExists(sender.id, claim)).toBe(true);
  });
});

// last: it moves the app's clock a day on
describe("on the app's clock", () => {
  it('counts the age of payments and keys from deps.now', async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, 1000);
    const key = randomUUID();
    expect((await send(TRANSFER, { email: recipient.email, amount: 2 }, sender, key)).status).toBe(
      201,
    );
    const payment = await gatewayPayment(sender, 0);
    const claim = randomUUID();
    await t.sql.query(
      `insert into idempotency_keys (user_id, key, scope, request_hash)
       values ($1, $2, 'POST /user/balance/transfer', 'x')`,
      [sender.id, claim],
    );
    expect(await tick()).toEqual(NOTHING);

    t.clock.advance(DAY - 10 * MINUTE);
    expect(await tick()).toEqual(NOTHING);
    t.clock.advance(20 * MINUTE);
    // the deposit's key and the transfer's key, both answered
    expect(await tick()).toEqual({ expiredPayments: 1, deletedKeys: 2 });
    expect(await statusOf(payment)).toBe('not_paid');
    expect(await keyExists(sender.id, key)).toBe(false);
    expect(await keyExists(sender.id, claim)).toBe(true);
    expect(await tick()).toEqual(NOTHING);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });
});
