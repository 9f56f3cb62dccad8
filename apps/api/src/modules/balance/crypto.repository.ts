import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payments } from '../../db/schema/index.ts';
import { balanceRepository, type PaymentRow } from './balance.repository.ts';

/** The tags a request's amount takes: 1 to 99 cents over the dollars asked. */
export const TAG_MIN_CENTS = 1;
export const TAG_MAX_CENTS = 99;

/** The SQL of crypto top-up requests (they are payments: Processing until reported). */
export const cryptoRepository = {
  /**
   * A tag (cents) no open request of the network has on top of `requestedCents`, and not one
   * of `tried`, chosen at random among the free ones; undefined when none is left. Only a hint:
   * two requests may pick the same, and the unique index lets one of them in (insertRequest).
   */
  async freeTag(
    db: Executor,
    network: string,
    requestedCents: number,
    tried: number[],
  ): Promise<number | undefined> {
    const { rows } = await db.execute<{ tag: number }>(sql`
      select tag from generate_series(${TAG_MIN_CENTS}::int, ${TAG_MAX_CENTS}::int) as tag
      where tag <> all(${`{${tried.join(',')}}`}::int[])
        and not exists (
        select 1 from ${payments} p
        where p.method = 'crypto' and p.network = ${network}
          and p.status in ('processing', 'under_review') and p.expires_at is not null
          and p.amount_cents = ${requestedCents}::bigint + tag
      )
      order by random()
      limit 1`);
    return rows[0] ? Number(rows[0].tag) : undefined;
  },

  /**
   * The request, or undefined when an open request of the network took its amount (in dollars,
   * or in the asset) first: payments_crypto_open_amount_key and _pay_amount_key. Inserted with
   * ON CONFLICT DO NOTHING, which waits for a competing insert to commit or roll back, so the
   * caller's transaction goes on and can try another tag.
   */
  async insertRequest(
    db: Executor,
    values: {
      userId: number;
      network: string;
      amountCents: number;
      payAmount: string | null;
      expiresAt: Date;
    },
  ): Promise<PaymentRow | undefined> {
    const [row] = await db
      .insert(payments)
      .values({ ...values, method: 'crypto', status: 'processing' })
      .onConflictDoNothing()
      .returning();
    return row;
  },

  /** The user's requests still to be paid and reported, newest first. */
  async openRequestsOf(db: Executor, userId: number, now: Date): Promise<PaymentRow[]> {
    return db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.userId, userId),
          eq(payments.method, 'crypto'),
          eq(payments.status, 'processing'),
          gt(payments.expiresAt, now),
        ),
      )
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(20);
  },

  /** Whether a payment not rejected already has this TXID (as payments_txid_key compares it). */
  async txidTaken(db: Executor, txid: string): Promise<boolean> {
    const { rows } = await db.execute(sql`
      select 1 from ${payments}
      where lower(regexp_replace(txid, '^0x', '', 'i')) = lower(regexp_replace(${txid}, '^0x', '', 'i'))
        and status <> 'rejected'
      limit 1`);
    return rows.length > 0;
  },

  /**
   * Reported crypto payments of these networks to look up, the longest unchecked first (never
   * checked, then by the time of the last check).
   */
  async dueForCheck(db: Executor, networks: string[], limit: number): Promise<PaymentRow[]> {
    if (networks.length === 0) return [];
    return db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.method, 'crypto'),
          eq(payments.status, 'under_review'),
          inArray(payments.network, networks),
        ),
      )
      .orderBy(sql`${payments.chain}->>'checked_at' asc nulls first`, asc(payments.id))
      .limit(limit);
  },

  /**
   * Requests still Processing past their time become Not paid (their amount is free again), at
   * most `limit`, each audited `payment.expired` (balanceRepository.expireDue); a request its
   * report holds locked is skipped (the report decides it). Returns how many expired.
   */
  expireRequests(db: Executor, now: Date, limit: number): Promise<number> {
    return balanceRepository.expireDue(
      db,
      sql`method = 'crypto' and expires_at <= ${now.toISOString()}::timestamptz`,
      sql`expires_at, id`,
      limit,
    );
  },
};
