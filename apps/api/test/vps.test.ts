import { randomUUID } from 'node:crypto';
import { addMonths, rentalPrice, upgradePriceCents, type ErrorCode } from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEALED, sealIn } from '../src/db/sealed.ts';
import { balancesOf, fund, ledgerInvariants, quickUser, useTestApp, type Json } from './helpers.ts';
import {
  auditOf,
  DAY,
  expectStatus,
  fieldRefusal,
  order,
  paidOrder,
  postKeyed,
  refusal,
} from './vps-fixtures.ts';

const t = useTestApp();

const RATES = '/api/user/vps/rates';
const PROMOCODE = (code: string) => `/api/user/vps/promocode?code=${encodeURIComponent(code)}`;
const SERVERS = (query = '') => `/api/user/vps/servers${query}`;
const SERVER = (id: number | string) => `/api/user/vps/servers/${id}`;
const CREDENTIALS = (id: number | string) => `/api/user/vps/servers/${id}/credentials`;
const RDP = (id: number | string) => `/api/user/vps/servers/${id}/rdp`;
const RENEW = (id: number | string) => `/api/user/vps/servers/${id}/renew`;
const AUTO_RENEW = (id: number | string) => `/api/user/vps/servers/${id}/auto-renew`;
const ACTION = (id: number | string, action: string) =>
  `/api/user/vps/servers/${id}/actions/${action}`;
const UPGRADE = (id: number | string) => `/api/user/vps/servers/${id}/upgrade`;
const TEST_SERVER = '/api/user/vps/test-server';
const ACTIVITY = (id: number | string, query = '') =>
  `/api/user/vps/servers/${id}/activity${query}`;

type User = Awaited<ReturnType<typeof quickUser>>;
interface RateRow {
  id: number;
  name: string;
  location: string;
  cents: number;
}

const SERVER_PASSWORD = 'Xq7!correct-horse-9';
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The seeded catalogue, by "Name, Location". */
let rates: Map<string, RateRow>;
const rate = (key: string) => {
  const row = rates.get(key);
  if (!row) throw new Error(`no rate ${key}`);
  return row;
};

beforeAll(async () => {
  const { rows } = await t.sql.query<{ id: number; name: string; location: string; c: string }>(
    'select id, name, location, monthly_price_cents as c from vps_rates',
  );
  rates = new Map(
    rows.map((r) => [`${r.name}, ${r.location}`, { ...r, cents: Number(r.c) } as RateRow]),
  );
});

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

const get = (path: string, who: { token: string }) => t.api.get(path, { token: who.token });

async function funded(cents = 100_000): Promise<User> {
  const user = await quickUser(t);
  if (cents > 0) await fund(t, user.id, cents);
  return user;
}

/** A server ordered and paid; its number. */
async function ordered(user: User, body: Record<string, unknown> = {}): Promise<number> {
  return (await paidOrder(t, user, body)).server.id;
}

/** What the runner leaves after a successful create: Active, running, with its login details. */
async function makeReady(serverId: number, power: 'running' | 'stopped' = 'running') {
  await t.sql.query(
    `update vps_operations set status = 'succeeded', started_at = now(), finished_at = now()
     where server_id = $1 and status in ('queued', 'running')`,
    [serverId],
  );
  await t.sql.query(
    `update vps_servers set status = 'active', power = $2, machine_id = 'm-' || id,
       host = '203.0.113.10', port = 40000 + id, username = 'Administrator', password_enc = $3
     where id = $1`,
    [serverId, power, sealIn(t.config, SEALED.vpsPassword, serverId, SERVER_PASSWORD)],
  );
}

/** A server Active and running, ready for controls. */
async function activeServer(user: User, body: Record<string, unknown> = {}) {
  const id = await ordered(user, body);
  await makeReady(id);
  return id;
}

async function countOf(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.sql.query<{ n: string }>(sql, params);
  return Number(rows[0]!.n);
}

/** Everything an order or a refusal could touch, for one user. */
async function stateOf(user: User) {
  const { rows } = await t.sql.query<{ servers: string; [column: string]: unknown }>(
    `select (select count(*) from vps_servers where user_id = $1) as servers,
            (select count(*) from vps_operations o join vps_servers s on s.id = o.server_id
              where s.user_id = $1) as operations,
            (select count(*) from vps_upgrades where user_id = $1) as upgrades,
            (select count(*) from charges where user_id = $1) as charges,
            (select count(*) from ledger_entries where user_id = $1) as entries,
            (select coalesce(jsonb_agg(jsonb_build_array(id, status, paid_until, rate_id,
               auto_renew, renew_months) order by id), '[]')
               from vps_servers where user_id = $1) as rows,
            (select coalesce(sum(times_used), 0) from promocodes) as promo_uses`,
    [user.id],
  );
  return { ...rows[0]!, balance: (await balancesOf(t, user.id)).balance };
}

async function promocode(code: string, percent: number, active = true) {
  await t.sql.query('insert into promocodes (code, discount_percent, active) values ($1, $2, $3)', [
    code,
    percent,
    active,
  ]);
}

describe('GET /api/user/vps/rates', () => {
  it('lists the active rates in catalogue order, the four periods with discounts and the trial', async () => {
    const user = await funded(0);
    await t.sql.query(
      `insert into vps_rates (name, cpu_cores, ram_gb, disk_gb, location, monthly_price_cents, template_id, active, sort)
       values ('Retired', 1, 1, 10, 'London (LD4)', 500, '9000', false, 1)`,
    );
    const res = await get(RATES, user);
    expectStatus(res, 200);
    expect(res.body.rates).toHaveLength(9);
    expect(res.body.rates.map((r: Json) => r.name)).not.toContain('Retired');
    expect(res.body.rates[0]).toEqual({
      id: rate('Start, London (LD4)').id,
      name: 'Start',
      cpu_cores: 1,
      ram_gb: 2,
      disk_gb: 30,
      location: 'London (LD4)',
      monthly_price: 12,
    });
    expect(res.body.rates.map((r: Json) => r.id)).toEqual(
      [...rates.values()]
        .filter((r) => r.name !== 'Retired')
        .sort((a, b) => a.id - b.id)
        .map((r) => r.id),
    );
    expect(res.body.periods).toEqual([
      { months: 1, discount_percent: 0 },
      { months: 3, discount_percent: 5 },
      { months: 6, discount_percent: 10 },
      { months: 12, discount_percent: 15 },
    ]);
    expect(res.body.trial_days).toBe(t.config.vps.trialDays);
    expect(res.body.test_request).toBeNull();
  });

  it('answers 401 without a token', async () => {
    const res = await t.api.get(RATES);
    expect(res.status).toBe(401);
  });
});

describe('GET /api/user/vps/promocode', () => {
  it("gives an active code's discount, whatever its case", async () => {
    const user = await funded(0);
    await promocode('Lookup10', 10);
    const res = await get(PROMOCODE('lookup10'), user);
    expectStatus(res, 200);
    expect(res.body).toEqual({ code: 'Lookup10', discount_percent: 10 });
  });

  it('answers 422 PROMOCODE_NOT_FOUND for an unknown, inactive or malformed code', async () => {
    const user = await funded(0);
    await promocode('Sleeping5', 5, false);
    for (const code of ['NOPE-NOPE', 'Sleeping5', 'a b', '']) {
      const res = await get(PROMOCODE(code), user);
      expect(res.status, code).toBe(422);
      expect(res.body.code, code).toBe('PROMOCODE_NOT_FOUND');
    }
  });
});

describe('POST /api/user/vps/order', () => {
  it('charges each period at its discount and provisions the server with a create operation', async () => {
    const user = await funded(200_000);
    const trader = rate('Trader, London (LD4)');
    let balance = 200_000;
    for (const [months, discount] of [
      [1, 0],
      [3, 5],
      [6, 10],
      [12, 15],
    ] as const) {
      const res = await order(t, user, { months });
      expectStatus(res, 201);
      const price = rentalPrice({
        monthlyCents: trader.cents,
        months,
        periodDiscountPercent: discount,
      }).totalCents;
      expect(price).toBe(Math.round(trader.cents * months * (1 - discount / 100)));
      balance -= price;
      const { server } = res.body;
      expect(res.body).toMatchObject({
        charged: price / 100,
        balance: balance / 100,
        code: 'VPS_ORDERED',
        message: expect.stringContaining('being created'),
      });
      expect(server).toMatchObject({
        rate: { id: trader.id, name: 'Trader', location: 'London (LD4)', monthly_price: 22 },
        comment: '',
        status: 'provisioning',
        power: 'unknown',
        auto_renew: false,
        renew_months: months,
        is_trial: false,
        last_operation: null,
        upgrade: null,
        has_credentials: false,
        failure: null,
        operation: { kind: 'create', status: 'queued', started_at: null, error: null },
      });
      expect(server.paid_until).toBe(addMonths(new Date(server.issued_at), months).toISOString());
      // the charge in the history names the server and the period
      const { rows } = await t.sql.query(
        `select c.amount_cents, c.description_en, c.description_ru, c.status
         from vps_servers s join charges c on c.id = s.charge_id where s.id = $1`,
        [server.id],
      );
      expect(rows[0]).toEqual({
        amount_cents: String(price),
        description_en: `VPS #${server.id} Trader, London (LD4): ${months} ${months === 1 ? 'month' : 'months'}`,
        description_ru: expect.stringContaining(
          `VPS №\u00a0${server.id} Trader, London (LD4): ${months}`,
        ),
        status: 'paid',
      });
      const [audit] = await auditOf(t, 'vps.order', server.id);
      expect(audit).toMatchObject({
        actor_id: String(user.id),
        subject_type: 'vps_server',
        target_user_id: String(user.id),
        details: { months, price: price / 100, rate_id: trader.id },
      });
    }
    expect((await balancesOf(t, user.id)).balance).toBe(balance);
  });

  it('gives a promocode its discount on a 1-month order and counts its use', async () => {
    const user = await funded();
    await promocode('TRADER20', 20);
    const pro = rate('Pro, London (LD4)');
    const res = await order(t, user, { rate_id: pro.id, promocode: 'trader20' });
    expectStatus(res, 201);
    expect(res.body.charged).toBe((pro.cents * 0.8) / 100);
    const { rows } = await t.sql.query(
      `select p.times_used, s.promocode_id = p.id as linked from promocodes p
       join vps_servers s on s.id = $1 where upper(p.code) = 'TRADER20'`,
      [res.body.server.id],
    );
    expect(rows[0]).toEqual({ times_used: 1, linked: true });
    // an empty promocode is no promocode
    const plain = await order(t, user, { rate_id: pro.id, promocode: '' });
    expectStatus(plain, 201);
    expect(plain.body.charged).toBe(pro.cents / 100);
  });

  it('refuses a promocode on a longer period, an unknown or inactive one, and changes nothing', async () => {
    const user = await funded();
    await promocode('LONGER15', 15);
    await promocode('OFFLINE15', 15, false);
    const before = await stateOf(user);
    const cases: [Record<string, unknown>, ErrorCode][] = [
      [{ months: 3, promocode: 'LONGER15' }, 'PROMOCODE_ONE_MONTH'],
      [{ months: 12, promocode: 'LONGER15' }, 'PROMOCODE_ONE_MONTH'],
      [{ months: 1, promocode: 'NO-SUCH-CODE' }, 'PROMOCODE_NOT_FOUND'],
      [{ months: 1, promocode: 'OFFLINE15' }, 'PROMOCODE_NOT_FOUND'],
      [{ months: 1, promocode: 'bad code!' }, 'PROMOCODE_NOT_FOUND'],
    ];
    for (const [body, code] of cases) {
      const res = await order(t, user, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual(fieldRefusal('promocode', code));
    }
    expect(await stateOf(user)).toEqual(before);
  });

  it('refuses an unknown or inactive rate, a period that is not offered and a missing source', async () => {
    const user = await funded();
    const { rows } = await t.sql.query<{ id: number }>(
      `insert into vps_rates (name, cpu_cores, ram_gb, disk_gb, location, monthly_price_cents, template_id, active)
       values ('Gone', 2, 4, 60, 'London (LD4)', 1000, '9000', false) returning id`,
    );
    const before = await stateOf(user);
    const cases: [Record<string, unknown>, string, ErrorCode][] = [
      [{ rate_id: rows[0]!.id }, 'rate_id', 'RATE_NOT_FOUND'],
      [{ rate_id: 999_999 }, 'rate_id', 'RATE_NOT_FOUND'],
      [{ rate_id: 'x' }, 'rate_id', 'RATE_NOT_FOUND'],
      [{ months: 2 }, 'months', 'PERIOD_UNKNOWN'],
      [{ months: 24 }, 'months', 'PERIOD_UNKNOWN'],
      [{ source: undefined }, 'source', 'SOURCE_REQUIRED'],
      [{ source: 'tv' }, 'source', 'SOURCE_REQUIRED'],
      [{ source: 'other', source_other: 'x'.repeat(201) }, 'source_other', 'SOURCE_OTHER_TOO_LONG'],
    ];
    for (const [body, field, code] of cases) {
      const res = await order(t, user, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual(fieldRefusal(field, code));
    }
    expect(await stateOf(user)).toEqual(before);
  });

  it('stores the source, with the words of "other"', async () => {
    const user = await funded();
    const a = await ordered(user, { source: 'forum' });
    const b = await ordered(user, { source: 'other', source_other: '  a trading chat  ' });
    const c = await ordered(user, { source: 'other' });
    const { rows } = await t.sql.query(
      'select id, source from vps_servers where id = any($1) order by id',
      [[a, b, c]],
    );
    expect(rows.map((r) => r.source)).toEqual(['forum', 'other: a trading chat', 'other']);
  });

  it("answers 'Insufficient funds for payment' when short, and makes no server, charge or operation", async () => {
    const trader = rate('Trader, London (LD4)');
    const user = await funded(trader.cents - 1);
    await promocode('SHORT10', 10);
    const before = await stateOf(user);
    for (const body of [{}, { months: 12 }]) {
      const res = await order(t, user, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(refusal('INSUFFICIENT_FUNDS_PAYMENT'));
    }
    expect(await stateOf(user)).toEqual(before);
    // with the promocode it is affordable: 10% off
    const res = await order(t, user, { promocode: 'SHORT10' });
    expectStatus(res, 201);
    expect(res.body.balance).toBe((trader.cents - 1 - trader.cents * 0.9) / 100);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('replays an order sent again with its Idempotency-Key: one server, one charge', async () => {
    const user = await funded();
    const key = randomUUID();
    const first = await order(t, user, { months: 3 }, key);
    expectStatus(first, 201);
    const after = await stateOf(user);
    const again = await order(t, user, { months: 3 }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stateOf(user)).toEqual(after);
    expect(after.servers).toBe('1');
    // the same key for another order is refused; without a key nothing is done
    const other = await order(t, user, { months: 6 }, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const keyless = await order(t, user, {}, null);
    expect(keyless.status).toBe(400);
    expect(keyless.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(await stateOf(user)).toEqual(after);
  });

  it('makes one server of two concurrent requests with the same key', async () => {
    const user = await funded();
    const key = randomUUID();
    const answers = await Promise.all([order(t, user, {}, key), order(t, user, {}, key)]);
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    expect(
      await countOf('select count(*) as n from vps_servers where user_id = $1', [user.id]),
    ).toBe(1);
  });
});

describe('the servers list', () => {
  it("lists the user's own servers newest first, a page at a time, with what each row shows", async () => {
    const user = await funded();
    const other = await funded();
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await ordered(user));
    const theirs = await ordered(other);
    await makeReady(ids[0]!);
    await t.sql.query(
      `update vps_servers set status = 'blocked', power = 'stopped' where id = $1`,
      [ids[1]],
    );

    const all = await get(SERVERS(), user);
    expectStatus(all, 200);
    expect(all.body.meta).toEqual({ page: 1, per_page: 20, total: 5 });
    expect(all.body.data.map((s: Json) => s.id)).toEqual([...ids].reverse());
    expect(all.body.data.map((s: Json) => s.id)).not.toContain(theirs);
    // the ready server has login details (never in the list itself) and its last operation
    const ready = all.body.data.find((s: Json) => s.id === ids[0]);
    expect(ready).toMatchObject({
      status: 'active',
      power: 'running',
      has_credentials: true,
      operation: null,
      last_operation: { kind: 'create', status: 'succeeded' },
    });
    expect(all.text).not.toContain(SERVER_PASSWORD);
    expect(all.text).not.toContain('password');
    expect(all.text).not.toContain('203.0.113.10');
    const waiting = all.body.data.find((s: Json) => s.id === ids[4]);
    expect(waiting).toMatchObject({
      has_credentials: false,
      operation: { kind: 'create', status: 'queued' },
    });

    const page2 = await get(SERVERS('?page=2&per_page=2'), user);
    expect(page2.body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    expect(page2.body.data.map((s: Json) => s.id)).toEqual([ids[2], ids[1]]);
    const beyond = await get(SERVERS('?page=9&per_page=2'), user);
    expect(beyond.body).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 5 } });

    const blocked = await get(SERVERS('?status=blocked'), user);
    expect(blocked.body.data.map((s: Json) => s.id)).toEqual([ids[1]]);
    const active = await get(SERVERS('?status=active'), user);
    expect(active.body.data.map((s: Json) => s.id)).toEqual([ids[0]]);
    const revoked = await get(SERVERS('?status=revoked'), user);
    expect(revoked.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });

    // search: a prefix of the number
    const exact = await get(SERVERS(`?search=${ids[3]}`), user);
    expect(exact.body.data.map((s: Json) => s.id)).toContain(ids[3]);
    for (const s of exact.body.data) expect(String(s.id).startsWith(String(ids[3]))).toBe(true);
    const prefix = String(ids[2]).slice(0, -1);
    const byPrefix = await get(SERVERS(`?search=${prefix}`), user);
    const expected = ids.filter((id) => String(id).startsWith(prefix)).reverse();
    expect(byPrefix.body.data.map((s: Json) => s.id)).toEqual(expected);
    const theirsSearch = await get(SERVERS(`?search=${theirs}`), user);
    expect(theirsSearch.body.data.map((s: Json) => s.id)).not.toContain(theirs);
  });

  it('refuses a search that is not digits and a bad page or status', async () => {
    const user = await funded(0);
    for (const [query, code] of [
      ['?search=abc', 'SEARCH_INVALID'],
      ['?status=running', 'VALIDATION'],
      ['?page=0', 'VALIDATION'],
      ['?per_page=1000', 'VALIDATION'],
    ] as const) {
      const res = await get(SERVERS(query), user);
      expect(res.status, query).toBe(422);
      expect(res.body.code, query).toBe(code);
    }
  });

  it("answers 404 SERVER_NOT_FOUND for another user's server on every route, and changes nothing", async () => {
    const owner = await funded();
    const intruder = await funded();
    const id = await activeServer(owner);
    const before = await stateOf(owner);
    const calls: [string, string, unknown][] = [
      ['GET', SERVER(id), undefined],
      ['PATCH', SERVER(id), { comment: 'mine now' }],
      ['POST', CREDENTIALS(id), undefined],
      ['GET', RDP(id), undefined],
      ['POST', RENEW(id), { months: 1 }],
      ['PUT', AUTO_RENEW(id), { enabled: true }],
      ['POST', ACTION(id, 'reboot'), undefined],
      ['POST', UPGRADE(id), { rate_id: rate('Pro, London (LD4)').id, date: utcDay(t.clock.now()) }],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.api.request(method, path, {
        body,
        token: intruder.token,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual(refusal('SERVER_NOT_FOUND'));
    }
    const missing = await get(SERVER(999_999_999), owner);
    expect(missing.body).toEqual(refusal('SERVER_NOT_FOUND'));
    expect(await stateOf(owner)).toEqual(before);
    expect(await auditOf(t, 'vps.credentials_revealed', id)).toEqual([]);
  });

  it('answers a page of a user with hundreds of servers at once, each row with its last operation', async () => {
    const user = await funded(0);
    // 300 servers with operations and upgrades, made in SQL
    await t.sql.query(
      `insert into vps_servers (user_id, rate_id, status, power, paid_until)
       select $1, $2, 'active', 'running', now() + interval '20 days' from generate_series(1, 300)`,
      [user.id, rate('Start, London (LD4)').id],
    );
    await t.sql.query(
      `insert into vps_operations (server_id, kind, status, finished_at)
       select id, 'reboot', 'succeeded', now() from vps_servers where user_id = $1`,
      [user.id],
    );
    const started = Date.now();
    const res = await get(SERVERS('?per_page=100&page=2'), user);
    expectStatus(res, 200);
    expect(res.body.meta.total).toBe(300);
    expect(res.body.data).toHaveLength(100);
    for (const s of res.body.data) expect(s.last_operation).toMatchObject({ kind: 'reboot' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('a server', () => {
  it('GET answers the server; PATCH sets its comment, trimmed, up to 200 characters', async () => {
    const user = await funded();
    const id = await ordered(user);
    const res = await get(SERVER(id), user);
    expectStatus(res, 200);
    expect(res.body.server).toMatchObject({ id, comment: '', status: 'provisioning' });

    const patched = await t.api.request('PATCH', SERVER(id), {
      body: { comment: '  EURUSD scalper  ' },
      token: user.token,
    });
    expectStatus(patched, 200);
    expect(patched.body.server.comment).toBe('EURUSD scalper');
    const full = await t.api.request('PATCH', SERVER(id), {
      body: { comment: 'x'.repeat(200) },
      token: user.token,
    });
    expectStatus(full, 200);
    const tooLong = await t.api.request('PATCH', SERVER(id), {
      body: { comment: 'y'.repeat(201) },
      token: user.token,
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toEqual(fieldRefusal('comment', 'COMMENT_TOO_LONG'));
    const missing = await t.api.request('PATCH', SERVER(id), { body: {}, token: user.token });
    expect(missing.status).toBe(422);
    expect((await get(SERVER(id), user)).body.server.comment).toBe('x'.repeat(200));
    const cleared = await t.api.request('PATCH', SERVER(id), {
      body: { comment: '' },
      token: user.token,
    });
    expect(cleared.body.server.comment).toBe('');
  });
});

describe('login details', () => {
  it('are refused with 409 SERVER_NOT_READY while the server is being created', async () => {
    const user = await funded();
    const id = await ordered(user);
    for (const res of [
      await postKeyed(t, CREDENTIALS(id), undefined, user, null),
      await get(RDP(id), user),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(refusal('SERVER_NOT_READY'));
    }
    expect(await auditOf(t, 'vps.credentials_revealed', id)).toEqual([]);
  });

  it('reveal host, port, user and the password on request only, audited', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const res = await postKeyed(t, CREDENTIALS(id), undefined, user, null);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      host: '203.0.113.10',
      port: 40000 + id,
      username: 'Administrator',
      password: SERVER_PASSWORD,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { rows } = await t.sql.query('select password_enc from vps_servers where id = $1', [id]);
    expect(rows[0].password_enc).not.toContain(SERVER_PASSWORD);
    expect(rows[0].password_enc).toMatch(/^v2\./);
    expect(await auditOf(t, 'vps.credentials_revealed', id)).toEqual([
      {
        actor_id: String(user.id),
        action: 'vps.credentials_revealed',
        subject_type: 'vps_server',
        subject_id: String(id),
        target_user_id: String(user.id),
        details: {},
      },
    ]);
    const server = await get(SERVER(id), user);
    expect(server.body.server.has_credentials).toBe(true);
    expect(server.text).not.toContain(SERVER_PASSWORD);
  });

  it('are a .rdp file with the address and the user, never the password', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const res = await get(RDP(id), user);
    expectStatus(res, 200);
    expect(res.headers.get('content-type')).toContain('application/x-rdp');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="vps-${id}.rdp"`);
    const lines = res.text.split('\r\n');
    expect(lines).toContain(`full address:s:203.0.113.10:${40000 + id}`);
    expect(lines).toContain('username:s:Administrator');
    expect(res.text).not.toContain(SERVER_PASSWORD);
    expect(res.text.toLowerCase()).not.toContain('password');
  });

  it('are gone once the server is revoked', async () => {
    const user = await funded();
    const id = await activeServer(user);
    await t.sql.query(`update vps_servers set status = 'revoked' where id = $1`, [id]);
    expect((await get(SERVER(id), user)).body.server.has_credentials).toBe(false);
    const res = await postKeyed(t, CREDENTIALS(id), undefined, user, null);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(refusal('SERVER_NOT_ACTIVE'));
  });
});

describe('renewal', () => {
  it('charges the period at its discount and moves paid-until forward from the old date', async () => {
    const user = await funded();
    const trader = rate('Trader, London (LD4)');
    const id = await activeServer(user);
    let paidUntil = new Date((await get(SERVER(id), user)).body.server.paid_until);
    for (const [months, discount] of [
      [1, 0],
      [3, 5],
      [6, 10],
      [12, 15],
    ] as const) {
      const before = (await balancesOf(t, user.id)).balance;
      const res = await postKeyed(t, RENEW(id), { months }, user);
      expectStatus(res, 200);
      const price = rentalPrice({
        monthlyCents: trader.cents,
        months,
        periodDiscountPercent: discount,
      }).totalCents;
      paidUntil = addMonths(paidUntil, months);
      expect(res.body).toMatchObject({
        charged: price / 100,
        balance: (before - price) / 100,
        code: 'VPS_RENEWED',
        server: { id, status: 'active', paid_until: paidUntil.toISOString(), operation: null },
      });
      const [audit] = (await auditOf(t, 'vps.renew', id)).slice(-1);
      expect(audit.details).toMatchObject({ months, price: price / 100 });
    }
  });

  it('makes a blocked server Active again from today, with a reactivate operation', async () => {
    const user = await funded();
    const id = await activeServer(user);
    await t.sql.query(
      `update vps_servers set status = 'blocked', power = 'stopped', blocked_at = now(),
         paid_until = now() - interval '2 days' where id = $1`,
      [id],
    );
    const before = t.clock.now();
    const res = await postKeyed(t, RENEW(id), { months: 1 }, user);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      code: 'VPS_REACTIVATED',
      server: { status: 'active', operation: { kind: 'reactivate', status: 'queued' } },
    });
    const paidUntil = new Date(res.body.server.paid_until).getTime();
    expect(paidUntil).toBeGreaterThanOrEqual(addMonths(before, 1).getTime());
    expect(paidUntil).toBeLessThanOrEqual(addMonths(t.clock.now(), 1).getTime());
  });

  it('refuses a revoked server, a failed one, an unknown period and a short balance, charging nothing', async () => {
    const trader = rate('Trader, London (LD4)');
    // three orders, then a balance short of a year
    const user = await funded(trader.cents * 3 + 1000);
    const [revoked, failed, poor] = [
      await activeServer(user),
      await ordered(user),
      await activeServer(user),
    ];
    await t.sql.query(`update vps_servers set status = 'revoked' where id = $1`, [revoked]);
    await t.sql.query(`update vps_servers set status = 'failed' where id = $1`, [failed]);
    const before = await stateOf(user);
    const cases: [number, unknown, number, Json][] = [
      [revoked, { months: 1 }, 409, refusal('SERVER_REVOKED')],
      [failed, { months: 1 }, 409, refusal('SERVER_NOT_ACTIVE')],
      [poor, { months: 2 }, 422, fieldRefusal('months', 'PERIOD_UNKNOWN')],
      [poor, {}, 422, fieldRefusal('months', 'PERIOD_UNKNOWN')],
      [poor, { months: 12 }, 422, refusal('INSUFFICIENT_FUNDS_PAYMENT')],
    ];
    for (const [id, body, status, answer] of cases) {
      const res = await postKeyed(t, RENEW(id), body, user);
      expect(res.status, `${id} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body).toEqual(answer);
    }
    expect(await stateOf(user)).toEqual(before);
  });

  it('replays a renewal sent again with its key: one charge, one period', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const key = randomUUID();
    const first = await postKeyed(t, RENEW(id), { months: 3 }, user, key);
    expectStatus(first, 200);
    const after = await stateOf(user);
    const again = await postKeyed(t, RENEW(id), { months: 3 }, user, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await stateOf(user)).toEqual(after);
  });
});

describe('auto-renewal', () => {
  const put = (id: number, body: unknown, who: User) =>
    t.api.request('PUT', AUTO_RENEW(id), { body, token: who.token });

  it('switches on with a period, off keeping it, and is audited', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const on = await put(id, { enabled: true, months: 3 }, user);
    expectStatus(on, 200);
    expect(on.body.server).toMatchObject({ auto_renew: true, renew_months: 3 });
    const off = await put(id, { enabled: false }, user);
    expect(off.body.server).toMatchObject({ auto_renew: false, renew_months: 3 });
    const again = await put(id, { enabled: true }, user);
    expect(again.body.server).toMatchObject({ auto_renew: true, renew_months: 3 });
    // its own action: 'vps.auto_renew' is a renewal made by the lifecycle job
    expect(await auditOf(t, 'vps.auto_renew', id)).toEqual([]);
    expect((await auditOf(t, 'vps.auto_renew_set', id)).map((a) => a.details)).toEqual([
      { enabled: true, months: 3 },
      { enabled: false, months: 3 },
      { enabled: true, months: 3 },
    ]);
  });

  it('refuses a period that is not offered, a missing switch and a revoked server', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const before = await stateOf(user);
    const twoMonths = await put(id, { enabled: true, months: 2 }, user);
    expect(twoMonths.status).toBe(422);
    expect(twoMonths.body).toEqual(fieldRefusal('months', 'PERIOD_UNKNOWN'));
    const noSwitch = await put(id, { months: 3 }, user);
    expect(noSwitch.status).toBe(422);
    expect(noSwitch.body.code).toBe('VALIDATION');
    expect(await stateOf(user)).toEqual(before);
    await t.sql.query(`update vps_servers set status = 'revoked' where id = $1`, [id]);
    const revoked = await put(id, { enabled: true }, user);
    expect(revoked.status).toBe(409);
    expect(revoked.body).toEqual(refusal('SERVER_REVOKED'));
    // switching it off is always possible
    expect((await put(id, { enabled: false }, user)).status).toBe(200);
  });
});

describe('start, shut down, reboot', () => {
  const act = (id: number, action: string, who: User) =>
    postKeyed(t, ACTION(id, action), undefined, who, null);

  it('answer 202 with the queued operation, shown on the server until it ends; audited', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const res = await act(id, 'reboot', user);
    expectStatus(res, 202);
    expect(res.body).toMatchObject({
      operation: { kind: 'reboot', status: 'queued', finished_at: null },
      server: { id, operation: { kind: 'reboot', status: 'queued' } },
      message: expect.stringContaining('1-2 minutes'),
    });
    expect(res.body.server.operation.id).toBe(res.body.operation.id);
    const [audit] = await auditOf(t, 'vps.action', id);
    expect(audit).toMatchObject({
      actor_id: String(user.id),
      details: { action: 'reboot', operation_id: res.body.operation.id },
    });
    const polled = await get(SERVER(id), user);
    expect(polled.body.server.operation).toEqual(res.body.operation);
  });

  it('refuse a new one while one runs, with a clear message', async () => {
    const user = await funded();
    const id = await activeServer(user);
    expectStatus(await act(id, 'shutdown', user), 202);
    for (const action of ['start', 'shutdown', 'reboot']) {
      const res = await act(id, action, user);
      expect(res.status, action).toBe(409);
      expect(res.body).toEqual(refusal('OPERATION_IN_PROGRESS'));
    }
    expect(
      await countOf('select count(*) as n from vps_operations where server_id = $1', [id]),
    ).toBe(2);
  });

  it('take exactly one of two concurrent requests', async () => {
    const user = await funded();
    const id = await activeServer(user);
    const answers = await Promise.all([act(id, 'reboot', user), act(id, 'reboot', user)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(
      await countOf(
        `select count(*) as n from vps_operations where server_id = $1 and kind = 'reboot'`,
        [id],
      ),
    ).toBe(1);
  });

  it('refuse a server that is not active, start when running, shutdown and reboot when stopped', async () => {
    const user = await funded();
    const provisioning = await ordered(user);
    const running = await activeServer(user);
    const stopped = await ordered(user);
    await makeReady(stopped, 'stopped');
    const blocked = await activeServer(user);
    await t.sql.query(`update vps_servers set status = 'blocked' where id = $1`, [blocked]);
    const cases: [number, string, ErrorCode][] = [
      [provisioning, 'start', 'SERVER_NOT_ACTIVE'],
      [blocked, 'reboot', 'SERVER_NOT_ACTIVE'],
      [running, 'start', 'SERVER_ALREADY_RUNNING'],
      [stopped, 'shutdown', 'SERVER_ALREADY_STOPPED'],
      [stopped, 'reboot', 'SERVER_ALREADY_STOPPED'],
    ];
    for (const [id, action, code] of cases) {
      const res = await act(id, action, user);
      expect(res.status, `${action} ${id}`).toBe(409);
      expect(res.body).toEqual(refusal(code));
    }
    expect(await auditOf(t, 'vps.action', running)).toEqual([]);
    expectStatus(await act(stopped, 'start', user), 202);
    // an unknown action is not a route's
    const unknown = await act(running, 'explode', user);
    expect(unknown).toMatchObject({ status: 404, body: refusal('NOT_FOUND') });
  });
});

describe('upgrade', () => {
  const ask = (id: number, body: unknown, who: User, key?: string) =>
    postKeyed(t, UPGRADE(id), body, who, key);

  /** An active server on Trader LD4 paid until `days` days from now. */
  async function upgradable(user: User, days = 20) {
    const id = await activeServer(user);
    await t.sql.query(`update vps_servers set paid_until = $2 where id = $1`, [
      id,
      new Date(t.clock.now().getTime() + days * DAY),
    ]);
    const { rows } = await t.sql.query('select paid_until from vps_servers where id = $1', [id]);
    return { id, paidUntil: rows[0].paid_until as Date };
  }

  it('charges the difference for the days left and starts today, warning of up to 1 hour offline', async () => {
    const user = await funded();
    const { id, paidUntil } = await upgradable(user);
    const [trader, pro] = [rate('Trader, London (LD4)'), rate('Pro, London (LD4)')];
    const today = utcDay(t.clock.now());
    const price = upgradePriceCents(
      trader.cents,
      pro.cents,
      new Date(`${today}T00:00:00Z`),
      paidUntil,
    );
    expect(price).toBeGreaterThan(0);
    const before = (await balancesOf(t, user.id)).balance;
    const res = await ask(id, { rate_id: pro.id, date: today }, user);
    expectStatus(res, 202);
    expect(res.body).toMatchObject({
      charged: price / 100,
      balance: (before - price) / 100,
      upgrade: {
        from_rate: 'Trader',
        to_rate: 'Pro',
        to_rate_id: pro.id,
        scheduled_for: today,
        price: price / 100,
        status: 'pending',
      },
      server: {
        upgrade: { scheduled_for: today, status: 'pending' },
        operation: { kind: 'upgrade', status: 'queued' },
      },
      message: expect.stringContaining('up to 1 hour'),
    });
    const { rows } = await t.sql.query(
      `select o.payload, u.charge_id is not null as charged from vps_operations o
       join vps_upgrades u on u.id = (o.payload->>'upgradeId')::bigint
       where o.server_id = $1 and o.kind = 'upgrade'`,
      [id],
    );
    expect(rows).toEqual([{ payload: { upgradeId: res.body.upgrade.id }, charged: true }]);
    expect(await auditOf(t, 'vps.upgrade_request', id)).toHaveLength(1);
    // a control while the upgrade runs is refused
    const reboot = await postKeyed(t, ACTION(id, 'reboot'), undefined, user, null);
    expect(reboot.body).toEqual(refusal('OPERATION_IN_PROGRESS'));
  });

  it('accepts today on a busy server: the lifecycle starts it once the operation in progress ends', async () => {
    const user = await funded();
    const { id } = await upgradable(user);
    const pro = rate('Pro, London (LD4)');
    const reboot = await postKeyed(t, ACTION(id, 'reboot'), undefined, user, null);
    expectStatus(reboot, 202);
    const res = await ask(id, { rate_id: pro.id, date: utcDay(t.clock.now()) }, user);
    expectStatus(res, 202);
    expect(res.body).toMatchObject({
      upgrade: { status: 'pending', to_rate_id: pro.id },
      server: { operation: { id: reboot.body.operation.id, kind: 'reboot' } },
      message: expect.stringContaining('as soon as'),
    });
    expect(res.body.message).toContain('up to 1 hour');
    // the reboot ends (on this made-up machine it fails: it ends all the same), then a tick
    await t.app.vpsJobs.runner.run(reboot.body.operation.id);
    expect((await get(SERVER(id), user)).body.server.operation).toBeNull();
    const report = await t.app.vpsJobs.lifecycle.tick();
    expect(report.upgradesStarted).toBeGreaterThanOrEqual(1);
    const after = await get(SERVER(id), user);
    expect(after.body.server.operation).toMatchObject({ kind: 'upgrade', status: 'queued' });
    const { rows } = await t.sql.query(
      `select payload from vps_operations where server_id = $1 and kind = 'upgrade'`,
      [id],
    );
    expect(rows).toEqual([{ payload: { upgradeId: res.body.upgrade.id } }]);
  });

  it('schedules a later date without an operation (the lifecycle starts it that day)', async () => {
    const user = await funded();
    const { id, paidUntil } = await upgradable(user, 30);
    const [trader, max] = [rate('Trader, London (LD4)'), rate('Max, London (LD4)')];
    const date = utcDay(new Date(t.clock.now().getTime() + 10 * DAY));
    const res = await ask(id, { rate_id: max.id, date }, user);
    expectStatus(res, 202);
    const price = upgradePriceCents(
      trader.cents,
      max.cents,
      new Date(`${date}T00:00:00Z`),
      paidUntil,
    );
    expect(res.body.charged).toBe(price / 100);
    expect(res.body.server.operation).toBeNull();
    expect(res.body.upgrade).toMatchObject({ scheduled_for: date, status: 'pending' });
    expect(res.body.message).toContain('up to 1 hour');
  });

  it('refuses a second request while one is pending, and a concurrent pair takes one', async () => {
    const user = await funded();
    const { id } = await upgradable(user, 30);
    const pro = rate('Pro, London (LD4)');
    const later = utcDay(new Date(t.clock.now().getTime() + 5 * DAY));
    const answers = await Promise.all([
      ask(id, { rate_id: pro.id, date: later }, user),
      ask(id, { rate_id: pro.id, date: later }, user),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const before = await stateOf(user);
    const again = await ask(id, { rate_id: rate('Max, London (LD4)').id, date: later }, user);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(refusal('UPGRADE_PENDING'));
    expect(await stateOf(user)).toEqual(before);
  });

  it('refuses a rate that is not larger, of another location or inactive, and a date out of range', async () => {
    const user = await funded();
    const { id, paidUntil } = await upgradable(user, 20);
    const today = utcDay(t.clock.now());
    const { rows } = await t.sql.query<{ id: number }>(
      `insert into vps_rates (name, cpu_cores, ram_gb, disk_gb, location, monthly_price_cents, template_id, sort)
       values ('Odd', 8, 2, 500, 'London (LD4)', 9000, '9000', 500),
              ('Hidden', 16, 32, 480, 'London (LD4)', 15000, '9000', 510) returning id`,
    );
    await t.sql.query(`update vps_rates set active = false where id = $1`, [rows[1]!.id]);
    const pro = rate('Pro, London (LD4)').id;
    const before = await stateOf(user);
    const cases: [unknown, string, ErrorCode][] = [
      [{ rate_id: rate('Start, London (LD4)').id, date: today }, 'rate_id', 'UPGRADE_RATE_INVALID'],
      [
        { rate_id: rate('Trader, London (LD4)').id, date: today },
        'rate_id',
        'UPGRADE_RATE_INVALID',
      ],
      [{ rate_id: rate('Pro, New York (NY4)').id, date: today }, 'rate_id', 'UPGRADE_RATE_INVALID'],
      // dearer but with less RAM
      [{ rate_id: rows[0]!.id, date: today }, 'rate_id', 'UPGRADE_RATE_INVALID'],
      [{ rate_id: rows[1]!.id, date: today }, 'rate_id', 'UPGRADE_RATE_INVALID'],
      [{ rate_id: 999_999, date: today }, 'rate_id', 'UPGRADE_RATE_INVALID'],
      [
        { rate_id: pro, date: utcDay(new Date(t.clock.now().getTime() - DAY)) },
        'date',
        'UPGRADE_DATE_INVALID',
      ],
      [{ rate_id: pro, date: utcDay(paidUntil) }, 'date', 'UPGRADE_DATE_INVALID'],
      [{ rate_id: pro, date: '2099-01-01' }, 'date', 'UPGRADE_DATE_INVALID'],
      [{ rate_id: pro, date: '2026-13-45' }, 'date', 'UPGRADE_DATE_INVALID'],
      [{ rate_id: pro, date: 'tomorrow' }, 'date', 'UPGRADE_DATE_INVALID'],
    ];
    for (const [body, field, code] of cases) {
      const res = await ask(id, body, user);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual(fieldRefusal(field, code));
    }
    expect(await stateOf(user)).toEqual(before);
    // the day before paid-until is the last one accepted
    const last = utcDay(new Date(paidUntil.getTime() - DAY));
    expectStatus(await ask(id, { rate_id: pro, date: last }, user), 202);
  });

  it('refuses a test server, a server that is not active and a short balance, charging nothing', async () => {
    // three orders, then a balance short of any upgrade
    const user = await funded(rate('Trader, London (LD4)').cents * 3 + 100);
    const pro = rate('Pro, London (LD4)').id;
    const today = utcDay(t.clock.now());
    const { id: trial } = await upgradable(user);
    await t.sql.query('update vps_servers set is_trial = true where id = $1', [trial]);
    const { id: blocked } = await upgradable(user);
    await t.sql.query(`update vps_servers set status = 'blocked' where id = $1`, [blocked]);
    const { id: poor } = await upgradable(user);
    const before = await stateOf(user);
    const cases: [number, number, ErrorCode][] = [
      [trial, 422, 'UPGRADE_NOT_FOR_TRIAL'],
      [blocked, 409, 'SERVER_NOT_ACTIVE'],
      [poor, 422, 'INSUFFICIENT_FUNDS_PAYMENT'],
    ];
    for (const [id, status, code] of cases) {
      const res = await ask(id, { rate_id: pro, date: today }, user);
      expect(res.status, code).toBe(status);
      expect(res.body).toEqual(refusal(code));
    }
    expect(await stateOf(user)).toEqual(before);
  });
});

describe('test server', () => {
  it('goes under review, one per user, audited and shown with the rates', async () => {
    const user = await funded(0);
    const res = await t.api.post(
      TEST_SERVER,
      { source: 'other', source_other: 'a webinar' },
      { token: user.token },
    );
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      test_request: { status: 'under_review', reason: null, server_id: null, decided_at: null },
      message: expect.stringContaining('one business day'),
    });
    const again = await t.api.post(TEST_SERVER, { source: 'search' }, { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(refusal('TEST_SERVER_TAKEN'));
    const rates = await get(RATES, user);
    expect(rates.body.test_request).toEqual(res.body.test_request);
    const [audit] = await auditOf(t, 'vps.test_request', res.body.test_request.id);
    expect(audit).toMatchObject({
      actor_id: String(user.id),
      subject_type: 'vps_test_request',
      details: { source: 'other: a webinar' },
    });
  });

  it('takes one of two concurrent requests', async () => {
    const user = await funded(0);
    const answers = await Promise.all([
      t.api.post(TEST_SERVER, { source: 'forum' }, { token: user.token }),
      t.api.post(TEST_SERVER, { source: 'forum' }, { token: user.token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(
      await countOf('select count(*) as n from vps_test_requests where user_id = $1', [user.id]),
    ).toBe(1);
  });

  it('needs the source', async () => {
    const user = await funded(0);
    const res = await t.api.post(TEST_SERVER, {}, { token: user.token });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(fieldRefusal('source', 'SOURCE_REQUIRED'));
    expect(
      await countOf('select count(*) as n from vps_test_requests where user_id = $1', [user.id]),
    ).toBe(0);
  });
});

describe('with the runner', () => {
  it('an ordered server becomes Active with login details once its create operation ran', async () => {
    const user = await funded();
    const res = await order(t, user);
    expectStatus(res, 201);
    const { server } = res.body;
    await t.app.vpsJobs.runner.run(server.operation.id);
    const after = await get(SERVER(server.id), user);
    expect(after.body.server).toMatchObject({
      status: 'active',
      has_credentials: true,
      operation: null,
      last_operation: { id: server.operation.id, kind: 'create', status: 'succeeded' },
    });
    const credentials = await postKeyed(t, CREDENTIALS(server.id), undefined, user, null);
    expectStatus(credentials, 200);
    expect(credentials.body.username).toBe(t.config.vps.rdpUsername);
    expect(credentials.body.password.length).toBeGreaterThanOrEqual(12);
    expect(after.text).not.toContain(credentials.body.password);
  });
});

describe('a server’s activity', () => {
  it('lists every operation and the owner’s other actions, newest first, with who and the outcome', async () => {
    const user = await funded();
    const id = await activeServer(user);
    expectStatus(await t.api.post(ACTION(id, 'reboot'), undefined, { token: user.token }), 202);
    await t.sql.query(
      `update vps_operations set status = 'failed', started_at = now(), finished_at = now(),
         error = 'failed: VM is locked (backup)'
       where server_id = $1 and kind = 'reboot'`,
      [id],
    );
    expectStatus(await postKeyed(t, RENEW(id), { months: 1 }, user), 200);
    expectStatus(
      await t.api.request('PUT', AUTO_RENEW(id), { token: user.token, body: { enabled: true } }),
      200,
    );
    // an operator's shutdown, queued and not run yet
    const operator = await quickUser(t, { role: 'admin' });
    await t.sql.query(
      `insert into vps_operations (server_id, kind, actor_id) values ($1, 'shutdown', $2)`,
      [id, operator.id],
    );
    const res = await get(ACTIVITY(id), user);
    expectStatus(res, 200);
    const lines = res.body.data.map((line: Json) => [line.kind, line.by, line.status]);
    expect(lines).toEqual([
      ['shutdown', 'operator', 'queued'],
      ['auto_renew_on', 'you', 'succeeded'],
      ['renew', 'you', 'succeeded'],
      ['reboot', 'you', 'failed'],
      ['create', 'you', 'succeeded'],
    ]);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 5 });
    const [queued, , , failed] = res.body.data;
    expect(queued.finished_at).toBeNull();
    expect(failed.finished_at).toEqual(expect.any(String));
    // the operator's words about the hypervisor stay with the operators
    expect(JSON.stringify(res.body)).not.toContain('backup');
    expect(new Set(res.body.data.map((line: Json) => line.id)).size).toBe(5);

    // pages: the second page of two holds the third and fourth lines
    const page = await get(ACTIVITY(id, '?page=2&per_page=2'), user);
    expectStatus(page, 200);
    expect(page.body.data.map((line: Json) => line.kind)).toEqual(['renew', 'reboot']);
    expect(page.body.meta).toEqual({ page: 2, per_page: 2, total: 5 });
    const past = await get(ACTIVITY(id, '?page=9&per_page=2'), user);
    expect(past.body).toEqual({ data: [], meta: { page: 9, per_page: 2, total: 5 } });
  });

  it('is the owner’s alone and refuses a bad page', async () => {
    const owner = await funded();
    const id = await activeServer(owner);
    const stranger = await funded(0);
    const theirs = await get(ACTIVITY(id), stranger);
    expectStatus(theirs, 404);
    expect(theirs.body).toEqual(refusal('SERVER_NOT_FOUND'));
    expectStatus(await get(ACTIVITY(999_999_999), owner), 404);
    expectStatus(await get(ACTIVITY(id, '?page=0'), owner), 422);
    expectStatus(await get(ACTIVITY(id, '?per_page=1000'), owner), 422);
    expectStatus(await get(ACTIVITY('x'), owner), 404);
    expectStatus(await t.api.get(ACTIVITY(id)), 401);
  });
});

describe('OpenAPI', () => {
  it('lists the VPS routes, the operator ones included, in /api/docs/json', async () => {
    const res = await t.api.get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const path of [
      '/api/user/vps/rates',
      '/api/user/vps/promocode',
      '/api/user/vps/order',
      '/api/user/vps/servers',
      '/api/user/vps/servers/{id}',
      '/api/user/vps/servers/{id}/credentials',
      '/api/user/vps/servers/{id}/rdp',
      '/api/user/vps/servers/{id}/renew',
      '/api/user/vps/servers/{id}/auto-renew',
      '/api/user/vps/servers/{id}/actions/{action}',
      '/api/user/vps/servers/{id}/upgrade',
      '/api/user/vps/servers/{id}/activity',
      '/api/user/vps/test-server',
      '/api/admin/vps/rates',
      '/api/admin/vps/rates/{id}',
      '/api/admin/vps/discounts',
      '/api/admin/vps/promocodes',
      '/api/admin/vps/promocodes/{id}',
      '/api/admin/vps/test-requests',
      '/api/admin/vps/test-requests/{id}/approve',
      '/api/admin/vps/test-requests/{id}/reject',
      '/api/admin/vps/servers',
      '/api/admin/vps/operations',
      '/api/admin/vps/operations/{id}/retry',
      '/api/admin/vps/operations/{id}/fail',
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe('dispatching operations', () => {
  it('hands an operation to the queue once its transaction has committed, never on a replay', async () => {
    const queue = t.app.vpsJobs.operations;
    const original = queue.dispatch;
    const seen: { id: number; committed: boolean }[] = [];
    queue.dispatch = async (id: number) => {
      // another connection sees the row only once the request's transaction has committed
      const committed =
        (await countOf('select count(*) as n from vps_operations where id = $1', [id])) === 1;
      seen.push({ id, committed });
    };
    try {
      const user = await funded();
      const key = randomUUID();
      const first = await order(t, user, {}, key);
      expectStatus(first, 201);
      await order(t, user, {}, key);
      const id = first.body.server.id as number;
      await makeReady(id);
      const reboot = await postKeyed(t, ACTION(id, 'reboot'), undefined, user, null);
      expectStatus(reboot, 202);
      // a refusal dispatches nothing
      expect((await postKeyed(t, ACTION(id, 'reboot'), undefined, user, null)).status).toBe(409);
      expect(seen).toEqual([
        { id: first.body.server.operation.id, committed: true },
        { id: reboot.body.operation.id, committed: true },
      ]);
    } finally {
      queue.dispatch = original;
    }
  });
});
