import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { OPERATOR_ROLES, type OperatorRole } from '@tradehost/contracts';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { authPlugin } from '../src/plugins/auth.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { createSessionRevocations } from '../src/lib/session-revocations.ts';
import { totpCode } from './factor-helpers.ts';
import {
  fund,
  grantRoles,
  operator,
  postKeyed,
  quickUser,
  refusal,
  routeTable,
  signIn,
  turnOnTotp,
  useTestApp,
  type Json,
  type QuickUser,
  type TestApp,
} from './helpers.ts';
import { paidSubscription } from './monitoring-fixtures.ts';
import { paidOrder } from './vps-fixtures.ts';

/**
 * Operators with least privilege: each /api/admin route names the operator roles that may call
 * it (config.operatorRoles, one check in plugins/auth.ts), admin calls them all; the operator area
 * wants a second factor; roles are granted and revoked by admins (step-up) and the command line,
 * audited; and no operator acts on their own account.
 */

const t = useTestApp();

const ALL: OperatorRole[] = ['support', 'billing', 'vps', 'monitoring'];

/**
 * The permission table (README, "Operators and their roles"): the roles each operator route
 * names; admin reaches every one. A route added under /api/admin fails the walk below until it is
 * here, and the app refuses to start when the route names no roles.
 */
const PERMISSIONS: Record<string, OperatorRole[]> = {
  'GET /api/admin/users': ALL,
  'GET /api/admin/users/{id}': ALL,
  'GET /api/admin/users/{id}/ledger': ['billing'],
  'POST /api/admin/users/{id}/adjustments': ['billing'],
  'GET /api/admin/approvals': ['billing'],
  'POST /api/admin/adjustments/{id}/approve': ['billing'],
  'POST /api/admin/adjustments/{id}/decline': ['billing'],
  'POST /api/admin/partner/payouts/{id}/approve': ['billing'],
  'POST /api/admin/partner/payouts/{id}/decline': ['billing'],
  'GET /api/admin/audit': ['admin'],
  'GET /api/admin/operators': ['admin'],
  'POST /api/admin/operators/{id}/roles': ['admin'],
  'DELETE /api/admin/operators/{id}/roles/{role}': ['admin'],
  'GET /api/admin/payments': ['billing'],
  'POST /api/admin/payments/{id}/confirm': ['billing'],
  'POST /api/admin/payments/{id}/reject': ['billing'],
  'GET /api/admin/partner/withdrawals': ['billing'],
  'POST /api/admin/partner/withdrawals/{id}/review': ['billing'],
  'POST /api/admin/partner/withdrawals/{id}/pay': ['billing'],
  'POST /api/admin/partner/withdrawals/{id}/reject': ['billing'],
  'GET /api/admin/partner/settings': ['billing'],
  'PUT /api/admin/partner/settings': ['billing'],
  'GET /api/admin/partner/users/{id}': ['billing'],
  'GET /api/admin/partner/users/{id}/network': ['billing'],
  'GET /api/admin/vps/promocodes': ['billing'],
  'POST /api/admin/vps/promocodes': ['billing'],
  'PATCH /api/admin/vps/promocodes/{id}': ['billing'],
  'GET /api/admin/monitoring/prices': ['billing', 'monitoring'],
  'PUT /api/admin/monitoring/prices': ['billing'],
  'GET /api/admin/monitoring/subscriptions': ['monitoring'],
  'POST /api/admin/monitoring/subscriptions/{id}/extend': ['monitoring'],
  'GET /api/admin/monitoring/accounts': ['monitoring'],
  'GET /api/admin/vps/rates': ['vps'],
  'POST /api/admin/vps/rates': ['vps'],
  'PATCH /api/admin/vps/rates/{id}': ['vps'],
  'PUT /api/admin/vps/discounts': ['vps'],
  'GET /api/admin/vps/test-requests': ['vps'],
  'POST /api/admin/vps/test-requests/{id}/approve': ['vps'],
  'POST /api/admin/vps/test-requests/{id}/reject': ['vps'],
  'GET /api/admin/vps/servers': ['vps'],
  'GET /api/admin/vps/operations': ['vps'],
  'POST /api/admin/vps/operations/{id}/retry': ['vps'],
  'POST /api/admin/vps/operations/{id}/fail': ['vps'],
  'GET /api/admin/vps/latency': ['vps'],
  'GET /api/admin/support/queues': ['support'],
  'GET /api/admin/support/tickets': ['support'],
  'GET /api/admin/support/tickets/{id}': ['support'],
  'POST /api/admin/support/tickets/{id}/messages': ['support'],
  'POST /api/admin/support/tickets/{id}/assign': ['support'],
  'POST /api/admin/support/tickets/{id}/status': ['support'],
  'GET /api/admin/support/attachments/{id}': ['support'],
  'GET /api/admin/support/attachments/{id}/preview': ['support'],
  'GET /api/admin/support/canned': ['support'],
  'POST /api/admin/support/canned': ['support'],
  'PUT /api/admin/support/canned/{id}': ['support'],
  'DELETE /api/admin/support/canned/{id}': ['support'],
  'GET /api/admin/support/departments': ['support'],
  'POST /api/admin/support/departments': ['support'],
  'PUT /api/admin/support/departments/{id}': ['support'],
  'GET /api/admin/faq': ['support'],
  'POST /api/admin/faq': ['support'],
  'PUT /api/admin/faq/{id}': ['support'],
  'DELETE /api/admin/faq/{id}': ['support'],
};

const FORBIDDEN = refusal('FORBIDDEN');
const SELF = refusal('OPERATOR_SELF_ACTION');

/** A route of the table called with ids no row has and no body: nothing it could change. */
function call(t: TestApp, route: string, who: { token: string }) {
  const [method, path] = route.split(' ') as [string, string];
  const url = path.replace('{role}', 'support').replace(/\{\w+\}/g, '999999999');
  return t.api.request(method, url, {
    token: who.token,
    headers: { 'idempotency-key': randomUUID() },
  });
}

const auditOf = async (t: TestApp, action: string, targetId: number) =>
  (
    await t.sql.query(
      `select actor_id::int as actor, details from audit_log
        where action = $1 and target_user_id = $2 order by id`,
      [action, targetId],
    )
  ).rows;

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../src/cli/admin.ts', import.meta.url));

/** `npm run admin -- <args>` on the database of `app`. */
const admin = (app: TestApp, args: string[]) =>
  run(process.execPath, [CLI, ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: app.config.databaseUrl,
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      LOG_LEVEL: 'silent',
    },
  });

describe('the operator routes and their roles', () => {
  it('names the roles of every route under /api/admin: the route table is the permission table', () => {
    const routes = routeTable(t.app.printRoutes({ commonPrefix: false })).filter((route) =>
      / \/api\/admin(\/|$)/.test(route),
    );
    expect(routes.length).toBeGreaterThan(50);
    expect([...routes].sort()).toEqual(Object.keys(PERMISSIONS).sort());
  });

  it('refuses to start with an operator route that names no roles', async () => {
    const app = Fastify();
    await app.register(fp(async () => {}, { name: 'tradehost-rate-limit' }));
    await app.register(fp(async () => {}, { name: 'tradehost-db' }));
    await app.register(authPlugin, {
      tokens: createAccessTokens('k'.repeat(48), 60, () => new Date()),
      sessions: createSessionRevocations(60, () => new Date(), app.log),
    });
    const started = (async () => {
      await app.register(
        async (api) => {
          api.get('/admin/forgotten', { config: { auth: 'required' } }, async () => ({}));
        },
        { prefix: '/api' },
      );
      await app.ready();
    })();
    await expect(started).rejects.toThrow(/\/api\/admin\/forgotten.*operatorRoles/);
    await app.close().catch(() => undefined);
  });

  it('lets each role reach its routes and answers 403 FORBIDDEN elsewhere; admin reaches all', async () => {
    const customer = await quickUser(t);
    const holders = Object.fromEntries(
      await Promise.all(OPERATOR_ROLES.map(async (role) => [role, await operator(t, [role])])),
    ) as Record<OperatorRole, QuickUser>;
    const failures: string[] = [];
    for (const [route, allowed] of Object.entries(PERMISSIONS)) {
      const refused = await call(t, route, customer);
      if (refused.status !== 403 || refused.body.code !== 'FORBIDDEN')
        failures.push(`${route} customer -> ${refused.status} ${refused.text}`);
      for (const role of OPERATOR_ROLES) {
        const res = await call(t, route, holders[role]);
        const reaches = role === 'admin' || allowed.includes(role);
        const ok = reaches
          ? res.status !== 401 && res.status !== 403
          : res.status === 403 && res.body.code === 'FORBIDDEN';
        if (!ok) failures.push(`${route} ${role} -> ${res.status} ${res.text.slice(0, 100)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('lets an operator of several roles reach each of their parts, and no more', async () => {
    const both = await operator(t, ['support', 'billing']);
    for (const path of ['/api/admin/support/queues', '/api/admin/payments', '/api/admin/users'])
      expect((await t.api.get(path, { token: both.token })).status, path).toBe(200);
    for (const path of ['/api/admin/vps/rates', '/api/admin/audit', '/api/admin/operators'])
      expect(await t.api.get(path, { token: both.token }), path).toMatchObject({
        status: 403,
        body: FORBIDDEN,
      });
  });

  it('reads the roles on every call: a revoked role stops at once, a granted one works at once', async () => {
    const billing = await operator(t, ['billing']);
    expect((await t.api.get('/api/admin/payments', { token: billing.token })).status).toBe(200);
    await t.sql.query('delete from operator_roles where user_id = $1', [billing.id]);
    expect(await t.api.get('/api/admin/payments', { token: billing.token })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    await grantRoles(t, billing.id, ['vps']);
    expect((await t.api.get('/api/admin/vps/rates', { token: billing.token })).status).toBe(200);
    expect((await t.api.get('/api/admin/payments', { token: billing.token })).status).toBe(403);
  });

  it('tells the signed-in user their operator roles; role stays admin for any operator', async () => {
    const customer = await quickUser(t);
    expect((await t.api.get('/api/user/auth', { token: customer.token })).body).toMatchObject({
      role: 'user',
      operator_roles: [],
    });
    const both = await operator(t, ['billing', 'support']);
    expect((await t.api.get('/api/user/auth', { token: both.token })).body).toMatchObject({
      role: 'admin',
      operator_roles: ['support', 'billing'],
    });
    const { rows } = await t.sql.query('select role from users where id = $1', [both.id]);
    expect(rows[0].role).toBe('admin');
  });
});

describe('the second factor of operators', () => {
  it('is required before any operator call: 403 OPERATOR_SECOND_FACTOR_REQUIRED until one is on', async () => {
    const bare = await quickUser(t);
    await grantRoles(t, bare.id, ['admin']);
    for (const route of Object.keys(PERMISSIONS)) {
      const res = await call(t, route, bare);
      expect(res, route).toMatchObject({
        status: 403,
        body: refusal('OPERATOR_SECOND_FACTOR_REQUIRED'),
      });
    }
    // the rest of the account works as before, and says what the operator holds
    const me = await t.api.get('/api/user/auth', { token: bare.token });
    expect(me.body).toMatchObject({ role: 'admin', operator_roles: ['admin'] });
    await turnOnTotp(t, bare.token);
    expect((await t.api.get('/api/admin/audit', { token: bare.token })).status).toBe(200);
  });

  it('writes an operator’s sign-ins and step-ups to the operator audit; a customer’s stay in their own log', async () => {
    const user = await signIn(t);
    const { rows } = await t.sql.query('select id::int from users where email = $1', [user.email]);
    const id = rows[0].id as number;
    const operatorAudit = async () =>
      (
        await t.sql.query(
          `select action, subject_type, subject_id, details from audit_log
            where actor_id = $1 order by id`,
          [id],
        )
      ).rows;
    // a customer's sign-in (signIn above) is not an operator's
    expect(await operatorAudit()).toEqual([]);
    await grantRoles(t, id, ['support']);
    const secret = await turnOnTotp(t, user.token);
    // the sign-in: the password, then the app's code (the next step: the enrolment used this one)
    const browser = t.client();
    const half = await browser.post('/api/user/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(half.status).toBe(200);
    const done = await browser.post('/api/user/auth/second-factor', {
      token: half.body.second_factor.token,
      code: await totpCode(secret, new Date(t.clock.now().getTime() + 30_000)),
    });
    expect(done.status, done.text).toBe(200);
    const token = done.body.token as string;
    t.clock.advance(30_000);
    try {
      const stepUp = await browser.post(
        '/api/user/auth/step-up',
        { code: await totpCode(secret, new Date(t.clock.now().getTime() + 30_000)) },
        { token, headers: { 'x-requested-with': 'XMLHttpRequest' } },
      );
      expect(stepUp.status, stepUp.text).toBe(200);
    } finally {
      t.clock.advance(-30_000);
    }
    const sessionId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    const audit = await operatorAudit();
    expect(audit.map((row: Json) => [row.action, row.subject_type, row.subject_id])).toEqual([
      ['operator.sign_in', 'session', sessionId],
      ['operator.step_up', 'session', sessionId],
    ]);
    expect(audit[0].details).toMatchObject({ ip: '127.0.0.1' });
    // the operator area's audit shows them
    const admin = await operator(t, ['admin']);
    const page = await t.api.get('/api/admin/audit?per_page=50', { token: admin.token });
    const shown = page.body.data.filter((entry: Json) => entry.actor?.id === id);
    expect(shown.map((entry: Json) => entry.action)).toEqual([
      'operator.step_up',
      'operator.sign_in',
    ]);
  });
});

describe('the operator audit', () => {
  it('is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const admin = await operator(t, ['admin']);
    const user = await quickUser(t);
    const granted = await postKeyed(
      t,
      `/api/admin/operators/${user.id}/roles`,
      { role: 'support' },
      admin,
    );
    expect(granted.status).toBe(200);
    const [row] = (
      await t.sql.query(`select id from audit_log where target_user_id = $1`, [user.id])
    ).rows;
    for (const statement of [
      `update audit_log set action = 'nothing' where id = ${row.id}`,
      `delete from audit_log where id = ${row.id}`,
      'truncate audit_log',
    ])
      await expect(t.sql.query(statement), statement).rejects.toMatchObject({ code: '42501' });
  });
});

describe('granting and revoking roles (admins, under step-up)', () => {
  it('lists the operators: their roles, who granted each, and whether a second factor is on', async () => {
    const admin = await operator(t, ['admin']);
    const bare = await quickUser(t, { name: 'Bare Operator' });
    await grantRoles(t, bare.id, ['vps']);
    const granted = await postKeyed(
      t,
      `/api/admin/operators/${bare.id}/roles`,
      { role: 'support' },
      admin,
    );
    expect(granted.status, granted.text).toBe(200);
    const list = await t.api.get('/api/admin/operators', { token: admin.token });
    expect(list.status).toBe(200);
    const entry = list.body.data.find((o: Json) => o.user.id === bare.id);
    expect(entry).toEqual({
      user: { id: bare.id, email: bare.email, name: 'Bare Operator' },
      roles: [
        {
          role: 'support',
          granted_by: { id: admin.id, email: admin.email, name: admin.name },
          granted_at: expect.any(String),
        },
        { role: 'vps', granted_by: null, granted_at: expect.any(String) },
      ],
      second_factor: false,
    });
    expect(list.body.data.find((o: Json) => o.user.id === admin.id)).toMatchObject({
      roles: [{ role: 'admin' }],
      second_factor: true,
    });
  });

  it('grants a role under step-up, audited with who; it works at once, and a second grant changes nothing', async () => {
    const admin = await operator(t, ['admin']);
    const user = await quickUser(t);
    const grant = () =>
      t.api.post(
        `/api/admin/operators/${user.id}/roles`,
        { role: 'billing' },
        { token: admin.token },
      );
    // a sign-in that proved its owner more than 5 minutes ago must prove it again
    t.clock.advance(6 * 60_000);
    try {
      expect(await grant()).toMatchObject({ status: 403, body: { code: 'STEP_UP_REQUIRED' } });
      expect(await auditOf(t, 'operator.grant', user.id)).toEqual([]);
      const stepUp = await t.api.post(
        '/api/user/auth/step-up',
        { code: await totpCode(admin.totpSecret, new Date(t.clock.now().getTime() + 30_000)) },
        { token: admin.token, headers: { 'x-requested-with': 'XMLHttpRequest' } },
      );
      expect(stepUp.status, stepUp.text).toBe(200);
      const granted = await grant();
      expect(granted.status, granted.text).toBe(200);
      expect(granted.body.operator).toMatchObject({
        user: { id: user.id },
        roles: [{ role: 'billing', granted_by: { id: admin.id } }],
        second_factor: false,
      });
      expect((await grant()).status).toBe(200);
    } finally {
      t.clock.advance(-6 * 60_000);
    }
    expect(await auditOf(t, 'operator.grant', user.id)).toEqual([
      { actor: admin.id, details: { role: 'billing' } },
    ]);
    // the role is theirs at once: once a second factor is on, the billing routes open
    await turnOnTotp(t, user.token);
    expect((await t.api.get('/api/admin/payments', { token: user.token })).status).toBe(200);
    expect((await t.api.get('/api/user/auth', { token: user.token })).body.operator_roles).toEqual([
      'billing',
    ]);
  });

  it('revokes under step-up, audited; the role stops at once', async () => {
    const admin = await operator(t, ['admin']);
    const support = await operator(t, ['support', 'vps']);
    const revoked = await t.api.request(
      'DELETE',
      `/api/admin/operators/${support.id}/roles/support`,
      { token: admin.token },
    );
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.operator.roles.map((r: Json) => r.role)).toEqual(['vps']);
    expect(await t.api.get('/api/admin/support/queues', { token: support.token })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await auditOf(t, 'operator.revoke', support.id)).toEqual([
      { actor: admin.id, details: { role: 'support' } },
    ]);
    // revoking what is not held changes nothing
    const again = await t.api.request(
      'DELETE',
      `/api/admin/operators/${support.id}/roles/support`,
      { token: admin.token },
    );
    expect(again.status).toBe(200);
    expect(await auditOf(t, 'operator.revoke', support.id)).toHaveLength(1);
  });

  it('is for admins only, and refuses an unknown role (422, 404 in a path) and an unknown user (404)', async () => {
    const admin = await operator(t, ['admin']);
    const billing = await operator(t, ['billing', 'support', 'vps', 'monitoring']);
    const user = await quickUser(t);
    const path = `/api/admin/operators/${user.id}/roles`;
    expect(await t.api.post(path, { role: 'admin' }, { token: billing.token })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await t.api.post(path, { role: 'root' }, { token: admin.token })).toMatchObject({
      status: 422,
      body: { code: 'OPERATOR_ROLE_INVALID' },
    });
    // in a path, an unknown role names nothing there is: 404, as an unknown id
    expect(await t.api.request('DELETE', `${path}/root`, { token: admin.token })).toMatchObject({
      status: 404,
      body: refusal('NOT_FOUND'),
    });
    expect(
      await t.api.post(
        '/api/admin/operators/999999999/roles',
        { role: 'vps' },
        { token: admin.token },
      ),
    ).toMatchObject({ status: 404, body: refusal('NOT_FOUND') });
    const { rows } = await t.sql.query(
      'select count(*)::int as n from operator_roles where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('the last admin', () => {
  const solo = useTestApp();

  it('stays: an admin cannot revoke the last admin role, their own', async () => {
    const admin = await operator(solo, ['admin', 'billing']);
    const res = await solo.api.request('DELETE', `/api/admin/operators/${admin.id}/roles/admin`, {
      token: admin.token,
    });
    expect(res).toMatchObject({ status: 409, body: refusal('OPERATOR_LAST_ADMIN') });
    expect((await solo.api.get('/api/admin/operators', { token: admin.token })).status).toBe(200);
    // their other roles are theirs to give up
    const billing = await solo.api.request(
      'DELETE',
      `/api/admin/operators/${admin.id}/roles/billing`,
      { token: admin.token },
    );
    expect(billing.body.operator.roles.map((r: Json) => r.role)).toEqual(['admin']);
  });

  it('stays when two admins revoke each other at the same moment', async () => {
    const [a, b] = [await operator(solo, ['admin']), await operator(solo, ['admin'])];
    await solo.sql.query(
      `delete from operator_roles where role = 'admin' and user_id not in ($1, $2)`,
      [a.id, b.id],
    );
    const answers = await Promise.all([
      solo.api.request('DELETE', `/api/admin/operators/${b.id}/roles/admin`, { token: a.token }),
      solo.api.request('DELETE', `/api/admin/operators/${a.id}/roles/admin`, { token: b.token }),
    ]);
    const statuses = answers.map((res) => res.status).sort();
    // the second waits for the first's lock, then either meets the last admin (409) or, having
    // lost its own role meanwhile, is no longer let in (403)
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const { rows } = await solo.sql.query(
      `select count(*)::int as n from operator_roles where role = 'admin'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('stays through the command line too', async () => {
    const { rows } = await solo.sql.query(
      `select u.email from operator_roles r join users u on u.id = r.user_id where r.role = 'admin'`,
    );
    expect(rows).toHaveLength(1);
    const refused = await admin(solo, ['revoke', rows[0].email, 'admin']).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Keep at least one admin');
    const left = await solo.sql.query(
      `select count(*)::int as n from operator_roles where role = 'admin'`,
    );
    expect(left.rows[0].n).toBe(1);
  }, 60_000);
});

describe('npm run admin', () => {
  it('grants, lists and revokes roles, each audited as done by the command line; create grants admin', async () => {
    const user = await quickUser(t);
    const granted = await admin(t, ['grant', user.email, 'vps']);
    expect(granted.stdout).toContain(`${user.email} (id ${user.id}) holds: vps.`);
    expect(granted.stdout).toContain('need a second factor');
    const created = await admin(t, ['create', user.email.toUpperCase()]);
    expect(created.stdout).toContain(`${user.email} (id ${user.id}) is now an admin.`);
    const listed = await admin(t, ['list']);
    expect(listed.stdout).toContain(
      `${user.email} (id ${user.id}): vps, admin (no second factor yet`,
    );
    const revoked = await admin(t, ['revoke', user.email, 'vps']);
    expect(revoked.stdout).toContain('holds: admin.');
    expect(await auditOf(t, 'operator.grant', user.id)).toEqual([
      { actor: null, details: { role: 'vps', by: 'cli' } },
      { actor: null, details: { role: 'admin', by: 'cli' } },
    ]);
    expect(await auditOf(t, 'operator.revoke', user.id)).toEqual([
      { actor: null, details: { role: 'vps', by: 'cli' } },
    ]);
    const { rows } = await t.sql.query(
      'select role, granted_by from operator_roles where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([{ role: 'admin', granted_by: null }]);
  }, 60_000);

  it('refuses an unknown e-mail and an unknown role, with what to do', async () => {
    const unknown = await admin(t, ['grant', 'nobody@example.com', 'vps']).catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Sign up first');
    const role = await admin(t, ['grant', 'nobody@example.com', 'root']).catch((e) => e);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('roles: support, billing, vps, monitoring, admin');
  }, 60_000);
});

/** Nothing changes for a refused self-action: the rows it would have touched. */
async function stateOf(userId: number) {
  const { rows } = await t.sql.query(
    `select (select balance_cents from users where id = $1) as balance,
            (select balance_partner_cents from users where id = $1) as partner,
            (select jsonb_agg(status order by id) from payments where user_id = $1) as payments,
            (select jsonb_agg(status order by id) from withdrawals where user_id = $1) as withdrawals,
            (select jsonb_agg(status order by id) from vps_test_requests where user_id = $1) as tests,
            (select jsonb_agg(o.status order by o.id) from vps_operations o
               join vps_servers s on s.id = o.server_id where s.user_id = $1) as operations,
            (select jsonb_agg(ends_at order by id) from monitoring_subscriptions where user_id = $1) as subscriptions,
            (select count(*)::int from audit_log where target_user_id = $1) as audit`,
    [userId],
  );
  return rows[0];
}

describe('no operator acts on their own account', () => {
  const txid = () => `${randomUUID()}${randomUUID()}`.replaceAll('-', '');

  it('refuses billing its own crypto payment, balance correction and partner withdrawal; another operator may', async () => {
    const own = await operator(t, ['billing']);
    const other = await operator(t, ['billing']);
    // a crypto payment of theirs under review (made as the report of one leaves it)
    const { rows } = await t.sql.query(
      `insert into payments (user_id, method, amount_cents, status, network, wallet, txid)
       values ($1, 'crypto', 5000, 'under_review', 'USDT-TRC20', 'TPayerWallet01', $2)
       returning id::int`,
      [own.id, txid()],
    );
    const payment = rows[0].id as number;
    await fund(t, own.id, 5_000, 'balance_partner');
    const requested = await postKeyed(
      t,
      '/api/user/partner/createwithdrawal',
      { method: 'PAYEER', wallet: 'P1000000', amount: '20' },
      own,
    );
    expect(requested.status, requested.text).toBe(201);
    const withdrawal = requested.body.withdrawal.id as number;
    const before = await stateOf(own.id);
    for (const [path, body] of [
      [`/api/admin/payments/${payment}/confirm`, undefined],
      [`/api/admin/payments/${payment}/reject`, { reason: 'Mine' }],
      [`/api/admin/users/${own.id}/adjustments`, { amount: '1000', reason: 'A raise' }],
      [
        `/api/admin/users/${own.id}/adjustments`,
        { account: 'balance_partner', amount: '-10', reason: 'x' },
      ],
      [`/api/admin/partner/withdrawals/${withdrawal}/review`, undefined],
      [`/api/admin/partner/withdrawals/${withdrawal}/pay`, { reference: 'PAID-1' }],
      [`/api/admin/partner/withdrawals/${withdrawal}/reject`, { reason: 'Mine' }],
    ] as const) {
      const res = await postKeyed(t, path, body, own);
      expect(res, path).toMatchObject({ status: 403, body: SELF });
    }
    expect(SELF.message).toBe('Operators cannot act on their own account');
    expect(await stateOf(own.id)).toEqual(before);
    // four eyes: another operator does it
    expect(
      (await postKeyed(t, `/api/admin/payments/${payment}/confirm`, undefined, other)).status,
    ).toBe(200);
    expect(
      (
        await postKeyed(
          t,
          `/api/admin/users/${own.id}/adjustments`,
          { amount: '5', reason: 'Bonus' },
          other,
        )
      ).status,
    ).toBe(201);
    expect(
      (await postKeyed(t, `/api/admin/partner/withdrawals/${withdrawal}/review`, undefined, other))
        .status,
    ).toBe(200);
  });

  it('refuses vps its own test server and its own server’s operations (a refund); another operator may', async () => {
    const own = await operator(t, ['vps']);
    const other = await operator(t, ['vps']);
    const test = await t.api.post(
      '/api/user/vps/test-server',
      { source: 'search' },
      { token: own.token },
    );
    expect(test.status, test.text).toBe(201);
    const request = test.body.test_request.id as number;
    await fund(t, own.id, 100_000);
    const { server } = await paidOrder(t, own);
    const { rows } = await t.sql.query('select id::int from vps_operations where server_id = $1', [
      server.id,
    ]);
    const operation = rows[0].id as number;
    const before = await stateOf(own.id);
    for (const [path, body] of [
      [`/api/admin/vps/test-requests/${request}/approve`, undefined],
      [`/api/admin/vps/test-requests/${request}/reject`, { reason: 'Mine' }],
      [`/api/admin/vps/operations/${operation}/retry`, undefined],
      [`/api/admin/vps/operations/${operation}/fail`, { reason: 'Refund me' }],
    ] as const) {
      const res = await postKeyed(t, path, body, own);
      expect(res, path).toMatchObject({ status: 403, body: SELF });
    }
    expect(await stateOf(own.id)).toEqual(before);
    const failed = await postKeyed(
      t,
      `/api/admin/vps/operations/${operation}/fail`,
      { reason: 'Stuck' },
      other,
    );
    expect(failed.status, failed.text).toBe(200);
    const approved = await postKeyed(
      t,
      `/api/admin/vps/test-requests/${request}/approve`,
      undefined,
      other,
    );
    expect(approved.status, approved.text).toBe(200);
  });

  it('refuses monitoring the extension of its own subscription, and admin its own anything', async () => {
    const own = await operator(t, ['monitoring', 'admin']);
    const subscription = await paidSubscription(t, own);
    const before = await stateOf(own.id);
    const extend = await postKeyed(
      t,
      `/api/admin/monitoring/subscriptions/${subscription.id}/extend`,
      { months: 3, reason: 'Mine' },
      own,
    );
    expect(extend).toMatchObject({ status: 403, body: SELF });
    const adjust = await postKeyed(
      t,
      `/api/admin/users/${own.id}/adjustments`,
      { amount: '5', reason: 'x' },
      own,
    );
    expect(adjust).toMatchObject({ status: 403, body: SELF });
    expect(await stateOf(own.id)).toEqual(before);
  });
});
