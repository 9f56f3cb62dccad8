import { randomUUID } from 'node:crypto';
import { addMonths } from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, ledgerInvariants, postKeyed, quickUser, useTestApp, type Json } from './helpers.ts';
import { HELLO, hello, publisherOf, send, SNAPSHOT, snapshot } from './monitoring-fixtures.ts';
import { auditOf, DAY, expectStatus } from './vps-fixtures.ts';

const t = useTestApp();

const PRICES = '/api/admin/monitoring/prices';
const SUBSCRIPTIONS = '/api/admin/monitoring/subscriptions';
const EXTEND = (id: number | string) => `${SUBSCRIPTIONS}/${id}/extend`;
const ACCOUNTS = '/api/admin/monitoring/accounts';
const PLANS = '/api/user/monitoring/plans';
const FORBIDDEN = { code: 'FORBIDDEN', message: 'Forbidden' };

type User = Awaited<ReturnType<typeof quickUser>>;

let admin: User;
beforeAll(async () => {
  admin = await quickUser(t, { role: 'admin', name: 'Olga Operator' });
});

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

function call(method: string, path: string, who: { token: string }, body?: unknown) {
  return t.api.request(method, path, {
    body,
    token: who.token,
    headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {},
  });
}

/** A paid subscription of `user` for `months` months, bought from the balance. */
async function paid(user: User, accounts = 2, months = 1): Promise<Json> {
  await fund(t, user.id, 100_00);
  const res = await postKeyed(
    t,
    '/api/user/monitoring/subscriptions',
    { accounts, months },
    user,
    randomUUID(),
  );
  expectStatus(res, 201);
  return res.body.subscription as Json;
}

const pricesRow = async () =>
  (
    await t.sql.query(
      `select (select value from settings where key = 'monitoring_account_month_cents') price,
              (select jsonb_agg(discount_percent order by months) from monitoring_period_discounts) d`,
    )
  ).rows[0];

describe('the operator area of monitoring', () => {
  const routes: [string, string, unknown][] = [
    ['GET', PRICES, undefined],
    ['PUT', PRICES, { account_month_price: '0.01', discounts: [] }],
    ['GET', SUBSCRIPTIONS, undefined],
    ['POST', EXTEND(1), { months: 12, reason: 'Mine' }],
    ['GET', ACCOUNTS, undefined],
  ];

  it('answers 401 without a token and 403 FORBIDDEN to a non-admin, even to a malformed request, changing nothing', async () => {
    const user = await quickUser(t);
    const subscription = await paid(user);
    const before = await pricesRow();
    for (const [method, path, body] of routes) {
      expect((await t.api.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect(await call(method, path, user, body), `${method} ${path}`).toMatchObject({
        status: 403,
        body: FORBIDDEN,
      });
      const malformed = await call(
        method,
        method === 'GET' ? `${path}?page=0&state=nope` : path,
        user,
        method === 'GET' ? undefined : { nonsense: true },
      );
      expect(malformed, `${method} ${path} malformed`).toMatchObject({ status: 403 });
    }
    // the user's own subscription as well: no free months from the operator's route
    const own = await call('POST', EXTEND(subscription.id as number), user, {
      months: 12,
      reason: 'Mine',
    });
    expect(own.status).toBe(403);
    expect(await pricesRow()).toEqual(before);
    const { rows } = await t.sql.query(
      'select ends_at from monitoring_subscriptions where id = $1',
      [subscription.id],
    );
    expect(rows[0].ends_at.toISOString()).toBe(subscription.ends_at);
  });
});

describe('prices', () => {
  it('shows the seeded price and discounts; a change is audited and the next order pays it', async () => {
    expect(await call('GET', PRICES, admin)).toMatchObject({
      status: 200,
      body: {
        account_month_price: 3,
        discounts: [
          { months: 1, discount_percent: 0 },
          { months: 3, discount_percent: 5 },
          { months: 6, discount_percent: 10 },
          { months: 12, discount_percent: 15 },
        ],
      },
    });
    try {
      const res = await call('PUT', PRICES, admin, {
        account_month_price: '4.50',
        discounts: [
          { months: 3, discount_percent: 10 },
          { months: 2, discount_percent: 2 },
        ],
      });
      expectStatus(res, 200);
      const changed = {
        account_month_price: 4.5,
        discounts: [
          { months: 1, discount_percent: 0 },
          { months: 2, discount_percent: 2 },
          { months: 3, discount_percent: 10 },
          { months: 6, discount_percent: 10 },
          { months: 12, discount_percent: 15 },
        ],
      };
      expect(res.body).toEqual(changed);
      // the trader's plans and the charge follow: 2 accounts x 3 months x $4.50 less 10 % = $24.30
      expect((await t.api.get(PLANS, { token: admin.token })).body).toMatchObject({
        account_month_price: 4.5,
        discounts: changed.discounts,
      });
      const trader = await quickUser(t);
      await fund(t, trader.id, 100_00);
      const bought = await postKeyed(
        t,
        '/api/user/monitoring/subscriptions',
        { accounts: 2, months: 3 },
        trader,
        randomUUID(),
      );
      expectStatus(bought, 201);
      expect(bought.body.charged).toBe(24.3);

      const [audit] = await auditOf(t, 'monitoring.prices_update');
      expect(audit).toMatchObject({
        actor_id: String(admin.id),
        subject_type: 'monitoring_prices',
        details: { after: changed },
      });
      expect((audit!.details as Json).before).toMatchObject({ account_month_price: 3 });
    } finally {
      await call('PUT', PRICES, admin, {
        account_month_price: '3',
        discounts: [
          { months: 3, discount_percent: 5 },
          { months: 2, discount_percent: 0 },
        ],
      });
    }
  });

  it('refuses a bad price or discount with the field named, changing nothing', async () => {
    const before = await pricesRow();
    const audits = (await auditOf(t, 'monitoring.prices_update')).length;
    const bad: [unknown, string, string][] = [
      [{ account_month_price: '0', discounts: [] }, 'account_month_price', 'AMOUNT_INVALID'],
      [{ account_month_price: '-3', discounts: [] }, 'account_month_price', 'AMOUNT_INVALID'],
      [{ account_month_price: '3.001', discounts: [] }, 'account_month_price', 'AMOUNT_INVALID'],
      [{ account_month_price: 'three', discounts: [] }, 'account_month_price', 'AMOUNT_INVALID'],
      [{ discounts: [] }, 'account_month_price', 'AMOUNT_INVALID'],
      [
        { account_month_price: '3', discounts: [{ months: 3, discount_percent: 91 }] },
        'discounts.0.discount_percent',
        'DISCOUNT_INVALID',
      ],
      [
        { account_month_price: '3', discounts: [{ months: 3, discount_percent: 2.5 }] },
        'discounts.0.discount_percent',
        'DISCOUNT_INVALID',
      ],
      [
        { account_month_price: '3', discounts: [{ months: 13, discount_percent: 5 }] },
        'discounts.0.months',
        'MONITORING_MONTHS_RANGE',
      ],
      [
        {
          account_month_price: '3',
          discounts: [
            { months: 3, discount_percent: 5 },
            { months: 3, discount_percent: 50 },
          ],
        },
        'discounts.1.months',
        'VALIDATION',
      ],
    ];
    for (const [body, field, code] of bad) {
      const res = await call('PUT', PRICES, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors?.[field], JSON.stringify(body)).toBeDefined();
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    expect(await pricesRow()).toEqual(before);
    expect(await auditOf(t, 'monitoring.prices_update')).toHaveLength(audits);
  });
});

describe('subscriptions', () => {
  it('lists every subscription newest first with its owner, by number, e-mail, state and plan', async () => {
    const ann = await quickUser(t, { email: `ann-${randomUUID()}@example.com` });
    const free = await t.api.post('/api/user/monitoring/subscriptions/free', undefined, {
      token: ann.token,
    });
    const running = await paid(ann, 3, 1);
    const ended = await paid(ann, 1, 1);
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '1 day' where id = $1`,
      [ended.id],
    );

    const byEmail = await call(
      'GET',
      `${SUBSCRIPTIONS}?search=${encodeURIComponent(ann.email)}`,
      admin,
    );
    expectStatus(byEmail, 200);
    expect(byEmail.body.meta).toEqual({ page: 1, per_page: 20, total: 3 });
    expect(byEmail.body.data.map((s: Json) => s.id)).toEqual([
      ended.id,
      running.id,
      free.body.subscription.id,
    ]);
    expect(byEmail.body.data[1]).toMatchObject({
      plan: 'paid',
      accounts: 3,
      used_accounts: 0,
      active: true,
      user: { id: ann.id, email: ann.email, name: ann.name },
    });
    expect(byEmail.body.data[0].active).toBe(false);

    const search = `search=${encodeURIComponent(ann.email)}`;
    const endedOnly = await call('GET', `${SUBSCRIPTIONS}?${search}&state=ended`, admin);
    expect(endedOnly.body.data.map((s: Json) => s.id)).toEqual([ended.id]);
    const runningOnly = await call('GET', `${SUBSCRIPTIONS}?${search}&state=running`, admin);
    expect(runningOnly.body.data.map((s: Json) => s.id)).toEqual([
      running.id,
      free.body.subscription.id,
    ]);
    const freeOnly = await call('GET', `${SUBSCRIPTIONS}?${search}&plan=free`, admin);
    expect(freeOnly.body.data.map((s: Json) => s.id)).toEqual([free.body.subscription.id]);
    const byNumber = await call('GET', `${SUBSCRIPTIONS}?search=${running.id}`, admin);
    expect(byNumber.body.data.map((s: Json) => s.id)).toContain(running.id);
    // a LIKE wildcard is a character like any other
    const wildcard = await call('GET', `${SUBSCRIPTIONS}?search=%25`, admin);
    expect(wildcard.body.meta.total).toBe(0);
    const paged = await call('GET', `${SUBSCRIPTIONS}?${search}&per_page=2&page=2`, admin);
    expect(paged.body.data.map((s: Json) => s.id)).toEqual([free.body.subscription.id]);

    for (const query of [
      'page=0',
      'state=nope',
      'plan=gold',
      'per_page=1000',
      `search=${'x'.repeat(255)}`,
    ]) {
      expect((await call('GET', `${SUBSCRIPTIONS}?${query}`, admin)).status, query).toBe(422);
    }
  });

  it('extends a running subscription from its end and an ended one from now, free of charge, audited with the reason, its warnings reset', async () => {
    const user = await quickUser(t);
    const running = await paid(user, 2, 1);
    await t.sql.query(
      `update monitoring_subscriptions set warned_3d_at = now(), warned_1d_at = now() where id = $1`,
      [running.id],
    );
    const balance = async () =>
      Number(
        (await t.sql.query('select balance_cents from users where id = $1', [user.id])).rows[0]
          .balance_cents,
      );
    const before = await balance();

    const res = await call('POST', EXTEND(running.id as number), admin, {
      months: 2,
      reason: '  Downtime on 3 May  ',
    });
    expectStatus(res, 200);
    const endsAt = addMonths(new Date(running.ends_at as string), 2).toISOString();
    expect(res.body).toMatchObject({
      message: 'The subscription has been extended',
      subscription: { id: running.id, ends_at: endsAt, active: true, user: { id: user.id } },
    });
    expect(await balance()).toBe(before);
    const { rows } = await t.sql.query(
      'select warned_3d_at, warned_1d_at from monitoring_subscriptions where id = $1',
      [running.id],
    );
    expect(rows[0]).toEqual({ warned_3d_at: null, warned_1d_at: null });
    expect(await auditOf(t, 'monitoring.operator_extend', running.id as number)).toEqual([
      {
        actor_id: String(admin.id),
        action: 'monitoring.operator_extend',
        subject_type: 'monitoring_subscription',
        subject_id: String(running.id),
        target_user_id: String(user.id),
        details: {
          months: 2,
          reason: 'Downtime on 3 May',
          previous_ends_at: running.ends_at,
          ends_at: endsAt,
        },
      },
    ]);
    // the same request again under its key: answered as before, extended once
    const key = randomUUID();
    const body = { months: 1, reason: 'Retried' };
    const first = await postKeyed(t, EXTEND(running.id as number), body, admin, key);
    const replay = await postKeyed(t, EXTEND(running.id as number), body, admin, key);
    expectStatus(replay, 200);
    expect(replay.body).toEqual(first.body);
    expect(first.body.subscription.ends_at).toBe(addMonths(new Date(endsAt), 1).toISOString());
    expect(await auditOf(t, 'monitoring.operator_extend', running.id as number)).toHaveLength(2);
    const keyless = await postKeyed(t, EXTEND(running.id as number), body, admin, null);
    expect(keyless.status).toBe(400);
    expect(keyless.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');

    // the owner sees it
    const mine = await t.api.get('/api/user/monitoring/subscriptions', { token: user.token });
    expect(mine.body.subscriptions[0].ends_at).toBe(first.body.subscription.ends_at);

    const ended = await paid(user, 1, 1);
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '40 days' where id = $1`,
      [ended.id],
    );
    const from = Date.now();
    const again = await call('POST', EXTEND(ended.id as number), admin, {
      months: 1,
      reason: 'Goodwill',
    });
    expectStatus(again, 200);
    expect(again.body.subscription.active).toBe(true);
    const until = Date.parse(again.body.subscription.ends_at as string);
    expect(until).toBeGreaterThanOrEqual(addMonths(new Date(from - 5000), 1).getTime());
    expect(until).toBeLessThan(from + 32 * DAY);
  });

  it('refuses the free plan, an unknown subscription and a bad body, changing nothing', async () => {
    const user = await quickUser(t);
    const free = await t.api.post('/api/user/monitoring/subscriptions/free', undefined, {
      token: user.token,
    });
    const running = await paid(user, 1, 1);
    const audits = (await auditOf(t, 'monitoring.operator_extend')).length;

    expect(
      await call('POST', EXTEND(free.body.subscription.id), admin, { months: 1, reason: 'x' }),
    ).toMatchObject({
      status: 409,
      body: {
        code: 'MONITORING_FREE_FIXED',
        message: 'The free plan cannot be extended or enlarged: buy a paid plan',
      },
    });
    for (const id of ['999999999', '0', 'abc']) {
      expect((await call('POST', EXTEND(id), admin, { months: 1, reason: 'x' })).status, id).toBe(
        404,
      );
    }
    const bad: [unknown, string, string][] = [
      [{ months: 0, reason: 'x' }, 'months', 'MONITORING_MONTHS_RANGE'],
      [{ months: 13, reason: 'x' }, 'months', 'MONITORING_MONTHS_RANGE'],
      [{ months: 1.5, reason: 'x' }, 'months', 'MONITORING_MONTHS_RANGE'],
      [{ months: 1 }, 'reason', 'REASON_REQUIRED'],
      [{ months: 1, reason: '   ' }, 'reason', 'REASON_REQUIRED'],
      [{ months: 1, reason: 'x'.repeat(501) }, 'reason', 'REASON_TOO_LONG'],
    ];
    for (const [body, field, code] of bad) {
      const res = await call('POST', EXTEND(running.id as number), admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
      expect(res.body.errors?.[field], JSON.stringify(body)).toBeDefined();
    }
    const { rows } = await t.sql.query(
      'select ends_at from monitoring_subscriptions where id = $1',
      [running.id],
    );
    expect(rows[0].ends_at.toISOString()).toBe(running.ends_at);
    expect(await auditOf(t, 'monitoring.operator_extend')).toHaveLength(audits);
  });
});

describe('accounts', () => {
  it("lists every account with its owner, the publisher's version, last data and state", async () => {
    const login = 7_000_000 + Math.floor(Math.random() * 1_000_000);
    const { user, key, account } = await publisherOf(t, login);
    const listed = async (query: string) =>
      (await call('GET', `${ACCOUNTS}?${query}`, admin)).body as { data: Json[]; meta: Json };

    const never = await listed(`search=${login}`);
    expect(never.data).toHaveLength(1);
    expect(never.data[0]).toMatchObject({
      id: account.id,
      login,
      user: { id: user.id, email: user.email },
      ea_version: null,
      last_data_at: null,
      publisher: 'never',
      subscription_active: true,
    });
    expect((await listed(`search=${login}&publisher=never`)).data).toHaveLength(1);

    expectStatus(await send(t, HELLO, key, hello({ login, ea_version: '1.2.3' })), 200);
    expectStatus(
      await send(t, SNAPSHOT, key, snapshot({ login, time: new Date().toISOString() })),
      200,
    );
    const reporting = await listed(`search=${encodeURIComponent(user.email)}`);
    expect(reporting.data[0]).toMatchObject({
      ea_version: '1.2.3',
      publisher: 'reporting',
      terminal_connected: true,
    });
    expect(reporting.data[0]!.hello_at).not.toBeNull();
    expect(reporting.data[0]!.last_data_at).not.toBeNull();
    expect((await listed(`search=${login}&publisher=reporting`)).data).toHaveLength(1);
    expect((await listed(`search=${login}&publisher=silent`)).data).toHaveLength(0);

    await t.sql.query(
      `update monitoring_accounts set last_data_at = now() - interval '11 minutes' where id = $1`,
      [account.id],
    );
    expect((await listed(`search=${login}&publisher=silent`)).data[0]).toMatchObject({
      publisher: 'silent',
    });
    // by the account's name too
    expect((await listed(`search=Main&publisher=silent`)).data.map((a) => a.id)).toContain(
      account.id,
    );

    for (const query of ['page=0', 'publisher=asleep', 'per_page=0']) {
      expect((await call('GET', `${ACCOUNTS}?${query}`, admin)).status, query).toBe(422);
    }
  });
});
