import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../src/integrations/mail/index.ts';
import { createSmtpMailer } from '../src/integrations/mail/smtp.ts';
import { createSimulatedHypervisor } from '../src/integrations/hypervisor/simulated.ts';
import { openIn, SEALED } from '../src/db/sealed.ts';
import { loadConfig } from '../src/config.ts';
import { SealedSecretError } from '../src/lib/crypto-box.ts';
import { createVpsWork } from '../src/modules/vps/vps.jobs.ts';
import { balancesOf, fund, ledgerInvariants, quickUser, useTestApp } from './helpers.ts';
import {
  charge,
  chargeRow,
  DAY,
  injectFault,
  machineRow,
  operationRow,
  queueOperation,
  rateNamed,
  seedServer,
  seedUpgrade,
  serverAudit,
  serverRow,
  useRate,
} from './vps-fixtures.ts';

const t = useTestApp();

const trader = useRate(t, 'Trader');
const pro = useRate(t, 'Pro');

const later = (days = 20) => new Date(t.clock.now().getTime() + days * DAY);

/** A user with money, and a paid server waiting for its create operation. */
async function ordered(options: { trial?: boolean; language?: 'en' | 'ru' } = {}) {
  const user = await quickUser(t);
  if (options.language)
    await t.sql.query('update users set language = $1 where id = $2', [options.language, user.id]);
  await fund(t, user.id, 10_000);
  const chargeId = options.trial ? null : await charge(t, user.id, trader.monthlyPriceCents);
  const server = await seedServer(t, {
    userId: user.id,
    status: 'provisioning',
    paidUntil: later(30),
    chargeId,
    isTrial: options.trial ?? false,
  });
  const operationId = await queueOperation(t, server.id, 'create');
  return { user, server, chargeId, operationId };
}

async function activeServer(machine: 'running' | 'stopped' = 'running') {
  const user = await quickUser(t);
  const server = await seedServer(t, { userId: user.id, paidUntil: later(), machine });
  return { user, server };
}

async function countMachines(): Promise<number> {
  const { rows } = await t.sql.query(
    'select count(*)::int as n from sim_machines where deleted_at is null',
  );
  return rows[0].n;
}

/** A second runner on the test app's database whose retries wait milliseconds. */
let quick: ReturnType<typeof createVpsWork>;
let quickMailer: Mailer;
beforeAll(() => {
  quickMailer = createSmtpMailer(t.config.smtpUrl!, t.config.mailFrom);
  quick = createVpsWork({
    config: t.config,
    db: t.app.db,
    mailer: quickMailer,
    now: t.clock.now,
    log: t.app.log,
    operations: t.app.vpsJobs.operations,
    retryDelaysMs: [5, 5, 5],
  });
});
afterAll(async () => quickMailer.close());

describe('create', () => {
  it('creates, boots and secures the machine, storing the password sealed, and mails no password', async () => {
    const { user, server, operationId } = await ordered();
    await t.app.vpsJobs.runner.run(operationId);

    const op = await operationRow(t, operationId);
    expect(op).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    expect(op.started_at).toBeInstanceOf(Date);
    expect(op.finished_at).toBeInstanceOf(Date);

    const row = await serverRow(t, server.id);
    expect(row).toMatchObject({
      status: 'active',
      power: 'running',
      port: 3389,
      username: 'Administrator',
      failure: null,
    });
    expect(row.host).toBe(`203.0.113.${1 + (Number(row.machine_id) % 254)}`);
    // sealed, not plain, for this row: it opens only there and with the configured key
    expect(row.password_enc).toMatch(/^v2\./);
    const password = openIn(t.config, SEALED.vpsPassword, server.id, row.password_enc);
    expect(password).toMatch(/^.{20}$/);
    expect(password).toMatch(/[A-Z]/);
    expect(password).toMatch(/[a-z]/);
    expect(password).toMatch(/\d/);
    expect(row.password_enc).not.toContain(password);
    const otherKey = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: t.config.jwtSecret,
      VPS_SECRET_KEY: 'another key of enough length, 0123456789',
    });
    expect(() => openIn(otherKey, SEALED.vpsPassword, server.id, row.password_enc)).toThrow(
      SealedSecretError,
    );
    expect(() => openIn(t.config, SEALED.vpsPassword, server.id + 1, row.password_enc)).toThrow(
      SealedSecretError,
    );

    const machine = await machineRow(t, row.machine_id);
    expect(machine).toMatchObject({ status: 'running', cores: 2, memory_mb: 4096, disk_gb: 60 });
    expect(machine.password_set_at).toBeInstanceOf(Date);

    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual(['vps.created']);
    const mail = await t.smtp.next(user.email);
    expect(mail.subject).toBe(`TradeHost: server #${server.id} is ready`);
    expect(mail.text).toContain(`${row.host}:3389`);
    expect(mail.text).toContain('Administrator');
    expect(mail.text).not.toContain(password);
    expect(mail.html).not.toContain(password);
  });

  it('runs an operation once: a second delivery finds it claimed', async () => {
    const { user, server, operationId } = await ordered();
    const machines = await countMachines();
    await Promise.all([
      t.app.vpsJobs.runner.run(operationId),
      t.app.vpsJobs.runner.run(operationId),
    ]);
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await countMachines()).toBe(machines + 1);
    expect((await serverRow(t, server.id)).status).toBe('active');
    await t.smtp.next(user.email);
    expect(t.smtp.to(user.email)).toHaveLength(1);
  });

  it('fails honestly and refunds the order exactly once when the hypervisor refuses', async () => {
    const { user, server, chargeId, operationId } = await ordered();
    const paid = await balancesOf(t, user.id);
    expect(paid.balance).toBe(10_000 - trader.monthlyPriceCents);
    await injectFault(t, 'createFromTemplate', 'failed', 'storage pool is full');

    await t.app.vpsJobs.runner.run(operationId);
    await t.app.vpsJobs.runner.run(operationId);

    const op = await operationRow(t, operationId);
    expect(op).toMatchObject({ status: 'failed', attempts: 1 });
    expect(op.error).toBe('failed: storage pool is full');
    const row = await serverRow(t, server.id);
    expect(row).toMatchObject({ status: 'failed', machine_id: null, password_enc: null });
    expect(row.failure).toBe(
      'The server could not be created: the virtualization host refused the operation. The payment was returned to your balance.',
    );
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    expect((await chargeRow(t, chargeId!)).status).toBe('cancelled');
    const { rows: refunds } = await t.sql.query(
      `select e.amount_cents from ledger_transactions x join ledger_entries e on e.transaction_id = x.id
        where x.kind = 'refund' and e.user_id = $1`,
      [user.id],
    );
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([trader.monthlyPriceCents]);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });

    const audit = await serverAudit(t, server.id);
    expect(audit.map((a) => a.action)).toEqual(['vps.create_failed']);
    expect(audit[0].details).toMatchObject({ refunded_cents: trader.monthlyPriceCents });
    const mail = await t.smtp.next(user.email);
    expect(mail.subject).toBe(`TradeHost: server #${server.id} could not be created`);
    expect(mail.text).toContain('The virtualization host refused the operation.');
    expect(mail.text).toContain(
      `$${(trader.monthlyPriceCents / 100).toFixed(2)} has been returned`,
    );
  });

  it('deletes the half-made machine when a later step fails', async () => {
    const { user, server, operationId } = await ordered({ language: 'ru' });
    const machines = await countMachines();
    await injectFault(t, 'setPassword', 'not_found', 'no such VM');
    await t.app.vpsJobs.runner.run(operationId);
    expect((await operationRow(t, operationId)).status).toBe('failed');
    expect((await serverRow(t, server.id)).status).toBe('failed');
    // created, started, then shut down and deleted again
    expect(await countMachines()).toBe(machines);
    const { rows } = await t.sql.query(
      `select status, deleted_at from sim_machines where name = $1`,
      [`vps-${server.id}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].deleted_at).toBeInstanceOf(Date);
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    const mail = await t.smtp.next(user.email);
    expect(mail.subject).toBe(`TradeHost: не удалось создать сервер №\u00a0${server.id}`);
    expect(mail.text).toContain('возвращена на ваш баланс');
  });

  it('fails a trial server without a refund (nothing was charged)', async () => {
    const { user, server, operationId } = await ordered({ trial: true });
    await injectFault(t, 'createFromTemplate', 'not_found', 'template 9000 does not exist');
    await t.app.vpsJobs.runner.run(operationId);
    const row = await serverRow(t, server.id);
    expect(row.status).toBe('failed');
    expect(row.failure).toBe(
      'The server could not be created: the machine or its template was not found on the virtualization host.',
    );
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
    expect((await serverAudit(t, server.id))[0].details).toMatchObject({ refunded_cents: 0 });
    expect((await t.smtp.next(user.email)).text).toContain('Nothing was charged');
  });

  it('retries a transient failure inside the job and then succeeds', async () => {
    const { server, operationId } = await ordered();
    await injectFault(t, 'createFromTemplate', 'unavailable', 'connection refused');
    await injectFault(t, 'start', 'timeout', 'no answer');
    await quick.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await serverRow(t, server.id)).toMatchObject({ status: 'active', power: 'running' });
    const { rows } = await t.sql.query('select count(*)::int as n from sim_faults');
    expect(rows[0].n).toBe(0);
  });

  it('gives up after its retries and refunds', async () => {
    const { user, server, operationId } = await ordered();
    for (let i = 0; i < 4; i += 1)
      await injectFault(t, 'createFromTemplate', 'unavailable', 'down');
    await quick.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({
      status: 'failed',
      error: 'unavailable: down',
    });
    expect((await serverRow(t, server.id)).failure).toMatch(/could not be reached/);
    expect((await balancesOf(t, user.id)).balance).toBe(10_000);
  });

  it('does not retry a refusal', async () => {
    const { operationId } = await ordered();
    await injectFault(t, 'createFromTemplate', 'failed', 'refused');
    await injectFault(t, 'createFromTemplate', 'failed', 'refused again');
    await quick.runner.run(operationId);
    expect((await operationRow(t, operationId)).error).toBe('failed: refused');
    const { rows } = await t.sql.query(`select message from sim_faults`);
    expect(rows.map((r) => r.message)).toEqual(['refused again']);
    await t.sql.query('delete from sim_faults');
  });

  it('leaves an operation an operator took over alone', async () => {
    const { server, operationId } = await ordered();
    await t.sql.query(
      `update vps_operations set status = 'failed', error = 'failed by an operator' where id = $1`,
      [operationId],
    );
    await t.app.vpsJobs.runner.run(operationId);
    expect((await operationRow(t, operationId)).error).toBe('failed by an operator');
    expect((await serverRow(t, server.id)).status).toBe('provisioning');
  });

  it('discards its machine when the operation was re-queued and claimed again meanwhile', async () => {
    const { server, operationId } = await ordered();
    const sim = createSimulatedHypervisor(t.app.db, { delayMs: { min: 1, max: 1 } });
    const mailer = createSmtpMailer(t.config.smtpUrl!, t.config.mailFrom);
    const work = createVpsWork({
      config: t.config,
      db: t.app.db,
      mailer,
      now: t.clock.now,
      log: t.app.log,
      operations: t.app.vpsJobs.operations,
      hypervisor: {
        ...sim,
        // while this run boots the machine, an operator re-queues it and another run claims it
        async start(id) {
          await t.sql.query(`update vps_operations set attempts = attempts + 1 where id = $1`, [
            operationId,
          ]);
          await sim.start(id);
        },
      },
    });
    await work.runner.run(operationId);
    await mailer.close();
    expect(await operationRow(t, operationId)).toMatchObject({ status: 'running', attempts: 2 });
    expect(await serverRow(t, server.id)).toMatchObject({
      status: 'provisioning',
      machine_id: null,
    });
    const { rows } = await t.sql.query(`select deleted_at from sim_machines where name = $1`, [
      `vps-${server.id}`,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].deleted_at).toBeInstanceOf(Date);
  });
});

describe('start, shutdown, reboot', () => {
  it.each([
    ['shutdown', 'running', 'stopped'],
    ['start', 'stopped', 'running'],
    ['reboot', 'running', 'running'],
  ] as const)('%s of a %s machine leaves it %s', async (kind, before, after) => {
    const { server } = await activeServer(before);
    const operationId = await queueOperation(t, server.id, kind);
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({ status: 'succeeded', error: null });
    expect((await serverRow(t, server.id)).power).toBe(after);
    expect((await machineRow(t, server.machineId!)).status).toBe(after);
  });

  it('a refused shutdown fails and keeps the power the hypervisor reports', async () => {
    const { server } = await activeServer('running');
    await t.sql.query(`update vps_servers set power = 'unknown' where id = $1`, [server.id]);
    await injectFault(t, 'shutdown', 'failed', 'guest did not respond to ACPI');
    const operationId = await queueOperation(t, server.id, 'shutdown');
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({
      status: 'failed',
      error: 'failed: guest did not respond to ACPI',
    });
    expect((await serverRow(t, server.id)).power).toBe('running');
  });

  it('a reboot of a stopped machine fails and the server shows stopped', async () => {
    const { server } = await activeServer('stopped');
    await t.sql.query(`update vps_servers set power = 'running' where id = $1`, [server.id]);
    const operationId = await queueOperation(t, server.id, 'reboot');
    await t.app.vpsJobs.runner.run(operationId);
    expect((await operationRow(t, operationId)).status).toBe('failed');
    expect((await serverRow(t, server.id)).power).toBe('stopped');
  });

  it('a start the user asked for on a stale view of a running machine has reached its goal', async () => {
    const { server } = await activeServer('running');
    const operationId = await queueOperation(t, server.id, 'start');
    await t.app.vpsJobs.runner.run(operationId);
    expect((await operationRow(t, operationId)).status).toBe('succeeded');
    expect((await serverRow(t, server.id)).power).toBe('running');
  });

  it('a timed-out start is retried', async () => {
    const { server } = await activeServer('stopped');
    await injectFault(t, 'start', 'timeout', 'no answer');
    const operationId = await queueOperation(t, server.id, 'start');
    await quick.runner.run(operationId);
    expect((await operationRow(t, operationId)).status).toBe('succeeded');
    expect((await machineRow(t, server.machineId!)).status).toBe('running');
  });

  it('fails an operation on a server without a machine', async () => {
    const user = await quickUser(t);
    const server = await seedServer(t, { userId: user.id, paidUntil: later(), machine: null });
    const operationId = await queueOperation(t, server.id, 'reboot');
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({
      status: 'failed',
      error: 'the server has no machine',
    });
    expect((await serverRow(t, server.id)).power).toBe('unknown');
  });
});

describe('upgrade', () => {
  async function upgradeOf(machine: 'running' | 'stopped' = 'running') {
    const user = await quickUser(t);
    await fund(t, user.id, 5_000);
    const server = await seedServer(t, { userId: user.id, paidUntil: later(), machine });
    const upgrade = await seedUpgrade(t, {
      serverId: server.id,
      userId: user.id,
      on: t.clock.now(),
      priceCents: 1_100,
    });
    const operationId = await queueOperation(t, server.id, 'upgrade', { upgradeId: upgrade.id });
    return { user, server, upgrade, operationId };
  }

  async function upgradeRow(id: number) {
    const { rows } = await t.sql.query('select * from vps_upgrades where id = $1', [id]);
    return rows[0];
  }

  it('shuts down, resizes to the new rate, starts again and moves the server to the rate', async () => {
    const { user, server, upgrade, operationId } = await upgradeOf();
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({ status: 'succeeded', error: null });
    expect(await serverRow(t, server.id)).toMatchObject({ rate_id: pro.id, power: 'running' });
    expect(await machineRow(t, server.machineId!)).toMatchObject({
      status: 'running',
      cores: pro.cpuCores,
      memory_mb: pro.ramGb * 1024,
      disk_gb: pro.diskGb,
    });
    const row = await upgradeRow(upgrade.id);
    expect(row.status).toBe('done');
    expect(row.finished_at).toBeInstanceOf(Date);
    expect((await chargeRow(t, upgrade.chargeId!)).status).toBe('paid');
    expect((await balancesOf(t, user.id)).balance).toBe(5_000 - 1_100);
    expect((await serverAudit(t, server.id)).map((a) => a.action)).toEqual(['vps.upgrade_done']);
    const mail = await t.smtp.next(user.email);
    expect(mail.subject).toBe(`TradeHost: server #${server.id} is upgraded`);
    expect(mail.text).toContain('Pro, London (LD4)');
    expect(mail.text).toContain('running again');
  });

  it('keeps a stopped server stopped', async () => {
    const { server, operationId } = await upgradeOf('stopped');
    await t.app.vpsJobs.runner.run(operationId);
    expect((await operationRow(t, operationId)).status).toBe('succeeded');
    expect(await serverRow(t, server.id)).toMatchObject({ rate_id: pro.id, power: 'stopped' });
  });

  it('a failed resize fails the upgrade, refunds it and leaves the server on its rate, running', async () => {
    const { user, server, upgrade, operationId } = await upgradeOf();
    await injectFault(t, 'resize', 'failed', 'storage cannot grow');
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({
      status: 'failed',
      error: 'failed: storage cannot grow',
    });
    expect(await serverRow(t, server.id)).toMatchObject({ rate_id: trader.id, power: 'running' });
    expect(await machineRow(t, server.machineId!)).toMatchObject({
      status: 'running',
      cores: trader.cpuCores,
    });
    expect((await upgradeRow(upgrade.id)).status).toBe('failed');
    expect((await chargeRow(t, upgrade.chargeId!)).status).toBe('cancelled');
    expect((await balancesOf(t, user.id)).balance).toBe(5_000);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
    const audit = await serverAudit(t, server.id);
    expect(audit.map((a) => a.action)).toEqual(['vps.upgrade_failed']);
    expect(audit[0].details).toMatchObject({ refunded_cents: 1_100, to_rate_id: pro.id });
    const mail = await t.smtp.next(user.email);
    expect(mail.subject).toBe(`TradeHost: server #${server.id} could not be upgraded`);
    expect(mail.text).toContain('$11.00 has been returned');
  });

  it('refuses an upgrade that is no longer pending, without a refund', async () => {
    const { user, upgrade, operationId } = await upgradeOf();
    await t.sql.query(`update vps_upgrades set status = 'cancelled' where id = $1`, [upgrade.id]);
    await t.app.vpsJobs.runner.run(operationId);
    expect(await operationRow(t, operationId)).toMatchObject({
      status: 'failed',
      error: 'the upgrade is cancelled, not pending',
    });
    expect((await chargeRow(t, upgrade.chargeId!)).status).toBe('paid');
    expect((await balancesOf(t, user.id)).balance).toBe(5_000 - 1_100);
  });
});

describe('the real queue (pg-boss)', () => {
  const q = useTestApp({ env: { JOBS_ENABLED: 'true' } });

  it('dispatch -> worker -> the operation succeeded, once', async () => {
    const rate = await rateNamed(q, 'Start');
    const user = await quickUser(q);
    const server = await seedServer(q, {
      userId: user.id,
      rate,
      status: 'provisioning',
      paidUntil: new Date(Date.now() + 30 * DAY),
    });
    const operationId = await queueOperation(q, server.id, 'create');
    await q.app.vpsJobs.operations.dispatch(operationId);
    await q.app.vpsJobs.operations.dispatch(operationId);

    let op = await operationRow(q, operationId);
    for (let waited = 0; waited < 20_000 && op.status !== 'succeeded'; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      op = await operationRow(q, operationId);
    }
    expect(op).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect((await serverRow(q, server.id)).status).toBe('active');

    // each job completes (a second dispatch made at most one more job, which found nothing to do)
    let states: string[] = [];
    for (let waited = 0; waited < 10_000; waited += 100) {
      const { rows } = await q.sql.query(
        `select state from pgboss.job where name = 'vps-operation' and singleton_key = $1`,
        [String(operationId)],
      );
      states = rows.map((row) => row.state);
      if (states.every((state) => state === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(states.length).toBeGreaterThanOrEqual(1);
    expect(states.length).toBeLessThanOrEqual(2);
    expect(states.every((state) => state === 'completed')).toBe(true);
    expect(await operationRow(q, operationId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const { rows: schedules } = await q.sql.query(
      `select name, cron from pgboss.schedule order by name`,
    );
    expect(schedules).toEqual([
      { name: 'balance-crypto-check', cron: '* * * * *' },
      { name: 'balance-payment-expiry', cron: '17 * * * *' },
      { name: 'housekeeping', cron: '17 * * * *' },
      { name: 'monitoring-alerts-tick', cron: '* * * * *' },
      { name: 'monitoring-maintenance', cron: '*/10 * * * *' },
      { name: 'monitoring-reports', cron: '*/15 * * * *' },
      { name: 'partner-rewards', cron: '*/5 * * * *' },
      { name: 'vps-guardian-check', cron: '* * * * *' },
      { name: 'vps-lifecycle', cron: '* * * * *' },
    ]);
  });
});
