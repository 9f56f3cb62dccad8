import {
  ERROR_MESSAGES,
  type AlertServer,
  type AlertServerState,
  type ErrorCode,
} from '@tradehost/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldRefusal, quickUser, refusal, useTestApp, type TestApp } from './helpers.ts';
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
import { createMailer } from '../src/integrations/mail/index.ts';
import { createTelegramBots } from '../src/integrations/telegram/bots.ts';
import { createTelegramOutbox } from '../src/integrations/telegram/outbox.ts';
import {
  alertTelegramMessage,
  createDelivery,
} from '../src/modules/monitoring/monitoring.alerts.delivery.ts';
import { startTelegramEmulator } from './telegram-emulator.ts';
import { seedServer } from './vps-fixtures.ts';

/**
 * Alerts and reports through the API and the real ingest path: every rule fires once when its
 * line is crossed and re-arms after recovery, on the app's clock; no data counts market hours
 * only; the silent terminal names the owner's server at its address; deliveries go through the
 * test SMTP server (Telegram is off: no bot token here); reports are sent once per period.
 */

const alertsOf = (id: number) => `/api/user/monitoring/accounts/${id}/alerts`;
const historyOf = (id: number, query = '') => `${alertsOf(id)}/history${query}`;
const MINUTE = 60_000;

/** Moves the app's clock to a moment (the tests put it back afterwards). */
const setClock = (t: TestApp, iso: string) =>
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());

/** A monitored account with its owner and key. */
async function monitored(t: TestApp) {
  const p = await publisherOf(t);
  return { ...p, id: p.account.id as number };
}

type Monitored = Awaited<ReturnType<typeof monitored>>;

const patch = (t: TestApp, who: Monitored, body: unknown) =>
  t.api.request('PATCH', alertsOf(who.id), { token: who.user.token, body });

/** A snapshot at the clock's moment. */
const publish = async (t: TestApp, who: Monitored, fields: Record<string, unknown>) => {
  const res = await send(t, SNAPSHOT, who.key, {
    ...snapshot({ time: t.clock.now().toISOString() }),
    ...fields,
  });
  expect(res.status, res.text).toBe(200);
};

/** The account's last data exactly at the clock's moment (the clock runs on while a request is made). */
const pinLastData = (t: TestApp, who: Monitored, iso: string) =>
  t.sql.query('update monitoring_accounts set last_data_at = $2 where id = $1', [who.id, iso]);

async function eventsOf(t: TestApp, accountId: number) {
  const { rows } = await t.sql.query(
    `select id, kind, value, threshold, details, email_status, telegram_status, at
     from monitoring_alert_events where account_id = $1 order by id`,
    [accountId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

async function ruleOf(t: TestApp, accountId: number, kind: string) {
  const { rows } = await t.sql.query(
    'select fired_at, base, base_at from monitoring_alert_rules where account_id = $1 and kind = $2',
    [accountId, kind],
  );
  return rows[0] as { fired_at: Date | null; base: number | null; base_at: Date | null };
}

describe('alerts and reports', () => {
  const t = useTestApp();
  afterEach(() => t.clock.advance(Date.now() - t.clock.now().getTime()));

  describe('the settings', () => {
    it('reads every rule (off until set), the channels, the reports and whether Telegram is there', async () => {
      const who = await monitored(t);
      const res = await t.api.get(alertsOf(who.id), { token: who.user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts_enabled: true,
        alert_email: true,
        alert_telegram: true,
        report_daily: false,
        report_weekly: false,
        report_monthly: false,
        report_email: true,
        report_telegram: true,
        rules: [
          'drawdown',
          'equity_below',
          'margin_level',
          'daily_loss',
          'no_data',
          'positions',
          'ping_above',
        ].map((kind) => ({ kind, enabled: false, threshold: null, fired_at: null })),
        email: 'r@example.com',
        currency: null,
        telegram: { available: false, linked: false },
      });
    });

    it('sets rules, channels and reports; an unchanged rule keeps its state', async () => {
      const who = await monitored(t);
      const res = await patch(t, who, {
        alert_telegram: false,
        report_daily: true,
        report_monthly: true,
        report_telegram: false,
        rules: {
          drawdown: { enabled: true, threshold: 20 },
          equity_below: { enabled: false, threshold: 1000.5 },
          margin_level: { enabled: true, threshold: 150 },
          daily_loss: { enabled: true, threshold: 300 },
          no_data: { enabled: true, threshold: 30 },
          positions: { enabled: true },
          ping_above: { enabled: true, threshold: 150 },
        },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        alerts_enabled: true,
        alert_email: true,
        alert_telegram: false,
        report_daily: true,
        report_weekly: false,
        report_monthly: true,
        report_email: true,
        report_telegram: false,
      });
      expect(res.body.rules).toEqual([
        { kind: 'drawdown', enabled: true, threshold: 20, fired_at: null },
        { kind: 'equity_below', enabled: false, threshold: 1000.5, fired_at: null },
        { kind: 'margin_level', enabled: true, threshold: 150, fired_at: null },
        { kind: 'daily_loss', enabled: true, threshold: 300, fired_at: null },
        { kind: 'no_data', enabled: true, threshold: 30, fired_at: null },
        { kind: 'positions', enabled: true, threshold: null, fired_at: null },
        { kind: 'ping_above', enabled: true, threshold: 150, fired_at: null },
      ]);
      const read = await t.api.get(alertsOf(who.id), { token: who.user.token });
      expect(read.body).toEqual(res.body);

      // a fired rule sent again as it is stays fired; a new line arms it afresh
      await t.sql.query(
        `update monitoring_alert_rules set fired_at = now() where account_id = $1 and kind = 'drawdown'`,
        [who.id],
      );
      await patch(t, who, { rules: { drawdown: { enabled: true, threshold: 20 } } });
      expect((await ruleOf(t, who.id, 'drawdown')).fired_at).not.toBeNull();
      await patch(t, who, { rules: { drawdown: { enabled: true, threshold: 25 } } });
      expect((await ruleOf(t, who.id, 'drawdown')).fired_at).toBeNull();
    });

    it('refuses each bad line with its field’s error and changes nothing', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { drawdown: { enabled: true, threshold: 10 } } });
      const before = await t.api.get(alertsOf(who.id), { token: who.user.token });
      const bad: [string, unknown, ErrorCode][] = [
        ['drawdown', 0, 'MONITORING_ALERT_PERCENT_RANGE'],
        ['drawdown', 100, 'MONITORING_ALERT_PERCENT_RANGE'],
        ['drawdown', -5, 'MONITORING_ALERT_PERCENT_RANGE'],
        ['drawdown', '20', 'MONITORING_ALERT_PERCENT_RANGE'],
        ['margin_level', 0, 'MONITORING_ALERT_MARGIN_RANGE'],
        ['margin_level', 10_001, 'MONITORING_ALERT_MARGIN_RANGE'],
        ['equity_below', 0, 'MONITORING_ALERT_AMOUNT_INVALID'],
        ['equity_below', -100, 'MONITORING_ALERT_AMOUNT_INVALID'],
        ['daily_loss', 0, 'MONITORING_ALERT_AMOUNT_INVALID'],
        ['daily_loss', null, 'MONITORING_ALERT_AMOUNT_INVALID'],
        ['no_data', 4, 'MONITORING_ALERT_MINUTES_RANGE'],
        ['no_data', 1441, 'MONITORING_ALERT_MINUTES_RANGE'],
        ['no_data', 30.5, 'MONITORING_ALERT_MINUTES_RANGE'],
        ['ping_above', 9, 'MONITORING_ALERT_PING_RANGE'],
        ['ping_above', 5001, 'MONITORING_ALERT_PING_RANGE'],
        ['ping_above', 150.5, 'MONITORING_ALERT_PING_RANGE'],
        ['ping_above', null, 'MONITORING_ALERT_PING_RANGE'],
      ];
      for (const [kind, threshold, code] of bad) {
        const res = await patch(t, who, {
          report_weekly: true,
          rules: {
            drawdown: { enabled: false, threshold: 15 },
            [kind]: { enabled: true, threshold },
          },
        });
        expect(res.status, `${kind} ${String(threshold)}`).toBe(422);
        expect(res.body).toEqual(fieldRefusal(`rules.${kind}.threshold`, code));
      }
      const after = await t.api.get(alertsOf(who.id), { token: who.user.token });
      expect(after.body).toEqual(before.body);
      // the texts are the console's translation keys
      expect(ERROR_MESSAGES.MONITORING_ALERT_MINUTES_RANGE).toBe(
        'Enter whole minutes from 5 to 1440',
      );
    });

    it('answers 404 for another user’s account, and changes nothing of it', async () => {
      const who = await monitored(t);
      const other = await quickUser(t);
      const notFound = refusal('MONITORING_ACCOUNT_NOT_FOUND');
      expect((await t.api.get(alertsOf(who.id), { token: other.token })).body).toEqual(notFound);
      const res = await t.api.request('PATCH', alertsOf(who.id), {
        token: other.token,
        body: { alerts_enabled: false, rules: { drawdown: { enabled: true, threshold: 5 } } },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect((await t.api.get(historyOf(who.id), { token: other.token })).status).toBe(404);
      const mine = await t.api.get(alertsOf(who.id), { token: who.user.token });
      expect(mine.body.alerts_enabled).toBe(true);
      expect(mine.body.rules[0].enabled).toBe(false);
      expect((await t.api.get(alertsOf(who.id))).status).toBe(401);
    });

    it('pages the history newest first', async () => {
      const who = await monitored(t);
      expect((await t.api.get(historyOf(who.id), { token: who.user.token })).body).toEqual({
        data: [],
        meta: { page: 1, per_page: 20, total: 0 },
      });
      await t.sql.query(
        `insert into monitoring_alert_events (account_id, kind, at, value, threshold)
         select $1, 'equity_below', now() - make_interval(mins => 25 - n), 900 + n, 1000
         from generate_series(1, 25) n`,
        [who.id],
      );
      const first = await t.api.get(historyOf(who.id, '?per_page=10'), { token: who.user.token });
      expect(first.body.meta).toEqual({ page: 1, per_page: 10, total: 25 });
      expect(first.body.data.map((e: { value: number }) => e.value)).toEqual(
        [25, 24, 23, 22, 21, 20, 19, 18, 17, 16].map((n) => 900 + n),
      );
      expect(first.body.data[0]).toMatchObject({
        kind: 'equity_below',
        threshold: 1000,
        details: {},
        email_status: 'pending',
        telegram_status: 'pending',
      });
      const last = await t.api.get(historyOf(who.id, '?page=3&per_page=10'), {
        token: who.user.token,
      });
      expect(last.body.data).toHaveLength(5);
      expect(
        (await t.api.get(historyOf(who.id, '?page=0'), { token: who.user.token })).status,
      ).toBe(422);
    });
  });

  describe('the rules on ingest', () => {
    it('equity below: fires once, holds within 5 % of the line, re-arms above it', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { equity_below: { enabled: true, threshold: 1000 } } });
      await publish(t, who, { equity: 1100 });
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      await publish(t, who, { equity: 990 });
      const [fired] = await eventsOf(t, who.id);
      expect(fired).toMatchObject({ kind: 'equity_below', value: 990, threshold: 1000 });
      const firedAt = (await ruleOf(t, who.id, 'equity_below')).fired_at;
      expect(firedAt?.getTime()).toBe(fired.at.getTime());

      t.clock.advance(5 * MINUTE);
      for (const equity of [980, 1040, 999]) await publish(t, who, { equity });
      expect(await eventsOf(t, who.id)).toHaveLength(1);
      const shown = await t.api.get(alertsOf(who.id), { token: who.user.token });
      expect(shown.body.rules[1].fired_at).toBe(firedAt?.toISOString());

      t.clock.advance(5 * MINUTE);
      await publish(t, who, { equity: 1060 });
      expect((await ruleOf(t, who.id, 'equity_below')).fired_at).toBeNull();
      await publish(t, who, { equity: 995 });
      const events = await eventsOf(t, who.id);
      expect(events.map((e) => e.value)).toEqual([990, 995]);
      expect(events[1]!.at.getTime() - events[0]!.at.getTime()).toBeGreaterThanOrEqual(10 * MINUTE);
    });

    it('drawdown: from the equity peak, moved by a withdrawal; fires once, re-arms below 95 % of the line', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { drawdown: { enabled: true, threshold: 20 } } });
      await publish(t, who, { equity: 9500, equity_high: 10_000 });
      expect((await ruleOf(t, who.id, 'drawdown')).base).toBe(10_000);
      await publish(t, who, { equity: 8100, equity_high: 9500 }); // 19 %
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      // a withdrawal of 4,050 at 8,100 halves the peak: 5,000; equity 4,050 is still 19 %
      const out = await send(t, DEALS, who.key, {
        login: who.account.login,
        deals: [
          deal(7001, { profit: -4050, equity_before: 8100, time: t.clock.now().toISOString() }),
        ],
      });
      expect(out.status).toBe(200);
      expect((await ruleOf(t, who.id, 'drawdown')).base).toBeCloseTo(5000, 6);
      await publish(t, who, { equity: 4050, equity_high: 4050 });
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      await publish(t, who, { equity: 4000, equity_high: 4050 }); // 20 %
      await publish(t, who, { equity: 3900, equity_high: 4000 }); // 22 %: already fired
      const events = await eventsOf(t, who.id);
      expect(events).toHaveLength(1);
      expect(events[0].value).toBeCloseTo(20, 9);
      await publish(t, who, { equity: 4060, equity_high: 4060 }); // 18.8 %: recovered
      expect((await ruleOf(t, who.id, 'drawdown')).fired_at).toBeNull();
      await publish(t, who, { equity: 3990, equity_high: 4060 });
      expect(await eventsOf(t, who.id)).toHaveLength(2);
    });

    it('drawdown: a rule set later starts from the statistics’ current drawdown', async () => {
      const who = await monitored(t);
      await publish(t, who, { equity: 900, equity_high: 900 });
      await t.sql.query(
        `insert into monitoring_statistics (account_id, computed_at, gain, max_drawdown, profit, trades, figures, chart)
         values ($1, now(), 0, 0.1, 0, 0, '{}', '[{"drawdown": 0}, {"drawdown": 0.1}]')`,
        [who.id],
      );
      await patch(t, who, { rules: { drawdown: { enabled: true, threshold: 15 } } });
      // 900 / (1 - 0.1) = 1,000: the peak of the history, not of the next snapshot
      expect((await ruleOf(t, who.id, 'drawdown')).base).toBeCloseTo(1000, 9);
      await publish(t, who, { equity: 850, equity_high: 900 });
      const [event] = await eventsOf(t, who.id);
      expect(event).toMatchObject({ kind: 'drawdown', threshold: 15 });
      expect(event.value).toBeCloseTo(15, 9);
    });

    it('margin level: equity / margin below the line; no margin in use re-arms it', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { margin_level: { enabled: true, threshold: 200 } } });
      await publish(t, who, { equity: 1500, margin: 0 });
      await publish(t, who, { equity: 1500, margin: 500 }); // 300 %
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      await publish(t, who, { equity: 1500, margin: 1000 }); // 150 %
      await publish(t, who, { equity: 1400, margin: 1000 }); // 140 %
      expect((await eventsOf(t, who.id)).map((e) => [e.kind, e.value])).toEqual([
        ['margin_level', 150],
      ]);
      await publish(t, who, { equity: 1500, margin: 0 });
      expect((await ruleOf(t, who.id, 'margin_level')).fired_at).toBeNull();
    });

    it('daily loss: counted from the day’s start in the account’s time zone', async () => {
      const who = await monitored(t);
      await t.api.request('PATCH', `/api/user/monitoring/accounts/${who.id}`, {
        token: who.user.token,
        body: { time_zone: 'Europe/Moscow' },
      });
      await patch(t, who, { rules: { daily_loss: { enabled: true, threshold: 300 } } });
      // Moscow's 3 March 2027 starts at 2 March 21:00 UTC
      setClock(t, '2027-03-01T20:00:00.000Z'); // 23:00 on the 1st in Moscow
      await publish(t, who, { equity: 5500 });
      setClock(t, '2027-03-02T20:50:00.000Z'); // 23:50 on the 2nd: 500 below the 2nd's start
      await publish(t, who, { equity: 5000 });
      expect((await eventsOf(t, who.id)).map((e) => e.value)).toEqual([500]);
      setClock(t, '2027-03-02T21:05:00.000Z'); // the 3rd in Moscow (still the 2nd in UTC)
      await publish(t, who, { equity: 4800 });
      const rule = await ruleOf(t, who.id, 'daily_loss');
      expect(rule).toMatchObject({ fired_at: null, base: 5000 });
      expect(rule.base_at?.toISOString()).toBe('2027-03-02T21:00:00.000Z');
      setClock(t, '2027-03-02T21:10:00.000Z');
      await publish(t, who, { equity: 4690 });
      const events = await eventsOf(t, who.id);
      expect(events.map((e) => e.value)).toEqual([500, 310]);
      expect(events[1]).toMatchObject({ kind: 'daily_loss', threshold: 300 });
    });

    it('positions: each one opened or closed, from the second snapshot on', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { positions: { enabled: true } } });
      const position = (ticket: number, symbol: string) => ({
        ticket,
        symbol,
        type: 'sell',
        volume: 0.5,
        open_time: '2026-01-05T09:00:00.000Z',
        open_price: 1.25,
        current_price: 1.24,
        sl: 0,
        tp: 0,
        profit: 50,
        swap: -2,
      });
      await publish(t, who, { positions: [position(11, 'GBPUSD')] });
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      await publish(t, who, { positions: [position(11, 'GBPUSD'), position(12, 'EURUSD')] });
      await publish(t, who, { positions: [position(12, 'EURUSD')] });
      const events = await eventsOf(t, who.id);
      expect(events.map((e) => e.details.position)).toEqual([
        {
          action: 'opened',
          ticket: 12,
          symbol: 'EURUSD',
          type: 'sell',
          volume: 0.5,
          price: 1.25,
          profit: 48,
        },
        {
          action: 'closed',
          ticket: 11,
          symbol: 'GBPUSD',
          type: 'sell',
          volume: 0.5,
          price: 1.24,
          profit: 48,
        },
      ]);
      const page = await t.api.get(historyOf(who.id), { token: who.user.token });
      expect(page.body.data[0].details.position.action).toBe('closed');
    });

    it('ping above: fires when the ping stays above the line for 5 minutes, once; mailed once', async () => {
      const who = await monitored(t);
      await send(t, HELLO, who.key, hello({ server: 'ICMarkets-Live02' }));
      await t.sql.query('update monitoring_accounts set email = $2 where id = $1', [
        who.id,
        'ping-alerts@example.com',
      ]);
      await patch(t, who, { rules: { ping_above: { enabled: true, threshold: 150 } } });
      setClock(t, '2026-01-07T10:00:05Z');
      /** A snapshot a minute (each its minute's ping point), at the clock's moment. */
      const minute = async (fields: Record<string, unknown>) => {
        await publish(t, who, fields);
        t.clock.advance(MINUTE);
      };
      // a spike, then two minutes above and one not told (disconnected): no alert
      for (const ping_ms of [40, 900, 40, 200, 210]) await minute({ ping_ms });
      await minute({ ping_ms: 500, terminal_connected: false });
      // three points above, but 40 at 10:02 is within the 5 minutes to 10:06
      await minute({ ping_ms: 220 });
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      // at 10:07 it has left them: 200, 210, 220, 212 (the gap at 10:05 counts for nothing)
      await minute({ ping_ms: 212 });
      const [fired] = await eventsOf(t, who.id);
      expect(fired).toMatchObject({
        kind: 'ping_above',
        value: 212,
        threshold: 150,
        details: { server: 'ICMarkets-Live02', minutes: 5 },
        email_status: 'pending',
      });
      // still above, and 145 (within 5 % of the line): no second alert
      for (const ping_ms of [300, 145, 300, 300, 300]) await minute({ ping_ms });
      expect(await eventsOf(t, who.id)).toHaveLength(1);

      await t.app.monitoringJobs.alerts.deliverAlert(fired.id);
      await t.app.monitoringJobs.alerts.deliverAlert(fired.id);
      const mail = await t.smtp.next('ping-alerts@example.com', 0);
      expect(t.smtp.to('ping-alerts@example.com')).toHaveLength(1);
      expect(mail.subject).toBe('TradeHost: «Main» (5012345): ping 212 ms');
      expect(mail.text).toContain(
        'Ping to ICMarkets-Live02 has been above 150 ms for 5 minutes: now 212 ms',
      );
      expect((await eventsOf(t, who.id))[0]).toMatchObject({ email_status: 'sent' });

      // below 142.5 ms re-arms; fires again once 5 minutes are above (100 at 10:13 gone)
      await minute({ ping_ms: 100 });
      expect((await ruleOf(t, who.id, 'ping_above')).fired_at).toBeNull();
      for (const ping_ms of [160, 170, 180, 190]) await minute({ ping_ms });
      expect(await eventsOf(t, who.id)).toHaveLength(1);
      await minute({ ping_ms: 200 });
      expect((await eventsOf(t, who.id)).map((e) => e.value)).toEqual([212, 200]);
    });

    it('evaluates nothing while the account’s alerts are switched off', async () => {
      const who = await monitored(t);
      await patch(t, who, {
        alerts_enabled: false,
        rules: { equity_below: { enabled: true, threshold: 1000 } },
      });
      await publish(t, who, { equity: 10 });
      expect(await eventsOf(t, who.id)).toHaveLength(0);
    });
  });

  describe('no data, in market hours only', () => {
    const tick = () => t.app.monitoringJobs.alerts.tick();

    it('fires after N market minutes of silence, once, and re-arms when data comes', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { no_data: { enabled: true, threshold: 30 } } });
      setClock(t, '2027-03-03T12:00:00.000Z'); // a Wednesday
      await publish(t, who, {});
      await pinLastData(t, who, '2027-03-03T12:00:00.000Z');
      t.clock.advance(29 * MINUTE);
      await tick();
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      t.clock.advance(2 * MINUTE);
      await tick();
      await tick();
      const events = await eventsOf(t, who.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ kind: 'no_data', value: 31, threshold: 30 });
      expect(events[0].details).toMatchObject({
        minutes: 31,
        last_data_at: '2027-03-03T12:00:00.000Z',
        publisher_ip: '127.0.0.1',
        servers: [],
      });
      await publish(t, who, {});
      expect((await ruleOf(t, who.id, 'no_data')).fired_at).toBeNull();
    });

    it('does not count the weekend: silent from Friday evening to Sunday night', async () => {
      const who = await monitored(t);
      await patch(t, who, { rules: { no_data: { enabled: true, threshold: 30 } } });
      setClock(t, '2027-03-05T21:50:00.000Z'); // Friday, 10 minutes before the close
      await publish(t, who, {});
      await pinLastData(t, who, '2027-03-05T21:50:00.000Z');
      setClock(t, '2027-03-07T21:59:00.000Z'); // Sunday, a minute before the open
      await tick();
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      setClock(t, '2027-03-07T22:19:00.000Z'); // 10 + 19 market minutes
      await tick();
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      setClock(t, '2027-03-07T22:20:00.000Z');
      await tick();
      expect((await eventsOf(t, who.id)).map((e) => e.value)).toEqual([30]);
    });

    it('counts only the broker’s trade sessions the publisher told, in the server’s time', async () => {
      const who = await monitored(t);
      // the broker (UTC+2) trades Monday to Friday 01:05 to 23:55 server time: a daily break of
      // ten minutes at 23:55-01:05 server time, that is 21:55-23:05 UTC
      const sessions = [1, 2, 3, 4, 5].map((day) => ({ day, from: 65, to: 1435 }));
      const res = await send(t, HELLO, who.key, hello({ server_time_offset_sec: 7200, sessions }));
      expect(res.status, res.text).toBe(200);
      const { rows } = await t.sql.query(
        'select trade_sessions from monitoring_accounts where id = $1',
        [who.id],
      );
      expect(rows[0].trade_sessions).toEqual(
        [1, 2, 3, 4, 5].map((day) => [day * 1440 - 55, day * 1440 + 1315]),
      );
      await patch(t, who, { rules: { no_data: { enabled: true, threshold: 30 } } });
      setClock(t, '2027-03-03T21:40:00.000Z'); // Wednesday, 15 minutes before the break
      await publish(t, who, {});
      await pinLastData(t, who, '2027-03-03T21:40:00.000Z');
      // 23:20 UTC: 100 minutes of the wall clock, 15 + 15 of them in the sessions
      setClock(t, '2027-03-03T23:19:00.000Z');
      await tick();
      expect(await eventsOf(t, who.id)).toHaveLength(0);
      setClock(t, '2027-03-03T23:20:00.000Z');
      await tick();
      expect((await eventsOf(t, who.id)).map((e) => e.value)).toEqual([30]);
    });

    it('refuses sessions that are not a week’s days and minutes, and changes nothing', async () => {
      const who = await monitored(t);
      for (const sessions of [
        [{ day: 7, from: 0, to: 60 }],
        [{ day: 1, from: 600, to: 600 }],
        [{ day: 1, from: -1, to: 60 }],
        [{ day: 1, from: 0, to: 1441 }],
        'all week',
      ]) {
        const res = await send(t, HELLO, who.key, hello({ sessions }));
        expect(res.status, JSON.stringify(sessions)).toBe(422);
      }
      const { rows } = await t.sql.query(
        'select trade_sessions, hello_at from monitoring_accounts where id = $1',
        [who.id],
      );
      expect(rows[0]).toEqual({ trade_sessions: null, hello_at: null });
    });

    it('names the owner’s servers at the publisher’s address and their state, and mails the link', async () => {
      const who = await monitored(t);
      const other = await quickUser(t);
      const paidUntil = new Date(Date.now() + 30 * 86_400_000);
      const stopped = await seedServer(t, { userId: who.user.id, paidUntil, machine: 'stopped' });
      const blocked = await seedServer(t, { userId: who.user.id, paidUntil, status: 'blocked' });
      // the owner's server at another address, and another user's at this one: neither is named
      await seedServer(t, { userId: who.user.id, paidUntil });
      const theirs = await seedServer(t, { userId: other.id, paidUntil });
      await t.sql.query(`update vps_servers set host = '127.0.0.1' where id = any($1)`, [
        [stopped.id, blocked.id, theirs.id],
      ]);
      // its guardian only reports (else it would take the alert over: test/vps-guardian.test.ts)
      await t.sql.query(
        `update vps_servers set comment = 'EA box', guardian_policy = 'notify' where id = $1`,
        [stopped.id],
      );
      await t.sql.query(
        `update monitoring_accounts set email = 'silent@example.com' where id = $1`,
        [who.id],
      );
      await patch(t, who, { rules: { no_data: { enabled: true, threshold: 10 } } });
      setClock(t, '2027-03-03T12:00:00.000Z');
      await publish(t, who, {});
      await pinLastData(t, who, '2027-03-03T12:00:00.000Z');
      t.clock.advance(11 * MINUTE);
      await tick();
      const [event] = await eventsOf(t, who.id);
      expect(event.details.servers).toEqual([
        {
          id: stopped.id,
          state: 'shut_down',
          rate: expect.stringMatching(/^Trader, /),
          comment: 'EA box',
        },
        { id: blocked.id, state: 'blocked', rate: expect.stringMatching(/^Trader, /), comment: '' },
      ]);

      expect(await t.app.monitoringJobs.alerts.deliverAlert(event.id)).toEqual([
        'fulfilled',
        'fulfilled',
      ]);
      const mail = await t.smtp.next('silent@example.com', 0);
      expect(mail.subject).toBe('TradeHost: «Main» (5012345): no data from the terminal');
      expect(mail.text).toContain('No data from «Main» (5012345) for 11 minutes of market time');
      expect(mail.text).toContain(`server #${stopped.id} (Trader, `);
      expect(mail.text).toContain('EA box): shut down');
      expect(mail.text).toContain(`server #${blocked.id}`);
      expect(mail.text).toContain('blocked (not paid)');
      expect(mail.text).toContain('Open my servers: http://localhost:5173/vps?tab=servers');
      expect(mail.html).toContain('href="http://localhost:5173/vps?tab=servers"');
      const [delivered] = await eventsOf(t, who.id);
      // e-mail sent; Telegram skipped (no bot token here)
      expect(delivered).toMatchObject({ email_status: 'sent', telegram_status: 'skipped' });
    });
  });

  describe('delivery', () => {
    it('mails the alert in the owner’s language; a channel switched off is skipped', async () => {
      const who = await monitored(t);
      await t.sql.query(`update users set language = 'ru' where id = $1`, [who.user.id]);
      await t.sql.query(
        `update monitoring_accounts set email = $2, currency = 'USD' where id = $1`,
        [who.id, 'alerts-ru@example.com'],
      );
      await patch(t, who, { rules: { equity_below: { enabled: true, threshold: 1000 } } });
      await publish(t, who, { equity: 900 });
      const [event] = await eventsOf(t, who.id);
      expect(event).toMatchObject({ email_status: 'pending', telegram_status: 'skipped' });
      await t.app.monitoringJobs.alerts.deliverAlert(event.id);
      const mail = await t.smtp.next('alerts-ru@example.com', 0);
      expect(mail.subject).toBe('TradeHost: «Main» (5012345): средства 900,00 USD');
      expect(mail.text).toContain('Средства счёта «Main» (5012345) опустились до 900,00 USD');
      expect(mail.text).toMatch(/ниже вашей границы 1\s000,00 USD/u);
      expect(mail.text).toContain(
        `http://localhost:5173/online-monitoring/${who.account.monitoring_id}`,
      );
      expect((await eventsOf(t, who.id))[0]).toMatchObject({ email_status: 'sent' });
      // delivered once: a second run sends nothing more
      await t.app.monitoringJobs.alerts.deliverAlert(event.id);
      expect(t.smtp.to('alerts-ru@example.com')).toHaveLength(1);

      await patch(t, who, { alert_email: false });
      t.clock.advance(MINUTE);
      await publish(t, who, { equity: 1100 });
      await publish(t, who, { equity: 800 });
      const events = await eventsOf(t, who.id);
      expect(events[1]).toMatchObject({ email_status: 'skipped', telegram_status: 'skipped' });
    });
  });

  describe('reports', () => {
    const tick = () => t.app.monitoringJobs.alerts.reportsTick();

    it('sends the day that ended in the account’s zone once, with its figures', async () => {
      const who = await monitored(t);
      await t.api.request('PATCH', `/api/user/monitoring/accounts/${who.id}`, {
        token: who.user.token,
        body: { time_zone: 'Europe/Moscow' },
      });
      await t.sql.query(
        `update monitoring_accounts set email = 'reports@example.com', currency = 'USD' where id = $1`,
        [who.id],
      );
      await patch(t, who, { report_daily: true, report_weekly: true, report_telegram: false });
      // Moscow's 2 March: a deposit, +100 on EURUSD, -30 on GBPUSD; a trade of the 3rd after it
      const side = (
        ticket: number,
        position: number,
        time: string,
        type: string,
        entry: string,
        symbol: string,
        profit = 0,
      ) =>
        deal(ticket, {
          position_id: position,
          time,
          type,
          entry,
          symbol,
          digits: 5,
          volume: 1,
          price: 1.1,
          profit,
          comment: '',
          equity_before: null,
        });
      const res = await send(t, DEALS, who.key, {
        login: who.account.login,
        deals: [
          deal(1, { time: '2027-03-01T21:30:00.000Z', profit: 1000, equity_before: 0 }),
          side(2, 20, '2027-03-02T06:00:00.000Z', 'buy', 'in', 'EURUSD'),
          side(3, 20, '2027-03-02T07:00:00.000Z', 'sell', 'out', 'EURUSD', 100),
          side(4, 30, '2027-03-02T08:00:00.000Z', 'buy', 'in', 'GBPUSD'),
          side(5, 30, '2027-03-02T20:30:00.000Z', 'sell', 'out', 'GBPUSD', -30),
          side(6, 40, '2027-03-02T21:01:00.000Z', 'buy', 'in', 'USDJPY'),
          side(7, 40, '2027-03-02T21:02:00.000Z', 'sell', 'out', 'USDJPY', 500),
        ],
      });
      expect(res.body).toEqual({ accepted: 7, duplicate: 0 });

      setClock(t, '2027-03-02T21:10:00.000Z'); // 00:10 on the 3rd in Moscow
      const claimed = (await tick()).filter((c) => c.accountId === who.id);
      // the week that ended (22-28 February) ended over a day ago: not news any more
      expect(claimed.map((c) => c.report.period)).toEqual(['daily']);
      const [report] = claimed;
      expect(report!.report).toMatchObject({
        period: 'daily',
        firstDate: '2027-03-02',
        lastDate: '2027-03-02',
        profit: 70,
        trades: 2,
        best: { symbol: 'EURUSD', result: 100 },
        worst: { symbol: 'GBPUSD', result: -30 },
        balance: 1070,
      });
      expect(report!.report.gain).toBeCloseTo(0.07, 12);
      expect(report!.report.drawdown).toBeCloseTo(30 / 1100, 12);
      const { rows } = await t.sql.query(
        'select period, period_start from monitoring_reports_sent where account_id = $1',
        [who.id],
      );
      expect(rows).toEqual([
        { period: 'daily', period_start: new Date('2027-03-01T21:00:00.000Z') },
      ]);

      await t.app.monitoringJobs.alerts.delivery.deliverReport(report!, 'email');
      const mail = await t.smtp.next('reports@example.com', 0);
      expect(mail.subject).toBe('TradeHost: «Main» (5012345): daily report for 2027-03-02');
      expect(mail.text).toContain('Gain: +7.00 %');
      expect(mail.text).toContain('Profit: +70.00 USD');
      expect(mail.text).toContain('Drawdown: 2.73 %');
      expect(mail.text).toContain('Trades: 2');
      expect(mail.text).toContain('Best trade: +100.00 USD (EURUSD)');
      expect(mail.text).toContain('Worst trade: -30.00 USD (GBPUSD)');
      expect(mail.html).toContain('<table');

      // once per period: later ticks of the day send nothing
      const mine = async () => (await tick()).filter((c) => c.accountId === who.id);
      t.clock.advance(15 * MINUTE);
      expect(await mine()).toEqual([]);
      setClock(t, '2027-03-03T21:10:00.000Z');
      expect((await mine()).map((c) => c.report.firstDate)).toEqual(['2027-03-03']);
    });
  });
});

describe('the publisher’s address behind a proxy', () => {
  const t = useTestApp({ env: { TRUST_PROXY: '1' } });

  it('is the forwarded client address behind a proxy (TRUST_PROXY=1)', async () => {
    const who = await publisherOf(t);
    const res = await t.api.post(SNAPSHOT, snapshot({ time: new Date().toISOString() }), {
      headers: { authorization: `Bearer ${who.key}`, 'x-forwarded-for': '198.51.100.7' },
    });
    expect(res.status).toBe(200);
    const { rows } = await t.sql.query(
      'select publisher_ip from monitoring_accounts where id = $1',
      [who.account.id],
    );
    expect(rows[0].publisher_ip).toBe('198.51.100.7');
  });
});

describe('a mail server that does not answer', () => {
  const t = useTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });

  it('marks the e-mail failed (its job retries) and still delivers the other channel', async () => {
    const who = await publisherOf(t);
    await t.api.request('PATCH', alertsOf(who.account.id), {
      token: who.user.token,
      body: { rules: { equity_below: { enabled: true, threshold: 1000 } } },
    });
    await send(t, SNAPSHOT, who.key, snapshot({ time: new Date().toISOString(), equity: 500 }));
    const [event] = await eventsOf(t, who.account.id);
    expect(await t.app.monitoringJobs.alerts.deliverAlert(event.id)).toEqual([
      'rejected',
      'fulfilled',
    ]);
    expect((await eventsOf(t, who.account.id))[0]).toMatchObject({
      email_status: 'failed',
      telegram_status: 'skipped',
    });
  });
});

describe('an alert in Telegram', () => {
  const t = useTestApp();

  it('arrives in the owner’s monitoring chat with a Reboot button for the silent terminal’s server', async () => {
    const emulator = await startTelegramEmulator();
    emulator.addBot('1000:alerts-test', 'tradehost_test_bot');
    const { mailer } = createMailer(t.config);
    try {
      const bots = createTelegramBots({
        botToken: '1000:alerts-test',
        monitoringBotToken: undefined,
        webhookSecret: 'alerts-test-webhook-secret',
        apiRoot: emulator.url,
      });
      const delivery = createDelivery({
        db: t.app.db,
        config: t.config,
        mailer,
        telegram: createTelegramOutbox({ db: t.app.db, bots, log: t.app.log }),
      });
      const who = await publisherOf(t);
      const chat = { id: 4242, type: 'private' as const, first_name: 'Trader' };
      // the user has written to the bot (its webhook is not what this test is about)
      await emulator.say(chat, '/start').catch(() => undefined);
      await t.sql.query(
        `insert into telegram_chats (user_id, purpose, chat_id, title, linked_at)
         values ($1, 'monitoring', $2, 'Trader', now())`,
        [who.user.id, chat.id],
      );
      const { rows } = await t.sql.query(
        `insert into monitoring_alert_events (account_id, kind, at, value, threshold, details)
         values ($1, 'no_data', now(), 12, 10, $2) returning id`,
        [
          who.account.id,
          {
            minutes: 12,
            last_data_at: new Date().toISOString(),
            publisher_ip: '203.0.113.9',
            servers: [{ id: 77, state: 'running', rate: 'Trader, London', comment: '' }],
          },
        ],
      );
      const eventId = Number(rows[0].id);
      await delivery.deliverAlert(eventId, 'telegram');
      const [message] = emulator.sent(chat.id);
      expect(message!.text).toContain('«Main» (5012345): no data from the terminal');
      expect(message!.text).toContain('which is your server #77 (Trader, London): running');
      expect(message!.parse_mode).toBe('HTML');
      expect(message!.buttons).toEqual([
        [{ text: 'Reboot server #77', callback_data: 'reboot:77' }],
      ]);
      const [event] = await eventsOf(t, who.account.id);
      expect(event).toMatchObject({ telegram_status: 'sent', email_status: 'pending' });
    } finally {
      await mailer.close();
      await emulator.close();
    }
  });
});

describe('a ping alert in Telegram', () => {
  it('names the trade server and the minutes in the owner’s language, without buttons', () => {
    const alert = {
      account: { name: 'Main', login: 5012345, currency: 'USD', timeZone: 'Europe/Moscow' },
      kind: 'ping_above' as const,
      at: new Date('2026-11-30T03:12:00Z'),
      value: 1212,
      threshold: 150,
      details: { server: 'ICMarkets-Live02', minutes: 5 },
    };
    expect(alertTelegramMessage('ru', alert)).toEqual({
      html:
        '<b>«Main» (5012345): пинг 1\u00a0212 мс</b>\n\n' +
        'Пинг до ICMarkets-Live02 выше 150 мс уже 5 минут: сейчас 1\u00a0212 мс ' +
        '(счёт «Main» (5012345), 2026-11-30 06:12 (Europe/Moscow)).',
    });
    expect(alertTelegramMessage('en', { ...alert, details: { minutes: 5 } }).html).toContain(
      'Ping to the trade server has been above 150 ms for 5 minutes: now 1,212 ms',
    );
  });
});

describe('the buttons under a silent-terminal alert', () => {
  const alert = (servers: AlertServer[]) => ({
    account: { name: 'Main', login: 5012345, currency: 'USD', timeZone: 'UTC' },
    kind: 'no_data' as const,
    at: new Date('2026-11-30T03:12:00Z'),
    value: 12,
    threshold: 10,
    details: { minutes: 12, last_data_at: '2026-11-30T03:00:00Z', servers },
  });
  const server = (id: number, state: AlertServerState): AlertServer => ({
    id,
    state,
    rate: 'Trader',
    comment: '',
  });

  it('offer Start for a shut-down server and Reboot for a running one, in the owner’s language', () => {
    const servers = [
      server(77, 'running'),
      server(78, 'shut_down'),
      server(79, 'unknown'),
      server(80, 'blocked'),
    ];
    expect(alertTelegramMessage('en', alert(servers)).buttons).toEqual([
      [{ text: 'Reboot server #77', data: 'reboot:77' }],
      [{ text: 'Start server #78', data: 'start:78' }],
      [{ text: 'Reboot server #79', data: 'reboot:79' }],
    ]);
    expect(alertTelegramMessage('ru', alert(servers)).buttons).toEqual([
      [{ text: 'Перезагрузить сервер №\u00a077', data: 'reboot:77' }],
      [{ text: 'Запустить сервер №\u00a078', data: 'start:78' }],
      [{ text: 'Перезагрузить сервер №\u00a079', data: 'reboot:79' }],
    ]);
  });
});
