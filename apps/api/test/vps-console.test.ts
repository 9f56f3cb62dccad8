import { CONSOLE_TICKET_SECONDS } from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CLOSE } from '../src/modules/vps/vps.console.ts';
import {
  fieldRefusal,
  quickUser,
  refusal,
  startTestApp,
  useTestApp,
  type TestApp,
} from './helpers.ts';
import { consoleSocketUrl, dialConsole, openRelayedConsole } from './rfb-viewer.ts';
import { DAY, expectStatus, injectFault, seedServer, serverAudit } from './vps-fixtures.ts';

/**
 * The web console through the API (issue 44): the owner's ticket, the WebSocket it opens over a
 * real socket (the `ws` package as the browser), the relay to the simulated machine's screen, and
 * every refusal: each an ordinary JSON answer before any upgrade, spending nothing.
 */

const t = useTestApp();

const TICKET = (id: number | string) => `/api/user/vps/servers/${id}/console`;
const paidUntil = () => new Date(Date.now() + 30 * DAY);

type User = Awaited<ReturnType<typeof quickUser>>;

async function runningServer(user: User) {
  return seedServer(t, { userId: user.id, paidUntil: paidUntil() });
}

async function ticketFor(user: User, serverId: number): Promise<string> {
  const res = await t.api.post(TICKET(serverId), undefined, { token: user.token });
  expectStatus(res, 201);
  return res.body.ticket;
}

const socketUrl = (serverId: number, ticket: string) => consoleSocketUrl(t.url, serverId, ticket);

/** The socket's refusal: it must not have been upgraded. */
async function refused(serverId: number, ticket: string) {
  const dialled = await dialConsole(socketUrl(serverId, ticket));
  if (dialled.upgraded) {
    dialled.socket.close();
    throw new Error('the socket was upgraded');
  }
  return { status: dialled.status, body: dialled.body };
}

const ticketsOf = async (serverId: number) =>
  (
    await t.sql.query(
      'select user_id, used_at, expires_at, created_at, token_hash from vps_console_tickets where server_id = $1 order by id',
      [serverId],
    )
  ).rows;

describe('the console ticket', () => {
  it('is a random token for 30 seconds, kept only as its hash', async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    const before = Date.now();
    const res = await t.api.post(TICKET(server.id), undefined, { token: user.token });
    expectStatus(res, 201);
    expect(res.body).toEqual({
      ticket: expect.stringMatching(/^[\w-]{43}$/),
      expires_at: expect.any(String),
    });
    const expires = new Date(res.body.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + CONSOLE_TICKET_SECONDS * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + CONSOLE_TICKET_SECONDS * 1000);
    const [row] = await ticketsOf(server.id);
    expect(row).toMatchObject({ user_id: String(user.id), used_at: null });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(res.body.ticket);
    expect(await ticketFor(user, server.id)).not.toBe(res.body.ticket);
  });

  it("is refused for another user's server and a missing one (404), issuing nothing", async () => {
    const owner = await quickUser(t);
    const other = await quickUser(t);
    const server = await runningServer(owner);
    for (const path of [TICKET(server.id), TICKET(987654321), TICKET('abc')]) {
      const res = await t.api.post(path, undefined, { token: other.token });
      expect([res.status, res.body]).toEqual([
        404,
        refusal(path.includes('abc') ? 'NOT_FOUND' : 'SERVER_NOT_FOUND'),
      ]);
    }
    expect((await t.api.post(TICKET(server.id))).status).toBe(401);
    expect(await ticketsOf(server.id)).toEqual([]);
  });

  it('is refused for a shut-down, a blocked and a provisioning server', async () => {
    const user = await quickUser(t);
    const stopped = await seedServer(t, {
      userId: user.id,
      paidUntil: paidUntil(),
      machine: 'stopped',
    });
    const blocked = await seedServer(t, {
      userId: user.id,
      paidUntil: paidUntil(),
      status: 'blocked',
      blockedAt: new Date(),
    });
    const provisioning = await seedServer(t, {
      userId: user.id,
      paidUntil: paidUntil(),
      status: 'provisioning',
    });
    const cases: [number, string][] = [
      [stopped.id, 'SERVER_NOT_RUNNING'],
      [blocked.id, 'SERVER_NOT_ACTIVE'],
      [provisioning.id, 'SERVER_NOT_READY'],
    ];
    for (const [id, code] of cases) {
      const res = await t.api.post(TICKET(id), undefined, { token: user.token });
      expect([res.status, res.body]).toEqual([409, refusal(code as 'SERVER_NOT_RUNNING')]);
      expect(await ticketsOf(id)).toEqual([]);
    }
  });
});

describe('the console socket', () => {
  it("relays the machine's screen to its owner: the picture, typing, Ctrl+Alt+Del", async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    const viewer = await openRelayedConsole(socketUrl(server.id, await ticketFor(user, server.id)));
    try {
      expect([viewer.width, viewer.height, viewer.name]).toEqual([800, 600, 'seeded']);
      await viewer.update();
      expect(viewer.shows('sign_in', 0)).toBe(true);
      viewer.type('Pa55word!');
      await viewer.update(true);
      expect(viewer.shows('sign_in', 9)).toBe(true);
      viewer.ctrlAltDel();
      await viewer.update(true);
      expect(viewer.shows('security', 9)).toBe(true);
    } finally {
      viewer.close();
    }
    // spent, audited, and on the server's activity as the owner's
    expect((await ticketsOf(server.id))[0].used_at).toBeInstanceOf(Date);
    expect(await serverAudit(t, server.id)).toMatchObject([
      {
        action: 'vps.console_opened',
        actor_id: String(user.id),
        target_user_id: String(user.id),
        details: {},
      },
    ]);
    const activity = await t.api.get(`/api/user/vps/servers/${server.id}/activity`, {
      token: user.token,
    });
    expect(activity.body.data[0]).toMatchObject({
      kind: 'console_opened',
      by: 'you',
      status: 'succeeded',
    });
  });

  it('takes a ticket once: used again it is refused', async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    const ticket = await ticketFor(user, server.id);
    const viewer = await openRelayedConsole(socketUrl(server.id, ticket));
    viewer.close();
    expect(await refused(server.id, ticket)).toEqual({
      status: 403,
      body: refusal('CONSOLE_TICKET_INVALID'),
    });
    expect(await serverAudit(t, server.id)).toHaveLength(1);
  });

  it('refuses an unknown ticket, a missing one, and a ticket of server A on server B, spending none', async () => {
    const user = await quickUser(t);
    const a = await runningServer(user);
    const b = await runningServer(user);
    const ticket = await ticketFor(user, a.id);
    expect(await refused(b.id, ticket)).toEqual({
      status: 403,
      body: refusal('CONSOLE_TICKET_INVALID'),
    });
    expect(await refused(a.id, 'x'.repeat(43))).toEqual({
      status: 403,
      body: refusal('CONSOLE_TICKET_INVALID'),
    });
    const missing = await dialConsole(
      `${t.url.replace('http', 'ws')}/api/user/vps/servers/${a.id}/console/socket`,
    );
    expect(missing).toMatchObject({
      upgraded: false,
      status: 422,
      body: fieldRefusal('ticket', 'CONSOLE_TICKET_INVALID'),
    });
    expect((await ticketsOf(a.id))[0].used_at).toBeNull();
    // still good on its own server
    (await openRelayedConsole(socketUrl(a.id, ticket))).close();
  });

  it("refuses another user's ticket on their own server: a ticket is its user's", async () => {
    const owner = await quickUser(t);
    const other = await quickUser(t);
    const mine = await runningServer(owner);
    const theirs = await runningServer(other);
    const ticket = await ticketFor(other, theirs.id);
    expect(await refused(mine.id, ticket)).toEqual({
      status: 403,
      body: refusal('CONSOLE_TICKET_INVALID'),
    });
    expect((await ticketsOf(theirs.id))[0].used_at).toBeNull();
    expect(await serverAudit(t, mine.id)).toEqual([]);
  });

  it('refuses an expired ticket without spending it', async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    const ticket = await ticketFor(user, server.id);
    // the app's clock (the test clock: wall time plus an offset) moves past the ticket's end
    t.clock.advance(CONSOLE_TICKET_SECONDS * 1000 + 1000);
    try {
      expect(await refused(server.id, ticket)).toEqual({
        status: 403,
        body: refusal('CONSOLE_TICKET_EXPIRED'),
      });
    } finally {
      t.clock.advance(-(CONSOLE_TICKET_SECONDS * 1000 + 1000));
    }
    expect((await ticketsOf(server.id))[0].used_at).toBeNull();
    expect(await serverAudit(t, server.id)).toEqual([]);
  });

  it('refuses a server shut down since its ticket, and a plain GET, spending nothing', async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    const ticket = await ticketFor(user, server.id);
    const plain = await fetch(`${socketUrl(server.id, ticket).replace(/^ws/, 'http')}`);
    expect([plain.status, await plain.json()]).toEqual([400, refusal('BAD_REQUEST')]);
    await t.sql.query(`update vps_servers set power = 'stopped' where id = $1`, [server.id]);
    expect(await refused(server.id, ticket)).toEqual({
      status: 409,
      body: refusal('SERVER_NOT_RUNNING'),
    });
    expect((await ticketsOf(server.id))[0].used_at).toBeNull();
  });

  it('closes the socket with its own code when the hypervisor cannot open the screen', async () => {
    const user = await quickUser(t);
    const server = await runningServer(user);
    await injectFault(t, 'openConsole', 'unavailable', 'the node is down');
    const dialled = await dialConsole(socketUrl(server.id, await ticketFor(user, server.id)));
    if (!dialled.upgraded) throw new Error('refused before the upgrade');
    const [code, reason] = await new Promise<[number, string]>((resolve) =>
      dialled.socket.once('close', (closeCode, closeReason) =>
        resolve([closeCode, closeReason.toString()]),
      ),
    );
    expect([code, reason]).toEqual([CONSOLE_CLOSE.unavailable, 'the screen could not be opened']);
    expect(
      t.logs.some(
        (line) =>
          line.includes('the web console did not open') && line.includes('the node is down'),
      ),
    ).toBe(true);
  });
});

describe('the console time limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ deps: { console: { idleMs: 300, sessionMs: 60_000 } } });
  });
  afterAll(() => limited?.close());

  it('ends a console idle for longer than the idle limit', async () => {
    const user = await quickUser(limited);
    const server = await seedServer(limited, { userId: user.id, paidUntil: paidUntil() });
    const res = await limited.api.post(TICKET(server.id), undefined, { token: user.token });
    const dialled = await dialConsole(consoleSocketUrl(limited.url, server.id, res.body.ticket));
    if (!dialled.upgraded) throw new Error('refused before the upgrade');
    const started = Date.now();
    const code = await new Promise<number>((resolve) => dialled.socket.once('close', resolve));
    expect(code).toBe(CONSOLE_CLOSE.idle);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
