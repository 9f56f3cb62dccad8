import { HOUR_MS, MINUTE_MS } from '@tradehost/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quickUser, useTestApp, type Json } from './helpers.ts';
import {
  deal,
  DEALS,
  hello,
  HELLO,
  publisherOf,
  send,
  snapshot,
  SNAPSHOT,
} from './monitoring-fixtures.ts';
import { seedServer } from './vps-fixtures.ts';

/**
 * "Verified by the host" through the real ingestion: publishers whose requests come from one of
 * our servers' addresses (a proxy forwards them: TRUST_PROXY=1), or from elsewhere; the statistics
 * job (monitoring.statistics.ts followVerification) follows their equity points; the owner's and
 * the public statistics say what the mark is now. The app's clock is moved to the market hours
 * (or the weekend) each test needs, so the tests do not depend on the day they run.
 */

const t = useTestApp({ env: { TRUST_PROXY: '1' } });
/** An active server's address, a revoked server's, and one that is no server of ours. */
const OURS = '198.51.100.30';
const REVOKED = '198.51.100.31';
const ELSEWHERE = '198.51.100.99';
const ACCOUNT = (id: number) => `/api/user/monitoring/accounts/${id}`;
const PUBLIC = (monitoringId: string) => `/api/monitoring/${monitoringId}`;
/** The job follows a minute this long after it began (VERIFICATION_SETTLE_MS). */
const SETTLE = 4 * MINUTE_MS;

beforeAll(async () => {
  const host = await quickUser(t);
  const paidUntil = new Date(t.clock.now().getTime() + 365 * 24 * HOUR_MS);
  for (const [address, status] of [
    [OURS, 'active'],
    [REVOKED, 'revoked'],
  ] as const) {
    const server = await seedServer(t, { userId: host.id, paidUntil, status });
    await t.sql.query('update vps_servers set host = $2 where id = $1', [server.id, address]);
  }
});

const iso = (at: number) => new Date(at).toISOString();
const minuteOf = (at: number) => Math.floor(at / MINUTE_MS) * MINUTE_MS;

/**
 * Moves the app's clock to a moment (put back after each test). The customers' tokens are signed
 * by the wall's clock and good for an hour after it, so a moment in the past keeps them good.
 */
const setClock = (at: string) => t.clock.advance(Date.parse(at) - t.clock.now().getTime());
afterEach(() => t.clock.advance(Date.now() - t.clock.now().getTime()));

let logins = 45_000;

/**
 * A publisher (a user of its own) with a hello and a deposit of 1,000 `dealAgo` ms before now:
 * its account, made public so its page can be read too.
 */
async function publisher(dealAgo = 30 * MINUTE_MS) {
  const login = (logins += 1);
  const p = await publisherOf(t, login);
  expect((await send(t, HELLO, p.key, hello({ login }))).status).toBe(200);
  const time = iso(t.clock.now().getTime() - dealAgo);
  const deposited = await send(t, DEALS, p.key, { login, deals: [deal(1, { time })] });
  expect(deposited.status).toBe(200);
  const shown = await t.api.request('PATCH', ACCOUNT(p.account.id), {
    body: { is_public: true },
    token: p.user.token,
  });
  expect(shown.status).toBe(200);
  return { ...p, login, depositAt: time };
}
type Publisher = Awaited<ReturnType<typeof publisher>>;

/** A snapshot of the account now from `ip` (taken `ago` ms before it is sent). */
async function snapshotFrom(
  p: Publisher,
  ip: string,
  fields: Record<string, unknown> = {},
  ago = 0,
) {
  const time = iso(t.clock.now().getTime() - ago);
  const res = await t.api.post(
    SNAPSHOT,
    snapshot({ login: p.login, time, balance: 1000, equity: 1000, ...fields }),
    { headers: { authorization: `Bearer ${p.key}`, 'x-forwarded-for': ip } },
  );
  expect(res.status, res.text).toBe(200);
  return time;
}

/** A snapshot from `ip` each minute, `minutes` times (the clock a minute on after each). */
async function publish(p: Publisher, ip: string, minutes: number, fields = {}) {
  const times: string[] = [];
  for (let i = 0; i < minutes; i += 1) {
    times.push(await snapshotFrom(p, ip, fields));
    t.clock.advance(MINUTE_MS);
  }
  return times;
}

/** The statistics job's run for the account, once its last minutes have settled. */
async function followed(p: Publisher) {
  t.clock.advance(SETTLE);
  expect(await t.app.monitoringJobs.recompute(p.account.id)).toBe(true);
}

async function ownerStatistics(p: Publisher): Promise<Json> {
  const res = await t.api.get(`${ACCOUNT(p.account.id)}/statistics`, { token: p.user.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
async function publicStatistics(p: Publisher): Promise<Json> {
  const res = await t.api.get(PUBLIC(p.account.monitoring_id));
  expect(res.status, res.text).toBe(200);
  return res.body.statistics;
}

/** A verification but its share covered, which runs with the clock (read a moment apart). */
const sameMoment = (verification: Json) => ({ ...verification, covered: null });

const hostedOf = async (p: Publisher) =>
  (
    await t.sql.query('select hosted from monitoring_equity where account_id = $1 order by at', [
      p.account.id,
    ])
  ).rows.map((r) => r.hosted as boolean | null);

describe('verified by the host', () => {
  it('a publisher on our server earns the mark, from its first point, owner and public alike', async () => {
    setClock('2026-01-07T10:00:00Z'); // a Wednesday
    const p = await publisher();
    const times = await publish(p, OURS, 6);
    expect(await hostedOf(p)).toEqual([true, true, true, true, true, true]);

    // not followed yet: nothing is claimed
    expect((await ownerStatistics(p)).verification).toMatchObject({
      verified: false,
      reason: 'not_hosted',
      checked_at: null,
    });

    await followed(p);
    const statistics = await ownerStatistics(p);
    expect(statistics.history_incomplete).toBe(false);
    const since = iso(minuteOf(Date.parse(times[0]!)));
    expect(statistics.verification).toMatchObject({
      verified: true,
      reason: null,
      since,
      last_hosted_at: iso(minuteOf(Date.parse(times[5]!))),
      checked_at: iso(minuteOf(Date.parse(times[5]!))),
      broken_from: null,
      broken_to: null,
    });
    // the deposit 30 minutes before the first point was sent from the terminal's history: the
    // run covers the 10 minutes since of the 40 of the period
    expect(statistics.verification.period_from).toBe(p.depositAt);
    expect(statistics.verification.covered).toBeCloseTo(10 / 40, 1);

    // the public page says the same (a moment later), and no more: no address, no server
    const shown = await publicStatistics(p);
    expect(sameMoment(shown.verification)).toEqual(sameMoment(statistics.verification));
    expect(Object.keys(shown.verification).sort()).toEqual([
      'broken_from',
      'broken_to',
      'checked_at',
      'covered',
      'last_hosted_at',
      'period_from',
      'reason',
      'since',
      'verified',
    ]);
    expect(JSON.stringify(shown)).not.toContain(OURS);

    // a range asked for: the verification of the whole history all the same
    const ranged = await t.api.get(
      `${ACCOUNT(p.account.id)}/statistics?from=${encodeURIComponent(times[3]!)}`,
      { token: p.user.token },
    );
    expect(ranged.status).toBe(200);
    expect(sameMoment(ranged.body.verification)).toEqual(sameMoment(statistics.verification));
  });

  it('never from an address that is not ours, a revoked server’s, or in snapshots sent late', async () => {
    setClock('2026-01-07T12:00:00Z');
    const away = await publisher();
    await publish(away, ELSEWHERE, 2);
    await publish(away, REVOKED, 2);
    // from our server, but backdated (taken 5 minutes before it was sent): it proves nothing
    await snapshotFrom(away, OURS, {}, 5 * MINUTE_MS + 30_000);
    expect(await hostedOf(away)).toEqual([null, false, false, false, false]);
    await followed(away);
    expect((await ownerStatistics(away)).verification).toMatchObject({
      verified: false,
      reason: 'not_hosted',
      since: null,
      covered: 0,
      broken_from: null,
    });

    // a minute with one snapshot from elsewhere among ours is not hosted
    const mixed = await publisher();
    await snapshotFrom(mixed, OURS);
    await snapshotFrom(mixed, ELSEWHERE);
    await snapshotFrom(mixed, OURS);
    expect(await hostedOf(mixed)).toEqual([false]);
  });

  it('a silence in market hours loses it, with its span; 9 minutes does not; silent now says so', async () => {
    setClock('2026-01-07T14:00:00Z');
    const p = await publisher();
    await publish(p, OURS, 2);
    t.clock.advance(8 * MINUTE_MS); // the next point 9 minutes after the last
    const before = await publish(p, OURS, 2);
    await followed(p);
    expect((await ownerStatistics(p)).verification).toMatchObject({ verified: true });

    // 15 minutes without a point: silent now (the window and the job's settling time)
    t.clock.advance(15 * MINUTE_MS - SETTLE - MINUTE_MS);
    expect((await publicStatistics(p)).verification).toMatchObject({
      verified: false,
      reason: 'silent_now',
    });
    const after = await publish(p, OURS, 3);
    await followed(p);
    const lost = (await ownerStatistics(p)).verification;
    expect(lost).toMatchObject({
      verified: false,
      reason: 'gap',
      since: iso(minuteOf(Date.parse(after[0]!))),
      broken_from: iso(minuteOf(Date.parse(before[1]!))),
      broken_to: iso(minuteOf(Date.parse(after[0]!))),
    });
    expect(lost.covered).toBeGreaterThan(0);
    expect(lost.covered).toBeLessThan(0.5);
    expect(sameMoment((await publicStatistics(p)).verification)).toEqual(sameMoment(lost));
  });

  it('a weekend’s silence does not lose it', async () => {
    setClock('2026-01-09T21:50:00Z'); // a Friday, 10 minutes before the Forex week closes
    const p = await publisher();
    const friday = await publish(p, OURS, 6);
    setClock('2026-01-11T22:02:00Z'); // Sunday: 5 + 2 market minutes after the last point
    await publish(p, OURS, 3);
    await followed(p);
    expect((await publicStatistics(p)).verification).toMatchObject({
      verified: true,
      since: iso(minuteOf(Date.parse(friday[0]!))),
      broken_from: null,
    });
  });

  it('deals that do not add up to the balance lose it', async () => {
    setClock('2026-01-07T16:00:00Z');
    const p = await publisher();
    // the terminal's balance is 500 more than the deals sent
    await publish(p, OURS, 3, { balance: 1500, equity: 1500 });
    await followed(p);
    const statistics = await ownerStatistics(p);
    expect(statistics.history_incomplete).toBe(true);
    expect(statistics.verification).toMatchObject({
      verified: false,
      reason: 'history_incomplete',
      covered: expect.any(Number),
    });
    expect(statistics.verification.since).not.toBeNull();
  });

  it('snapshots from elsewhere lose it, even sent late into minutes already followed', async () => {
    setClock('2026-01-08T10:00:00Z'); // a Thursday
    const p = await publisher();
    await publish(p, OURS, 2);
    const away = await publish(p, ELSEWHERE, 2);
    const back = await publish(p, OURS, 2);
    await followed(p);
    expect((await ownerStatistics(p)).verification).toMatchObject({
      verified: false,
      reason: 'elsewhere',
      since: iso(minuteOf(Date.parse(back[0]!))),
      broken_from: iso(minuteOf(Date.parse(away[0]!))),
      broken_to: iso(minuteOf(Date.parse(away[1]!))),
    });

    const q = await publisher();
    const ours = await publish(q, OURS, 4);
    await followed(q);
    expect((await ownerStatistics(q)).verification.verified).toBe(true);
    // a snapshot from elsewhere stamped in a minute the job has followed: the run is broken at
    // once, without waiting for the job
    const ago = t.clock.now().getTime() - Date.parse(ours[2]!);
    await snapshotFrom(q, ELSEWHERE, {}, ago);
    expect((await ownerStatistics(q)).verification).toMatchObject({
      verified: false,
      reason: 'elsewhere',
      since: null,
      broken_from: iso(minuteOf(Date.parse(ours[2]!))),
    });
    // and the job's next run does not undo it
    await publish(q, OURS, 1);
    await followed(q);
    expect((await ownerStatistics(q)).verification).toMatchObject({
      verified: false,
      reason: 'elsewhere',
    });
  });

  it('another user’s private account: 404, as a missing one', async () => {
    setClock('2026-01-08T12:00:00Z');
    const p = await publisher();
    await publish(p, OURS, 2);
    await followed(p);
    const other = await quickUser(t);
    const theirs = await t.api.get(`${ACCOUNT(p.account.id)}/statistics`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('MONITORING_ACCOUNT_NOT_FOUND');
    await t.api.request('PATCH', ACCOUNT(p.account.id), {
      body: { is_public: false },
      token: p.user.token,
    });
    const hidden = await t.api.get(PUBLIC(p.account.monitoring_id));
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('MONITORING_PUBLIC_NOT_FOUND');
  });
});

describe('the maintenance’s thinning', () => {
  it('keeps an hour hosted only if all its minutes were: one from elsewhere makes it not, one unknown unknown', async () => {
    const p = await publisherOf(t, (logins += 1));
    const base = Math.floor((t.clock.now().getTime() - 31 * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const hour = (h: number, m: number) => new Date(base + h * HOUR_MS + m * MINUTE_MS);
    const hours: [number, (boolean | null)[]][] = [
      [0, [true, true, true]],
      [1, [true, false, true]],
      [2, [true, null, true]],
      [3, [null, false, true]],
      [4, [null, null, null]],
      // the hour's minute 00 kept in place, folded with the rest
      [5, [false, true]],
    ];
    for (const [h, flags] of hours)
      for (const [i, hosted] of flags.entries())
        await t.sql.query(
          `insert into monitoring_equity (account_id, at, balance, equity, equity_low, equity_high,
             margin, credit, hosted) values ($1, $2, 1, 1, 1, 1, 0, 0, $3)`,
          [p.account.id, hour(h, h === 5 ? i * 10 : 5 + i * 10), hosted],
        );
    await t.app.monitoringJobs.tick();
    const { rows } = await t.sql.query(
      'select at, hosted from monitoring_equity where account_id = $1 order by at',
      [p.account.id],
    );
    expect(rows).toEqual([
      { at: hour(0, 0), hosted: true },
      { at: hour(1, 0), hosted: false },
      { at: hour(2, 0), hosted: null },
      { at: hour(3, 0), hosted: false },
      { at: hour(4, 0), hosted: null },
      { at: hour(5, 0), hosted: false },
    ]);
  });
});
