import type { IngestDeals, IngestHello, IngestSnapshot } from '@tradehost/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client.ts';
import { monitoringAccounts, monitoringSubscriptions } from '../../db/schema/index.ts';
import { createBatcher } from '../../lib/batcher.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import type { AlertEngine, RawRule, StoredSnapshot } from './monitoring.alerts.engine.ts';
import { tradeSessionsOf } from './monitoring.alerts.evaluate.ts';
import { EQUITY_BEFORE_REACH_MS } from './monitoring.statistics.ts';
import { HOSTED_REACH_MS, VERIFICATION_SETTLE_MS } from './monitoring.verification.ts';

/** How often the publisher sends a snapshot. */
export const SNAPSHOT_EVERY_SEC = 10;
/** The most snapshots one statement writes, and how many such statements run at once. */
const SNAPSHOTS_PER_STATEMENT = 200;
const SNAPSHOT_STATEMENTS_AT_ONCE = 1;

/**
 * The publisher's calls. Each finds the account by the key's hash and the login, and stores: no
 * statistics work on the request path. Snapshots, the frequent call, do both in one statement
 * shared with the other snapshots of the moment, which also reads the alert rules of their
 * accounts: those with any are evaluated right after (`alerts`), before the snapshots are
 * answered. Each call keeps the address it came from (`ip`), where a silent terminal's server
 * is looked for.
 */
export function createIngest(
  db: Db,
  pool: pg.Pool,
  now: () => Date,
  touch: (accountId: number, cause: 'deals' | 'snapshot') => void,
  alerts: Pick<AlertEngine, 'onSnapshots' | 'onFlows'>,
) {
  /** The running subscription of the key's hash, and its account of that login. */
  async function resolve(keyHash: string, login: number) {
    const [row] = await db
      .select({
        subscription: {
          id: monitoringSubscriptions.id,
          endsAt: monitoringSubscriptions.endsAt,
        },
        account: { id: monitoringAccounts.id, monitoringId: monitoringAccounts.monitoringId },
      })
      .from(monitoringSubscriptions)
      .leftJoin(
        monitoringAccounts,
        and(
          eq(monitoringAccounts.subscriptionId, monitoringSubscriptions.id),
          eq(monitoringAccounts.login, login),
        ),
      )
      .where(eq(monitoringSubscriptions.keyHash, keyHash));
    if (!row) throw new AppError(401, 'MONITORING_KEY_UNKNOWN');
    const { endsAt } = row.subscription;
    if (endsAt && endsAt.getTime() <= now().getTime())
      throw new AppError(402, 'MONITORING_SUBSCRIPTION_ENDED');
    if (!row.account)
      throw new AppError(
        404,
        'MONITORING_LOGIN_NOT_ADDED',
        undefined,
        `Account ${login} is not added to this subscription: add it in the console first`,
      );
    return row.account;
  }

  /**
   * Snapshots by group commit: each batch finds its accounts by key hash and login among running
   * subscriptions, stores them and their minutes, and answers each snapshot's account id, or null
   * where none was found (nothing of it written).
   */
  const snapshots = createBatcher<
    { keyHash: string; snapshot: IngestSnapshot; ip: string },
    number | null
  >({
    max: SNAPSHOTS_PER_STATEMENT,
    concurrency: SNAPSHOT_STATEMENTS_AT_ONCE,
    keyOf: ({ keyHash, snapshot }) => `${keyHash}/${snapshot.login}`,
    write: async (items) => {
      const at = now();
      const input = items.map(({ keyHash, snapshot: s, ip }, i) => ({
        i,
        key_hash: keyHash,
        ip,
        login: s.login,
        time: s.time,
        balance: s.balance,
        equity: s.equity,
        margin: s.margin,
        credit: s.credit,
        equity_low: Math.min(s.equity_low, s.equity),
        equity_high: Math.max(s.equity_high, s.equity),
        terminal_connected: s.terminal_connected,
        positions: s.positions,
        ping_ms: s.ping_ms ?? null,
        trade_allowed: s.trade_allowed ?? null,
        ea_trade_allowed: s.ea_trade_allowed ?? null,
      }));
      const { rows } = await pool.query<StoredRow>({
        name: 'monitoring-store-snapshots',
        text: STORE_SNAPSHOTS,
        values: [JSON.stringify(input), at],
      });
      const accounts = new Map(rows.map((r) => [Number(r.i), Number(r.account_id)]));
      await alerts.onSnapshots(
        rows.filter((r) => r.rules !== null).map((r) => storedSnapshot(r, items[r.i]!.snapshot)),
      );
      return items.map((_, i) => accounts.get(i) ?? null);
    },
  });

  return {
    async hello(keyHash: string, hello: IngestHello, ip: string) {
      const account = await resolve(keyHash, hello.login);
      try {
        await db
          .update(monitoringAccounts)
          .set({
            platform: hello.platform,
            server: hello.server,
            company: hello.company,
            currency: hello.currency,
            leverage: hello.leverage,
            tradeMode: hello.trade_mode,
            marginMode: hello.margin_mode,
            eaVersion: hello.ea_version,
            helloAt: now(),
            publisherIp: ip,
            tradeSessions: tradeSessionsOf(hello.sessions, hello.server_time_offset_sec),
          })
          .where(eq(monitoringAccounts.id, account.id));
      } catch (error) {
        if (isUniqueViolation(error, 'monitoring_accounts_login_server_key'))
          throw new AppError(409, 'MONITORING_LOGIN_ELSEWHERE');
        throw error;
      }
      const { rows } = await db.execute<{ last: string | null }>(sql`
        select max(ticket) as last from monitoring_deals where account_id = ${account.id}`);
      const last = rows[0]?.last ?? null;
      return {
        account_id: account.id,
        monitoring_id: account.monitoringId,
        last_ticket: last === null ? null : Number(last),
        snapshot_every_sec: SNAPSHOT_EVERY_SEC,
        full_resync: last === null,
      };
    },

    /**
     * Upserted on (account, ticket): a resent batch changes nothing. The new deposits and
     * withdrawals move the alert rules' bases. A position's excursions are kept on its closing
     * deals only (a trade's, out, out_by or inout).
     */
    async deals(keyHash: string, batch: IngestDeals) {
      const account = await resolve(keyHash, batch.login);
      const received = now();
      const { rows } = await db.execute<{
        ticket: string;
        type: string;
        time: Date;
        amount: number;
        equity_before: number | null;
      }>(sql`
        with stored as (
          insert into monitoring_deals (account_id, ticket, "order", position_id, time, type,
            entry, symbol, digits, volume, price, profit, swap, commission, fee, magic, comment,
            equity_before, received_at, mae, mfe, mae_points, mfe_points)
          select ${account.id}, d.ticket, d."order", d.position_id, d.time, d.type, d.entry,
            d.symbol, d.digits, d.volume, d.price, d.profit, d.swap, d.commission, d.fee, d.magic,
            d.comment, d.equity_before, ${received}, case when c.closing then d.mae end,
            case when c.closing then d.mfe end, case when c.closing then d.mae_points end,
            case when c.closing then d.mfe_points end
          from json_to_recordset(${JSON.stringify(batch.deals)}::json) as d(ticket bigint,
            "order" bigint, position_id bigint, time timestamptz, type text, entry text,
            symbol text, digits int, volume float8, price float8, profit float8, swap float8,
            commission float8, fee float8, magic bigint, comment text, equity_before float8,
            mae float8, mfe float8, mae_points float8, mfe_points float8)
          cross join lateral (
            select d.type in ('buy', 'sell') and d.entry <> 'in' as closing) c
          on conflict (account_id, ticket) do nothing
          returning ticket, type, time, profit + swap + commission + fee as amount, equity_before),
        -- new cash flows: the account's next snapshot starts a new equity point, so none holds
        -- values from both sides of a flow
        counted as (
          update monitoring_accounts set flows = flows + added.count
          from (select count(*) as count from stored
            where type in ('balance', 'credit', 'bonus')) added
          where id = ${account.id} and added.count > 0)
        select * from stored`);
      if (rows.length > 0) touch(account.id, 'deals');
      await alerts.onFlows(
        account.id,
        rows
          .filter((d) => d.type === 'balance')
          .map((d) => ({
            amount: d.amount,
            // as the statistics read it: only from a publisher that saw the flow happen
            equityBefore:
              received.getTime() - new Date(d.time).getTime() <= EQUITY_BEFORE_REACH_MS
                ? d.equity_before
                : null,
            time: new Date(d.time),
          }))
          .sort((a, b) => a.time.getTime() - b.time.getTime()),
      );
      return { accepted: rows.length, duplicate: batch.deals.length - rows.length };
    },

    /**
     * The account now, and its minute's equity point (the minute's low and high kept): written
     * with the other publishers' snapshots of the moment, in one statement.
     */
    async snapshot(keyHash: string, snapshot: IngestSnapshot, ip: string) {
      let accountId = await snapshots.add({ keyHash, snapshot, ip });
      if (accountId === null) {
        // not written: the precise refusal (an unknown key, an ended subscription, a login not
        // added), or, had the account been added meanwhile, one more try
        await resolve(keyHash, snapshot.login);
        accountId = await snapshots.add({ keyHash, snapshot, ip });
        if (accountId === null) throw new AppError(404, 'MONITORING_LOGIN_NOT_ADDED');
      }
      touch(accountId, 'snapshot');
      return { stored: true };
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;

/** A stored snapshot's row: its account, and, when the account has alert rules on, what they need. */
interface StoredRow {
  i: number;
  account_id: string;
  rules: RawRule[] | null;
  old_positions: IngestSnapshot['positions'] | null;
  had_data: boolean;
  time_zone: string;
  alert_email: boolean;
  alert_telegram: boolean;
}

const storedSnapshot = (row: StoredRow, snapshot: IngestSnapshot): StoredSnapshot => ({
  accountId: Number(row.account_id),
  snapshot,
  rules: row.rules ?? [],
  oldPositions: row.old_positions,
  hadData: row.had_data,
  timeZone: row.time_zone,
  alertEmail: row.alert_email,
  alertTelegram: row.alert_telegram,
});

/**
 * Stores a batch of snapshots ($1, JSON; $2, now), each where its key hash belongs to a running
 * subscription holding an account of its login: the account's figures now (and the address the
 * snapshot came from, and what it told of its terminal), its minute's equity point (of the
 * account's cash-flow count: a flow starts a new one), which keeps the latest snapshot's values
 * and their true time, and its minute's ping point. Answers the batch index and account id of
 * each stored, and, for accounts with alerts on and any rule enabled, the rules (one index probe
 * per account; none, the usual case, costs nothing more) with what they need from before the
 * update: the previous positions (when positions are watched), whether it had published. A
 * statement prepared once per connection: planned once, not per batch.
 *
 * Each snapshot's `hosted` ("verified by the host", monitoring.verification.ts): false from an
 * address that is no server of ours (active or blocked; any owner's), null from ours when it
 * arrived more than HOSTED_REACH_MS from its own time (it proves nothing of that time), else true:
 * one probe of the servers' host index a snapshot. The minute's point is hosted only if all its
 * snapshots are (true and null is null). A snapshot from elsewhere in a minute the statistics job
 * has already followed (sent late) breaks the run it falls in, as the job would have: looked up
 * only for such snapshots, past the settling time, so none of the usual ones pays for it.
 */
const STORE_SNAPSHOTS = `
  with input as (
    select * from json_to_recordset($1::json) as s(i int, key_hash text, ip text, login bigint,
      time timestamptz, balance float8, equity float8, margin float8, credit float8,
      equity_low float8, equity_high float8, terminal_connected boolean, positions jsonb,
      ping_ms int, trade_allowed boolean, ea_trade_allowed boolean)),
  target as (
    select input.*, a.id as account_id, a.flows, a.alerts_enabled, a.positions as old_positions,
      a.last_data_at is not null as had_data, a.time_zone, a.alert_email, a.alert_telegram,
      a.user_id, a.server,
      case
        when not exists (select 1 from vps_servers s
          where s.host = input.ip and s.status in ('active', 'blocked')) then false
        when input.time between $2::timestamptz - interval '${HOSTED_REACH_MS} milliseconds'
          and $2::timestamptz + interval '${HOSTED_REACH_MS} milliseconds' then true
      end as hosted
    from input
    join monitoring_subscriptions sub on sub.key_hash = input.key_hash
      and (sub.ends_at is null or sub.ends_at > $2)
    join monitoring_accounts a on a.subscription_id = sub.id and a.login = input.login),
  account as (
    update monitoring_accounts a set balance = t.balance, equity = t.equity, margin = t.margin,
      credit = t.credit, terminal_connected = t.terminal_connected, positions = t.positions,
      last_data_at = $2, publisher_ip = t.ip, ping_ms = t.ping_ms, trade_allowed = t.trade_allowed,
      ea_trade_allowed = t.ea_trade_allowed
    from target t where a.id = t.account_id),
  minute as (
    insert into monitoring_equity (account_id, at, segment, last_at, balance, equity, equity_low,
      equity_high, margin, credit, hosted)
    select account_id, date_trunc('minute', time), flows, time, balance, equity, equity_low,
      equity_high, margin, credit, hosted
    from target
    on conflict (account_id, at, segment) do update set last_at = excluded.last_at,
      balance = excluded.balance, equity = excluded.equity, margin = excluded.margin,
      credit = excluded.credit,
      equity_low = least(monitoring_equity.equity_low, excluded.equity_low),
      equity_high = greatest(monitoring_equity.equity_high, excluded.equity_high),
      hosted = monitoring_equity.hosted and excluded.hosted),
  late as (
    update monitoring_verification v set run_started_at = null, broken_reason = 'elsewhere',
      broken_from = m.at, broken_to = m.at, updated_at = $2
    from (select account_id, min(date_trunc('minute', time)) as at from target
      where not hosted
        and date_trunc('minute', time)
          <= $2::timestamptz - interval '${VERIFICATION_SETTLE_MS} milliseconds'
      group by account_id) m
    where v.account_id = m.account_id and v.run_started_at <= m.at and m.at <= v.checked_until),
  -- a connected terminal's ping, once a minute: the minute's first snapshot telling one (the
  -- probe of its minute before the insert, so that the owner's server at the address, what the
  -- latency map needs, is looked up only for a new point: once a minute, not at each snapshot)
  ping as (
    insert into monitoring_pings (account_id, at, ping_ms, server, location, user_id)
    select t.account_id, date_trunc('minute', t.time), t.ping_ms, t.server,
      (select r.location from vps_servers s join vps_rates r on r.id = s.rate_id
        where s.user_id = t.user_id and s.host = t.ip and s.status <> 'failed'
        order by s.id desc limit 1),
      t.user_id
    from target t
    where t.ping_ms is not null and t.terminal_connected and not exists (
      select 1 from monitoring_pings p
      where p.account_id = t.account_id and p.at = date_trunc('minute', t.time))
    on conflict (account_id, at) do nothing)
  select t.i, t.account_id, r.rules, case when r.positions then t.old_positions end as old_positions,
    t.had_data, t.time_zone, t.alert_email, t.alert_telegram
  from target t
  left join lateral (
    select json_agg(json_build_object('kind', kind, 'threshold', threshold, 'fired_at', fired_at,
        'base', base, 'base_at', base_at, 'updated_at', updated_at)) as rules,
      bool_or(kind = 'positions') as positions
    from monitoring_alert_rules
    where account_id = t.account_id and enabled and t.alerts_enabled) r on true`;
