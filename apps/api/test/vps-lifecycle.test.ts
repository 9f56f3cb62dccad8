import { addMonths } from '@tradehost/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LifecycleReport } from '../src/modules/vps/vps.jobs.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { renewServer } from '../src/modules/vps/vps.renewal.ts';
import { vpsRepository } from '../src/modules/vps/vps.repository.ts';
import { balancesOf, fund, ledgerInvariants, memosOf, quickUser, useTestApp } from './helpers.ts';
import {
  chargeRow,
  DAY,
  HOUR,
  machineRow,
  operationRow,
  operationsOf,
  queueOperation,
  seedServer,
  seedUpgrade,
  serverAudit,
  serverRow,
  useRate,
} from './vps-fixtures.ts';

const t = useTestApp();

const trader = useRate(t, 'Trader');
const pro = useRate(t, 'Pro');

// each test sees only its own servers, so the report's counts are its own
beforeEach(async () => {
  await t.sql.query('delete from vps_upgrades');
  await t.sql.query('delete from vps_servers');
});

const NOTHING: LifecycleReport = {
  autoRenewed: 0,
  autoRenewFailed: 0,
  warned3d: 0,
  warned1d: 0,
  blocked: 0,
  revoked: 0,
  upgradesStarted: 0,
  redispatched: 0,
};

const tick = () => t.app.vpsJobs.lifecycle.tick();
const fromNow = (ms: number) => new Date(t.clock.now().getTime() + ms);
const mailsTo = (email: string) => t.smtp.to(email).map((mail) => mail.subject);

/** Waits until `email` has `count` mails (they are sent after each commit). */
async function mailCount(email: string, count: number) {
  if (count > 0) await t.smtp.next(email, count - 1);
  // and no more arrive
  await new Promise((resolve) => setTimeout(resolve, 50));
  return t.smtp.to(email).length;
}

async function runOperations(serverId: number) {
  for (const op of await operationsOf(t, serverId))
    if (op.status === 'queued') await t.app.vpsJobs.runner.run(Number(op.id));
}

describe('warnings', () => {
  it('mails 3 days and 1 day before paid-until, once each', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(3 * DAY - HOUR) });
    expect(await tick()).toEqual({ ...NOTHING, warned3d: 1 });
    expect(await tick()).toEqual(NOTHING);
    expect(await mailCount(user.email, 1)).toBe(1);
    const first = t.smtp.to(user.email)[0]!;
    expect(first.subject).toMatch(new RegExp(`^TradeHost: server #${server.id} is paid until `));
    expect(first.text).toContain('ends in 3 days');
    expect((await serverRow(t, server.id)).warned_3d_at).toBeInstanceOf(Date);

    t.clock.advance(2 * DAY);
    expect(await tick()).toEqual({ ...NOTHING, warned1d: 1 });
    expect(await tick()).toEqual(NOTHING);
    expect(await mailCount(user.email, 2)).toBe(2);
    expect(t.smtp.to(user.email)[1]!.text).toContain('ends in 1 day');
    expect((await serverRow(t, server.id)).status).toBe('active');
  });

  it('sends only the 1-day warning to a server first seen within a day, none to a far one', async () => {
    const user = await quickUser(t);
    await t.sql.query(`update users set language = 'ru' where id = $1`, [user.id]);
    const near = await seedServer(t, { userId: user.id, paidUntil: fromNow(5 * HOUR) });
    await seedServer(t, { userId: user.id, paidUntil: fromNow(10 * DAY) });
    expect(await tick()).toEqual({ ...NOTHING, warned1d: 1 });
    expect(await tick()).toEqual(NOTHING);
    expect(await mailCount(user.email, 1)).toBe(1);
    expect(t.smtp.to(user.email)[0]!.text).toContain('заканчивается через 1 день');
    const row = await serverRow(t, near.id);
    expect(row.warned_1d_at).toBeInstanceOf(Date);
    expect(row.warned_3d_at).toBeInstanceOf(Date);
  });

  it('does not send a trial the 3-day warning (it was told its length)', async () => {
    const user = await quickUser(t);
    await seedServer(t, { userId: user.id, paidUntil: fromNow(3 * DAY - HOUR), isTrial: true });
    expect(await tick()).toEqual(NOTHING);
    t.clock.advance(2 * DAY + HOUR);
    expect(await tick()).toEqual({ ...NOTHING, warned1d: 1 });
  });
});

describe('auto-renewal', () => {
  it('renews within a day of paid-until from the balance, mails and audits it, once', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const paidUntil = fromNow(12 * HOUR);
    const server = await seedServer(t, {
      userId: user.id,
      paidUntil,
      autoRenew: true,
      renewMonths: 3,
    });
    expect(await tick()).toEqual({ ...NOTHING, autoRenewed: 1 });
    expect(await tick()).toEqual(NOTHING);

    const row = await serverRow(t, server.id);
    expect(row.paid_until.getTime()).toBe(addMonths(paidUntil, 3).getTime());
    expect(row.status).toBe('active');
    // 3 months less the 5 % period discount
    const price = Math.round(trader.monthlyPriceCents * 3 * 0.95);
    expect((await balancesOf(t, user.id)).balance).toBe(10_000 - price);
    const { rows: charges } = await t.sql.query(
      'select amount_cents, description_en from charges where user_id = $1',
      [user.id],
    );
    expect(charges).toEqual([
      {
        amount_cents: String(price),
        description_en: `VPS #${server.id} Trader, London (LD4): 3 months`,
      },
    ]);
    const audit = await serverAudit(t, server.id);
    expect(audit.map((a) => a.action)).toEqual(['vps.auto_renew']);
    expect(audit[0].actor_id).toBeNull();
    expect(audit[0].details).toMatchObject({ months: 3, amount_cents: price });
    expect(await mailCount(user.email, 1)).toBe(1);
    expect(mailsTo(user.email)).toEqual([`TradeHost: server #${server.id} renewed automatically`]);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('tells the user once per period when the balance is short, and renews once it is topped up', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 500);
    const server = await seedServer(t, {
      userId: user.id,
      paidUntil: fromNow(20 * HOUR),
      autoRenew: true,
    });
    expect(await tick()).toEqual({ ...NOTHING, autoRenewFailed: 1, warned1d: 1 });
    expect(await tick()).toEqual(NOTHING);
    t.clock.advance(HOUR);
    expect(await tick()).toEqual(NOTHING);
    expect(await mailCount(user.email, 2)).toBe(2);
    const failed = t.smtp
      .to(user.email)
      .find((mail) => mail.subject.includes('could not be renewed'))!;
    expect(failed.text).toContain('your balance is $5.00 and the renewal costs $22.00');
    expect((await balancesOf(t, user.id)).balance).toBe(500);
    expect((await serverRow(t, server.id)).auto_renew_failed_at).toBeInstanceOf(Date);
    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual([
      'vps.auto_renew_failed',
    ]);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });

    await fund(t, user.id, 5_000);
    expect(await tick()).toEqual({ ...NOTHING, autoRenewed: 1 });
    const row = await serverRow(t, server.id);
    expect(row.auto_renew_failed_at).toBeNull();
    expect(row.warned_1d_at).toBeNull();
    expect((await balancesOf(t, user.id)).balance).toBe(5_500 - trader.monthlyPriceCents);
  });
});

describe('block, reactivate, revoke', () => {
  it('blocks a server at paid-until and its block operation stops the machine', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(-60_000) });
    expect(await tick()).toEqual({ ...NOTHING, blocked: 1 });
    expect(await tick()).toEqual(NOTHING);

    const row = await serverRow(t, server.id);
    expect(row.status).toBe('blocked');
    expect(row.blocked_at).toBeInstanceOf(Date);
    const ops = await operationsOf(t, server.id);
    expect(ops.map((op) => [op.kind, op.status, op.actor_id])).toEqual([['block', 'queued', null]]);
    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual(['vps.block']);
    expect(await mailCount(user.email, 1)).toBe(1);
    const mail = t.smtp.to(user.email)[0]!;
    expect(mail.subject).toBe(`TradeHost: server #${server.id} is blocked`);
    expect(mail.text).toContain('Its data is kept');

    await t.app.vpsJobs.runner.run(Number(ops[0].id));
    expect((await operationRow(t, Number(ops[0].id))).status).toBe('succeeded');
    expect((await serverRow(t, server.id)).power).toBe('stopped');
    expect((await machineRow(t, server.machineId!)).status).toBe('stopped');
  });

  it('blocks a trial server at the end of its trial', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, {
      userId: user.id,
      paidUntil: fromNow(-1000),
      isTrial: true,
    });
    expect(await tick()).toEqual({ ...NOTHING, blocked: 1 });
    expect((await serverRow(t, server.id)).status).toBe('blocked');
  });

  it('waits for a running operation before blocking', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(-1000) });
    const reboot = await queueOperation(t, server.id, 'reboot');
    expect(await tick()).toEqual(NOTHING);
    expect((await serverRow(t, server.id)).status).toBe('active');
    expect(await mailCount(user.email, 0)).toBe(0);
    await t.app.vpsJobs.runner.run(reboot);
    expect(await tick()).toEqual({ ...NOTHING, blocked: 1 });
    expect((await serverRow(t, server.id)).status).toBe('blocked');
  });

  it('a renewal within the grace period makes it active again through reactivate', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(-1000) });
    await tick();
    await runOperations(server.id);
    t.clock.advance(3 * DAY);

    // the user renews (the route does this in its transaction)
    const renewed = await inTransaction(t.app.db, async (tx) => {
      const locked = await vpsRepository.lockServer(tx, server.id, null);
      return renewServer(tx, {
        server: locked!,
        months: 1,
        actorId: user.id,
        now: t.clock.now(),
      });
    });
    expect(renewed.operation?.kind).toBe('reactivate');
    await t.app.vpsJobs.runner.run(renewed.operation!.id);

    const row = await serverRow(t, server.id);
    expect(row).toMatchObject({ status: 'active', power: 'running', blocked_at: null });
    expect((await machineRow(t, server.machineId!)).status).toBe('running');
    expect((await operationRow(t, renewed.operation!.id)).status).toBe('succeeded');
    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual([
      'vps.block',
      'vps.reactivate',
    ]);
    expect(await mailCount(user.email, 2)).toBe(2);
    expect(mailsTo(user.email)[1]).toBe(`TradeHost: server #${server.id} is running again`);

    // paid again: the lifecycle leaves it alone
    t.clock.advance(5 * DAY);
    expect(await tick()).toEqual(NOTHING);
  });

  it('revokes after the grace period: the machine is deleted and a pending upgrade refunded', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(-1000) });
    const upgrade = await seedUpgrade(t, {
      serverId: server.id,
      userId: user.id,
      on: fromNow(30 * DAY),
      priceCents: 700,
    });
    await tick();
    await runOperations(server.id);
    expect((await serverRow(t, server.id)).status).toBe('blocked');

    t.clock.advance(t.config.vps.graceDays * DAY - HOUR);
    expect(await tick()).toEqual(NOTHING);
    t.clock.advance(2 * HOUR);
    expect(await tick()).toEqual({ ...NOTHING, revoked: 1 });
    expect(await tick()).toEqual(NOTHING);

    const row = await serverRow(t, server.id);
    expect(row.status).toBe('revoked');
    expect(row.revoked_at).toBeInstanceOf(Date);
    const revoke = (await operationsOf(t, server.id)).find((op) => op.kind === 'revoke')!;
    await t.app.vpsJobs.runner.run(Number(revoke.id));
    expect((await operationRow(t, Number(revoke.id))).status).toBe('succeeded');
    expect(await serverRow(t, server.id)).toMatchObject({ power: 'stopped', password_enc: null });
    expect((await machineRow(t, server.machineId!)).deleted_at).toBeInstanceOf(Date);

    const { rows } = await t.sql.query('select status from vps_upgrades where id = $1', [
      upgrade.id,
    ]);
    expect(rows[0].status).toBe('cancelled');
    expect((await chargeRow(t, upgrade.chargeId!)).status).toBe('cancelled');
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    expect((await memosOf(t, user.id))[0]).toEqual({
      kind: 'refund',
      memo: null,
      memo_code: 'vps_upgrade_revoked_refund',
      memo_params: { server_id: server.id },
    });
    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual([
      'vps.block',
      'vps.revoke',
    ]);
    expect(await mailCount(user.email, 2)).toBe(2);
    expect(mailsTo(user.email)[1]).toBe(`TradeHost: server #${server.id} is revoked`);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('revokes a server whose machine is already gone', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, {
      userId: user.id,
      status: 'blocked',
      machine: 'stopped',
      paidUntil: fromNow(-(t.config.vps.graceDays + 1) * DAY),
    });
    await t.sql.query('update sim_machines set deleted_at = now() where id = $1', [
      Number(server.machineId),
    ]);
    expect(await tick()).toEqual({ ...NOTHING, revoked: 1 });
    await runOperations(server.id);
    const ops = await operationsOf(t, server.id);
    expect(ops.map((op) => [op.kind, op.status])).toEqual([['revoke', 'succeeded']]);
  });
});

describe('upgrades and queued operations', () => {
  it('starts a due upgrade once, and not one scheduled for later', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const due = await seedServer(t, { userId: user.id, paidUntil: fromNow(20 * DAY) });
    const dueUpgrade = await seedUpgrade(t, {
      serverId: due.id,
      userId: user.id,
      on: t.clock.now(),
      priceCents: 900,
    });
    const later = await seedServer(t, { userId: user.id, paidUntil: fromNow(20 * DAY) });
    await seedUpgrade(t, {
      serverId: later.id,
      userId: user.id,
      on: fromNow(2 * DAY),
      priceCents: 900,
    });

    expect(await tick()).toEqual({ ...NOTHING, upgradesStarted: 1 });
    expect(await tick()).toEqual(NOTHING);
    const ops = await operationsOf(t, due.id);
    expect(ops.map((op) => [op.kind, op.status, op.payload])).toEqual([
      ['upgrade', 'queued', { upgradeId: dueUpgrade.id }],
    ]);
    await t.app.vpsJobs.runner.run(Number(ops[0].id));
    expect((await serverRow(t, due.id)).rate_id).toBe(pro.id);
    expect(await tick()).toEqual(NOTHING);
    expect(await operationsOf(t, later.id)).toEqual([]);
  });

  it('waits for a running operation before it upgrades', async () => {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(20 * DAY) });
    await seedUpgrade(t, {
      serverId: server.id,
      userId: user.id,
      on: t.clock.now(),
      priceCents: 900,
    });
    const shutdown = await queueOperation(t, server.id, 'shutdown');
    expect((await tick()).upgradesStarted).toBe(0);
    await t.app.vpsJobs.runner.run(shutdown);
    expect((await tick()).upgradesStarted).toBe(1);
  });

  it('dispatches operations left queued for over a minute again', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, { userId: user.id, paidUntil: fromNow(20 * DAY) });
    const reboot = await queueOperation(t, server.id, 'reboot');
    expect((await tick()).redispatched).toBe(0);
    // the age of a queued operation is the database's (it stamps created_at)
    await t.sql.query(
      `update vps_operations set created_at = now() - interval '61 seconds' where id = $1`,
      [reboot],
    );
    expect((await tick()).redispatched).toBe(1);
    await t.app.vpsJobs.runner.run(reboot);
    expect((await tick()).redispatched).toBe(0);
  });
});

describe('idempotent ticks', () => {
  it('two ticks at once do what one does', async () => {
    const users = await Promise.all([quickUser(t), quickUser(t), quickUser(t), quickUser(t)]);
    await fund(t, users[1]!.id, 10_000);
    await seedServer(t, { userId: users[0]!.id, paidUntil: fromNow(3 * DAY - HOUR) });
    await seedServer(t, { userId: users[1]!.id, paidUntil: fromNow(HOUR), autoRenew: true });
    await seedServer(t, { userId: users[2]!.id, paidUntil: fromNow(-HOUR) });
    await seedServer(t, {
      userId: users[3]!.id,
      status: 'blocked',
      machine: 'stopped',
      paidUntil: fromNow(-30 * DAY),
    });
    const before = await balancesOf(t, users[1]!.id);

    const reports = await Promise.all([tick(), tick()]);
    const sum = Object.fromEntries(
      Object.keys(NOTHING).map((key) => [
        key,
        reports.reduce((total, report) => total + report[key as keyof LifecycleReport], 0),
      ]),
    );
    expect(sum).toEqual({ ...NOTHING, warned3d: 1, autoRenewed: 1, blocked: 1, revoked: 1 });
    expect(await tick()).toEqual(NOTHING);

    expect((await balancesOf(t, users[1]!.id)).balance).toBe(
      before.balance - trader.monthlyPriceCents,
    );
    const { rows } = await t.sql.query(
      'select kind, count(*)::int as n from vps_operations group by kind order by kind',
    );
    expect(rows).toEqual([
      { kind: 'block', n: 1 },
      { kind: 'revoke', n: 1 },
    ]);
    for (const user of users) expect(await mailCount(user.email, 1)).toBe(1);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });
});
