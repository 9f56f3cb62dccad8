import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  balancesOf,
  fieldRefusal,
  fund,
  ledgerInvariants,
  postKeyed,
  quickUser,
  refusal,
  useTestApp,
} from './helpers.ts';

const t = useTestApp();
const PLANS = '/api/user/monitoring/plans';
const SUBSCRIPTIONS = '/api/user/monitoring/subscriptions';
const FREE = '/api/user/monitoring/subscriptions/free';
const KEY = (id: number) => `/api/user/monitoring/subscriptions/${id}/key`;
const ACCOUNTS = '/api/user/monitoring/accounts';
const ACCOUNT = (id: number) => `/api/user/monitoring/accounts/${id}`;

const count = async (table: string, where = 'true', params: unknown[] = []) =>
  Number(
    (await t.sql.query<{ n: string }>(`select count(*) as n from ${table} where ${where}`, params))
      .rows[0]!.n,
  );

async function subscribe(who: { token: string }, body: object, key = randomUUID()) {
  return postKeyed(t, SUBSCRIPTIONS, body, who, key);
}

function addAccount(who: { token: string }, body: Record<string, unknown>) {
  return t.api.post(
    ACCOUNTS,
    {
      platform: 'MT5',
      name: 'Main account',
      email: 'reports@example.com',
      login: 5_012_345,
      ...body,
    },
    { token: who.token },
  );
}

describe('plans and the free plan', () => {
  it('shows $3 an account-month with 0/5/10/15 % for 1/3/6/12 months, and the free plan once', async () => {
    const user = await quickUser(t);
    const plans = await t.api.get(PLANS, { token: user.token });
    expect(plans.body).toEqual({
      account_month_price: 3,
      discounts: [
        { months: 1, discount_percent: 0 },
        { months: 3, discount_percent: 5 },
        { months: 6, discount_percent: 10 },
        { months: 12, discount_percent: 15 },
      ],
      free_accounts: 1,
      free_available: true,
    });
    const free = await t.api.post(FREE, undefined, { token: user.token });
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({
      subscription: { plan: 'free', accounts: 1, used_accounts: 0, ends_at: null, active: true },
      charged: 0,
    });
    expect((await t.api.get(PLANS, { token: user.token })).body.free_available).toBe(false);
    const again = await t.api.post(FREE, undefined, { token: user.token });
    expect(again).toMatchObject({ status: 409, body: refusal('MONITORING_FREE_TAKEN') });
  });

  it('two free plans asked at once: exactly one', async () => {
    const user = await quickUser(t);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.client().post(FREE, undefined, { token: user.token })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await count('monitoring_subscriptions', 'user_id = $1', [user.id])).toBe(1);
  });
});

describe('a paid plan', () => {
  it('5 accounts for 3 months: $42.75 from the balance, a charge line, once per Idempotency-Key', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const key = randomUUID();
    const res = await subscribe(user, { accounts: 5, months: 3 }, key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      subscription: { plan: 'paid', accounts: 5, used_accounts: 0, active: true },
      charged: 42.75,
      balance: 57.25,
    });
    // ends three calendar months on
    const created = new Date(res.body.subscription.created_at);
    const ends = new Date(res.body.subscription.ends_at);
    expect(ends.getUTCMonth()).toBe((created.getUTCMonth() + 3) % 12);

    const replay = await subscribe(user, { accounts: 5, months: 3 }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.subscription.id).toBe(res.body.subscription.id);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 5725, partner: 0 });
    const { rows } = await t.sql.query(
      'select description_en, description_ru, amount_cents from charges where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([
      {
        description_en: 'Monitoring: 5 accounts, 3 months',
        description_ru: 'Мониторинг: 5 счетов, 3 месяца',
        amount_cents: '4275',
      },
    ]);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('a short balance is "Insufficient funds for payment" and writes nothing', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 299);
    const res = await subscribe(user, { accounts: 1, months: 1 });
    expect(res).toMatchObject({ status: 422, body: refusal('INSUFFICIENT_FUNDS_PAYMENT') });
    expect(await count('monitoring_subscriptions', 'user_id = $1', [user.id])).toBe(0);
    expect(await count('charges', 'user_id = $1', [user.id])).toBe(0);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 299, partner: 0 });
  });

  it('accounts 1-50 and months 1-12, whole numbers; the Idempotency-Key is required', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 1_000_000);
    for (const [body, field, code] of [
      [{ accounts: 0, months: 1 }, 'accounts', 'MONITORING_ACCOUNTS_RANGE'],
      [{ accounts: 51, months: 1 }, 'accounts', 'MONITORING_ACCOUNTS_RANGE'],
      [{ accounts: 1.5, months: 1 }, 'accounts', 'MONITORING_ACCOUNTS_RANGE'],
      [{ accounts: 1, months: 0 }, 'months', 'MONITORING_MONTHS_RANGE'],
      [{ accounts: 1, months: 13 }, 'months', 'MONITORING_MONTHS_RANGE'],
      [{ accounts: 1, months: '3' }, 'months', 'MONITORING_MONTHS_RANGE'],
    ] as const) {
      const res = await subscribe(user, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(fieldRefusal(field, code));
    }
    const keyless = await postKeyed(t, SUBSCRIPTIONS, { accounts: 1, months: 1 }, user, null);
    expect(keyless).toMatchObject({ status: 400, body: refusal('IDEMPOTENCY_KEY_REQUIRED') });
    expect(await count('monitoring_subscriptions', 'user_id = $1', [user.id])).toBe(0);
    // 50 accounts for 12 months: $1,800 less 15 %
    expect((await subscribe(user, { accounts: 50, months: 12 })).body.charged).toBe(1530);
  });
});

describe('the activation key', () => {
  it('is shown to its owner, stored only hashed and sealed, and regenerated at once', async () => {
    const user = await quickUser(t);
    const free = await t.api.post(FREE, undefined, { token: user.token });
    const id = free.body.subscription.id as number;
    const shown = await t.api.post(KEY(id), undefined, { token: user.token });
    expect(shown.status).toBe(200);
    expect(shown.body.key).toMatch(/^mk_[A-Za-z0-9_-]{32}$/);
    const stored = async () =>
      (
        await t.sql.query(
          'select key_hash, key_sealed from monitoring_subscriptions where id = $1',
          [id],
        )
      ).rows[0];
    const before = await stored();
    expect(before.key_hash).toBe(createHash('sha256').update(shown.body.key).digest('hex'));
    expect(before.key_sealed).not.toContain(shown.body.key);

    const fresh = await t.api.post(`${KEY(id)}/regenerate`, undefined, { token: user.token });
    expect(fresh.body.key).toMatch(/^mk_/);
    expect(fresh.body.key).not.toBe(shown.body.key);
    expect((await t.api.post(KEY(id), undefined, { token: user.token })).body.key).toBe(
      fresh.body.key,
    );
    expect((await stored()).key_hash).toBe(
      createHash('sha256').update(fresh.body.key).digest('hex'),
    );

    const stranger = await quickUser(t);
    for (const path of [KEY(id), `${KEY(id)}/regenerate`])
      expect(await t.api.post(path, undefined, { token: stranger.token })).toMatchObject({
        status: 404,
        body: refusal('MONITORING_SUBSCRIPTION_NOT_FOUND'),
      });
  });
});

describe('accounts', () => {
  it('are added within the subscription’s count, each with an unguessable public id', async () => {
    const user = await quickUser(t);
    const free = await t.api.post(FREE, undefined, { token: user.token });
    const subscription = free.body.subscription.id;
    const added = await addAccount(user, { subscription_id: subscription });
    expect(added.status).toBe(201);
    expect(added.body.account).toMatchObject({
      subscription_id: subscription,
      login: 5_012_345,
      platform: 'MT5',
      name: 'Main account',
      email: 'reports@example.com',
      is_public: false,
      views: 0,
    });
    expect(added.body.account.monitoring_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const full = await addAccount(user, { subscription_id: subscription, login: 777 });
    expect(full).toMatchObject({ status: 409, body: refusal('MONITORING_ACCOUNTS_FULL') });
    const subs = await t.api.get(SUBSCRIPTIONS, { token: user.token });
    expect(subs.body.subscriptions[0]).toMatchObject({ accounts: 1, used_accounts: 1 });
  });

  it('the same login twice in a subscription is refused; the last place goes to one of two racing adds', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const paid = await subscribe(user, { accounts: 2, months: 1 });
    const subscription = paid.body.subscription.id;
    expect((await addAccount(user, { subscription_id: subscription, login: 1001 })).status).toBe(
      201,
    );
    const twice = await addAccount(user, { subscription_id: subscription, login: 1001 });
    expect(twice).toMatchObject({
      status: 409,
      body: fieldRefusal('login', 'MONITORING_ACCOUNT_EXISTS'),
    });
    const racing = await Promise.all(
      [2001, 2002, 2003].map((login) => addAccount(user, { subscription_id: subscription, login })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await count('monitoring_accounts', 'subscription_id = $1', [subscription])).toBe(2);
  });

  it('refuses a missing field, another user’s subscription and an ended one, writing nothing', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const paid = await subscribe(user, { accounts: 3, months: 1 });
    const subscription = paid.body.subscription.id;
    for (const [body, field, code] of [
      [{ name: '  ' }, 'name', 'MONITORING_NAME_REQUIRED'],
      [{ name: 'x'.repeat(61) }, 'name', 'MONITORING_NAME_TOO_LONG'],
      [{ email: 'not-an-email' }, 'email', 'EMAIL_INVALID'],
      [{ login: 0 }, 'login', 'MONITORING_LOGIN_INVALID'],
      [{ login: 'abc' }, 'login', 'MONITORING_LOGIN_INVALID'],
      [{ platform: 'MT6' }, 'platform', 'MONITORING_PLATFORM_INVALID'],
    ] as const) {
      const res = await addAccount(user, { subscription_id: subscription, ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field], field).toBeDefined();
      expect(res.body.code).toBe(code);
    }
    const stranger = await quickUser(t);
    expect(await addAccount(stranger, { subscription_id: subscription })).toMatchObject({
      status: 422,
      body: fieldRefusal('subscription_id', 'MONITORING_SUBSCRIPTION_NOT_FOUND'),
    });
    // its end has come
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '1 minute' where id = $1`,
      [subscription],
    );
    expect(await addAccount(user, { subscription_id: subscription })).toMatchObject({
      status: 422,
      body: fieldRefusal('subscription_id', 'MONITORING_SUBSCRIPTION_ENDED'),
    });
    const listed = await t.api.get(SUBSCRIPTIONS, { token: user.token });
    expect(listed.body.subscriptions[0].active).toBe(false);
    expect(await count('monitoring_accounts', 'user_id = any($1)', [[user.id, stranger.id]])).toBe(
      0,
    );
  });

  it('are renamed, re-addressed and deleted by their owner only', async () => {
    const user = await quickUser(t);
    const free = await t.api.post(FREE, undefined, { token: user.token });
    const added = await addAccount(user, { subscription_id: free.body.subscription.id });
    const id = added.body.account.id as number;
    const renamed = await t.api.request('PATCH', ACCOUNT(id), {
      token: user.token,
      body: { name: ' Scalper ', email: 'Alerts@Example.com' },
    });
    expect(renamed.body.account).toMatchObject({ name: 'Scalper', email: 'Alerts@Example.com' });
    const stranger = await quickUser(t);
    for (const [method, body] of [
      ['PATCH', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const)
      expect(
        await t.api.request(method, ACCOUNT(id), { token: stranger.token, body }),
      ).toMatchObject({ status: 404, body: refusal('MONITORING_ACCOUNT_NOT_FOUND') });
    const deleted = await t.api.request('DELETE', ACCOUNT(id), { token: user.token });
    expect(deleted.status).toBe(200);
    expect((await t.api.get(ACCOUNTS, { token: user.token })).body.accounts).toEqual([]);
    expect(await t.api.request('DELETE', ACCOUNT(id), { token: user.token })).toMatchObject({
      status: 404,
    });
    // its place is free again
    expect((await addAccount(user, { subscription_id: free.body.subscription.id })).status).toBe(
      201,
    );
  });
});

describe('extending and enlarging', () => {
  const EXTEND = (id: number) => `${SUBSCRIPTIONS}/${id}/extend`;
  const ENLARGE = (id: number) => `${SUBSCRIPTIONS}/${id}/enlarge`;
  const DAY = 86_400_000;

  async function paidPlan(accounts: number, months: number, funds = 100_000) {
    const user = await quickUser(t);
    await fund(t, user.id, funds);
    const res = await subscribe(user, { accounts, months });
    expect(res.status).toBe(201);
    return { user, subscription: res.body.subscription };
  }

  it('3 more months for 2 accounts: $17.10 (5 % off), from the old end, once per key', async () => {
    const { user, subscription } = await paidPlan(2, 1);
    await t.sql.query(
      `update monitoring_subscriptions set warned_3d_at = now(), warned_1d_at = now() where id = $1`,
      [subscription.id],
    );
    const key = randomUUID();
    const res = await postKeyed(t, EXTEND(subscription.id), { months: 3 }, user, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ charged: 17.1, subscription: { accounts: 2, active: true } });
    const before = new Date(subscription.ends_at);
    const after = new Date(res.body.subscription.ends_at);
    expect(after.getUTCMonth()).toBe((before.getUTCMonth() + 3) % 12);
    expect(after.getTime()).toBeGreaterThan(before.getTime() + 85 * DAY);
    const replay = await postKeyed(t, EXTEND(subscription.id), { months: 3 }, user, key);
    expect(replay.body.subscription.ends_at).toBe(res.body.subscription.ends_at);
    const { rows } = await t.sql.query(
      'select description_en, description_ru, amount_cents from charges where user_id = $1 order by id',
      [user.id],
    );
    expect(rows.at(-1)).toEqual({
      description_en: `Monitoring #${subscription.id}: 3 more months`,
      description_ru: `Мониторинг №\u00a0${subscription.id}: продление на 3 месяца`,
      amount_cents: '1710',
    });
    expect(rows).toHaveLength(2);
    // the warnings of the old end are forgotten
    const marks = await t.sql.query(
      'select warned_3d_at, warned_1d_at from monitoring_subscriptions where id = $1',
      [subscription.id],
    );
    expect(marks.rows[0]).toEqual({ warned_3d_at: null, warned_1d_at: null });
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('an ended subscription runs again from the moment it is paid', async () => {
    const { user, subscription } = await paidPlan(1, 1);
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '40 days' where id = $1`,
      [subscription.id],
    );
    const res = await postKeyed(t, EXTEND(subscription.id), { months: 1 }, user);
    expect(res.body.subscription.active).toBe(true);
    const ends = new Date(res.body.subscription.ends_at).getTime();
    expect(ends).toBeGreaterThan(Date.now() + 27 * DAY);
    expect(ends).toBeLessThan(Date.now() + 32 * DAY);
  });

  it('3 more accounts with 11 days left: $3.30, the account count grows', async () => {
    const { user, subscription } = await paidPlan(2, 1);
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() + interval '10 days 1 hour' where id = $1`,
      [subscription.id],
    );
    const res = await postKeyed(t, ENLARGE(subscription.id), { accounts: 5 }, user);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ charged: 3.3, subscription: { accounts: 5 } });
    const { rows } = await t.sql.query(
      'select description_en from charges where user_id = $1 order by id desc limit 1',
      [user.id],
    );
    expect(rows[0].description_en).toBe(`Monitoring #${subscription.id}: 3 more accounts`);
  });

  it('refuses the free plan, fewer accounts, an ended one, another user’s, a short balance: nothing written', async () => {
    const user = await quickUser(t);
    const free = await t.api.post(FREE, undefined, { token: user.token });
    for (const [path, body] of [
      [EXTEND(free.body.subscription.id), { months: 1 }],
      [ENLARGE(free.body.subscription.id), { accounts: 2 }],
    ] as const)
      expect(await postKeyed(t, path, body, user)).toMatchObject({
        status: 409,
        body: refusal('MONITORING_FREE_FIXED'),
      });

    const { user: owner, subscription } = await paidPlan(3, 1, 1_000);
    const balance = await balancesOf(t, owner.id);
    const charges = await count('charges', 'user_id = $1', [owner.id]);
    expect(await postKeyed(t, ENLARGE(subscription.id), { accounts: 3 }, owner)).toMatchObject({
      status: 422,
      body: fieldRefusal('accounts', 'MONITORING_NOT_LARGER'),
    });
    expect(await postKeyed(t, ENLARGE(subscription.id), { accounts: 51 }, owner)).toMatchObject({
      status: 422,
      body: fieldRefusal('accounts', 'MONITORING_ACCOUNTS_RANGE'),
    });
    expect(await postKeyed(t, EXTEND(subscription.id), { months: 13 }, owner)).toMatchObject({
      status: 422,
      body: fieldRefusal('months', 'MONITORING_MONTHS_RANGE'),
    });
    // $1 left: 12 months of 3 accounts cost $91.80
    expect(await postKeyed(t, EXTEND(subscription.id), { months: 12 }, owner)).toMatchObject({
      status: 422,
      body: refusal('INSUFFICIENT_FUNDS_PAYMENT'),
    });
    const stranger = await quickUser(t);
    await fund(t, stranger.id, 10_000);
    expect(await postKeyed(t, EXTEND(subscription.id), { months: 1 }, stranger)).toMatchObject({
      status: 404,
      body: refusal('MONITORING_SUBSCRIPTION_NOT_FOUND'),
    });
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '1 day' where id = $1`,
      [subscription.id],
    );
    expect(await postKeyed(t, ENLARGE(subscription.id), { accounts: 4 }, owner)).toMatchObject({
      status: 409,
      body: refusal('MONITORING_SUBSCRIPTION_ENDED'),
    });
    expect(await balancesOf(t, owner.id)).toEqual(balance);
    expect(await count('charges', 'user_id = $1', [owner.id])).toBe(charges);
    const row = await t.sql.query('select accounts from monitoring_subscriptions where id = $1', [
      subscription.id,
    ]);
    expect(row.rows[0].accounts).toBe(3);
  });
});
