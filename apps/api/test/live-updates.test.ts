import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, quickUser, signIn, startTestApp, useTestApp, XHR, type TestApp } from './helpers.ts';
import { ADMIN_TICKETS, openTicket, ownDepartment, postForm } from './support-fixtures.ts';
import { injectFault, queueOperation, seedServer } from './vps-fixtures.ts';
import { publisherOf, send as ingest, snapshot, SNAPSHOT } from './monitoring-fixtures.ts';
import {
  cleanUpRedis,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  unreachableRedisUrl,
  warnWithoutRedis,
} from './test-redis.ts';
import type { Redis } from '../src/lib/redis.ts';
import { EVENTS, eventually, openEventStream, type Stream } from './event-stream.ts';

warnWithoutRedis('the live updates across two instances sharing a Redis');

const HEARTBEAT_MS = 150;
const DAY = 86_400_000;

const connect = (t: TestApp, token: string | null) => openEventStream(t.url, token);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function transfer(t: TestApp, from: { token: string }, email: string, amount: number) {
  return t.api.post(
    '/api/user/balance/transfer',
    { email, amount },
    { token: from.token, headers: { 'idempotency-key': randomUUID() } },
  );
}

describe('live updates (GET /api/user/events)', () => {
  const t = useTestApp({ deps: { live: { heartbeatMs: HEARTBEAT_MS } } });
  const open: Stream[] = [];
  const tab = async (token: string | null) => {
    const stream = await connect(t, token);
    open.push(stream);
    return stream;
  };
  afterAll(() => {
    for (const stream of open) stream.close();
  });

  it('refuses a client without a valid token (401) and streams to one with it', async () => {
    const none = await tab(null);
    expect(none.status).toBe(401);
    const forged = await tab('not-a-token');
    expect(forged.status).toBe(401);

    const user = await quickUser(t);
    const stream = await tab(user.token);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await eventually(() => stream.text().includes('retry: '));
  });

  it('sends the recipient `balance` when another user transfers money to it, the sender too', async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    const bystander = await quickUser(t);
    await fund(t, sender.id, 10_000);
    const recipientTab = await tab(recipient.token);
    const senderTab = await tab(sender.token);
    const bystanderTab = await tab(bystander.token);

    const res = await transfer(t, sender, recipient.email, 25);
    expect(res.status, res.text).toBe(201);
    expect(await recipientTab.next('balance')).toEqual({ balance: 25 });
    expect(await senderTab.next('balance')).toEqual({ balance: 75 });
    // nothing for another user's money
    await pause(300);
    expect(bystanderTab.events).toEqual([]);
    expect(recipientTab.events).toHaveLength(1);
  });

  it('keeps the stream open across heartbeats', async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, 5_000);
    const stream = await tab(recipient.token);
    await pause(HEARTBEAT_MS * 4);
    expect(stream.text().match(/^: heartbeat$/gm)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect((await transfer(t, sender, recipient.email, 1.5)).status).toBe(201);
    expect(await stream.next('balance')).toEqual({ balance: 1.5 });
  });

  it('sends a signed-out sign-in’s stream nothing more, while another sign-in’s stream hears on', async () => {
    const sender = await quickUser(t);
    await fund(t, sender.id, 5_000);
    const { browser, token, email, password } = await signIn(t);
    const other = await t.client().post('/api/user/auth/login', { email, password });
    const stream = await tab(token);
    const otherStream = await tab(other.body.token as string);
    expect([stream.status, otherStream.status]).toEqual([200, 200]);
    const logout = await browser.post('/api/user/auth/logout', undefined, {
      token,
      headers: XHR,
    });
    expect(logout.status).toBe(200);
    expect((await transfer(t, sender, email, 2)).status).toBe(201);
    expect(await otherStream.next('balance')).toEqual({ balance: 2 });
    // the heartbeats go on (the console closes it once it finds its session refused)
    const beats = stream.text().match(/^: heartbeat$/gm)?.length ?? 0;
    await eventually(() => (stream.text().match(/^: heartbeat$/gm)?.length ?? 0) > beats);
    expect(stream.events).toEqual([]);
  });

  it('sends `server` when a VPS operation ends', async () => {
    const owner = await quickUser(t);
    const other = await quickUser(t);
    const server = await seedServer(t, {
      userId: owner.id,
      status: 'active',
      machine: 'running',
      paidUntil: new Date(Date.now() + 30 * DAY),
    });
    const ownerTab = await tab(owner.token);
    const otherTab = await tab(other.token);
    const operation = await queueOperation(t, server.id, 'shutdown');
    await t.app.vpsJobs.runner.run(operation);
    expect(await ownerTab.next('server')).toEqual({
      id: server.id,
      status: 'active',
      power: 'stopped',
      operation: { kind: 'shutdown', ok: true },
    });
    await pause(200);
    expect(otherTab.events).toEqual([]);

    // a failed start says so, with the power the hypervisor reports after it
    await injectFault(t, 'start', 'failed', 'VM is locked (backup)');
    await t.app.vpsJobs.runner.run(await queueOperation(t, server.id, 'start'));
    expect(await ownerTab.next('server')).toEqual({
      id: server.id,
      status: 'active',
      power: 'stopped',
      operation: { kind: 'start', ok: false },
    });
  });

  it('sends `ticket` with the unread count when staff reply or change the status', async () => {
    const user = await quickUser(t);
    const operator = await quickUser(t, { role: 'admin' });
    const ticket = await openTicket(t, user.token, await ownDepartment(t, 'Live desk'));
    const stream = await tab(user.token);
    const operatorTab = await tab(operator.token);

    const replied = await postForm(t, `${ADMIN_TICKETS}/${ticket.id}/messages`, operator.token, {
      text: 'We are looking into it.',
      internal: 'false',
    });
    expect(replied.status, replied.text).toBe(201);
    expect(await stream.next('ticket')).toEqual({ ticket_id: ticket.id, unread: 1 });

    // an internal note tells the user nothing
    await postForm(t, `${ADMIN_TICKETS}/${ticket.id}/messages`, operator.token, {
      text: 'Checking the host.',
      internal: 'true',
    });
    const closed = await t.api.post(
      `${ADMIN_TICKETS}/${ticket.id}/status`,
      { status: 'closed' },
      { token: operator.token },
    );
    expect(closed.status, closed.text).toBe(200);
    expect(await stream.next('ticket')).toEqual({ ticket_id: ticket.id, unread: 1 });
    await pause(200);
    expect(stream.events.filter((e) => e.event === 'ticket')).toHaveLength(2);
    expect(operatorTab.events).toEqual([]);
  });

  it('sends `monitoring` after a snapshot arrives, at most once per account in a burst', async () => {
    const { user, key, account } = await publisherOf(t);
    const stream = await tab(user.token);
    expect((await ingest(t, SNAPSHOT, key, snapshot())).status).toBe(200);
    expect(await stream.next('monitoring')).toEqual({ account_id: account.id });
    for (let i = 1; i <= 3; i += 1) {
      const time = new Date(Date.parse('2026-01-05T10:00:10.000Z') + i * 1000).toISOString();
      expect((await ingest(t, SNAPSHOT, key, snapshot({ time }))).status).toBe(200);
    }
    await pause(300);
    // the burst is throttled: its last comes at the end of the period
    expect(stream.events.filter((e) => e.event === 'monitoring')).toHaveLength(1);
  });

  it('unsubscribes when the client leaves (no subscription is left behind)', async () => {
    const user = await quickUser(t);
    const pubsub = t.app.pubsub;
    const subscribe = pubsub.subscribe.bind(pubsub);
    let live = 0;
    pubsub.subscribe = async (channel, handler) => {
      const unsubscribe = await subscribe(channel, handler);
      live += 1;
      let ended = false;
      return async () => {
        if (!ended) live -= 1;
        ended = true;
        await unsubscribe();
      };
    };
    try {
      const streams = [await tab(user.token), await tab(user.token)];
      await eventually(() => live === 2);
      for (const stream of streams) stream.close();
      await eventually(() => live === 0);
    } finally {
      pubsub.subscribe = subscribe;
    }
  });

  it('limits how often one user opens streams (429), per user', async () => {
    const user = await quickUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      const stream = await tab(user.token);
      statuses.push(stream.status);
      stream.close();
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    const other = await quickUser(t);
    expect((await tab(other.token)).status).toBe(200);
  });
});

describe.runIf(TEST_REDIS_URL)('live updates across two instances sharing a Redis', () => {
  const prefix = testRedisPrefix();
  const env = { REDIS_URL: TEST_REDIS_URL ?? '', REDIS_PREFIX: prefix };
  const a = useTestApp({ env });
  let b: TestApp;
  let raw: Redis;
  beforeAll(async () => {
    raw = await rawRedis();
  });
  afterAll(async () => {
    await b?.close();
    await cleanUpRedis(raw, prefix);
  });

  it('delivers a transfer made on one instance to a console connected to the other', async () => {
    // the second instance on the first one's database
    b = await startTestApp({ env: { ...env, DATABASE_URL: a.config.databaseUrl ?? '' } });
    const sender = await quickUser(a);
    const recipient = await quickUser(a);
    await fund(a, sender.id, 2_000);
    const stream = await connect(b, recipient.token);
    expect(stream.status).toBe(200);
    await eventually(() => stream.text().includes('retry: '));
    expect((await transfer(a, sender, recipient.email, 3)).status).toBe(201);
    expect(await stream.next('balance')).toEqual({ balance: 3 });
    stream.close();
  });
});

describe('live updates when pub/sub cannot subscribe', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('answers 503 SERVICE_BUSY, so the console keeps polling', async () => {
    t = await startTestApp({ env: { REDIS_URL: await unreachableRedisUrl() } });
    const user = await quickUser(t);
    const res = await fetch(`${t.url}${EVENTS}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_BUSY' });
  });
});
