import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crashTerminal, putTerminals } from '../src/integrations/hypervisor/simulated.ts';
import { refusal, type Json, type TestApp } from './helpers.ts';
import { linkChat, startAppWithBot, type TelegramTestApp } from './telegram-app.ts';
import type { TelegramEmulator } from './telegram-emulator.ts';
import { runningCount } from '../src/modules/vps/vps.guardian.ts';
import { paidSubscription, publisherOf, send, snapshot, SNAPSHOT } from './monitoring-fixtures.ts';
import { DAY, expectStatus, operationsOf, seedServer } from './vps-fixtures.ts';

/**
 * The terminal guardian end to end, in `npm test`: a publisher on a simulated server whose
 * terminal process closes; the silent-terminal alert fires within its window; the guardian finds
 * the cause through the guest agent (tasklist), starts the terminal through the template's
 * scheduled task; the terminal publishes again; the owner gets one message saying all of it.
 */

// with the chat-bot on (the Telegram Bot API emulator), so the monitoring chat can be told too
let bot: TelegramTestApp;
let t: TestApp;
let emulator: TelegramEmulator;
beforeAll(async () => {
  bot = await startAppWithBot({
    token: '1000:guardian-test',
    username: 'tradehost_guardian_bot',
    secret: 'guardian-test-webhook-secret',
  });
  ({ t, emulator } = bot);
});
afterAll(async () => bot?.close());
const MINUTE = 60_000;
const WEDNESDAY_NOON = '2027-03-03T12:00:00.000Z';
const GUARDIAN = (id: number) => `/api/user/vps/servers/${id}/guardian`;

const setClock = (app: TestApp, iso: string) =>
  app.clock.advance(Date.parse(iso) - app.clock.now().getTime());

afterEach(() => t.clock.advance(Date.now() - t.clock.now().getTime()));

const position = (ticket: number) => ({
  ticket,
  symbol: 'EURUSD',
  type: 'buy',
  volume: 0.1,
  open_time: '2027-03-03T09:00:00.000Z',
  open_price: 1.08,
  current_price: 1.081,
  sl: 0,
  tp: 0,
  profit: 10,
  swap: 0,
});

/** A trader whose MT5 publishes from their own server, with a no-data rule of 10 minutes. */
let nextLogin = 7_100_000;

async function tradingServer(policy?: Record<string, unknown>) {
  nextLogin += 1;
  const who = { ...(await publisherOf(t, nextLogin)), login: nextLogin };
  const server = await seedServer(t, {
    userId: who.user.id,
    paidUntil: new Date(Date.now() + 30 * DAY),
  });
  // the publisher writes from the server's address (in the tests, loopback)
  await t.sql.query(`update vps_servers set host = '127.0.0.1' where id = $1`, [server.id]);
  await putTerminals(t.app.db, server.machineId!, ['terminal64.exe']);
  if (policy) {
    const res = await t.api.request('PUT', GUARDIAN(server.id), {
      token: who.user.token,
      body: policy,
    });
    expectStatus(res, 200);
  }
  const rule = await t.api.request(
    'PATCH',
    `/api/user/monitoring/accounts/${who.account.id}/alerts`,
    {
      token: who.user.token,
      body: { rules: { no_data: { enabled: true, threshold: 10 } } },
    },
  );
  expectStatus(rule, 200);
  return { who, server };
}

type Trading = Awaited<ReturnType<typeof tradingServer>>;

/**
 * The terminals publish at noon on a Wednesday (market hours), two positions open; the clock
 * moves there only now, after the users' sign-ins (their tokens are of the wall clock).
 */
async function publishAtNoon(...list: Trading[]) {
  setClock(t, WEDNESDAY_NOON);
  for (const { who } of list) {
    await publish(who, [position(1), position(2)]);
    await t.sql.query('update monitoring_accounts set last_data_at = $2 where id = $1', [
      who.account.id,
      WEDNESDAY_NOON,
    ]);
  }
}

async function publish(who: Trading['who'], positions: unknown[]) {
  const res = await send(t, SNAPSHOT, who.key, {
    ...snapshot({ time: t.clock.now().toISOString(), login: who.login }),
    positions,
  });
  expect(res.status, res.text).toBe(200);
}

async function incidentsOf(serverId: number) {
  const { rows } = await t.sql.query(
    `select cause, action, status, positions from vps_guardian_incidents where server_id = $1
      order by id`,
    [serverId],
  );
  return rows;
}

const mailsTo = (email: string) => t.smtp.to(email);

/** Runs every queued operation of the server (the runner, by hand: jobs are off here). */
async function runOperations(serverId: number) {
  for (const op of await operationsOf(t, serverId))
    if (op.status === 'queued') await t.app.vpsJobs.runner.run(Number(op.id));
}

describe('the terminal guardian', () => {
  it('finds a closed terminal, starts it again, sees it publish, and tells the owner once', async () => {
    const trading = await tradingServer();
    const { who, server } = trading;
    await publishAtNoon(trading);
    await crashTerminal(t.app.db, server.machineId!);

    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    // the alert is the guardian's to tell: not mailed on its own
    const [event] = (
      await t.sql.query(
        `select email_status, details from monitoring_alert_events where account_id = $1`,
        [who.account.id],
      )
    ).rows;
    expect(event).toMatchObject({
      email_status: 'skipped',
      details: { guardian: { email: true, telegram: true } },
    });
    expect(await incidentsOf(server.id)).toEqual([
      { cause: 'terminal_closed', action: 'terminal_restart', status: 'open', positions: 2 },
    ]);
    const [restart] = await operationsOf(t, server.id);
    expect(restart).toMatchObject({
      kind: 'terminal_restart',
      actor_id: null,
      payload: { by: 'guardian' },
    });

    await runOperations(server.id);
    expect((await operationsOf(t, server.id))[0]).toMatchObject({ status: 'succeeded' });
    // the terminal runs again but has not published yet: nothing to say
    await t.app.vpsJobs.guardian.check();
    expect(await incidentsOf(server.id)).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(mailsTo('r@example.com')).toEqual([]);

    t.clock.advance(MINUTE);
    await publish(who, [position(1), position(2)]);
    await t.app.vpsJobs.guardian.check();
    expect(await incidentsOf(server.id)).toEqual([expect.objectContaining({ status: 'resolved' })]);
    const mail = await t.smtp.next('r@example.com', 0);
    expect(mail.subject).toBe(`TradeHost: MT5 on server #${server.id} works again`);
    expect(mail.text).toContain(
      `MT5 («Main», ${who.login}) on server #${server.id} had closed at 12:00 UTC; the terminal was ` +
        'started again at 12:11 UTC, and it publishes again.',
    );
    expect(mail.text).toContain('2 positions were open and are unchanged.');
    // once: a second check says nothing more
    await t.app.vpsJobs.guardian.check();
    expect(mailsTo('r@example.com')).toHaveLength(1);

    // the owner sees the guardian's action on the server's activity (back on the wall clock,
    // which the sign-in's token is of)
    t.clock.advance(Date.now() - t.clock.now().getTime());
    const activity = await t.api.get(`/api/user/vps/servers/${server.id}/activity`, {
      token: who.user.token,
    });
    expect(activity.body.data[0]).toMatchObject({
      kind: 'terminal_restart',
      by: 'guardian',
      status: 'succeeded',
    });
    const settings = await t.api.get(GUARDIAN(server.id), { token: who.user.token });
    expect(settings.body.settings).toEqual({
      policy: 'restart',
      reboot_after_minutes: 10,
      reboot_with_positions: false,
    });
    expect(settings.body.incidents[0]).toMatchObject({
      cause: 'terminal_closed',
      action: 'terminal_restart',
      status: 'resolved',
    });
  });

  it('of two terminals on one server, finds the one that closed by counting, and starts it', async () => {
    const trading = await tradingServer();
    const { who, server } = trading;
    await putTerminals(t.app.db, server.machineId!, ['terminal64.exe', 'terminal64.exe']);
    // the owner's second MT5 account, publishing from the same server
    const paid = await paidSubscription(t, who.user);
    const secondLogin = nextLogin + 500_000;
    const added = await t.api.post(
      '/api/user/monitoring/accounts',
      {
        subscription_id: paid.id,
        login: secondLogin,
        platform: 'MT5',
        name: 'Second',
        email: 'r@example.com',
      },
      { token: who.user.token },
    );
    expectStatus(added, 201);
    const key = await t.api.post(`/api/user/monitoring/subscriptions/${paid.id}/key`, undefined, {
      token: who.user.token,
    });
    const second = { ...who, key: key.body.key as string, login: secondLogin };
    // paid for a month of the wall clock: still paid on the test's Wednesday
    await t.sql.query(`update monitoring_subscriptions set ends_at = $2 where id = $1`, [
      paid.id,
      '2027-04-01T00:00:00Z',
    ]);
    await publishAtNoon(trading);
    await crashTerminal(t.app.db, server.machineId!);
    // the other terminal runs on and publishes; one process of two is left
    t.clock.advance(10 * MINUTE);
    await publish(second, []);
    t.clock.advance(MINUTE);
    await t.app.monitoringJobs.alerts.tick();

    expect(await incidentsOf(server.id)).toEqual([
      { cause: 'terminal_closed', action: 'terminal_restart', status: 'open', positions: 2 },
    ]);
    await runOperations(server.id);
    const listed = await t.app.vpsJobs.hypervisor.exec(server.machineId!, [
      'tasklist',
      '/fo',
      'csv',
      '/nh',
      '/fi',
      'IMAGENAME eq terminal64.exe',
    ]);
    // the template's task started the one that was not running, and only it
    expect(runningCount(listed.stdout, 'terminal64.exe')).toBe(2);
    const mailed = mailsTo('r@example.com').length;
    await publish(who, [position(1), position(2)]);
    await t.app.vpsJobs.guardian.check();
    expect(await incidentsOf(server.id)).toEqual([expect.objectContaining({ status: 'resolved' })]);
    const mail = await t.smtp.next('r@example.com', mailed);
    expect(mail.subject).toBe(`TradeHost: MT5 on server #${server.id} works again`);
  });

  it('counts only the lines naming the image in a tasklist listing', () => {
    const listing =
      '"terminal64.exe","4312","Console","1","182,420 K"\r\n' +
      '"Terminal64.EXE","4400","Console","1","90,004 K"\r\n' +
      '"terminal.exe","4500","Console","1","60,000 K"\r\n';
    expect(runningCount(listing, 'terminal64.exe')).toBe(2);
    expect(runningCount(listing, 'terminal.exe')).toBe(1);
    expect(
      runningCount(
        'INFO: No tasks are running which match the specified criteria.\r\n',
        'terminal64.exe',
      ),
    ).toBe(0);
  });

  it('starts a shut-down server; one whose policy is to tell only leaves the alert its message', async () => {
    const stopped = await tradingServer();
    await t.sql.query(`update sim_machines set status = 'stopped' where id = $1`, [
      Number(stopped.server.machineId),
    ]);
    const told = await tradingServer({
      policy: 'notify',
      reboot_after_minutes: 10,
      reboot_with_positions: false,
    });
    await publishAtNoon(stopped, told);
    await crashTerminal(t.app.db, told.server.machineId!);

    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    expect(await incidentsOf(stopped.server.id)).toEqual([
      { cause: 'server_stopped', action: 'start', status: 'open', positions: 2 },
    ]);
    expect((await operationsOf(t, stopped.server.id))[0]).toMatchObject({ kind: 'start' });

    expect(await incidentsOf(told.server.id)).toEqual([
      { cause: 'terminal_closed', action: 'none', status: 'notified', positions: 2 },
    ]);
    expect(await operationsOf(t, told.server.id)).toEqual([]);
    // the alert goes out as it is: the guardian sends nothing of its own
    const { rows } = await t.sql.query(
      `select email_status, details from monitoring_alert_events where account_id = $1`,
      [told.who.account.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].email_status).toBe('pending');
    expect(rows[0].details.guardian).toBeUndefined();
    const ofTold = t.smtp.to('r@example.com').filter((m) => m.text.includes(`${told.who.login}`));
    expect(ofTold).toEqual([]);
  });

  it('reboots a terminal still silent after the wait, but never with positions open unless allowed', async () => {
    const guarded = await tradingServer({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 5,
      reboot_with_positions: true,
    });
    const careful = await tradingServer({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 5,
      reboot_with_positions: false,
    });
    await publishAtNoon(guarded, careful);
    // both terminals run and are connected, yet silent: the cause is not visible from the server
    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    for (const { server } of [guarded, careful])
      expect(await incidentsOf(server.id)).toEqual([
        { cause: 'unknown', action: 'none', status: 'open', positions: 2 },
      ]);

    t.clock.advance(4 * MINUTE);
    await t.app.vpsJobs.guardian.check();
    expect(await operationsOf(t, guarded.server.id)).toEqual([]);
    t.clock.advance(2 * MINUTE);
    await t.app.vpsJobs.guardian.check();
    expect((await operationsOf(t, guarded.server.id))[0]).toMatchObject({ kind: 'reboot' });
    expect(await incidentsOf(careful.server.id)).toEqual([
      expect.objectContaining({ action: 'none', status: 'escalated' }),
    ]);
    expect(await operationsOf(t, careful.server.id)).toEqual([]);
    const mail = t.smtp
      .to('r@example.com')
      .find((m) => m.subject.includes(`#${careful.server.id}`))!;
    expect(mail.text).toContain('The server was not rebooted because positions are open.');
  });

  it('reboots none of several servers behind one address, and acts once in 15 minutes', async () => {
    const trading = await tradingServer({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 5,
      reboot_with_positions: true,
    });
    const { who, server } = trading;
    // a second server of the owner behind the same address (a NAT), with its own terminal
    const twin = await seedServer(t, {
      userId: who.user.id,
      paidUntil: new Date(Date.now() + 30 * DAY),
    });
    await t.sql.query(
      `update vps_servers set host = '127.0.0.1', guardian_policy = 'notify' where id = $1`,
      [twin.id],
    );
    await putTerminals(t.app.db, twin.machineId!, ['terminal64.exe']);
    await publishAtNoon(trading);
    const mailed = mailsTo('r@example.com').length;
    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    t.clock.advance(6 * MINUTE);
    await t.app.vpsJobs.guardian.check();
    expect(await operationsOf(t, server.id)).toEqual([]);
    expect(await operationsOf(t, twin.id)).toEqual([]);
    expect(await incidentsOf(server.id)).toEqual([
      expect.objectContaining({ cause: 'unknown', status: 'escalated' }),
    ]);
    const mail = await t.smtp.next('r@example.com', mailed);
    expect(mail.text).toContain(`MT5 («Main», ${who.login})`);
    expect(mail.text).toContain('Several of your servers write from this address');

    // the terminal comes back, then closes again within 15 minutes of an action: told, not acted
    await t.sql.query(`update vps_servers set guardian_policy = 'restart' where id = $1`, [
      twin.id,
    ]);
    await t.sql.query(`update vps_servers set host = '198.51.100.20' where id = $1`, [twin.id]);
    await t.sql.query(
      `insert into vps_guardian_incidents (server_id, account_id, silent_since, cause, action,
         acted_at, status, opened_at)
       values ($1, $2, $3, 'terminal_closed', 'terminal_restart', $3, 'resolved', $3)`,
      [server.id, who.account.id, t.clock.now()],
    );
    await publish(who, [position(1), position(2)]);
    await crashTerminal(t.app.db, server.machineId!);
    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    expect((await incidentsOf(server.id)).at(-1)).toMatchObject({
      cause: 'terminal_closed',
      action: 'none',
      status: 'escalated',
    });
    expect(await operationsOf(t, server.id)).toEqual([]);
  });

  it('tells the monitoring chat once, with a button to bring the server back when still silent', async () => {
    const trading = await tradingServer({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 5,
      reboot_with_positions: false,
    });
    const chat = { id: 88_001, type: 'private' as const, first_name: 'Trader' };
    await linkChat(bot, trading.who.user, chat, 'monitoring');
    const before = emulator.sent(chat.id).length;
    await publishAtNoon(trading);
    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    t.clock.advance(6 * MINUTE);
    await t.app.vpsJobs.guardian.check();
    await t.app.vpsJobs.guardian.check();
    const told = emulator.sent(chat.id).slice(before);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toMatch(
      new RegExp(`^MT5 on server #${trading.server.id} is still silent: please check it`),
    );
    expect(told[0]!.text).toContain('The server was not rebooted because positions are open.');
    expect(told[0]!.buttons).toEqual([
      [
        {
          text: `Reboot server #${trading.server.id}`,
          callback_data: `reboot:${trading.server.id}`,
        },
      ],
    ]);
  });

  it('names algo trading switched off and asks the trader, doing nothing itself', async () => {
    const trading = await tradingServer({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 5,
      reboot_with_positions: true,
    });
    await publishAtNoon(trading);
    // the publisher 1.3 said so in its last snapshot: the terminal's button is off
    await t.sql.query(
      `update monitoring_accounts set trade_allowed = false, ea_trade_allowed = true where id = $1`,
      [trading.who.account.id],
    );
    const mailed = mailsTo('r@example.com').length;
    t.clock.advance(11 * MINUTE);
    await t.app.monitoringJobs.alerts.tick();
    expect(await incidentsOf(trading.server.id)).toEqual([
      { cause: 'algo_trading_off', action: 'none', status: 'escalated', positions: 2 },
    ]);
    t.clock.advance(10 * MINUTE);
    await t.app.vpsJobs.guardian.check();
    expect(await operationsOf(t, trading.server.id)).toEqual([]);
    const mail = await t.smtp.next('r@example.com', mailed);
    expect(mail.text).toContain('had algorithmic trading switched off at 12:00 UTC.');
    expect(mail.text).toContain('Switch Algo Trading on in the terminal');
  });

  it('keeps its settings per server and refuses bad ones, changing nothing', async () => {
    const { who, server } = await tradingServer();
    const bad = [
      [
        { policy: 'reboot_everything', reboot_after_minutes: 10, reboot_with_positions: false },
        'policy',
      ],
      [
        { policy: 'restart', reboot_after_minutes: 4, reboot_with_positions: false },
        'reboot_after_minutes',
      ],
      [
        { policy: 'restart', reboot_after_minutes: 121, reboot_with_positions: false },
        'reboot_after_minutes',
      ],
      [
        { policy: 'restart', reboot_after_minutes: 7.5, reboot_with_positions: false },
        'reboot_after_minutes',
      ],
    ] as const;
    for (const [body, field] of bad) {
      const res = await t.api.request('PUT', GUARDIAN(server.id), { token: who.user.token, body });
      expectStatus(res, 422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    const stranger = await publisherOf(t, 7_099_999);
    const theirs = await t.api.request('PUT', GUARDIAN(server.id), {
      token: stranger.user.token,
      body: { policy: 'notify', reboot_after_minutes: 10, reboot_with_positions: false },
    });
    expectStatus(theirs, 404);
    expect(theirs.body).toEqual(refusal('SERVER_NOT_FOUND'));
    const settings = (await t.api.get(GUARDIAN(server.id), { token: who.user.token })).body as Json;
    expect(settings.settings.policy).toBe('restart');
  });
});
