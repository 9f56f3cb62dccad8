import { describe, expect, it } from 'vitest';
import { quickUser, refusal, useTestApp, type Json } from './helpers.ts';
import { DAY, expectStatus, injectFault, seedServer } from './vps-fixtures.ts';

/**
 * The owner's view into the machine, through the API and the simulated hypervisor: the load as
 * the hypervisor measured it, and the refusals.
 */

const t = useTestApp();

const METRICS = (id: number | string, query = '') => `/api/user/vps/servers/${id}/metrics${query}`;
const paidUntil = () => new Date(Date.now() + 30 * DAY);

/** An active server whose machine has existed for `hours` (its load has history that long). */
async function serverOf(userId: number, hours = 24 * 10) {
  const server = await seedServer(t, { userId, paidUntil: paidUntil() });
  await t.sql.query(
    `update sim_machines set created_at = now() - $2 * interval '1 hour',
       status_since = now() - $2 * interval '1 hour' where id = $1`,
    [Number(server.machineId), hours],
  );
  return server;
}

describe('a server’s load', () => {
  it('is 70 points a step apart, oldest first, for the hour, the day and the week', async () => {
    const user = await quickUser(t);
    const server = await serverOf(user.id);
    for (const [timeframe, step] of [
      ['hour', 60],
      ['day', 1800],
      ['week', 10_800],
    ] as const) {
      const res = await t.api.get(METRICS(server.id, `?timeframe=${timeframe}`), {
        token: user.token,
      });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ timeframe, step_seconds: step });
      const points = res.body.points as Json[];
      expect(points).toHaveLength(70);
      const times = points.map((p) => Date.parse(p.at));
      expect(times.slice(1).map((time, i) => time - times[i]!)).toEqual(
        Array(69).fill(step * 1000),
      );
      // a machine up all along: every figure present, shares and totals in range
      for (const p of points) {
        expect(p.cpu).toBeGreaterThanOrEqual(0);
        expect(p.cpu).toBeLessThanOrEqual(1);
        expect(p.memory).toBeLessThanOrEqual(p.memory_total);
        expect(p.memory_total).toBe(4 * 1024 ** 3);
      }
      expect(res.body.pressure).toEqual({ cpu: false, memory: false });
    }
    // the hour unless told
    const hour = await t.api.get(METRICS(server.id), { token: user.token });
    expect(hour.body.timeframe).toBe('hour');
  });

  it('has gaps where the machine did not exist or was off, never zeros', async () => {
    const user = await quickUser(t);
    const young = await serverOf(user.id, 0.25);
    const res = await t.api.get(METRICS(young.id), { token: user.token });
    expectStatus(res, 200);
    const points = res.body.points as Json[];
    const measured = points.filter((p) => p.cpu !== null);
    // a quarter of an hour: the last 15 or 16 minutes have figures, the rest is a gap
    expect(measured.length).toBeGreaterThanOrEqual(15);
    expect(measured.length).toBeLessThanOrEqual(17);
    expect(points.at(-1)!.cpu).not.toBeNull();
    expect(points[0]).toMatchObject({ cpu: null, memory: null, net_in: null });
  });

  it('is refused for another user’s server, one not ready, a bad timeframe, and a hypervisor that does not answer', async () => {
    const owner = await quickUser(t);
    const stranger = await quickUser(t);
    const server = await serverOf(owner.id);
    const theirs = await t.api.get(METRICS(server.id), { token: stranger.token });
    expectStatus(theirs, 404);
    expect(theirs.body).toEqual(refusal('SERVER_NOT_FOUND'));
    expectStatus(await t.api.get(METRICS(999_999_999), { token: owner.token }), 404);
    expectStatus(await t.api.get(METRICS(server.id)), 401);

    const bad = await t.api.get(METRICS(server.id, '?timeframe=year'), { token: owner.token });
    expectStatus(bad, 422);

    const creating = await seedServer(t, {
      userId: owner.id,
      status: 'provisioning',
      paidUntil: paidUntil(),
    });
    const notReady = await t.api.get(METRICS(creating.id), { token: owner.token });
    expectStatus(notReady, 409);
    expect(notReady.body).toEqual(refusal('SERVER_NOT_READY'));
    const revoked = await seedServer(t, {
      userId: owner.id,
      status: 'revoked',
      machine: null,
      paidUntil: paidUntil(),
    });
    const gone = await t.api.get(METRICS(revoked.id), { token: owner.token });
    expectStatus(gone, 409);
    expect(gone.body).toEqual(refusal('SERVER_NOT_ACTIVE'));

    await injectFault(t, 'metrics', 'unavailable', 'pve1: connection refused (595)');
    const down = await t.api.get(METRICS(server.id), { token: owner.token });
    expectStatus(down, 503);
    expect(down.body).toEqual(refusal('HYPERVISOR_UNAVAILABLE'));
    expect(down.text).not.toContain('595');
    // the next read answers again
    expectStatus(await t.api.get(METRICS(server.id), { token: owner.token }), 200);
  });
});
