import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_FIELDS,
  SANDBOX_WEBHOOK_PATH,
  sandboxSignature,
  type NotificationFields,
} from '../src/integrations/payments/sandbox.ts';
import type { Redis } from '../src/lib/redis.ts';
import { openEventStream, type Stream } from './event-stream.ts';
import {
  ApiClient,
  balancesOf,
  createVerifiedUser,
  fund,
  ledgerInvariants,
  PASSWORD,
  quickUser,
  refusal,
  startTestApp,
  uniqueEmail,
  XHR,
  type Json,
  type TestApp,
} from './helpers.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';
import {
  cleanUpRedis,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  warnWithoutRedis,
} from './test-redis.ts';
import { consoleSocketUrl, dialConsole, openRelayedConsole } from './rfb-viewer.ts';
import {
  DAY,
  expectStatus,
  operationsOf,
  order,
  postKeyed,
  seedServer,
  serverRow,
} from './vps-fixtures.ts';

/**
 * Issue 14, "more than one instance": two API instances on one PostgreSQL and one Redis, both
 * running their pg-boss jobs, behind a round-robin proxy (round-robin-proxy.ts) that sends each
 * request to the other instance than the one before. The money and VPS journeys go through it and
 * must come out as with one instance: limits counted once, live updates crossing instances,
 * nothing done twice.
 */

warnWithoutRedis('the money and VPS journeys through two instances behind a round-robin proxy');

const AUTH_MAX = 6;
const LOGIN = '/api/user/auth/login';
const ME = '/api/user/auth';
const REFRESH = '/api/user/auth/refresh-token';
const DEPOSIT = '/api/user/balance/deposit';
const TRANSFER = '/api/user/balance/transfer';
const PAYMENT = (id: number) => `/api/user/balance/payments/${id}`;
const SERVER = (id: number) => `/api/user/vps/servers/${id}`;
const ACTION = (id: number, action: string) => `/api/user/vps/servers/${id}/actions/${action}`;
// the proxy reaches the instances from another loopback address than the test's clients use, so
// only an instance reading X-Forwarded-For sees the client's (every 127.x is the loopback on Linux)
const PROXY_PEER = process.platform === 'linux' ? '127.0.0.2' : undefined;

/** A form POST, as a browser or a payment gateway sends one (redirects not followed). */
const sendForm = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds of its answer (or throws after `ms`). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

describe.runIf(TEST_REDIS_URL)('two instances behind a round-robin proxy', () => {
  const prefix = testRedisPrefix();
  let proxy: RoundRobinProxy;
  let a: TestApp;
  let b: TestApp;
  /** What a browser in front of the proxy does: `a`'s database and mail, `api` through the proxy. */
  let front: TestApp;
  let raw: Redis;
  const streams: Stream[] = [];

  const nameOf = (target: string) => (target === a.url ? 'A' : target === b.url ? 'B' : target);
  /** Which instance got each request served from index `since` on (A or B). */
  const targetsSince = (since: number) => proxy.served.slice(since).map((s) => nameOf(s.target));
  const tab = async (baseUrl: string, token: string) => {
    const stream = await openEventStream(baseUrl, token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  };

  beforeAll(async () => {
    raw = await rawRedis();
    // first the proxy: the sandbox gateway sends its notifications through it
    proxy = await startRoundRobinProxy({ localAddress: PROXY_PEER });
    const env = {
      REDIS_URL: TEST_REDIS_URL ?? '',
      REDIS_PREFIX: prefix,
      TRUST_PROXY: '1',
      RATE_LIMIT_AUTH_MAX: String(AUTH_MAX),
      JOBS_ENABLED: 'true',
      PAYMENT_NOTIFY_BASE_URL: proxy.url,
    };
    a = await startTestApp({ env });
    // the second instance on the first one's database, with the same secrets and the same mail
    b = await startTestApp({
      env: { ...env, DATABASE_URL: a.config.databaseUrl ?? '', SMTP_URL: a.smtp.url },
    });
    expect(b.config.jwtSecret).toBe(a.config.jwtSecret);
    expect(b.config.vps.secretKey).toBe(a.config.vps.secretKey);
    expect([a.config.vps.jobs, b.config.vps.jobs]).toEqual([true, true]);
    proxy.targets.push(a.url, b.url);
    front = { ...a, api: new ApiClient(proxy.url), client: () => new ApiClient(proxy.url) };
  }, 30_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await proxy?.close();
    await b?.close();
    await a?.close();
    await cleanUpRedis(raw, prefix);
  }, 30_000);

  it('hands the requests to A and B in turn, each answering', async () => {
    const since = proxy.served.length;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => front.api.get('/api/front/permissions')),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(proxy.countsByTarget(since)).toEqual({ [a.url]: 2, [b.url]: 2 });
  });

  it('keeps a session on either instance: signed up through the proxy, signed in on A, used and refreshed on B', async () => {
    const since = proxy.served.length;
    // the sign-up and its confirmation link, each on another instance
    const { email } = await createVerifiedUser(front);
    expect(new Set(targetsSince(since))).toEqual(new Set(['A', 'B']));

    const onA = a.client();
    const login = await onA.post(LOGIN, { email, password: PASSWORD });
    expectStatus(login, 200);
    const onB = b.client();
    for (const [name, cookie] of onA.cookies) onB.cookies.set(name, cookie);
    expect(await onB.get(ME, { token: login.body.token })).toMatchObject({
      status: 200,
      body: { email },
    });

    const refreshed = await onB.post(REFRESH, undefined, { headers: XHR });
    expectStatus(refreshed, 200);
    expect(onB.cookies.get('th_rt')?.value).not.toBe(onA.cookies.get('th_rt')?.value);
    expect(await onA.get(ME, { token: refreshed.body.token })).toMatchObject({
      status: 200,
      body: { email },
    });
    // the cookie B rotated is spent on A too: its reuse ends the session everywhere
    const reused = await onA.post(REFRESH, undefined, { headers: XHR });
    expect(reused).toMatchObject({ status: 401, body: refusal('SESSION_EXPIRED') });
    expect((await onB.post(REFRESH, undefined, { headers: XHR })).status).toBe(401);
  });

  it('delivers a transfer made on B to a console streaming from A (and from the proxy)', async () => {
    const sender = await quickUser(a);
    const recipient = await quickUser(a);
    await fund(a, sender.id, 5_000);
    const onA = await tab(a.url, recipient.token);
    const throughProxy = await tab(proxy.url, recipient.token);
    const senderOnA = await tab(a.url, sender.token);
    const res = await b.api.post(
      TRANSFER,
      { email: recipient.email, amount: 7 },
      { token: sender.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(res, 201);
    expect(await onA.next('balance')).toEqual({ balance: 7 });
    expect(await throughProxy.next('balance')).toEqual({ balance: 7 });
    expect(await senderOnA.next('balance')).toEqual({ balance: 43 });
  });

  it('tops up through the sandbox gateway once, however its requests and notifications are spread', async () => {
    const user = await quickUser(a);
    const key = randomUUID();
    let since = proxy.served.length;
    const body = { method: 'card', amount: '40.00' };
    const deposit = await postKeyed(front, DEPOSIT, body, user, key);
    expectStatus(deposit, 201);
    const again = await postKeyed(front, DEPOSIT, body, user, key);
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(deposit.body);
    expect(targetsSince(since).sort()).toEqual(['A', 'B']);
    const { payment, checkout } = deposit.body as Json;

    // the payment page and the decision, as the browser sends them, through the proxy
    since = proxy.served.length;
    const fields = checkout.fields as Record<string, string>;
    expect(checkout.http_method).toBe('POST');
    const page = await sendForm(`${proxy.url}${new URL(checkout.url).pathname}`, fields);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('40.00 USD');
    const decided = await sendForm(`${proxy.url}/api/dev/sandbox-gateway/decision`, {
      ...fields,
      decision: 'approve',
    });
    expect(decided.status).toBe(303);
    // the gateway's notification comes back through the proxy
    const paid = await until(
      () => front.api.get(PAYMENT(payment.id), { token: user.token }),
      (res) => res.body.payment?.status === 'paid',
      5_000,
    );
    expect(paid.body.payment).toMatchObject({ id: payment.id, amount: 40, status: 'paid' });
    expect(proxy.served.slice(since).map((s) => s.path)).toContain(SANDBOX_WEBHOOK_PATH);

    // the gateway sends it again, once to each instance: credited once all the same
    const delivery: Record<string, string> = {
      ...fields,
      status: 'paid',
      operation_id: randomUUID(),
    };
    const note = Object.fromEntries(
      NOTIFICATION_FIELDS.map((name) => [name, delivery[name] ?? '']),
    ) as NotificationFields;
    const signed = {
      ...note,
      signature: sandboxSignature(a.config.payments.sandbox.secret, 'notification', note),
    };
    for (const t of [a, b]) {
      const res = await sendForm(`${t.url}${SANDBOX_WEBHOOK_PATH}`, signed);
      expect(res.status).toBe(200);
      expect((await res.text()).trim()).toBe('OK');
    }
    expect(await balancesOf(a, user.id)).toEqual({ balance: 4000, partner: 0 });
    const { rows } = await a.sql.query(
      `select (select count(*)::int from payments where user_id = $1) as payments,
              (select count(*)::int from ledger_entries where user_id = $1) as entries,
              (select count(*)::int from ledger_transactions t join payments p
                 on p.ledger_transaction_id = t.id where p.user_id = $1 and t.kind = 'topup') as topups`,
      [user.id],
    );
    expect(rows[0]).toEqual({ payments: 1, entries: 1, topups: 1 });
  });

  it('moves the money of a transfer once, its Idempotency-Key replayed through the other instance', async () => {
    const sender = await quickUser(a);
    const recipient = await quickUser(a);
    await fund(a, sender.id, 10_000);
    const transfer = (key: string, amount: number) =>
      postKeyed(front, TRANSFER, { email: recipient.email, amount }, sender, key);

    const key = randomUUID();
    const since = proxy.served.length;
    const first = await transfer(key, 12.5);
    expectStatus(first, 201);
    const replay = await transfer(key, 12.5);
    expectStatus(replay, 201);
    expect(new Set(targetsSince(since))).toEqual(new Set(['A', 'B']));
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // the key with another amount is refused on either instance
    for (let i = 0; i < 2; i += 1) {
      expect(await transfer(key, 13)).toMatchObject({
        status: 422,
        body: refusal('IDEMPOTENCY_KEY_REUSED'),
      });
    }

    // six concurrent sends of one key, spread over both: one transfer
    const burst = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => transfer(burst, 10)));
    const statuses = answers.map((r) => r.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    const ids = new Set(answers.filter((r) => r.status === 201).map((r) => r.body.transfer.id));
    expect(ids.size).toBe(1);

    expect(await balancesOf(a, sender.id)).toEqual({ balance: 10_000 - 1250 - 1000, partner: 0 });
    expect(await balancesOf(a, recipient.id)).toEqual({ balance: 2250, partner: 0 });
    const { rows } = await a.sql.query(
      `select count(*)::int as n, sum(amount_cents)::int as cents from transfers where from_user_id = $1`,
      [sender.id],
    );
    expect(rows[0]).toEqual({ n: 2, cents: 2250 });
    expect(await ledgerInvariants(a)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('creates an ordered server once with both instances working jobs, then reboots it once', async () => {
    const user = await quickUser(a);
    await fund(a, user.id, 100_000);
    const owner = await tab(proxy.url, user.token);
    const machinesBefore = await countMachines();

    // the order, and its key sent again through the other instance: one server, one charge
    const key = randomUUID();
    const since = proxy.served.length;
    const first = await order(front, user, {}, key);
    expectStatus(first, 201);
    const again = await order(front, user, {}, key);
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(new Set(targetsSince(since).slice(-2))).toEqual(new Set(['A', 'B']));
    const { server } = first.body as Json;
    const createId = server.operation.id as number;

    // pg-boss hands the create to one worker of one instance; the console hears it end
    expect(await owner.next('server', 20_000)).toEqual({
      id: server.id,
      status: 'active',
      power: 'running',
      operation: { kind: 'create', ok: true },
    });
    const ready = await front.api.get(SERVER(server.id), { token: user.token });
    expect(ready.body.server).toMatchObject({
      status: 'active',
      has_credentials: true,
      operation: null,
      last_operation: { id: createId, kind: 'create', status: 'succeeded' },
    });
    expect(await countMachines()).toBe(machinesBefore + 1);
    const row = await serverRow(a, server.id);
    expect(row.machine_id).not.toBeNull();
    const { rows: made } = await a.sql.query(
      `select (select count(*)::int from vps_servers where user_id = $1) as servers,
              (select count(*)::int from charges where user_id = $1) as charges`,
      [user.id],
    );
    expect(made[0]).toEqual({ servers: 1, charges: 1 });

    // two reboots at once, one to each instance: one taken, one refused
    const reboots = await Promise.all(
      [0, 1].map(() => postKeyed(front, ACTION(server.id, 'reboot'), undefined, user, null)),
    );
    expect(reboots.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(reboots.find((r) => r.status === 409)!.body).toEqual(refusal('OPERATION_IN_PROGRESS'));
    const rebootId = reboots.find((r) => r.status === 202)!.body.operation.id as number;
    await until(
      () => operationsOf(a, server.id),
      (ops) => ops.every((op) => op.status === 'succeeded'),
    );
    const operations = await operationsOf(a, server.id);
    expect(operations.map((op) => [Number(op.id), op.kind, op.status])).toEqual([
      [createId, 'create', 'succeeded'],
      [rebootId, 'reboot', 'succeeded'],
    ]);
    expect(await countMachines()).toBe(machinesBefore + 1);
    // each operation was one pg-boss job, worked once
    for (const id of [createId, rebootId]) expect(await jobsOf(id)).toEqual(['completed']);
    expect(await ledgerInvariants(a)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it(`counts the per-IP limit of a sign-in route once for both: request ${AUTH_MAX + 1} gets 429`, async () => {
    // a new unknown e-mail each time: one e-mail would meet its own limit (sign-in-guard.ts,
    // shared by the instances through Redis) before the address's
    const ghost = () => ({ email: uniqueEmail('ghost'), password: PASSWORD });
    // the client's address as the proxy forwards it (the session test signed in once from it)
    const counter = `${prefix}rate-limit:POST${LOGIN}-127.0.0.1`;
    const used = Number((await raw.get(counter)) ?? 0);
    const since = proxy.served.length;
    for (let i = used; i < AUTH_MAX; i += 1)
      expect((await front.api.post(LOGIN, ghost())).status).toBe(401);
    const refused = await front.api.post(LOGIN, ghost());
    expect(refused).toMatchObject({ status: 429, body: refusal('TOO_MANY_REQUESTS') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // and the next, on the other instance, too
    expect(await front.api.post(LOGIN, ghost())).toMatchObject({ status: 429 });
    const went = targetsSince(since);
    expect(went.slice(-2).sort()).toEqual(['A', 'B']);
    expect(went.filter((x) => x === 'A').length).toBeGreaterThanOrEqual(2);
    expect(went.filter((x) => x === 'B').length).toBeGreaterThanOrEqual(2);
    expect(Number(await raw.get(counter))).toBe(AUTH_MAX + 2);
    if (PROXY_PEER) {
      // counted for the client, not for the proxy's own address
      expect(await raw.exists(`${prefix}rate-limit:POST${LOGIN}-${PROXY_PEER}`)).toBe(0);
    }
  });

  it('opens the web console on the instance that did not issue its ticket, through the proxy', async () => {
    const user = await quickUser(a);
    const server = await seedServer(a, { userId: user.id, paidUntil: new Date(Date.now() + DAY) });
    const since = proxy.served.length;
    const res = await front.api.post(`${SERVER(server.id)}/console`, undefined, {
      token: user.token,
    });
    expectStatus(res, 201);
    const viewer = await openRelayedConsole(
      consoleSocketUrl(proxy.url, server.id, res.body.ticket),
    );
    try {
      await viewer.update();
      expect(viewer.shows('sign_in', 0)).toBe(true);
    } finally {
      viewer.close();
    }
    // the ticket on one instance, the socket on the other
    expect(targetsSince(since).sort()).toEqual(['A', 'B']);
    expect(proxy.served.at(-1)!.path).toMatch(/\/console\/socket\?ticket=/);
    // spent for both: the instance that issued it refuses it too
    const again = await dialConsole(
      consoleSocketUrl(
        nameOf(proxy.served.at(-2)!.target) === 'A' ? a.url : b.url,
        server.id,
        res.body.ticket,
      ),
    );
    expect(again).toMatchObject({
      upgraded: false,
      status: 403,
      body: refusal('CONSOLE_TICKET_INVALID'),
    });
  });

  /** The states of the pg-boss jobs of a VPS operation. */
  async function jobsOf(operationId: number): Promise<string[]> {
    const { rows } = await a.sql.query(
      `select state from pgboss.job where name = 'vps-operation' and singleton_key = $1`,
      [String(operationId)],
    );
    return rows.map((row) => String(row.state));
  }

  async function countMachines(): Promise<number> {
    const { rows } = await a.sql.query('select count(*)::int as n from sim_machines');
    return rows[0].n;
  }
});
