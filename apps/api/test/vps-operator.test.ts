import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balancesOf,
  fund,
  ledgerInvariants,
  memosOf,
  quickUser,
  useTestApp,
  type Json,
} from './helpers.ts';
import {
  auditOf,
  DAY,
  expectStatus,
  fieldRefusal,
  order,
  paidOrder,
  postKeyed,
  rateNamed,
  refusal,
} from './vps-fixtures.ts';

const t = useTestApp();

const RATES = '/api/admin/vps/rates';
const RATE = (id: number | string) => `/api/admin/vps/rates/${id}`;
const DISCOUNTS = '/api/admin/vps/discounts';
const PROMOCODES = '/api/admin/vps/promocodes';
const PROMOCODE = (id: number | string) => `/api/admin/vps/promocodes/${id}`;
const TEST_REQUESTS = '/api/admin/vps/test-requests';
const APPROVE = (id: number | string) => `/api/admin/vps/test-requests/${id}/approve`;
const REJECT = (id: number | string) => `/api/admin/vps/test-requests/${id}/reject`;
const SERVERS = '/api/admin/vps/servers';
const OPERATIONS = '/api/admin/vps/operations';
const RETRY = (id: number | string) => `/api/admin/vps/operations/${id}/retry`;
const FAIL = (id: number | string) => `/api/admin/vps/operations/${id}/fail`;

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
  return t.api.request(method, path, { body, token: who.token });
}

async function testRequest(user: User, source = 'friend') {
  const res = await t.api.post('/api/user/vps/test-server', { source }, { token: user.token });
  expectStatus(res, 201);
  return res.body.test_request as Json;
}

/** Operations older than the stuck threshold, by their times. */
async function age(operationId: number, minutes: number) {
  await t.sql.query(
    `update vps_operations set created_at = now() - make_interval(mins => $2),
       started_at = case when started_at is null then null else now() - make_interval(mins => $2) end
     where id = $1`,
    [operationId, minutes],
  );
}

describe('access to /api/admin/vps', () => {
  const routes: [string, string, unknown][] = [
    ['GET', RATES, undefined],
    ['POST', RATES, { name: 'X' }],
    ['PATCH', RATE(1), { active: false }],
    ['PUT', DISCOUNTS, { periods: [{ months: 1, discount_percent: 50 }] }],
    ['GET', PROMOCODES, undefined],
    ['POST', PROMOCODES, { code: 'FREE90', discount_percent: 90 }],
    ['PATCH', PROMOCODE(1), { active: false }],
    ['GET', TEST_REQUESTS, undefined],
    ['POST', APPROVE(1), undefined],
    ['POST', REJECT(1), { reason: 'No' }],
    ['GET', SERVERS, undefined],
    ['GET', OPERATIONS, undefined],
    ['POST', RETRY(1), undefined],
    ['POST', FAIL(1), { reason: 'No' }],
  ];

  it('answers 401 without a token and 403 FORBIDDEN to a non-admin, even to a malformed request', async () => {
    const user = await quickUser(t);
    const { rows: before } = await t.sql.query(
      `select (select count(*) from vps_rates) r, (select count(*) from promocodes) p,
              (select jsonb_agg(discount_percent order by months) from vps_period_discounts) d`,
    );
    for (const [method, path, body] of routes) {
      const anonymous = await t.api.request(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const res = await call(method, path, user, body);
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: FORBIDDEN });
      const malformed = await call(
        method,
        method === 'GET' ? `${path}?page=0&status=nope` : path,
        user,
        method === 'GET' ? undefined : { nonsense: true, reason: '' },
      );
      expect(malformed, `${method} ${path} malformed`).toMatchObject({
        status: 403,
        body: FORBIDDEN,
      });
    }
    const { rows: after } = await t.sql.query(
      `select (select count(*) from vps_rates) r, (select count(*) from promocodes) p,
              (select jsonb_agg(discount_percent order by months) from vps_period_discounts) d`,
    );
    expect(after).toEqual(before);
  });
});

describe('rates and discounts', () => {
  it('lists every rate with its servers and the periods', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    await paidOrder(t, user);
    const res = await call('GET', RATES, admin);
    expectStatus(res, 200);
    expect(res.body.rates.length).toBeGreaterThanOrEqual(9);
    const trader = res.body.rates.find((r: Json) => r.id === 2);
    expect(trader).toEqual({
      id: 2,
      name: 'Trader',
      cpu_cores: 2,
      ram_gb: 4,
      disk_gb: 60,
      location: 'London (LD4)',
      monthly_price: 22,
      active: true,
      template_id: '9000',
      servers: expect.any(Number),
    });
    expect(trader.servers).toBeGreaterThanOrEqual(1);
    expect(res.body.periods).toEqual([
      { months: 1, discount_percent: 0 },
      { months: 3, discount_percent: 5 },
      { months: 6, discount_percent: 10 },
      { months: 12, discount_percent: 15 },
    ]);
  });

  it('adds a rate, offered to users at once; audited', async () => {
    const body = {
      name: ' Whale ',
      cpu_cores: 16,
      ram_gb: 64,
      disk_gb: 500,
      location: 'London (LD4)',
      monthly_price: '149.90',
      template_id: '9001',
    };
    const res = await call('POST', RATES, admin, body);
    expectStatus(res, 201);
    expect(res.body.rate).toMatchObject({
      name: 'Whale',
      monthly_price: 149.9,
      active: true,
      template_id: '9001',
      servers: 0,
    });
    const user = await quickUser(t);
    const offered = await t.api.get('/api/user/vps/rates', { token: user.token });
    expect(offered.body.rates.at(-1)).toMatchObject({ id: res.body.rate.id, name: 'Whale' });
    const [audit] = await auditOf(t, 'vps.rate_create', res.body.rate.id);
    expect(audit).toMatchObject({
      actor_id: String(admin.id),
      subject_type: 'vps_rate',
      details: { name: 'Whale', monthly_price: 149.9 },
    });
  });

  it('refuses a rate without a name, with a bad price, size or template', async () => {
    const valid = {
      name: 'Bad',
      cpu_cores: 1,
      ram_gb: 1,
      disk_gb: 10,
      location: 'London (LD4)',
      monthly_price: '10',
      template_id: '9000',
    };
    const { rows: before } = await t.sql.query('select count(*) as n from vps_rates');
    const cases: [Record<string, unknown>, string, ErrorCode][] = [
      [{ name: '  ' }, 'name', 'NAME_REQUIRED'],
      [{ name: 'x'.repeat(61) }, 'name', 'NAME_TOO_LONG'],
      [{ monthly_price: '0' }, 'monthly_price', 'AMOUNT_INVALID'],
      [{ monthly_price: '-5' }, 'monthly_price', 'AMOUNT_INVALID'],
      [{ monthly_price: '1.999' }, 'monthly_price', 'AMOUNT_INVALID'],
      [{ cpu_cores: 0 }, 'cpu_cores', 'VALIDATION'],
      [{ ram_gb: 1.5 }, 'ram_gb', 'VALIDATION'],
      [{ template_id: 'a b' }, 'template_id', 'VALIDATION'],
      [{ location: '' }, 'location', 'REQUIRED'],
    ];
    for (const [override, field, code] of cases) {
      const res = await call('POST', RATES, admin, { ...valid, ...override });
      expect(res.status, JSON.stringify(override)).toBe(422);
      expect(res.body.code, JSON.stringify(override)).toBe(code);
      expect(Object.keys(res.body.errors), JSON.stringify(override)).toContain(field);
    }
    const { rows: after } = await t.sql.query('select count(*) as n from vps_rates');
    expect(after).toEqual(before);
  });

  it('changes a rate; an inactive one is no longer offered or orderable, its servers stay', async () => {
    const created = await call('POST', RATES, admin, {
      name: 'Temp',
      cpu_cores: 2,
      ram_gb: 4,
      disk_gb: 60,
      location: 'Frankfurt (FR2)',
      monthly_price: 30,
      template_id: '9000',
    });
    const id = created.body.rate.id;
    const changed = await call('PATCH', RATE(id), admin, { monthly_price: '31.50', ram_gb: 8 });
    expectStatus(changed, 200);
    expect(changed.body.rate).toMatchObject({ monthly_price: 31.5, ram_gb: 8, cpu_cores: 2 });
    const off = await call('PATCH', RATE(id), admin, { active: false });
    expect(off.body.rate.active).toBe(false);
    // a change that does not name `active` leaves it as it is
    const repriced = await call('PATCH', RATE(id), admin, { monthly_price: 32 });
    expect(repriced.body.rate).toMatchObject({ monthly_price: 32, active: false });
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const offered = await t.api.get('/api/user/vps/rates', { token: user.token });
    expect(offered.body.rates.map((r: Json) => r.id)).not.toContain(id);
    const refused = await order(t, user, { rate_id: id });
    expect(refused.body).toEqual(fieldRefusal('rate_id', 'RATE_NOT_FOUND'));
    const audits = await auditOf(t, 'vps.rate_update', id);
    expect(audits.map((a) => a.details.active ?? a.details.monthly_price)).toEqual([
      31.5,
      false,
      32,
    ]);
    expect(audits[0].details.before).toMatchObject({ monthly_price: 30, ram_gb: 4 });

    const missing = await call('PATCH', RATE(999_999), admin, { active: true });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(refusal('RATE_NOT_FOUND'));
    const bad = await call('PATCH', RATE(id), admin, { monthly_price: 'abc' });
    expect(bad.status).toBe(422);
  });

  it('sets the period discounts, used by the next order; refuses a bad percentage or period', async () => {
    const bad: [unknown, ErrorCode][] = [
      [{ periods: [{ months: 3, discount_percent: 91 }] }, 'DISCOUNT_INVALID'],
      [{ periods: [{ months: 3, discount_percent: -1 }] }, 'DISCOUNT_INVALID'],
      [{ periods: [{ months: 3, discount_percent: 2.5 }] }, 'DISCOUNT_INVALID'],
      [{ periods: [{ months: 2, discount_percent: 5 }] }, 'PERIOD_UNKNOWN'],
      [
        {
          periods: [
            { months: 3, discount_percent: 5 },
            { months: 3, discount_percent: 6 },
          ],
        },
        'VALIDATION',
      ],
      [{}, 'VALIDATION'],
    ];
    for (const [body, code] of bad) {
      const res = await call('PUT', DISCOUNTS, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const res = await call('PUT', DISCOUNTS, admin, {
      periods: [
        { months: 3, discount_percent: 8 },
        { months: 12, discount_percent: 20 },
      ],
    });
    expectStatus(res, 200);
    expect(res.body.periods).toEqual([
      { months: 1, discount_percent: 0 },
      { months: 3, discount_percent: 8 },
      { months: 6, discount_percent: 10 },
      { months: 12, discount_percent: 20 },
    ]);
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    const order = await paidOrder(t, user, { months: 3 });
    expect(order.charged).toBe((2200 * 3 * 0.92) / 100);
    const [audit] = await auditOf(t, 'vps.discounts_update');
    expect(audit.details.after).toEqual(res.body.periods);
    // back to the seeded values for the other tests
    await call('PUT', DISCOUNTS, admin, {
      periods: [
        { months: 3, discount_percent: 5 },
        { months: 12, discount_percent: 15 },
      ],
    });
  });
});

describe('promocodes', () => {
  it('adds codes, lists them newest first, refuses a duplicate in any case', async () => {
    const first = await call('POST', PROMOCODES, admin, { code: 'Spring25', discount_percent: 25 });
    expectStatus(first, 201);
    expect(first.body.promocode).toMatchObject({
      code: 'Spring25',
      discount_percent: 25,
      active: true,
      times_used: 0,
      owner: null,
    });
    const second = await call('POST', PROMOCODES, admin, {
      code: 'SUMMER10',
      discount_percent: 10,
    });
    expectStatus(second, 201);
    const duplicate = await call('POST', PROMOCODES, admin, {
      code: 'spring25',
      discount_percent: 5,
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(fieldRefusal('code', 'PROMOCODE_TAKEN'));
    const list = await call('GET', `${PROMOCODES}?per_page=2`, admin);
    expectStatus(list, 200);
    expect(list.body.data.map((p: Json) => p.code)).toEqual(['SUMMER10', 'Spring25']);
    expect(list.body.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(list.body.meta.total).toBeGreaterThanOrEqual(2);
    expect(await auditOf(t, 'vps.promocode_create', first.body.promocode.id)).toHaveLength(1);
  });

  it('refuses a malformed code or a discount out of 1-90', async () => {
    const cases: [unknown, ErrorCode][] = [
      [{ code: 'ab', discount_percent: 10 }, 'PROMOCODE_INVALID'],
      [{ code: 'with space', discount_percent: 10 }, 'PROMOCODE_INVALID'],
      [{ code: 'x'.repeat(33), discount_percent: 10 }, 'PROMOCODE_INVALID'],
      [{ code: 'ZERO0', discount_percent: 0 }, 'DISCOUNT_INVALID'],
      [{ code: 'MANY91', discount_percent: 91 }, 'DISCOUNT_INVALID'],
    ];
    for (const [body, code] of cases) {
      const res = await call('POST', PROMOCODES, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const { rows } = await t.sql.query(
      `select count(*)::int as n from promocodes where code in ('ZERO0', 'MANY91')`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('switches a code off (users can no longer use it) and on again', async () => {
    const created = await call('POST', PROMOCODES, admin, { code: 'TOGGLE7', discount_percent: 7 });
    const id = created.body.promocode.id;
    const user = await quickUser(t);
    const off = await call('PATCH', PROMOCODE(id), admin, { active: false });
    expectStatus(off, 200);
    expect(off.body.promocode.active).toBe(false);
    const lookup = await t.api.get('/api/user/vps/promocode?code=TOGGLE7', { token: user.token });
    expect(lookup.status).toBe(422);
    const on = await call('PATCH', PROMOCODE(id), admin, { active: true });
    expect(on.body.promocode.active).toBe(true);
    const again = await t.api.get('/api/user/vps/promocode?code=toggle7', { token: user.token });
    expect(again.body).toEqual({ code: 'TOGGLE7', discount_percent: 7 });
    expect(await auditOf(t, 'vps.promocode_update', id)).toHaveLength(2);
    const missing = await call('PATCH', PROMOCODE(999_999), admin, { active: false });
    expect(missing.status).toBe(404);
    const bad = await call('PATCH', PROMOCODE(id), admin, { active: 'no' });
    expect(bad.status).toBe(422);
  });
});

describe('test servers', () => {
  it('lists the requests under review oldest first, with their users', async () => {
    await t.sql.query(
      `update vps_test_requests set status = 'rejected', reason = 'cleared' where status = 'under_review'`,
    );
    const [ann, ben] = [await quickUser(t, { name: 'Ann' }), await quickUser(t, { name: 'Ben' })];
    const newer = await testRequest(ann, 'forum');
    const older = await testRequest(ben, 'youtube');
    await t.sql.query(
      `update vps_test_requests set created_at = now() - interval '1 day' where id = $1`,
      [older.id],
    );
    const res = await call('GET', TEST_REQUESTS, admin);
    expectStatus(res, 200);
    expect(res.body.data.map((r: Json) => r.id)).toEqual([older.id, newer.id]);
    expect(res.body.data[0]).toMatchObject({
      status: 'under_review',
      source: 'youtube',
      user: { id: ben.id, email: ben.email, name: 'Ben' },
    });
    const rejected = await call('GET', `${TEST_REQUESTS}?status=rejected`, admin);
    expect(rejected.body.data.every((r: Json) => r.status === 'rejected')).toBe(true);
    const bad = await call('GET', `${TEST_REQUESTS}?status=nope`, admin);
    expect(bad.status).toBe(422);
  });

  it('approves: a free trial server on the cheapest rate with a create operation, mailed', async () => {
    const user = await quickUser(t);
    const request = await testRequest(user);
    const before = await balancesOf(t, user.id);
    const mails = t.smtp.to(user.email).length;
    const started = t.clock.now().getTime();
    const res = await call('POST', APPROVE(request.id), admin);
    expectStatus(res, 200);
    const { server, test_request: decided } = res.body;
    expect(decided).toMatchObject({
      id: request.id,
      status: 'approved',
      server_id: server.id,
      reason: null,
      user: { id: user.id },
    });
    const { rows: cheapest } = await t.sql.query(
      `select id from vps_rates where active order by monthly_price_cents, sort, id limit 1`,
    );
    expect(server).toMatchObject({
      status: 'provisioning',
      is_trial: true,
      rate: { id: cheapest[0].id },
      user: { id: user.id },
      source: 'friend',
      operation: { kind: 'create', status: 'queued' },
    });
    const paidUntil = new Date(server.paid_until).getTime();
    const trial = t.config.vps.trialDays * DAY;
    expect(paidUntil).toBeGreaterThanOrEqual(started + trial);
    expect(paidUntil).toBeLessThanOrEqual(t.clock.now().getTime() + trial);
    // nothing charged
    expect(await balancesOf(t, user.id)).toEqual(before);
    const { rows } = await t.sql.query('select charge_id, user_id from vps_servers where id = $1', [
      server.id,
    ]);
    expect(rows[0]).toEqual({ charge_id: null, user_id: String(user.id) });
    const [audit] = await auditOf(t, 'vps.test_approve', request.id);
    expect(audit).toMatchObject({
      actor_id: String(admin.id),
      target_user_id: String(user.id),
      details: { server_id: server.id },
    });
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.subject).toContain('test server');
    expect(mail.text).toContain(`#${server.id}`);
    // the user sees it
    const own = await t.api.get('/api/user/vps/servers', { token: user.token });
    expect(own.body.data.map((s: Json) => s.id)).toEqual([server.id]);
    const rates = await t.api.get('/api/user/vps/rates', { token: user.token });
    expect(rates.body.test_request).toMatchObject({ status: 'approved', server_id: server.id });
    // and the runner creates it
    await t.app.vpsJobs.runner.run(server.operation.id);
    const ready = await t.api.get(`/api/user/vps/servers/${server.id}`, { token: user.token });
    expect(ready.body.server).toMatchObject({ status: 'active', is_trial: true });
  });

  it('rejects with a reason the user sees, mailed; a decided request is not decided again', async () => {
    const user = await quickUser(t);
    const request = await testRequest(user);
    const mails = t.smtp.to(user.email).length;
    const noReason = await call('POST', REJECT(request.id), admin, { reason: '  ' });
    expect(noReason.status).toBe(422);
    expect(noReason.body).toEqual(fieldRefusal('reason', 'REASON_REQUIRED'));
    const res = await call('POST', REJECT(request.id), admin, {
      reason: 'One test server per household',
    });
    expectStatus(res, 200);
    expect(res.body.test_request).toMatchObject({
      status: 'rejected',
      reason: 'One test server per household',
      server_id: null,
    });
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.text).toContain('One test server per household');
    const rates = await t.api.get('/api/user/vps/rates', { token: user.token });
    expect(rates.body.test_request).toMatchObject({
      status: 'rejected',
      reason: 'One test server per household',
    });
    for (const [path, body] of [
      [APPROVE(request.id), undefined],
      [REJECT(request.id), { reason: 'again' }],
    ] as const) {
      const again = await call('POST', path, admin, body);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(refusal('TEST_REQUEST_ALREADY_DECIDED'));
    }
    const { rows } = await t.sql.query(
      'select count(*)::int as n from vps_servers where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
    expect(await auditOf(t, 'vps.test_reject', request.id)).toHaveLength(1);
    expect((await call('POST', APPROVE(999_999), admin)).status).toBe(404);
  });

  it('approves a request once when two operators approve at once', async () => {
    const user = await quickUser(t);
    const request = await testRequest(user);
    const other = await quickUser(t, { role: 'admin' });
    const answers = await Promise.all([
      call('POST', APPROVE(request.id), admin),
      call('POST', APPROVE(request.id), other),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const { rows } = await t.sql.query(
      'select count(*)::int as n from vps_servers where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('servers and operations', () => {
  it('lists every server, by number prefix, owner e-mail and status', async () => {
    const user = await quickUser(t, { email: `vps-owner-${randomUUID().slice(0, 8)}@example.com` });
    await fund(t, user.id, 100_000);
    const a = await paidOrder(t, user);
    const b = await paidOrder(t, user);
    await t.sql.query(`update vps_servers set status = 'blocked' where id = $1`, [b.server.id]);
    const byEmail = await call('GET', `${SERVERS}?search=${user.email.slice(0, 15)}`, admin);
    expectStatus(byEmail, 200);
    expect(byEmail.body.data.map((s: Json) => s.id)).toEqual([b.server.id, a.server.id]);
    expect(byEmail.body.data[1]).toMatchObject({
      user: { id: user.id, email: user.email },
      machine_id: null,
      source: 'search',
      status: 'provisioning',
    });
    const byNumber = await call('GET', `${SERVERS}?search=${a.server.id}`, admin);
    expect(byNumber.body.data.map((s: Json) => s.id)).toContain(a.server.id);
    const blocked = await call(
      'GET',
      `${SERVERS}?search=${encodeURIComponent(user.email)}&status=blocked`,
      admin,
    );
    expect(blocked.body.data.map((s: Json) => s.id)).toEqual([b.server.id]);
    const all = await call('GET', SERVERS, admin);
    expect(all.body.meta.total).toBeGreaterThanOrEqual(2);
    expect(all.text).not.toContain('password');
  });

  it('lists operations newest first, by status, server and stuck', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    const { server } = await paidOrder(t, user);
    const create = server.operation.id;
    const byServer = await call('GET', `${OPERATIONS}?server_id=${server.id}`, admin);
    expectStatus(byServer, 200);
    expect(byServer.body.data).toEqual([
      expect.objectContaining({
        id: create,
        kind: 'create',
        status: 'queued',
        server_id: server.id,
        user: { id: user.id, email: user.email, name: user.name },
        actor: { id: user.id, email: user.email, name: user.name },
        attempts: 0,
        stuck: false,
      }),
    ]);
    const stuckBefore = await call('GET', `${OPERATIONS}?status=stuck`, admin);
    expect(stuckBefore.body.data.map((o: Json) => o.id)).not.toContain(create);
    await age(create, t.config.vps.stuckMinutes + 1);
    const stuck = await call('GET', `${OPERATIONS}?status=stuck`, admin);
    expect(stuck.body.data.find((o: Json) => o.id === create)).toMatchObject({ stuck: true });
    const queued = await call('GET', `${OPERATIONS}?status=queued&per_page=100`, admin);
    expect(queued.body.data.every((o: Json) => o.status === 'queued')).toBe(true);
    const ids = queued.body.data.map((o: Json) => o.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    const bad = await call('GET', `${OPERATIONS}?status=lost`, admin);
    expect(bad.status).toBe(422);
  });

  it('retries a stuck operation (attempts kept) and refuses a young or finished one', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    const { server } = await paidOrder(t, user);
    const id = server.operation.id;
    // running since a minute: not stuck
    await t.sql.query(
      `update vps_operations set status = 'running', attempts = 1, started_at = now() where id = $1`,
      [id],
    );
    const young = await call('POST', RETRY(id), admin);
    expect(young.status).toBe(409);
    expect(young.body).toEqual(refusal('OPERATION_NOT_STUCK'));
    // the clock moves past the threshold
    t.clock.advance((t.config.vps.stuckMinutes + 1) * 60_000);
    try {
      const res = await call('POST', RETRY(id), admin);
      expectStatus(res, 200);
      expect(res.body.operation).toMatchObject({
        id,
        status: 'queued',
        attempts: 1,
        started_at: null,
      });
      const [audit] = await auditOf(t, 'vps.operation_retry', id);
      expect(audit).toMatchObject({
        actor_id: String(admin.id),
        subject_type: 'vps_operation',
        target_user_id: String(user.id),
        details: { kind: 'create', was: 'running' },
      });
      // the runner takes it again
      await t.app.vpsJobs.runner.run(id);
      const done = await call('GET', `${OPERATIONS}?server_id=${server.id}`, admin);
      expect(done.body.data[0]).toMatchObject({ id, status: 'succeeded', attempts: 2 });
      const finished = await call('POST', RETRY(id), admin);
      expect(finished.status).toBe(409);
      expect(finished.body).toEqual(refusal('OPERATION_FINISHED'));
    } finally {
      t.clock.advance(-(t.config.vps.stuckMinutes + 1) * 60_000);
    }
    expect((await call('POST', RETRY(999_999), admin)).status).toBe(404);
  });

  it('fails a create with a reason: the server Failed, the order refunded, the user told', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const { server, charged } = await paidOrder(t, user);
    expect((await balancesOf(t, user.id)).balance).toBe(10_000 - charged * 100);
    const mails = t.smtp.to(user.email).length;
    const noReason = await call('POST', FAIL(server.operation.id), admin, {});
    expect(noReason.status).toBe(422);
    expect(noReason.body).toEqual(fieldRefusal('reason', 'REASON_REQUIRED'));
    const res = await call('POST', FAIL(server.operation.id), admin, {
      reason: 'The template is broken',
    });
    expectStatus(res, 200);
    expect(res.body.operation).toMatchObject({
      status: 'failed',
      error: 'The template is broken',
      finished_at: expect.any(String),
    });
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    const own = await t.api.get(`/api/user/vps/servers/${server.id}`, { token: user.token });
    expect(own.body.server).toMatchObject({
      status: 'failed',
      operation: null,
      last_operation: { status: 'failed' },
      failure: expect.stringContaining('The template is broken'),
    });
    const { rows } = await t.sql.query(
      'select c.status from vps_servers s join charges c on c.id = s.charge_id where s.id = $1',
      [server.id],
    );
    expect(rows[0].status).toBe('cancelled');
    // the ledger: the charge with its own line in both languages, the refund naming the server
    const { rows: bought } = await t.sql.query(
      `select c.description_en, c.description_ru from vps_servers s
       join charges c on c.id = s.charge_id where s.id = $1`,
      [server.id],
    );
    expect(bought[0].description_en).toContain(`VPS #${server.id}`);
    expect((await memosOf(t, user.id)).slice(0, 2)).toEqual([
      {
        kind: 'refund',
        memo: null,
        memo_code: 'vps_create_refund',
        memo_params: { server_id: server.id },
      },
      { kind: 'charge', memo: null, memo_code: 'charge', memo_params: bought[0] },
    ]);
    expect(await auditOf(t, 'vps.operation_fail', server.operation.id)).toHaveLength(1);
    expect(await auditOf(t, 'vps.create_failed', server.id)).toHaveLength(1);
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.text).toContain('The template is broken');
    // finished: neither failed again (no second refund) nor retried
    for (const [path, body] of [
      [FAIL(server.operation.id), { reason: 'again' }],
      [RETRY(server.operation.id), undefined],
    ] as const) {
      const again = await call('POST', path, admin, body);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(refusal('OPERATION_FINISHED'));
    }
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    // a late result of the runner changes nothing
    await t.app.vpsJobs.runner.run(server.operation.id);
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
  });

  it('fails an upgrade with a reason: the upgrade failed and its charge refunded', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    const { server } = await paidOrder(t, user);
    await t.app.vpsJobs.runner.run(server.operation.id);
    const before = (await balancesOf(t, user.id)).balance;
    const pro = await rateNamed(t, 'Pro');
    const today = t.clock.now().toISOString().slice(0, 10);
    const ask = () =>
      postKeyed(
        t,
        `/api/user/vps/servers/${server.id}/upgrade`,
        { rate_id: pro.id, date: today },
        user,
      );
    const upgrade = await ask();
    expectStatus(upgrade, 202);
    expect(upgrade.body.charged).toBeGreaterThan(0);
    const operation = upgrade.body.server.operation;
    expect(operation.kind).toBe('upgrade');
    const res = await call('POST', FAIL(operation.id), admin, { reason: 'Host in maintenance' });
    expectStatus(res, 200);
    expect((await balancesOf(t, user.id)).balance).toBe(before);
    const { rows } = await t.sql.query(
      `select u.status, c.status as charge from vps_upgrades u join charges c on c.id = u.charge_id
       where u.id = $1`,
      [upgrade.body.upgrade.id],
    );
    expect(rows[0]).toEqual({ status: 'failed', charge: 'cancelled' });
    expect((await memosOf(t, user.id))[0]).toEqual({
      kind: 'refund',
      memo: null,
      memo_code: 'vps_upgrade_refund',
      memo_params: { server_id: server.id },
    });
    const own = await t.api.get(`/api/user/vps/servers/${server.id}`, { token: user.token });
    expect(own.body.server).toMatchObject({
      upgrade: null,
      operation: null,
      rate: { name: 'Trader' },
    });
    // a new request may be made now
    expectStatus(await ask(), 202);
  });

  it('fails a control operation without other effects', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 100_000);
    const { server } = await paidOrder(t, user);
    await t.app.vpsJobs.runner.run(server.operation.id);
    const reboot = await t.api.post(
      `/api/user/vps/servers/${server.id}/actions/reboot`,
      undefined,
      {
        token: user.token,
      },
    );
    expectStatus(reboot, 202);
    const before = await balancesOf(t, user.id);
    const res = await call('POST', FAIL(reboot.body.operation.id), admin, { reason: 'Stuck' });
    expectStatus(res, 200);
    expect(await balancesOf(t, user.id)).toEqual(before);
    const own = await t.api.get(`/api/user/vps/servers/${server.id}`, { token: user.token });
    expect(own.body.server).toMatchObject({ status: 'active', operation: null });
  });
});
