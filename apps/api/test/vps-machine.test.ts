import { describe, expect, it } from 'vitest';
import { SEALED, openIn, sealIn } from '../src/db/sealed.ts';
import { putTerminals } from '../src/integrations/hypervisor/simulated.ts';
import { createSmtpMailer } from '../src/integrations/mail/smtp.ts';
import { createVpsWork } from '../src/modules/vps/vps.jobs.ts';
import { fieldRefusal, quickUser, refusal, useTestApp, type Json } from './helpers.ts';
import {
  DAY,
  expectStatus,
  injectFault,
  operationsOf,
  seedServer,
  serverAudit,
} from './vps-fixtures.ts';

/**
 * The owner's view into the machine, through the API and the simulated hypervisor: the load as
 * the hypervisor measured it, and the refusals.
 */

const t = useTestApp();

const METRICS = (id: number | string, query = '') => `/api/user/vps/servers/${id}/metrics${query}`;
const SNAPSHOTS = (id: number | string) => `/api/user/vps/servers/${id}/snapshots`;
const SNAPSHOT = (id: number | string, snapshotId: number | string) =>
  `/api/user/vps/servers/${id}/snapshots/${snapshotId}`;
const REINSTALL = (id: number | string) => `/api/user/vps/servers/${id}/reinstall`;
const PASSWORD_RESET = (id: number | string) => `/api/user/vps/servers/${id}/password-reset`;
const ACTIVITY = (id: number | string) => `/api/user/vps/servers/${id}/activity`;
const paidUntil = () => new Date(Date.now() + 30 * DAY);
const OLD_PASSWORD = 'Old-password-1!';

type User = Awaited<ReturnType<typeof quickUser>>;

/** Runs the server's queued operation; it must end `status`. */
async function runQueued(serverId: number, status: 'succeeded' | 'failed' = 'succeeded') {
  const queued = (await operationsOf(t, serverId)).filter((op) => op.status === 'queued');
  expect(queued).toHaveLength(1);
  await t.app.vpsJobs.runner.run(Number(queued[0]!.id));
  const [done] = (await operationsOf(t, serverId)).filter((op) => op.id === queued[0]!.id);
  expect(done, JSON.stringify(done)).toMatchObject({ status });
  return done!;
}

async function machineOf(serverId: number) {
  const { rows } = await t.sql.query(
    `select m.status, m.generation, m.terminals, s.password_enc, s.power
       from vps_servers s join sim_machines m on m.id = s.machine_id::int where s.id = $1`,
    [serverId],
  );
  return rows[0] as Json;
}

async function simSnapshots(serverId: number): Promise<string[]> {
  const { rows } = await t.sql.query(
    `select n.name from sim_snapshots n join vps_servers s on n.machine_id = s.machine_id::int
      where s.id = $1 order by n.id`,
    [serverId],
  );
  return rows.map((row) => row.name);
}

/** An active running server with a sealed password, as the runner leaves a created one. */
async function readyServer(user: User) {
  const server = await serverOf(user.id);
  await t.sql.query('update vps_servers set password_enc = $2 where id = $1', [
    server.id,
    sealIn(t.config, SEALED.vpsPassword, server.id, OLD_PASSWORD),
  ]);
  return server;
}

const post = (path: string, user: User, body?: unknown) =>
  t.api.post(path, body, { token: user.token });

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

describe('snapshots', () => {
  it('are taken, listed, rolled back to and deleted, each by an operation, at most two a server', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    const empty = await t.api.get(SNAPSHOTS(server.id), { token: user.token });
    expect(empty.body).toEqual({ data: [], limit: 2 });

    const taken = await post(SNAPSHOTS(server.id), user, { name: '  Before the EA update  ' });
    expectStatus(taken, 202);
    expect(taken.body.operation).toMatchObject({ kind: 'snapshot', status: 'queued' });
    // one operation at a time, as for a reboot
    expect((await post(SNAPSHOTS(server.id), user, { name: 'Second' })).body).toEqual(
      refusal('OPERATION_IN_PROGRESS'),
    );
    let list = (await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body;
    expect(list.data).toEqual([
      expect.objectContaining({ name: 'Before the EA update', status: 'creating', taken_at: null }),
    ]);
    await runQueued(server.id);
    list = (await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body;
    const first = list.data[0];
    expect(first).toMatchObject({ status: 'ready', automatic: false });
    expect(first.taken_at).toEqual(expect.any(String));
    expect(await simSnapshots(server.id)).toEqual([`th${first.id}`]);

    expectStatus(await post(SNAPSHOTS(server.id), user, { name: 'Second' }), 202);
    await runQueued(server.id);
    // the third is refused and writes nothing
    const operations = (await operationsOf(t, server.id)).length;
    const full = await post(SNAPSHOTS(server.id), user, { name: 'Third' });
    expectStatus(full, 409);
    expect(full.body).toEqual(refusal('SNAPSHOTS_FULL'));
    expect(await operationsOf(t, server.id)).toHaveLength(operations);
    expect((await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body.data).toHaveLength(
      2,
    );

    // a rollback returns the disk; the running server runs again, with the password the console shows
    await putTerminals(t.app.db, server.machineId!, ['terminal64.exe']);
    expectStatus(await post(`${SNAPSHOT(server.id, first.id)}/rollback`, user), 202);
    await runQueued(server.id);
    const back = await machineOf(server.id);
    expect(back).toMatchObject({ status: 'running', power: 'running', terminals: [] });
    expect(openIn(t.config, SEALED.vpsPassword, server.id, back.password_enc)).toBe(OLD_PASSWORD);

    const deleted = await t.api.request('DELETE', SNAPSHOT(server.id, first.id), {
      token: user.token,
    });
    expectStatus(deleted, 202);
    await runQueued(server.id);
    list = (await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body;
    expect(list.data.map((snapshot: Json) => snapshot.name)).toEqual(['Second']);
    expect(await simSnapshots(server.id)).toEqual([`th${list.data[0].id}`]);

    const kinds = (await t.api.get(ACTIVITY(server.id), { token: user.token })).body.data.map(
      (line: Json) => line.kind,
    );
    expect(kinds).toEqual(['snapshot_delete', 'rollback', 'snapshot', 'snapshot']);
  });

  it('refuses a bad name, another user’s server or snapshot, and one not ready, changing nothing', async () => {
    const owner = await quickUser(t);
    const stranger = await quickUser(t);
    const server = await readyServer(owner);
    const other = await readyServer(owner);
    for (const [name, code] of [
      ['', 'SNAPSHOT_NAME_REQUIRED'],
      ['   ', 'SNAPSHOT_NAME_REQUIRED'],
      ['x'.repeat(41), 'SNAPSHOT_NAME_TOO_LONG'],
    ] as const) {
      const res = await post(SNAPSHOTS(server.id), owner, { name });
      expectStatus(res, 422);
      expect(res.body).toEqual(fieldRefusal('name', code));
    }
    expectStatus(await post(SNAPSHOTS(server.id), owner, { name: 'two\nlines' }), 422);
    expectStatus(await post(SNAPSHOTS(server.id), owner, {}), 422);
    expect(await operationsOf(t, server.id)).toEqual([]);

    const theirs = await post(SNAPSHOTS(server.id), stranger, { name: 'Mine now' });
    expectStatus(theirs, 404);
    expect(theirs.body).toEqual(refusal('SERVER_NOT_FOUND'));
    expectStatus(await t.api.get(SNAPSHOTS(server.id), { token: stranger.token }), 404);

    expectStatus(await post(SNAPSHOTS(other.id), owner, { name: 'Other' }), 202);
    const [otherOp] = await operationsOf(t, other.id);
    const { rows } = await t.sql.query('select id from vps_snapshots where server_id = $1', [
      other.id,
    ]);
    const otherSnapshot = rows[0].id;
    // still being taken
    const early = await t.api.request('DELETE', SNAPSHOT(other.id, otherSnapshot), {
      token: owner.token,
    });
    expect(early.status).toBe(409);
    await t.app.vpsJobs.runner.run(Number(otherOp!.id));
    // another server's snapshot through this server's address
    const crossed = await post(`${SNAPSHOT(server.id, otherSnapshot)}/rollback`, owner);
    expectStatus(crossed, 404);
    expect(crossed.body).toEqual(refusal('SNAPSHOT_NOT_FOUND'));
    expectStatus(await post(`${SNAPSHOT(server.id, 999_999_999)}/rollback`, owner), 404);
    expect(await operationsOf(t, server.id)).toEqual([]);
  });

  it('a snapshot the hypervisor refuses leaves no row, and the room for it', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    await injectFault(t, 'createSnapshot', 'failed', 'snapshot feature is not available');
    expectStatus(await post(SNAPSHOTS(server.id), user, { name: 'Refused' }), 202);
    await runQueued(server.id, 'failed');
    expect((await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body.data).toEqual([]);
    expect(await simSnapshots(server.id)).toEqual([]);
  });
});

describe('reinstall', () => {
  it('puts a fresh Windows on the same server with a new password, a snapshot first, and mails the owner', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    await putTerminals(t.app.db, server.machineId!, ['terminal64.exe']);
    const before = await machineOf(server.id);
    const res = await post(REINSTALL(server.id), user);
    expectStatus(res, 202);
    expect(res.body.operation).toMatchObject({ kind: 'reinstall' });
    await runQueued(server.id);
    const after = await machineOf(server.id);
    expect(after).toMatchObject({
      status: 'running',
      power: 'running',
      terminals: [],
      generation: before.generation + 1,
    });
    const password = openIn(t.config, SEALED.vpsPassword, server.id, after.password_enc);
    expect(password).not.toBe(OLD_PASSWORD);
    // the same server: number and machine kept
    const { rows } = await t.sql.query('select machine_id from vps_servers where id = $1', [
      server.id,
    ]);
    expect(rows[0].machine_id).toBe(server.machineId);
    const snapshots = (await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body.data;
    expect(snapshots).toEqual([
      expect.objectContaining({ name: 'Before reinstall', automatic: true, status: 'ready' }),
    ]);
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.subject).toMatch(`server #${server.id} is reinstalled`);
    expect(mail.text).toContain('A snapshot of the previous state is kept');
    expect(mail.text).not.toContain(password);
    expect((await serverAudit(t, server.id)).map((row) => row.action)).toEqual([
      'vps.reinstall',
      'vps.reinstalled',
    ]);
  });

  it('without room for a snapshot still reinstalls; a blocked server is refused', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    for (const name of ['One', 'Two']) {
      expectStatus(await post(SNAPSHOTS(server.id), user, { name }), 202);
      await runQueued(server.id);
    }
    expectStatus(await post(REINSTALL(server.id), user), 202);
    await runQueued(server.id);
    const names = (await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body.data.map(
      (snapshot: Json) => snapshot.name,
    );
    expect(names).toEqual(['One', 'Two']);

    const blocked = await seedServer(t, {
      userId: user.id,
      status: 'blocked',
      machine: 'stopped',
      paidUntil: new Date(Date.now() - DAY),
    });
    const refused = await post(REINSTALL(blocked.id), user);
    expectStatus(refused, 409);
    expect(refused.body).toEqual(refusal('SERVER_NOT_ACTIVE'));
    expect(await operationsOf(t, blocked.id)).toEqual([]);
    expectStatus(await post(REINSTALL(server.id), await quickUser(t)), 404);
  });

  it('a reinstall whose snapshot fails does not go on: the disk is untouched', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    await putTerminals(t.app.db, server.machineId!, ['terminal64.exe']);
    const before = await machineOf(server.id);
    await injectFault(t, 'createSnapshot', 'failed', 'storage full');
    expectStatus(await post(REINSTALL(server.id), user), 202);
    await runQueued(server.id, 'failed');
    expect(await machineOf(server.id)).toEqual(before);
    expect((await t.api.get(SNAPSHOTS(server.id), { token: user.token })).body.data).toEqual([]);
  });
});

describe('a new Windows password', () => {
  it('is set through the guest agent, sealed, audited and mailed; a stopped server is refused', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    expectStatus(await post(PASSWORD_RESET(server.id), user), 202);
    await runQueued(server.id);
    const after = await machineOf(server.id);
    expect(openIn(t.config, SEALED.vpsPassword, server.id, after.password_enc)).not.toBe(
      OLD_PASSWORD,
    );
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.subject).toMatch(`server #${server.id} has a new password`);
    expect((await serverAudit(t, server.id)).map((row) => row.action)).toEqual([
      'vps.password_reset',
      'vps.password_changed',
    ]);

    const stopped = await seedServer(t, {
      userId: user.id,
      machine: 'stopped',
      paidUntil: paidUntil(),
    });
    const refused = await post(PASSWORD_RESET(stopped.id), user);
    expectStatus(refused, 409);
    expect(refused.body).toEqual(refusal('SERVER_NOT_RUNNING'));
    expect(await operationsOf(t, stopped.id)).toEqual([]);
  });

  it('a guest agent that never answers fails the operation and keeps the old password', async () => {
    const user = await quickUser(t);
    const server = await readyServer(user);
    // the first try and its three retries are all refused (the runner's pauses shortened)
    for (let i = 0; i < 4; i += 1)
      await injectFault(t, 'setPassword', 'failed', 'agent not running');
    expectStatus(await post(PASSWORD_RESET(server.id), user), 202);
    const [op] = await operationsOf(t, server.id);
    const mailer = createSmtpMailer(t.config.smtpUrl!, t.config.mailFrom);
    try {
      const { runner } = createVpsWork({
        config: t.config,
        db: t.app.db,
        mailer,
        now: t.clock.now,
        log: t.app.log,
        operations: t.app.vpsJobs.operations,
        retryDelaysMs: [5, 5, 5],
      });
      await runner.run(Number(op!.id));
    } finally {
      await mailer.close();
    }
    expect((await operationsOf(t, server.id))[0]).toMatchObject({ status: 'failed' });
    const { rows } = await t.sql.query(
      `select count(*)::int as n from sim_faults where operation = 'setPassword'`,
    );
    expect(rows[0].n).toBe(0);
    const after = await machineOf(server.id);
    expect(openIn(t.config, SEALED.vpsPassword, server.id, after.password_enc)).toBe(OLD_PASSWORD);
  });
});
