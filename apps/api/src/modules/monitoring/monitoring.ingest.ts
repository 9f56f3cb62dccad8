import { createHash } from 'node:crypto';
import type { IngestDeals, IngestHello, IngestSnapshot } from '@tradehost/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { monitoringAccounts, monitoringSubscriptions } from '../../db/schema/index.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { hashActivationKey } from './monitoring.service.ts';

/** How often the publisher sends a snapshot. */
export const SNAPSHOT_EVERY_SEC = 10;

/**
 * The publisher's calls. Each finds the account by the key's hash and the login (one read), then
 * stores with one statement: no statistics work on the request path.
 */
export function createIngest(
  db: Db,
  now: () => Date,
  touch: (accountId: number, cause: 'deals' | 'snapshot') => void,
) {
  /** The key's running subscription and, when `login` is given, its account of that login. */
  async function resolve(key: string, login: number) {
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
      .where(eq(monitoringSubscriptions.keyHash, hashActivationKey(key)));
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

  return {
    async hello(key: string, hello: IngestHello) {
      const account = await resolve(key, hello.login);
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

    /** Upserted on (account, ticket): a resent batch changes nothing. */
    async deals(key: string, batch: IngestDeals) {
      const account = await resolve(key, batch.login);
      const { rows } = await db.execute<{ ticket: string }>(sql`
        insert into monitoring_deals (account_id, ticket, "order", position_id, time, type, entry,
          symbol, digits, volume, price, profit, swap, commission, fee, magic, comment, equity_before)
        select ${account.id}, d.ticket, d."order", d.position_id, d.time, d.type, d.entry, d.symbol,
          d.digits, d.volume, d.price, d.profit, d.swap, d.commission, d.fee, d.magic, d.comment,
          d.equity_before
        from json_to_recordset(${JSON.stringify(batch.deals)}::json) as d(ticket bigint, "order" bigint,
          position_id bigint, time timestamptz, type text, entry text, symbol text, digits int,
          volume float8, price float8, profit float8, swap float8, commission float8, fee float8,
          magic bigint, comment text, equity_before float8)
        on conflict (account_id, ticket) do nothing
        returning ticket`);
      if (rows.length > 0) touch(account.id, 'deals');
      return { accepted: rows.length, duplicate: batch.deals.length - rows.length };
    },

    /** The account now, and its minute's equity point (the minute's low and high kept). */
    async snapshot(key: string, snapshot: IngestSnapshot) {
      const account = await resolve(key, snapshot.login);
      await db.execute(sql`
        with account as (
          update monitoring_accounts set balance = ${snapshot.balance}, equity = ${snapshot.equity},
            margin = ${snapshot.margin}, credit = ${snapshot.credit},
            terminal_connected = ${snapshot.terminal_connected},
            positions = ${JSON.stringify(snapshot.positions)}::jsonb, last_data_at = ${now()}
          where id = ${account.id} returning id)
        insert into monitoring_equity (account_id, at, balance, equity, equity_low, equity_high, margin, credit)
        select id, date_trunc('minute', ${snapshot.time}::timestamptz), ${snapshot.balance},
          ${snapshot.equity}, ${Math.min(snapshot.equity_low, snapshot.equity)},
          ${Math.max(snapshot.equity_high, snapshot.equity)}, ${snapshot.margin}, ${snapshot.credit}
        from account
        on conflict (account_id, at) do update set balance = excluded.balance,
          equity = excluded.equity, margin = excluded.margin, credit = excluded.credit,
          equity_low = least(monitoring_equity.equity_low, excluded.equity_low),
          equity_high = greatest(monitoring_equity.equity_high, excluded.equity_high)`);
      touch(account.id, 'snapshot');
      return { stored: true };
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;

/** The rate limit's key: the activation key's hash (never the key itself in memory maps). */
export const ingestKeyOf = (authorization: string | undefined) =>
  createHash('sha256')
    .update(authorization ?? '')
    .digest('base64url');
