import { describe, expect, it } from 'vitest';
import {
  balancesOf,
  fieldRefusal,
  fund,
  ledgerInvariants,
  postKeyed,
  quickUser,
  refusal,
  signupBody,
  useTestApp,
} from './helpers.ts';
import { order, rateNamed } from './vps-fixtures.ts';

/**
 * The rules every request obeys whatever its route (plugins/input-guard.ts, idSchema): each
 * refusal in the user's error shape, and nothing written. bad-input.test.ts sends such input to
 * every operation; these pin the answers.
 */

const t = useTestApp();
const count = async (table: string) =>
  Number((await t.sql.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]!.n);

describe('texts PostgreSQL cannot store', () => {
  it('a NUL in a sign-up field is 422 naming the field, and no account is made', async () => {
    const users = await count('users');
    for (const [field, value] of [
      ['name', 'Trader\u0000'],
      ['partner_code', 'AB\u0000CD'],
      ['email', 'a\u0000@example.com'],
    ] as const) {
      const res = await t.api.post('/api/user/auth/create', signupBody({ [field]: value }));
      expect(res.status, field).toBe(422);
      expect(res.body).toEqual(fieldRefusal(field, 'TEXT_CHARACTERS_INVALID'));
    }
    expect(await count('users')).toBe(users);
  });

  it('a lone surrogate in an adjustment reason is 422, and the ledger is untouched', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const entries = await count('ledger_entries');
    const res = await postKeyed(
      t,
      `/api/admin/users/${user.id}/adjustments`,
      { amount: '5', reason: 'bonus \ud800' },
      operator,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual(fieldRefusal('reason', 'TEXT_CHARACTERS_INVALID'));
    expect(await count('ledger_entries')).toBe(entries);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('in a nested field and a query parameter the field is named too; in a path it is 404', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const discounts = await t.api.request('PUT', '/api/admin/vps/discounts', {
      token: operator.token,
      body: { periods: [{ months: 1, discount_percent: 0, note: 'x\u0000' }] },
    });
    expect(discounts.body).toEqual(fieldRefusal('periods.0.note', 'TEXT_CHARACTERS_INVALID'));
    const search = await t.api.get('/api/admin/users?query=a%00b', { token: operator.token });
    expect(search).toMatchObject({
      status: 422,
      body: fieldRefusal('query', 'TEXT_CHARACTERS_INVALID'),
    });
    const path = await t.api.post('/api/payments/webhook/a%00b', {});
    expect(path).toMatchObject({ status: 404, body: refusal('NOT_FOUND') });
  });
});

describe('ids past what their column holds', () => {
  it('a rate id past a PostgreSQL integer: 422 on an order (nothing charged), 404 in a path', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    for (const rateId of [2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const res = await order(t, user, { rate_id: rateId });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(fieldRefusal('rate_id', 'RATE_NOT_FOUND'));
    }
    expect((await balancesOf(t, user.id)).balance).toBe(100_000);

    const operator = await quickUser(t, { role: 'admin' });
    const trader = await rateNamed(t, 'Trader');
    for (const id of ['2147483648', '9007199254740991', 'abc', '0']) {
      const res = await t.api.request('PATCH', `/api/admin/vps/rates/${id}`, {
        token: operator.token,
        body: { name: 'Renamed' },
      });
      expect(res, id).toMatchObject({ status: 404, body: refusal('NOT_FOUND') });
    }
    expect((await rateNamed(t, 'Trader')).id).toBe(trader.id);
  });

  it('a server id past what a JavaScript number holds exactly is 404', async () => {
    const user = await quickUser(t);
    for (const id of ['9007199254740992', '99999999999999999999', '1.5', '-1'])
      expect(
        await t.api.get(`/api/user/vps/servers/${id}`, { token: user.token }),
        id,
      ).toMatchObject({ status: 404, body: refusal('NOT_FOUND') });
  });
});

describe('bodies', () => {
  it('a route that takes no body refuses one, and does nothing', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const { rows } = await t.sql.query<{ id: string }>(
      `insert into payments (user_id, method, amount_cents, status, network, wallet, txid)
       values ($1, 'crypto', 5000, 'under_review', 'USDT-TRC20', 'walker-wallet-0000000001',
               'walker-txid-00000000009') returning id`,
      [user.id],
    );
    const id = rows[0]!.id;
    const res = await postKeyed(t, `/api/admin/payments/${id}/confirm`, { amount: 1e9 }, operator);
    expect(res).toMatchObject({ status: 400, body: refusal('BODY_NOT_ACCEPTED') });
    const status = await t.sql.query('select status from payments where id = $1', [id]);
    expect(status.rows[0].status).toBe('under_review');
    expect((await balancesOf(t, user.id)).balance).toBe(0);

    // a body-less POST may send none, an empty one saying application/json, or `{}` (the console)
    for (const body of [undefined, '', ' ', '{}', ' { } ']) {
      const res = await t.api.post('/api/user/vps/servers/1/credentials', body, {
        token: user.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(res).toMatchObject({ status: 404, body: refusal('SERVER_NOT_FOUND') });
    }
  });

  it('JSON nested deeper than 16 is 400 BODY_TOO_DEEP; 10,000 deep does not hurt the server', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    for (const text of ['['.repeat(10_000) + ']'.repeat(10_000), `{"periods":${'['.repeat(17)}`]) {
      const res = await t.api.request('PUT', '/api/admin/vps/discounts', {
        token: operator.token,
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(res).toMatchObject({ status: 400, body: refusal('BODY_TOO_DEEP') });
    }
    expect((await t.api.get('/api/front/permissions')).status).toBe(200);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });
});
