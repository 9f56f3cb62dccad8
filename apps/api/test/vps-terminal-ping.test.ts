import { PUBLISHER_SILENT_AFTER_MS } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { quickUser, useTestApp, type Json, type QuickUser } from './helpers.ts';
import { hello, HELLO, publisherOf, send, snapshot, SNAPSHOT } from './monitoring-fixtures.ts';
import { DAY, seedServer } from './vps-fixtures.ts';

/**
 * A server's row shows the current ping of the terminals publishing from it: the owner's
 * monitored accounts whose publisher's latest address is the server's and that reported within
 * PUBLISHER_SILENT_AFTER_MS, the highest of their pings and how many they are. The terminals
 * publish through the ingestion API, from the address a proxy forwards (TRUST_PROXY=1).
 */

const t = useTestApp({ env: { TRUST_PROXY: '1' } });
const SERVERS = '/api/user/vps/servers';
const HOST = '198.51.100.40';

/** A publisher: the owner of a monitoring subscription and its activation key. */
interface Publisher {
  user: QuickUser;
  key: string;
}

/** A second account of the publisher's subscription, as a plan of two accounts holds it. */
async function secondAccount(publisher: Publisher, login: number) {
  await t.sql.query(
    `insert into monitoring_accounts (subscription_id, user_id, monitoring_id, login, platform,
       name, email)
     select subscription_id, user_id, substr(md5(random()::text), 1, 16), $2, 'MT5', 'Second',
       email
     from monitoring_accounts where user_id = $1 limit 1`,
    [publisher.user.id, login],
  );
}

/** A snapshot of account `login` sent now from `ip`, telling `ping` (or no ping). */
async function publish(publisher: Publisher, login: number, ip: string, ping: number | null) {
  const res = await t.api.post(
    SNAPSHOT,
    snapshot({
      login,
      time: t.clock.now().toISOString(),
      ...(ping === null ? { terminal_connected: false } : { ping_ms: ping }),
    }),
    { headers: { authorization: `Bearer ${publisher.key}`, 'x-forwarded-for': ip } },
  );
  expect(res.status, res.text).toBe(200);
}

/** An active server of `userId` whose machine is at `host`. */
async function serverAt(userId: number, host: string): Promise<number> {
  const paidUntil = new Date(t.clock.now().getTime() + 30 * DAY);
  const { id } = await seedServer(t, { userId, paidUntil });
  await t.sql.query('update vps_servers set host = $2 where id = $1', [id, host]);
  return id;
}

const pingOf = (server: Json) => ({ ping_ms: server.ping_ms, terminals: server.ping_terminals });

describe('the ping of the terminals publishing from a server', () => {
  it('is the highest of the owner’s terminals reporting from its address, in the list and the server', async () => {
    const owner = await publisherOf(t, 71_001);
    await secondAccount(owner, 71_002);
    await secondAccount(owner, 71_003);
    for (const login of [71_001, 71_002, 71_003])
      expect((await send(t, HELLO, owner.key, hello({ login, server: `B-${login}` }))).status).toBe(
        200,
      );
    const mine = await serverAt(owner.user.id, HOST);
    const quiet = await serverAt(owner.user.id, '198.51.100.41');
    // another user's server at the same address, with their terminal there
    const neighbour = await publisherOf(t, 71_004);
    const theirs = await serverAt(neighbour.user.id, HOST);

    await publish(owner, 71_001, HOST, 25);
    await publish(owner, 71_002, HOST, 90);
    // a terminal with no connection to its broker tells no ping: it is not counted
    await publish(owner, 71_003, HOST, null);
    await publish(neighbour, 71_004, HOST, 300);

    const list = await t.api.get(SERVERS, owner.user);
    expect(list.status, list.text).toBe(200);
    const byId = new Map(list.body.data.map((s: Json) => [s.id, s]));
    expect(pingOf(byId.get(mine) as Json)).toEqual({ ping_ms: 90, terminals: 2 });
    expect(pingOf(byId.get(quiet) as Json)).toEqual({ ping_ms: null, terminals: 0 });
    const one = await t.api.get(`${SERVERS}/${mine}`, owner.user);
    expect(pingOf(one.body.server)).toEqual({ ping_ms: 90, terminals: 2 });
    // the neighbour's server counts the neighbour's terminal only, whatever the address shares
    const their = await t.api.get(`${SERVERS}/${theirs}`, neighbour.user);
    expect(pingOf(their.body.server)).toEqual({ ping_ms: 300, terminals: 1 });

    // the 90 ms terminal falls silent: past PUBLISHER_SILENT_AFTER_MS it no longer runs there
    t.clock.advance(PUBLISHER_SILENT_AFTER_MS + 60_000);
    await publish(owner, 71_001, HOST, 27);
    const later = await t.api.get(SERVERS, owner.user);
    const after = later.body.data.find((s: Json) => s.id === mine);
    expect(pingOf(after)).toEqual({ ping_ms: 27, terminals: 1 });
    expect(pingOf((await t.api.get(`${SERVERS}/${theirs}`, neighbour.user)).body.server)).toEqual({
      ping_ms: null,
      terminals: 0,
    });

    // a terminal that moved to another address is not on the server any more
    await publish(owner, 71_001, '198.51.100.41', 31);
    const moved = (await t.api.get(SERVERS, owner.user)).body.data as Json[];
    expect(pingOf(moved.find((s) => s.id === mine)!)).toEqual({ ping_ms: null, terminals: 0 });
    expect(pingOf(moved.find((s) => s.id === quiet)!)).toEqual({ ping_ms: 31, terminals: 1 });
  });

  it('is null for a server nobody publishes from', async () => {
    const user = await quickUser(t);
    const id = await serverAt(user.id, '198.51.100.42');
    const res = await t.api.get(`${SERVERS}/${id}`, user);
    expect(res.status).toBe(200);
    expect(pingOf(res.body.server)).toEqual({ ping_ms: null, terminals: 0 });
  });
});
