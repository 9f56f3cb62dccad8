import {
  PING_ALERT_MINUTES,
  type AlertDeliveryStatus as AlertDelivery,
  type AlertKind,
  type AlertServer,
  type AlertServerState,
  type ReportPeriod,
} from '@tradehost/contracts';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringAlertEvents,
  monitoringAlertRules,
  telegramChats,
} from '../../db/schema/index.ts';

/** The SQL of alerts and reports: settings, history, the evaluation's writes, delivery reads. */

export type AlertRuleRow = typeof monitoringAlertRules.$inferSelect;
export type AlertEventRow = typeof monitoringAlertEvents.$inferSelect;
export type Channel = 'email' | 'telegram';

/** A rule's state as the evaluation read it, and its version (`updated_at`, as text: exact). */
export interface RuleChange {
  account_id: number;
  kind: AlertKind;
  version: string;
  was_fired: boolean;
  fired_at: string | null;
  base: number | null;
  base_at: string | null;
  /** It fired now: its event is written only if this change is. */
  fire: boolean;
}

export interface NewEvent {
  account_id: number;
  kind: AlertKind;
  at: string;
  value: number | null;
  threshold: number | null;
  details: Record<string, unknown>;
  email_status: AlertDelivery;
  telegram_status: AlertDelivery;
  /** Written only with its rule's firing change (false: positions, which keep no state). */
  ruled: boolean;
}

export interface WrittenEvent {
  id: number;
  email_status: AlertDelivery;
  telegram_status: AlertDelivery;
}

const SERVER_STATE = sql`case
  when s.status = 'active' and s.power = 'running' then 'running'
  when s.status = 'active' and s.power = 'stopped' then 'shut_down'
  when s.status in ('blocked', 'revoked', 'provisioning') then s.status
  else 'unknown' end`;

export const alertsRepository = {
  rules(db: Executor, accountId: number) {
    return db
      .select()
      .from(monitoringAlertRules)
      .where(eq(monitoringAlertRules.accountId, accountId));
  },

  /** Whether the user has a Telegram chat linked for monitoring. */
  async telegramLinked(db: Executor, userId: number): Promise<boolean> {
    const [row] = await db
      .select({ chatId: telegramChats.chatId })
      .from(telegramChats)
      .where(and(eq(telegramChats.userId, userId), eq(telegramChats.purpose, 'monitoring')));
    return row !== undefined;
  },

  /** A rule set by the owner: armed afresh (its state and fired mark cleared), a new version. */
  async putRule(
    db: Executor,
    values: { accountId: number; kind: AlertKind; enabled: boolean; threshold: number | null },
    base: number | null,
    at: Date,
  ) {
    await db
      .insert(monitoringAlertRules)
      .values({ ...values, base, baseAt: null, firedAt: null, updatedAt: at })
      .onConflictDoUpdate({
        target: [monitoringAlertRules.accountId, monitoringAlertRules.kind],
        set: {
          enabled: values.enabled,
          threshold: values.threshold,
          base,
          baseAt: null,
          firedAt: null,
          updatedAt: at,
        },
      });
  },

  /** The current drawdown the statistics job stored (its chart's last point), if any. */
  async storedDrawdown(db: Executor, accountId: number): Promise<number | null> {
    const { rows } = await db.execute<{ drawdown: number | null }>(sql`
      select (chart -> -1 ->> 'drawdown')::float8 as drawdown
      from monitoring_statistics where account_id = ${accountId}`);
    return rows[0]?.drawdown ?? null;
  },

  async history(db: Executor, accountId: number, page: number, perPage: number) {
    const where = eq(monitoringAlertEvents.accountId, accountId);
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(monitoringAlertEvents)
        .where(where)
        .orderBy(desc(monitoringAlertEvents.id))
        .limit(perPage)
        .offset((page - 1) * perPage),
      db.select({ n: count() }).from(monitoringAlertEvents).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /**
   * Writes rule changes and the events of those that fired, in one statement. A change applies
   * only if the rule is still as the evaluation read it (same version, same fired state), so two
   * evaluations at once, or one racing the owner's edit, fire once or not at all.
   */
  async writeChanges(db: Executor, changes: RuleChange[], events: NewEvent[]) {
    if (changes.length === 0 && events.length === 0) return [];
    const { rows } = await db.execute<{ id: string } & Omit<WrittenEvent, 'id'>>(sql`
      with change as (
        select * from json_to_recordset(${JSON.stringify(changes)}::json) as c(account_id bigint,
          kind text, version timestamptz, was_fired boolean, fired_at timestamptz, base float8,
          base_at timestamptz, fire boolean)),
      updated as (
        update monitoring_alert_rules r set fired_at = c.fired_at, base = c.base, base_at = c.base_at
        from change c
        where r.account_id = c.account_id and r.kind = c.kind and r.updated_at = c.version
          and (r.fired_at is not null) = c.was_fired
        returning r.account_id, r.kind, c.fire),
      event as (
        select * from json_to_recordset(${JSON.stringify(events)}::json) as e(account_id bigint,
          kind text, at timestamptz, value float8, threshold float8, details jsonb,
          email_status text, telegram_status text, ruled boolean))
      insert into monitoring_alert_events (account_id, kind, at, value, threshold, details,
        email_status, telegram_status)
      select e.account_id, e.kind, e.at, e.value, e.threshold, e.details, e.email_status,
        e.telegram_status
      from event e
      where not e.ruled or exists (
        select 1 from updated u where u.account_id = e.account_id and u.kind = e.kind and u.fire)
      returning id, email_status, telegram_status`);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  },

  /**
   * A deposit's or withdrawal's new rule bases, each where the rule is still at the version read
   * (and a new version, so an evaluation that read the old base writes nothing).
   */
  async moveBases(
    db: Executor,
    moves: { kind: AlertKind; version: string; base: number | null; base_at: string | null }[],
    accountId: number,
    at: Date,
  ) {
    if (moves.length === 0) return;
    await db.execute(sql`
      update monitoring_alert_rules r set base = m.base, base_at = m.base_at, updated_at = ${at}
      from json_to_recordset(${JSON.stringify(moves)}::json) as m(kind text, version timestamptz,
        base float8, base_at timestamptz)
      where r.account_id = ${accountId} and r.kind = m.kind and r.updated_at = m.version`);
  },

  /** The rules a deposit or withdrawal moves, and the account's equity and credit before it. */
  async flowState(db: Executor, accountId: number) {
    const { rows } = await db.execute<{
      kind: AlertKind;
      version: string;
      base: number | null;
      base_at: Date | string | null;
      equity: number | null;
      credit: number | null;
    }>(sql`
      select r.kind, r.updated_at::text as version, r.base, r.base_at, a.equity, a.credit
      from monitoring_alert_rules r join monitoring_accounts a on a.id = r.account_id
      where r.account_id = ${accountId} and r.enabled and r.base is not null
        and r.kind in ('drawdown', 'daily_loss')`);
    return rows;
  },

  /**
   * The opening equity (without credit) of days: the last equity point before each day's start,
   * else the day's first (of a minute split by a cash flow, the one after it, or before it).
   */
  async dayBases(
    db: Executor,
    days: { account_id: number; day_start: string }[],
  ): Promise<Map<number, number>> {
    if (days.length === 0) return new Map();
    const { rows } = await db.execute<{ account_id: string; base: number | null }>(sql`
      select x.account_id, coalesce(
        (select e.equity - e.credit from monitoring_equity e
         where e.account_id = x.account_id and e.at < x.day_start
         order by e.at desc, e.segment desc limit 1),
        (select e.equity - e.credit from monitoring_equity e
         where e.account_id = x.account_id and e.at >= x.day_start
         order by e.at, e.segment limit 1)) as base
      from json_to_recordset(${JSON.stringify(days)}::json) as x(account_id bigint, day_start timestamptz)`);
    return new Map(
      rows.filter((r) => r.base !== null).map((r) => [Number(r.account_id), Number(r.base)]),
    );
  },

  /**
   * The ping points of the PING_ALERT_MINUTES up to each snapshot's time (`until`), oldest first,
   * by the snapshot's batch index (each asked for has an entry, empty without points): a range of
   * the points' primary key per account.
   */
  async pingWindows(
    db: Executor,
    windows: { i: number; account_id: number; until: string }[],
  ): Promise<Map<number, { at: Date; pingMs: number; server: string | null }[]>> {
    const found = new Map(
      windows.map((w) => [w.i, [] as { at: Date; pingMs: number; server: string | null }[]]),
    );
    if (windows.length === 0) return found;
    const { rows } = await db.execute<{
      i: number;
      at: Date | string;
      ping_ms: number;
      server: string | null;
    }>(sql`
      select x.i, p.at, p.ping_ms, p.server
      from json_to_recordset(${JSON.stringify(windows)}::json) as x(i int, account_id bigint, until timestamptz)
      join monitoring_pings p on p.account_id = x.account_id
        and p.at > x.until - make_interval(mins => ${PING_ALERT_MINUTES}) and p.at <= x.until
      order by x.i, p.at`);
    for (const r of rows)
      found.get(r.i)?.push({ at: new Date(r.at), pingMs: r.ping_ms, server: r.server });
    return found;
  },

  /** The owner's servers at an address (not the failed ones), with their state. */
  async serversAt(db: Executor, userId: number, ip: string): Promise<AlertServer[]> {
    const { rows } = await db.execute<{
      id: string;
      state: AlertServerState;
      rate: string;
      comment: string;
    }>(sql`
      select s.id, ${SERVER_STATE} as state, r.name || ', ' || r.location as rate, s.comment
      from vps_servers s join vps_rates r on r.id = s.rate_id
      where s.user_id = ${userId} and s.host = ${ip} and s.status <> 'failed'
      order by s.id`);
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  },

  /** An event with what its delivery needs: the account, its owner's name and language. */
  async eventForDelivery(db: Executor, eventId: number) {
    const [row] = await db
      .select({
        event: monitoringAlertEvents,
        account: {
          id: monitoringAccounts.id,
          userId: monitoringAccounts.userId,
          monitoringId: monitoringAccounts.monitoringId,
          name: monitoringAccounts.name,
          login: monitoringAccounts.login,
          currency: monitoringAccounts.currency,
          timeZone: monitoringAccounts.timeZone,
          email: monitoringAccounts.email,
        },
        owner: {
          name: sql<string>`(select name from users where id = ${monitoringAccounts.userId})`,
          language: sql<
            'en' | 'ru'
          >`(select language from users where id = ${monitoringAccounts.userId})`,
        },
      })
      .from(monitoringAlertEvents)
      .innerJoin(monitoringAccounts, eq(monitoringAccounts.id, monitoringAlertEvents.accountId))
      .where(eq(monitoringAlertEvents.id, eventId));
    return row;
  },

  /**
   * Alerts the terminal guardian tells instead: their channels are not sent here ('skipped'), and
   * the channels they would have used are kept in `details.guardian` for the guardian's message.
   */
  async handOver(db: Executor, eventIds: number[]): Promise<void> {
    if (eventIds.length === 0) return;
    await db.execute(sql`
      update monitoring_alert_events
         set details = details || jsonb_build_object('guardian', jsonb_build_object(
               'email', email_status = 'pending', 'telegram', telegram_status = 'pending')),
             email_status = case when email_status = 'pending' then 'skipped' else email_status end,
             telegram_status =
               case when telegram_status = 'pending' then 'skipped' else telegram_status end
       where id = any(${`{${eventIds.join(',')}}`}::bigint[])`);
  },

  async setDelivery(db: Executor, eventId: number, channel: Channel, status: AlertDelivery) {
    await db
      .update(monitoringAlertEvents)
      .set(channel === 'email' ? { emailStatus: status } : { telegramStatus: status })
      .where(eq(monitoringAlertEvents.id, eventId));
  },

  /** Events still pending a channel some minutes after they were written (their job was lost). */
  async stalePending(db: Executor, olderThan: Date, since: Date) {
    const { rows } = await db.execute<{ id: string; email: boolean; telegram: boolean }>(sql`
      select id, email_status = 'pending' as email, telegram_status = 'pending' as telegram
      from monitoring_alert_events
      where (email_status = 'pending' or telegram_status = 'pending')
        and at < ${olderThan} and at > ${since}
      order by id limit 1000`);
    return rows.map((r) => ({ id: Number(r.id), email: r.email, telegram: r.telegram }));
  },

  /** Armed no-data rules of reporting accounts (running subscriptions) silent at least `threshold` wall minutes. */
  async silentCandidates(db: Executor, now: Date) {
    const { rows } = await db.execute<{
      account_id: string;
      user_id: string;
      last_data_at: Date | string;
      publisher_ip: string | null;
      trade_sessions: [number, number][] | null;
      threshold: number;
      version: string;
      alert_email: boolean;
      alert_telegram: boolean;
    }>(sql`
      select a.id as account_id, a.user_id, a.last_data_at, a.publisher_ip, a.trade_sessions,
        r.threshold,
        r.updated_at::text as version, a.alert_email, a.alert_telegram
      from monitoring_alert_rules r
      join monitoring_accounts a on a.id = r.account_id
      join monitoring_subscriptions s on s.id = a.subscription_id
      where r.kind = 'no_data' and r.enabled and r.fired_at is null and a.alerts_enabled
        and a.last_data_at is not null
        and a.last_data_at <= ${now}::timestamptz - make_interval(mins => r.threshold::int)
        and (s.ends_at is null or s.ends_at > ${now})
      order by a.id limit 5000`);
    return rows.map((r) => ({
      accountId: Number(r.account_id),
      userId: Number(r.user_id),
      lastDataAt: new Date(r.last_data_at),
      publisherIp: r.publisher_ip,
      tradeSessions: r.trade_sessions,
      threshold: Number(r.threshold),
      version: r.version,
      alertEmail: r.alert_email,
      alertTelegram: r.alert_telegram,
    }));
  },

  /** Accounts of running subscriptions with any report on and a channel for it. */
  async reportAccounts(db: Executor, now: Date) {
    return db.execute<{
      id: string;
      user_id: string;
      created_at: Date | string;
      name: string;
      login: string;
      currency: string | null;
      time_zone: string;
      report_daily: boolean;
      report_weekly: boolean;
      report_monthly: boolean;
      report_email: boolean;
      report_telegram: boolean;
    }>(sql`
      select a.id, a.user_id, a.created_at, a.name, a.login, a.currency, a.time_zone,
        a.report_daily, a.report_weekly, a.report_monthly, a.report_email, a.report_telegram
      from monitoring_accounts a join monitoring_subscriptions s on s.id = a.subscription_id
      where (a.report_daily or a.report_weekly or a.report_monthly)
        and (a.report_email or a.report_telegram)
        and (s.ends_at is null or s.ends_at > ${now})
      order by a.id`);
  },

  /** The reports sent since `since` (what the tick need not look at again). */
  async sentSince(db: Executor, since: Date) {
    const { rows } = await db.execute<{ account_id: string; period: ReportPeriod; start: string }>(
      sql`select account_id, period, period_start::text as start from monitoring_reports_sent
          where period_start >= ${since}`,
    );
    return new Set(rows.map((r) => `${r.account_id}/${r.period}/${new Date(r.start).getTime()}`));
  },

  /** Claims a period's report: true for the one caller that inserted it (ever). */
  async claimReport(
    db: Executor,
    accountId: number,
    period: ReportPeriod,
    start: Date,
    at: Date,
  ): Promise<boolean> {
    const { rows } = await db.execute(sql`
      insert into monitoring_reports_sent (account_id, period, period_start, sent_at)
      values (${accountId}, ${period}, ${start}, ${at})
      on conflict do nothing returning account_id`);
    return rows.length > 0;
  },

  async owner(db: Executor, userId: number) {
    const { rows } = await db.execute<{ name: string; language: 'en' | 'ru' }>(
      sql`select name, language from users where id = ${userId}`,
    );
    return rows[0];
  },
};
