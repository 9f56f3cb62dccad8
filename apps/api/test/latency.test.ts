import { LATENCY_MIN_OWNERS } from '@tradehost/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { operator, quickUser, refusal, useTestApp, type QuickUser } from './helpers.ts';
import { hello, HELLO, publisherOf, send, snapshot, SNAPSHOT } from './monitoring-fixtures.ts';
import { rateNamed, seedServer } from './vps-fixtures.ts';

/**
 * The latency map (modules/latency): each location of the rate catalogue with the median and
 * the 90th percentile of the pings the publishers measured from there to a broker's trade
 * server, only where terminals of at least three owners measured them; the broker names for
 * the order form's autocomplete; the operators' list. The figures below are worked out by hand
 * (PostgreSQL's percentile_cont: the value at (n - 1) x p in the sorted pings, interpolated).
 */

// the publishers' addresses are those a proxy forwards (TRUST_PROXY=1): one per VPS server here
const t = useTestApp({ env: { TRUST_PROXY: '1' } });
const LATENCY = '/api/user/vps/latency';
const BROKERS = '/api/user/vps/brokers';
const ADMIN = '/api/admin/vps/latency';
const MINUTE = 60_000;
const DAY = 86_400_000;

/** A terminal: a monitored account of `owner` (a new user unless given). */
interface Terminal {
  accountId: number;
  owner: QuickUser;
}

let logins = 90_000;
async function terminal(owner?: QuickUser): Promise<Terminal> {
  if (!owner) {
    const made = await publisherOf(t, (logins += 1));
    return { accountId: made.account.id, owner: made.user };
  }
  // a second account of the same owner, as a paid subscription of two would hold it
  const { rows } = await t.sql.query(
    `insert into monitoring_accounts (subscription_id, user_id, monitoring_id, login, platform,
       name, email)
     select subscription_id, user_id, substr(md5(random()::text), 1, 16), $2, 'MT5', 'Second',
       email
     from monitoring_accounts where user_id = $1 limit 1 returning id`,
    [owner.id, (logins += 1)],
  );
  return { accountId: Number(rows[0].id), owner };
}

/** Minutes of each terminal's points so far: a terminal has a point a minute at most. */
const used = new Map<number, number>();
/** The minute the points count back from (the test clock moves on). */
let origin: number | undefined;

/**
 * Ping points of `who` to `server` from `location`, a minute apart, `agoMs` (10 minutes) and
 * more ago, in minutes of the terminal's not taken yet.
 */
async function measured(
  who: Terminal,
  server: string,
  location: string | null,
  pings: number[],
  agoMs = 10 * MINUTE,
) {
  origin ??= Math.floor(t.clock.now().getTime() / MINUTE) * MINUTE;
  const latest = origin - Math.floor(agoMs / MINUTE) * MINUTE;
  for (const ping of pings) {
    const minutes = used.get(who.accountId) ?? 0;
    used.set(who.accountId, minutes + 1);
    await t.sql.query(
      `insert into monitoring_pings (account_id, at, ping_ms, server, location, user_id)
       values ($1, $2, $3, $4, $5, $6)`,
      [who.accountId, new Date(latest - minutes * MINUTE), ping, server, location, who.owner.id],
    );
  }
}

const FRANKFURT = 'Frankfurt (FR2)';
const LONDON = 'London (LD4)';

let reader: QuickUser;
/** Owners A, B, C and D and their terminals. */
const a: Terminal[] = [];
let b: Terminal, c: Terminal, d: Terminal;

beforeAll(async () => {
  reader = await quickUser(t);
  a.push(await terminal());
  a.push(await terminal(a[0]!.owner), await terminal(a[0]!.owner));
  b = await terminal();
  c = await terminal();
  d = await terminal();
  // Frankfurt to Alpha-Live: 7 pings of three owners' terminals, sorted 10 20 30 40 50 60 70
  await measured(a[0]!, 'Alpha-Live', FRANKFURT, [20, 10]);
  await measured(b, 'Alpha-Live', FRANKFURT, [40, 30]);
  // a name is the same server in any case
  await measured(c, 'ALPHA-live', FRANKFURT, [70, 50, 60]);
  // London: three terminals, but of two owners (two of A's): not shown
  await measured(a[1]!, 'Alpha-Live', LONDON, [5]);
  await measured(a[2]!, 'Alpha-Live', LONDON, [6]);
  await measured(b, 'Alpha-Live', LONDON, [7]);
  // New York: three owners, but 31 days ago, outside the window
  for (const who of [a[0]!, b, c])
    await measured(who, 'Alpha-Live', 'New York (NY4)', [90], 31 * DAY);
  // D's terminal runs elsewhere (no location): its name is known, it is on no map
  await measured(d, 'Alpha-Live', null, [300]);
  await measured(d, 'Beta-Demo', null, [120]);
  await measured(d, 'Alphabet-Real', null, [150]);
  // a location no rate offers any more, measured by three owners
  await t.sql.query(
    `insert into vps_rates (name, cpu_cores, ram_gb, disk_gb, location, monthly_price_cents,
       template_id, active, sort)
     values ('Retired', 1, 1, 10, 'Tokyo (TY3)', 900, '9000', false, 5)`,
  );
  for (const who of [a[0]!, b, c]) await measured(who, 'Alpha-Live', 'Tokyo (TY3)', [200], 2 * DAY);
});

describe('GET /api/user/vps/latency', () => {
  it('gives each location of the catalogue its median, 90th percentile and terminals, or null', async () => {
    const res = await t.api.get(`${LATENCY}?broker=Alpha-Live`, reader);
    expect(res.status, res.text).toBe(200);
    const since = t.clock.now().getTime() - 30 * DAY;
    expect(Math.abs(Date.parse(res.body.since) - since)).toBeLessThan(10_000);
    expect(res.body).toEqual({
      broker: 'Alpha-Live',
      since: res.body.since,
      // the catalogue's order (its rates' sort); Tokyo's rate is not offered
      locations: [
        // three terminals of two owners: not shown, as if not measured
        { location: LONDON, ping: null },
        // measured 31 days ago only
        { location: 'New York (NY4)', ping: null },
        // (7 - 1) x 0.5 = 3: 40; (7 - 1) x 0.9 = 5.4: 60 + 0.4 x (70 - 60) = 64
        { location: FRANKFURT, ping: { median_ms: 40, p90_ms: 64, terminals: 3 } },
        { location: 'Amsterdam (AM3)', ping: null },
      ],
    });
  });

  it('finds the broker whatever its case, and has nothing for a broker nobody measured', async () => {
    const res = await t.api.get(`${LATENCY}?broker=${encodeURIComponent(' alpha-LIVE ')}`, reader);
    expect(res.body.broker).toBe('alpha-LIVE');
    expect(res.body.locations[2]).toEqual({
      location: FRANKFURT,
      ping: { median_ms: 40, p90_ms: 64, terminals: 3 },
    });
    const none = await t.api.get(`${LATENCY}?broker=Nobody-Live`, reader);
    expect(none.status).toBe(200);
    expect(none.body.locations.map((l: { ping: unknown }) => l.ping)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it(`shows a location only once terminals of ${LATENCY_MIN_OWNERS} owners measured it`, async () => {
    const owners = await t.sql.query(
      `select count(distinct user_id)::int as owners, count(distinct account_id)::int as terminals
       from monitoring_pings where location = $1`,
      [LONDON],
    );
    expect(owners.rows[0]).toEqual({ owners: 2, terminals: 3 });
    const london = async () =>
      (await t.api.get(`${LATENCY}?broker=Alpha-Live`, reader)).body.locations[0].ping;
    // the test clock to a second past a minute's start, so that the two reads below fall within
    // that minute however slow the machine (the clock moves on with the wall's)
    const now = t.clock.now().getTime();
    t.clock.advance(MINUTE - (now % MINUTE) + 1000);
    expect(await london()).toBeNull();
    // a third owner's terminal in London: now three owners, four terminals
    const e = await terminal();
    try {
      await measured(e, 'alpha-live', LONDON, [8]);
      // within the minute the figures computed at its start stand; the next minute has the point
      expect(await london()).toBeNull();
      t.clock.advance(MINUTE);
      // 5 6 7 8: (4 - 1) x 0.5 = 1.5: 6.5, rounded 7; (4 - 1) x 0.9 = 2.7: 7 + 0.7 = 7.7, rounded 8
      expect(await london()).toEqual({ median_ms: 7, p90_ms: 8, terminals: 4 });
    } finally {
      await t.sql.query('delete from monitoring_pings where account_id = $1', [e.accountId]);
    }
  });

  it('refuses a missing, empty or too long broker with 422 saying what to enter', async () => {
    for (const query of ['', '?broker=', '?broker=%20%20', `?broker=${'x'.repeat(129)}`]) {
      const res = await t.api.get(`${LATENCY}${query}`, reader);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toMatchObject({
        code: 'BROKER_SERVER_INVALID',
        message:
          "Enter the broker's trade server as the terminal names it (128 characters at most)",
      });
    }
    expect((await t.api.get(`${LATENCY}?broker=Alpha-Live`)).status).toBe(401);
  });
});

describe('GET /api/user/vps/brokers', () => {
  it('suggests the names measured from some terminal, starting so in any case, alphabetically', async () => {
    const res = await t.api.get(`${BROKERS}?query=ALPHA`, reader);
    expect(res.status).toBe(200);
    expect(res.body.brokers).toHaveLength(2);
    // one spelling of each name ('alpha-live' and 'ALPHA-live' are one), before 'alphabet'
    expect(res.body.brokers[0].toLowerCase()).toBe('alpha-live');
    expect(res.body.brokers[1]).toBe('Alphabet-Real');
    // measured from a terminal that is on none of our servers: still a name we have seen
    expect((await t.api.get(`${BROKERS}?query=b`, reader)).body).toEqual({
      brokers: ['Beta-Demo'],
    });
    expect((await t.api.get(`${BROKERS}?query=Gamma`, reader)).body).toEqual({ brokers: [] });
  });

  it('gives at most 10, and takes the wildcards of LIKE as letters', async () => {
    for (let i = 1; i <= 12; i += 1)
      await measured(d, `Gamma-${String(i).padStart(2, '0')}`, null, [30]);
    const res = await t.api.get(`${BROKERS}?query=gamma-`, reader);
    expect(res.body.brokers).toEqual(
      Array.from({ length: 10 }, (_, i) => `Gamma-${String(i + 1).padStart(2, '0')}`),
    );
    for (const query of ['%', '_', 'Gamma%', 'G_mma', '\\'])
      expect(
        (await t.api.get(`${BROKERS}?query=${encodeURIComponent(query)}`, reader)).body,
        query,
      ).toEqual({ brokers: [] });
  });

  it('refuses a missing or empty query with 422', async () => {
    for (const query of ['', '?query=', `?query=${'x'.repeat(129)}`]) {
      const res = await t.api.get(`${BROKERS}${query}`, reader);
      expect(res.status, query).toBe(422);
      expect(res.body.code, query).toBe('BROKER_QUERY_INVALID');
    }
  });
});

describe('where a point is measured from', () => {
  it('is the location of the owner’s server at the publisher’s address, and no other’s', async () => {
    const frankfurt = await rateNamed(t, 'Trader', FRANKFURT);
    const mine = await publisherOf(t, (logins += 1));
    const other = await quickUser(t);
    const paidUntil = new Date(t.clock.now().getTime() + 30 * DAY);
    for (const [userId, host] of [
      [mine.user.id, '198.51.100.20'],
      [other.id, '198.51.100.21'],
    ] as const) {
      const server = await seedServer(t, { userId, rate: frankfurt, paidUntil });
      await t.sql.query('update vps_servers set host = $2 where id = $1', [server.id, host]);
    }
    const from = (ip: string, minutesAgo: number) =>
      t.api.post(
        SNAPSHOT,
        snapshot({
          login: logins,
          time: new Date(t.clock.now().getTime() - minutesAgo * MINUTE).toISOString(),
          ping_ms: 3,
        }),
        { headers: { authorization: `Bearer ${mine.key}`, 'x-forwarded-for': ip } },
      );
    expect(
      (
        await send(t, HELLO, mine.key, {
          ...hello({ login: logins, server: 'Delta-Live' }),
        })
      ).status,
    ).toBe(200);
    expect((await from('198.51.100.20', 2)).status).toBe(200);
    // someone else's server at the address is not where this terminal runs
    expect((await from('198.51.100.21', 1)).status).toBe(200);
    const { rows } = await t.sql.query(
      'select ping_ms, server, location from monitoring_pings where account_id = $1 order by at',
      [mine.account.id],
    );
    expect(rows).toEqual([
      { ping_ms: 3, server: 'Delta-Live', location: FRANKFURT },
      { ping_ms: 3, server: 'Delta-Live', location: null },
    ]);
  });
});

describe('GET /api/admin/vps/latency', () => {
  it('lists the trade servers by location with the same figures and rule, for the vps role', async () => {
    const vps = await operator(t, ['vps']);
    const res = await t.api.get(ADMIN, vps);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 50, total: 2 });
    // London (two owners) is not there; Tokyo, no longer offered, is
    expect(res.body.data).toEqual([
      {
        location: FRANKFURT,
        broker: expect.stringMatching(/^alpha-live$/i),
        median_ms: 40,
        p90_ms: 64,
        terminals: 3,
      },
      {
        location: 'Tokyo (TY3)',
        broker: 'Alpha-Live',
        median_ms: 200,
        p90_ms: 200,
        terminals: 3,
      },
    ]);
    const tokyo = await t.api.get(`${ADMIN}?location=${encodeURIComponent('Tokyo (TY3)')}`, vps);
    expect(tokyo.body.data.map((r: { location: string }) => r.location)).toEqual(['Tokyo (TY3)']);
    const second = await t.api.get(`${ADMIN}?per_page=1&page=2`, vps);
    expect(second.body).toMatchObject({ meta: { page: 2, per_page: 1, total: 2 } });
    expect(second.body.data).toHaveLength(1);
    expect((await t.api.get(`${ADMIN}?broker=beta`, vps)).body.data).toEqual([]);
    expect(await t.api.get(`${ADMIN}?broker=`, vps)).toMatchObject({
      status: 422,
      body: { code: 'BROKER_QUERY_INVALID' },
    });
  });

  it('is refused to a customer and to operators without the vps role', async () => {
    expect(await t.api.get(ADMIN, reader)).toMatchObject({
      status: 403,
      body: refusal('FORBIDDEN'),
    });
    const support = await operator(t, ['support']);
    expect(await t.api.get(ADMIN, support)).toMatchObject({
      status: 403,
      body: refusal('FORBIDDEN'),
    });
    expect((await t.api.get(ADMIN)).status).toBe(401);
  });
});
