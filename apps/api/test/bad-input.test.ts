import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { referrals } from '../src/db/referrals.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { hashPassword } from '../src/lib/password.ts';
import {
  fund,
  PASSWORD,
  postKeyed,
  quickUser,
  routeTable,
  uniqueEmail,
  useTestApp,
  type Json,
} from './helpers.ts';
import { paidSubscription } from './monitoring-fixtures.ts';
import { DAY, paidOrder, seedServer } from './vps-fixtures.ts';

/**
 * Every operation of the OpenAPI document, fed generated bad input with no token, a user's, an
 * admin's (an operator of every role) and an activation key (the publisher's), the operator area
 * also with an operator of each other role: none may answer 5xx. The operations come
 * from /api/docs/json, so a route is covered the day it is added. Each input starts from a valid request (built from the operation's own
 * schema) with one part spoiled, so that the spoiled part reaches as deep as it can: a NUL or a
 * lone surrogate in every text, numbers past what a column holds in every number and id, each
 * query and path parameter, bodies nested 10,000 deep, a body where none is taken.
 *
 * Deterministic: every operation gets the same must-have cases and a seeded sample of the rest
 * (BAD_INPUT_SEED=<n> explores another sample; a failure names the seed).
 */

const SEED = Number(process.env.BAD_INPUT_SEED ?? 20_261_123);
const SAMPLED_PER_OPERATION = 24;
/** How many cases of each operator operation an operator of each other role sends too. */
const ROLE_CASES = 8;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI's JSON Schema, read field by field
type Schema = any;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}

interface Operation {
  method: string;
  /** The OpenAPI path, with {name} placeholders. */
  path: string;
  parameters: Parameter[];
  body: Schema | undefined;
}

/** One request: path and query values as they go on the URL (already encoded), and the body text. */
interface Case {
  what: string;
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** JSON text, or undefined for no body. */
  body: string | undefined;
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const BAD_NUMBERS = [2_147_483_648, 9_007_199_254_740_991, 9_007_199_254_740_992, 1e308];
const MORE_BAD_VALUES: unknown[] = [
  '\u0000',
  '\udfff',
  '',
  ' ',
  'x'.repeat(5000),
  '🙂🙂🙂',
  '\u202egnp.exe',
  "' or 1=1 --",
  '../../etc/passwd',
  '1e400',
  'NaN',
  '-0',
  '2147483648',
  '9007199254740993',
  0,
  -1,
  1.5,
  -1e308,
  1e21,
  null,
  true,
  [],
  {},
  [[['deep']]],
  { a: { b: 'c' } },
];
/** Path and query values, as they appear on the URL. */
const BAD_URL_VALUES = [
  '%00',
  'a%00b',
  '%ED%A0%80', // a lone surrogate in UTF-8 form: not valid UTF-8
  '2147483648',
  '9007199254740991',
  '9007199254740992',
  '99999999999999999999999',
  '1e308',
];
const MORE_BAD_URL_VALUES = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  'abc',
  '%20',
  '',
  '%F0%9F%99%82',
  'x'.repeat(3000),
  '..%2F..%2Fetc',
  'null',
];
const DEEP = 10_000;
const WHOLE_BODIES = [
  '['.repeat(DEEP) + ']'.repeat(DEEP),
  '{"a":'.repeat(DEEP) + '1' + '}'.repeat(DEEP),
  '[]',
  '"text"',
  '1',
  'null',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"\\u0000":1}',
  '{"\\ud800":1}',
];

/** A valid value of `schema`, as far as a schema can say (`name` helps with what it cannot). */
function validValue(schema: Schema, name: string, context: Context): unknown {
  if (schema.anyOf) return validValue(schema.anyOf[0], name, context);
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined && schema.type !== 'object') return schema.default;
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {}))
        value[key] = validValue(property, key, context);
      return value;
    }
    case 'array':
      return [validValue(schema.items ?? {}, name, context)];
    case 'integer':
    case 'number':
      return context.numbers[name] ?? schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return (
        context.strings[name] ??
        patternExample(schema) ??
        'walker'.padEnd(schema.minLength ?? 0, 'x')
      );
    default:
      return 'walker';
  }
}

/** Values for the patterns the contracts use; a new pattern without one gets a plain word. */
function patternExample(schema: Schema): string | undefined {
  if (schema.format === 'date-time') return new Date().toISOString();
  const examples: Record<string, string> = {
    '^\\d{6}$': '123456',
    '^[A-Za-z0-9_-]{3,32}$': 'WALKER1',
    '^[A-Za-z0-9:_-]{16,128}$': 'walker-wallet-0000000001',
    '^[A-Za-z0-9_-]{16,128}$': 'walker-txid-00000000001',
    '^\\d{4}-\\d{2}-\\d{2}$': new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    '^[A-Za-z0-9_-]{1,40}$': 'tpl-walker',
    '^[a-z]{2,20}$': 'sandbox',
    '^\\d*$': '1',
  };
  return schema.pattern ? examples[schema.pattern] : undefined;
}

interface Context {
  /** Valid values by field name, where the schema alone cannot give one (an e-mail, an amount). */
  strings: Record<string, string>;
  numbers: Record<string, number>;
  /** An existing id for a path's {id}, by the segment before it (servers, payments, ...). */
  ids: Record<string, number>;
}

/** The trading account the walk's activation key reports. */
const MONITORED_LOGIN = 4242;

/** Replaced by a fresh address in each request: sign-up needs an unused one. */
const UNUSED_EMAIL = 'unused-email-placeholder@example.com';

/** Every leaf of `value` (object fields and array items), as paths. */
function leaves(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, [...at, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, [...at, key]));
  return at.length > 0 ? [at] : [];
}

function replaced(value: unknown, at: Array<string | number>, by: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of at.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[at.at(-1)!] = by;
  return copy;
}

function cases(operation: Operation, shared: Context, random: () => number): Case[] {
  const pathValues: Record<string, string> = {};
  const queryValues: Record<string, string> = {};
  const owner = /\/([\w-]+)\/\{id\}/.exec(operation.path)?.[1];
  const context: Context = {
    ...shared,
    strings: operation.path.endsWith('/auth/create')
      ? { ...shared.strings, email: UNUSED_EMAIL }
      : operation.path.endsWith('/partner/createwithdrawal')
        ? { ...shared.strings, method: 'PAYEER', wallet: 'P1000000' }
        : shared.strings,
    numbers: { ...shared.numbers, id: (owner && shared.ids[owner]) || 1 },
  };
  for (const parameter of operation.parameters) {
    const value = String(validValue(parameter.schema, parameter.name, context));
    if (parameter.in === 'path') pathValues[parameter.name] = encodeURIComponent(value);
    if (parameter.in === 'query') queryValues[parameter.name] = encodeURIComponent(value);
  }
  const body = operation.body ? validValue(operation.body, '', context) : undefined;
  const bodyText = body === undefined ? undefined : JSON.stringify(body);
  const base = (what: string): Case => ({
    what,
    path: { ...pathValues },
    query: { ...queryValues },
    headers: {},
    body: bodyText,
  });

  const must: Case[] = [base('valid')];
  const more: Case[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header') {
      for (const value of ['', ' ', 'x'.repeat(1000), 'not-a-uuid', '0'.repeat(36)])
        more.push({
          ...base(`header ${parameter.name}=${value.slice(0, 20)}`),
          headers: { [parameter.name]: value },
        });
      continue;
    }
    const where = parameter.in === 'path' ? 'path' : 'query';
    for (const [list, values] of [
      [must, BAD_URL_VALUES],
      [more, MORE_BAD_URL_VALUES],
    ] as const) {
      for (const value of values) {
        const c = base(`${where} ${parameter.name}=${value.slice(0, 30)}`);
        c[where][parameter.name] = value;
        list.push(c);
      }
    }
    if (parameter.in === 'query') {
      const c = base(`query ${parameter.name} twice`);
      c.query[parameter.name] = `${c.query[parameter.name]}&${parameter.name}=1`;
      more.push(c);
    }
  }
  if (body !== undefined) {
    for (const at of leaves(body)) {
      const field = at.join('.');
      const isNumber = typeof at.reduce<Json>((node, step) => node[step], body) === 'number';
      for (const value of [NUL, LONE_SURROGATE, ...(isNumber ? BAD_NUMBERS : [])])
        must.push({
          ...base(`body ${field}=${JSON.stringify(value)}`),
          body: JSON.stringify(replaced(body, at, value)),
        });
      for (const value of [...BAD_NUMBERS, ...MORE_BAD_VALUES])
        more.push({
          ...base(`body ${field}=${JSON.stringify(value).slice(0, 30)}`),
          body: JSON.stringify(replaced(body, at, value)),
        });
      const without = structuredClone(body) as Json;
      let node = without;
      for (const step of at.slice(0, -1)) node = node[step];
      delete node[at.at(-1)!];
      more.push({ ...base(`body without ${field}`), body: JSON.stringify(without) });
    }
    must.push({
      ...base('body with an unknown field holding a NUL'),
      body: JSON.stringify({ ...(body as object), unknown: NUL }),
    });
  }
  // fetch sends no body with a GET
  if (operation.method !== 'GET') {
    for (const text of WHOLE_BODIES)
      must.push({ ...base(`body ${text.slice(0, 24)}`), body: text });
    if (body === undefined) must.push({ ...base('a body where none is taken'), body: '{"a":1}' });
  }

  // a seeded sample of the rest
  for (let i = more.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [more[i], more[j]] = [more[j]!, more[i]!];
  }
  return [...must, ...more.slice(0, SAMPLED_PER_OPERATION)];
}

function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []) as Parameter[],
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

const t = useTestApp();

/** The operations whose valid request needs a one-time secret (see the walk's floor). */
const NEEDS_A_SECRET =
  /^(POST \/api\/user\/auth\/(second-factor|second-factor\/passkey-options|step-up|step-up\/passkey-options)|POST \/api\/user\/factors\/(totp\/confirm|totp\/disable|recovery-codes|passkeys|passkeys\/\{id\}\/remove)|PATCH \/api\/user\/factors\/passkeys\/\{id\})$/;

describe('bad input to every operation of the OpenAPI document', () => {
  let operations: Operation[] = [];
  let hidden: string[] = [];
  let context: Context;
  let tokens: Array<[who: string, token: string | undefined]> = [];
  /** The operator area is walked again by an operator of each other role (their refusals too). */
  let roleTokens: Array<[who: string, token: string]> = [];

  beforeAll(async () => {
    const user = await quickUser(t);
    const recipient = await quickUser(t);
    const operator = await quickUser(t, { role: 'admin' });
    // a real password, for the password change; an avatar (another user's: the walk removes the
    // user's own) for GET /user/avatar/{file}
    await t.sql.query('update users set password_hash = $1 where id = any($2)', [
      await hashPassword(PASSWORD),
      [user.id, operator.id],
    ]);
    const avatar = new FormData();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    avatar.append('file', new Blob([png], { type: 'image/png' }), 'a.png');
    const uploaded = await fetch(`${t.url}/api/user/avatar`, {
      method: 'POST',
      headers: { authorization: `Bearer ${recipient.token}` },
      body: avatar,
    });
    expect(uploaded.status).toBe(200);
    const avatarFile = String(((await uploaded.json()) as Json).photo_path)
      .split('/')
      .pop()!;
    await fund(t, user.id, 100_000);
    // an order (its server being created: jobs are off here), and a server that runs
    await paidOrder(t, user);
    const server = await seedServer(t, {
      userId: user.id,
      paidUntil: new Date(Date.now() + 20 * DAY),
    });
    // a crypto top-up reported (the operator's queue), and one still open (the report's id)
    const requested = await postKeyed(
      t,
      '/api/user/balance/crypto-request',
      { network: 'USDT-TRC20', amount: '50' },
      user,
    );
    const crypto = await postKeyed(
      t,
      '/api/user/balance/crypto',
      {
        payment_id: requested.body.payment.id,
        wallet: 'walker-wallet-0000000001',
        txid: 'walker-txid-00000000001',
      },
      user,
    );
    const openCrypto = await postKeyed(
      t,
      '/api/user/balance/crypto-request',
      { network: 'USDT-TRC20', amount: '60' },
      user,
    );
    const testRequest = await t.api.post(
      '/api/user/vps/test-server',
      { source: 'search' },
      {
        token: recipient.token,
      },
    );
    const promocode = await t.api.post(
      '/api/admin/vps/promocodes',
      { code: 'WALKER1', discount_percent: 10 },
      {
        token: operator.token,
      },
    );
    // the user as a partner: a referral (the network's parent) and a partner balance to withdraw;
    // another partner's open withdrawal for the operator's queue
    const referral = await quickUser(t);
    await inTransaction(t.app.db, (tx) => referrals.attach(tx, referral.id, user.id));
    await fund(t, user.id, 100_000, 'balance_partner');
    const otherPartner = await quickUser(t);
    await fund(t, otherPartner.id, 5_000, 'balance_partner');
    const withdrawal = await postKeyed(
      t,
      '/api/user/partner/createwithdrawal',
      { method: 'PAYEER', wallet: 'P1000000', amount: '20' },
      otherPartner,
    );
    for (const res of [requested, crypto, openCrypto, testRequest, promocode, withdrawal])
      expect(res.status, res.text).toBe(201);
    const id = async (sql: string) => Number((await t.sql.query<{ id: string }>(sql)).rows[0]!.id);
    const rate = await id('select min(id) as id from vps_rates');
    const { rows } = await t.sql.query<{ code: string }>(
      'select referral_code as code from users where id = $1',
      [operator.id],
    );
    const referralCode = rows[0]!.code;
    // support: a ticket of the user's with an image (a file and its preview), a canned reply
    const ticketForm = new FormData();
    ticketForm.append(
      'department_id',
      String(await id(`select id from support_departments where code = 'technical'`)),
    );
    ticketForm.append('title', 'Walker');
    ticketForm.append('text', 'The walker’s ticket');
    ticketForm.append('files', new Blob([png], { type: 'image/png' }), 'walk.png');
    const ticket = await fetch(`${t.url}/api/user/support/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: ticketForm,
    });
    expect(ticket.status).toBe(201);
    const canned = await t.api.post(
      '/api/admin/support/canned',
      { title: 'Walker', body_en: 'Walker', body_ru: 'Walker' },
      { token: operator.token },
    );
    expect(canned.status, canned.text).toBe(201);
    context = {
      strings: {
        email: recipient.email,
        password: PASSWORD,
        password_confirmation: PASSWORD,
        current_password: PASSWORD,
        file: avatarFile,
        network: 'USDT-TRC20',
        amount: '150.00',
        monthly_price: '10.00',
        promocode: 'WALKER1',
        partner_code: referralCode,
        referral_code: referralCode,
        from: new Date(Date.now() - 30 * DAY).toISOString(),
        to: new Date().toISOString(),
      },
      numbers: {
        rate_id: rate,
        months: 1,
        login: MONITORED_LOGIN,
        parent_id: referral.id,
        discount: 5,
        operator_ids: operator.id,
        payment_id: openCrypto.body.payment.id,
      },
      ids: {
        withdrawals: withdrawal.body.withdrawal.id,
        servers: server.id,
        payments: crypto.body.payment.id,
        users: user.id,
        rates: rate,
        promocodes: await id('select max(id) as id from promocodes'),
        'test-requests': await id('select max(id) as id from vps_test_requests'),
        operations: await id('select max(id) as id from vps_operations'),
        tickets: ((await ticket.json()) as Json).ticket.id,
        attachments: await id('select max(id) as id from support_attachments'),
        canned: canned.body.reply.id,
        departments: await id('select min(id) as id from support_departments'),
      },
    };
    for (const [name, value] of Object.entries(context.ids))
      expect(Number.isInteger(value), `an id for ${name}`).toBe(true);
    // the publisher's credential: the operator's free plan, with the account it reports
    const free = await t.api.post('/api/user/monitoring/subscriptions/free', undefined, {
      token: operator.token,
    });
    const plan = free.body.subscription.id as number;
    const monitored = await t.api.post(
      '/api/user/monitoring/accounts',
      {
        subscription_id: plan,
        login: MONITORED_LOGIN,
        platform: 'MT5',
        name: 'Walk',
        email: 'w@example.com',
      },
      { token: operator.token },
    );
    expect(monitored.status, monitored.text).toBe(201);
    // a paid subscription of the operator's too: its extension, enlargement and keys (by the user
    // routes and the operator's) take the valid request; the free plan would refuse them
    context.ids.subscriptions = (await paidSubscription(t, operator)).id as number;
    context.ids.accounts = monitored.body.account.id as number;
    const activation = await t.api.post(
      `/api/user/monitoring/subscriptions/${plan}/key`,
      undefined,
      {
        token: operator.token,
      },
    );
    tokens = [
      ['no token', undefined],
      ['user', user.token],
      ['operator', operator.token],
      ['activation key', activation.body.key],
    ];
    roleTokens = await Promise.all(
      (['support', 'billing', 'vps', 'monitoring'] as const).map(
        async (role): Promise<[string, string]> => [
          `${role} operator`,
          (await quickUser(t, { roles: [role] })).token,
        ],
      ),
    );
    const document = await t.api.get('/api/docs/json');
    expect(document.status).toBe(200);
    // the calls that end the walker's own sign-in go last: signing out, and step-up, whose fifth
    // wrong proof in a row ends the sign-in; before them every operation meets a live session
    const endsSession = (o: { path: string }) =>
      /^\/api\/user\/auth\/(logout|step-up)(\/|$)/.test(o.path);
    operations = operationsOf(document.body).sort(
      (a, b) => Number(endsSession(a)) - Number(endsSession(b)),
    );
    const documented = new Set(operations.map((o) => `${o.method} ${o.path}`));
    hidden = routeTable(t.app.printRoutes({ commonPrefix: false })).filter(
      (route) => !documented.has(route),
    );
    for (const route of hidden) {
      const [method, path] = route.split(' ') as [string, string];
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      operations.push({
        method,
        path,
        parameters: names.map((name) => ({ name, in: 'path', schema: { type: 'string' } })),
        body: undefined,
      });
    }
  });

  it('walks every route of the API, the few the document hides too', () => {
    // the sandbox gateway (not in production) and the docs' own pages
    expect(hidden.length).toBeGreaterThan(0);
    for (const route of hidden) expect(route).toMatch(/^\w+ \/api\/(dev|docs)(\/|$)/);
    expect(operations.length).toBeGreaterThanOrEqual(64 + hidden.length);
  });

  it('answers every generated request with less than 500, and keeps serving', async () => {
    const failures: string[] = [];
    const random = mulberry32(SEED);
    let sent = 0;
    const accepted = new Set<string>();
    for (const operation of operations) {
      const admin = operation.path.startsWith('/api/admin/');
      for (const [index, c] of cases(operation, context, random).entries()) {
        // the other roles: the valid request and the first spoiled ones of the operator area
        const callers = admin && index < ROLE_CASES ? [...tokens, ...roleTokens] : tokens;
        for (const [who, token] of callers) {
          const path = operation.path.replace(
            /\{(\w+)\}/g,
            (_, name: string) => c.path[name] ?? '1',
          );
          const query = Object.entries(c.query)
            .map(([name, value]) => `${name}=${value}`)
            .join('&');
          const headers: Record<string, string> = {
            'idempotency-key': randomUUID(),
            'x-requested-with': 'XMLHttpRequest',
            ...c.headers,
          };
          if (token) headers.authorization = `Bearer ${token}`;
          if (c.body !== undefined) headers['content-type'] = 'application/json';
          const res = await fetch(`${t.url}${path}${query ? `?${query}` : ''}`, {
            method: operation.method,
            headers,
            body: c.body?.replace(UNUSED_EMAIL, uniqueEmail('walker')),
          });
          // a live-updates stream (GET /api/user/events) never ends: its status is the answer
          const streaming = res.headers.get('content-type')?.startsWith('text/event-stream');
          const text = streaming ? (await res.body?.cancel(), '') : await res.text();
          sent += 1;
          if (c.what === 'valid' && res.status < 300)
            accepted.add(`${operation.method} ${operation.path}`);
          if (res.status >= 500)
            failures.push(
              `${operation.method} ${operation.path} (${who}) ${c.what} -> ${res.status} ${text.slice(0, 120)}`,
            );
        }
      }
    }
    console.info(
      `bad input: ${sent} requests to ${operations.length} operations (seed ${SEED}); ` +
        `the valid request of ${accepted.size} was taken`,
    );
    expect(failures, `seed ${SEED}`).toEqual([]);
    // the spoiled requests reach as deep as the valid ones: most of those must be taken (95 of
    // 135 now), or the walk only tests validation
    // (not counted: the second factor's and step-up's calls, whose valid request needs a secret no
    // generated body can hold: an authenticator's current code, a passkey's signature over our
    // challenge, a half-session's token; each is taken in factors, second-factor-sign-in and
    // step-up tests)
    const needsSecret = operations.filter((o) => NEEDS_A_SECRET.test(`${o.method} ${o.path}`));
    expect(needsSecret.length).toBe(10);
    expect(accepted.size).toBeGreaterThanOrEqual(
      Math.floor((operations.length - needsSecret.length) * 0.7),
    );
    expect((await t.api.get('/api/front/permissions')).status).toBe(200);
    // ~25,000 requests: about a minute alone on a quiet machine; the suite runs two files at a
    // time on two cores, and a busy machine is slower still
  }, 420_000);
});
