import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { monitoringExpiryWarningMail } from '../../integrations/mail/templates.ts';
import type { Jobs } from '../../jobs/index.ts';
import { createAlertJobs, type SilentTerminalListener } from './monitoring.alerts.jobs.ts';
import { createMonitoringLive } from './monitoring.live.ts';
import { storeStatistics } from './monitoring.statistics.ts';
import { DAY_MS } from '@tradehost/contracts';

export type { SilentTerminalListener };

/**
 * Monitoring's background work, on pg-boss queues this module defines:
 * - `monitoring-statistics`: one job per account recomputes and stores its figures. The
 *   ingestion path only marks the account (`touch`, in memory); a flush each second sends the
 *   marked ones debounced per account: within DEALS_DEBOUNCE_SEC after new deals, at most every
 *   SNAPSHOT_DEBOUNCE_SEC while only snapshots come (they move equity, not trades).
 * - `monitoring-maintenance`, every 10 minutes (a singleton): the expiry mails 3 days and 1 day
 *   before a paid subscription ends; deletion of the accounts (and their data) of subscriptions
 *   ended more than MONITORING_RETENTION_DAYS ago; equity and ping points older than 30 days
 *   folded into one an hour; visitor hashes older than two days deleted.
 * Each step is a conditional statement on the rows it changes, so two ticks at once change
 * nothing more than one.
 * Alerts' and reports' queues: monitoring.alerts.jobs.ts.
 */

export const STATISTICS_QUEUE = 'monitoring-statistics';
export const MAINTENANCE_QUEUE = 'monitoring-maintenance';
export const DEALS_DEBOUNCE_SEC = 3;
export const SNAPSHOT_DEBOUNCE_SEC = 120;
/** Equity and ping points older than this are kept one an hour. */
export const MINUTE_POINTS_DAYS = 30;
const FLUSH_MS = 1000;

export interface MaintenanceReport {
  warned3d: number;
  warned1d: number;
  deletedAccounts: number;
  thinnedPoints: number;
  thinnedPings: number;
  deletedViews: number;
}

export interface MonitoringJobsDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** Where monitoring alerts and reports go in Telegram (off without a bot token). */
  telegram: TelegramOutbox;
  now: () => Date;
  log: FastifyBaseLogger;
  jobs: Jobs;
  /** Takes up silent-terminal alerts that name the owner's servers (the VPS module's guardian). */
  guardian?: SilentTerminalListener;
}

export function createMonitoringJobs(deps: MonitoringJobsDeps) {
  const { db, config, mailer, log } = deps;
  const daysFrom = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

  // live `monitoring` updates: new data (touch) and new figures (the statistics job), throttled
  const live = createMonitoringLive(db, log);

  const statistics = deps.jobs.define<{ accountId: number }>({
    queue: STATISTICS_QUEUE,
    policy: 'standard',
    expireInSeconds: 10 * 60,
    workers: 2,
    run: async ({ accountId }) => {
      await storeStatistics(db, Number(accountId), deps.now());
      // the new figures: the owner's consoles read them again
      live.touched(Number(accountId));
    },
  });

  // ---- the marks of the ingestion path --------------------------------------------------
  const marked = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    if (flushing || marked.size === 0) return flushing;
    const batch = [...marked];
    marked.clear();
    flushing = (async () => {
      for (const [accountId, seconds] of batch)
        await statistics.send({ accountId }, { seconds, key: String(accountId) });
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  /** The account's figures are due: soon after new deals, now and then after snapshots. */
  function touch(accountId: number, cause: 'deals' | 'snapshot'): void {
    live.touched(accountId);
    if (!config.vps.jobs) return;
    const seconds = cause === 'deals' ? DEALS_DEBOUNCE_SEC : SNAPSHOT_DEBOUNCE_SEC;
    marked.set(accountId, Math.min(marked.get(accountId) ?? seconds, seconds));
    timer ??= setInterval(() => void flush(), FLUSH_MS).unref();
  }

  // ---- maintenance -------------------------------------------------------------------------

  /** Marks and mails the paid subscriptions in a warning window, each once (the mark is the condition). */
  async function warn(now: Date, days: 1 | 3): Promise<number> {
    const set =
      days === 1
        ? sql`warned_1d_at = ${now}, warned_3d_at = coalesce(s.warned_3d_at, ${now})`
        : sql`warned_3d_at = ${now}`;
    const unwarned = days === 1 ? sql`s.warned_1d_at is null` : sql`s.warned_3d_at is null`;
    const { rows } = await db.execute<{
      id: string;
      ends_at: Date | string;
      user_id: string;
      email: string;
      name: string;
      language: 'en' | 'ru';
    }>(sql`
      with due as (
        update monitoring_subscriptions s set ${set}
        where s.plan = 'paid' and s.ends_at > ${now} and s.ends_at <= ${daysFrom(now, days)}
          and ${unwarned}
        returning s.id, s.ends_at, s.user_id)
      select due.id, due.ends_at, due.user_id, u.email, u.name, u.language
      from due join users u on u.id = due.user_id`);
    for (const row of rows)
      await notify(
        mailer,
        log,
        { id: Number(row.user_id), email: row.email, language: row.language },
        (language) =>
          monitoringExpiryWarningMail(language, {
            name: row.name,
            subscriptionId: Number(row.id),
            days,
            endsAt: new Date(row.ends_at),
            retentionDays: config.monitoring.retentionDays,
            link: `${config.publicUrl}/online-monitoring`,
          }),
      );
    return rows.length;
  }

  async function tick(): Promise<MaintenanceReport> {
    const now = deps.now();
    const warned1d = await warn(now, 1);
    const warned3d = await warn(now, 3);

    const retainedSince = daysFrom(now, -config.monitoring.retentionDays);
    const deleted = await db.execute(sql`
      delete from monitoring_accounts where subscription_id in (
        select id from monitoring_subscriptions
        where plan = 'paid' and ends_at < ${retainedSince})`);

    // each hour older than MINUTE_POINTS_DAYS keeps one point per cash-flow segment: the
    // hour's last balance, equity and credit (and their time), its lowest low, highest high and
    // largest margin, and whether it was hosted: the AND of its minutes' (bool_and, but an
    // unknown minute leaves the hour unknown unless another was from elsewhere, as `and` does;
    // bool_and alone would skip it and call the hour hosted)
    const thinned = await db.execute(sql`
      with moved as (
        delete from monitoring_equity
        where at < ${daysFrom(now, -MINUTE_POINTS_DAYS)} and at <> date_trunc('hour', at)
        returning *)
      insert into monitoring_equity (account_id, at, segment, last_at, balance, equity,
        equity_low, equity_high, margin, credit, hosted)
      select account_id, date_trunc('hour', at), segment, max(coalesce(last_at, at)),
        (array_agg(balance order by at desc))[1], (array_agg(equity order by at desc))[1],
        min(equity_low), max(equity_high), max(margin), (array_agg(credit order by at desc))[1],
        case when not bool_and(hosted) then false when bool_or(hosted is null) then null
          else true end
      from moved group by account_id, date_trunc('hour', at), segment
      on conflict (account_id, at, segment) do update set last_at = excluded.last_at,
        balance = excluded.balance, equity = excluded.equity, credit = excluded.credit,
        equity_low = least(monitoring_equity.equity_low, excluded.equity_low),
        equity_high = greatest(monitoring_equity.equity_high, excluded.equity_high),
        margin = greatest(monitoring_equity.margin, excluded.margin),
        hosted = monitoring_equity.hosted and excluded.hosted`);

    // and of pings, the hour's mean (its minute-00 point, kept in place, counted in), with the
    // trade server and location of its latest: the latency map reads only the last 30 days
    const thinnedPings = await db.execute(sql`
      with moved as (
        delete from monitoring_pings
        where at < ${daysFrom(now, -MINUTE_POINTS_DAYS)} and at <> date_trunc('hour', at)
        returning *),
      hours as (
        select account_id, date_trunc('hour', at) as at, sum(ping_ms) as total, count(*) as n,
          (array_agg(server order by at desc))[1] as server,
          (array_agg(location order by at desc))[1] as location, min(user_id) as user_id
        from moved group by account_id, date_trunc('hour', at))
      insert into monitoring_pings (account_id, at, ping_ms, server, location, user_id)
      select h.account_id, h.at,
        round((h.total + coalesce(kept.ping_ms, 0))::numeric
          / (h.n + (kept.ping_ms is not null)::int)),
        h.server, h.location, h.user_id
      from hours h
      left join monitoring_pings kept on kept.account_id = h.account_id and kept.at = h.at
      on conflict (account_id, at) do update set ping_ms = excluded.ping_ms,
        server = excluded.server, location = excluded.location`);

    const views = await db.execute(sql`
      delete from monitoring_views where day < ${utcDay(daysFrom(now, -2))}`);

    const report = {
      warned3d,
      warned1d,
      deletedAccounts: deleted.rowCount ?? 0,
      thinnedPoints: thinned.rowCount ?? 0,
      thinnedPings: thinnedPings.rowCount ?? 0,
      deletedViews: views.rowCount ?? 0,
    };
    return report;
  }

  deps.jobs.define({
    queue: MAINTENANCE_QUEUE,
    policy: 'singleton',
    expireInSeconds: 15 * 60,
    cron: '*/10 * * * *',
    run: async () => log.info({ report: await tick() }, 'monitoring maintenance tick'),
  });

  const alerts = createAlertJobs(deps);

  return {
    touch,
    /** Alerts and reports: the ingest's evaluation, the ticks, the deliveries. */
    alerts,
    /** The Telegram outbox alerts and reports go through (whether it is on). */
    telegram: deps.telegram,
    /** The statistics job's work for one account (the tests call it with jobs off). */
    recompute: (accountId: number) => storeStatistics(db, accountId, deps.now()),
    tick,
    /**
     * Stops the flushes (marks not yet sent are dropped: the next data marks again), and
     * resolves once a running alerts tick has ended, so the pool is not ended under it.
     */
    async stop() {
      live.stop();
      if (timer) clearInterval(timer);
      timer = undefined;
      marked.clear();
      await alerts.stop();
    },
  };
}

/** `YYYY-MM-DD` of a moment in UTC: the day a visitor's hash belongs to. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export type MonitoringJobs = ReturnType<typeof createMonitoringJobs>;
