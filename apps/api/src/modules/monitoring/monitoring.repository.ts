import { centsToDollars, type Subscription } from '@tradehost/contracts';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringPeriodDiscounts,
  monitoringStatistics,
  monitoringStrategies,
  monitoringSubscriptions,
  settings,
  users,
} from '../../db/schema/index.ts';

export type SubscriptionRow = typeof monitoringSubscriptions.$inferSelect;
export type AccountRow = typeof monitoringAccounts.$inferSelect;

/** The settings key of the account-month price in cents (seeded 300). */
export const MONITORING_PRICE_KEY = 'monitoring_account_month_cents';

export const monitoringRepository = {
  async accountMonthCents(db: Executor): Promise<number> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, MONITORING_PRICE_KEY));
    return Number(row?.value ?? 300);
  },

  discounts(db: Executor) {
    return db
      .select({
        months: monitoringPeriodDiscounts.months,
        percent: monitoringPeriodDiscounts.discountPercent,
      })
      .from(monitoringPeriodDiscounts)
      .orderBy(asc(monitoringPeriodDiscounts.months));
  },

  /** The prices as the API shows them: dollars per account-month and whole-percent discounts. */
  async prices(db: Executor) {
    const [cents, discounts] = await Promise.all([
      monitoringRepository.accountMonthCents(db),
      monitoringRepository.discounts(db),
    ]);
    return {
      account_month_price: centsToDollars(cents),
      discounts: discounts.map((d) => ({ months: d.months, discount_percent: d.percent })),
    };
  },

  async balanceCents(db: Executor, userId: number): Promise<number> {
    const [row] = await db
      .select({ cents: users.balanceCents })
      .from(users)
      .where(eq(users.id, userId));
    return row?.cents ?? 0;
  },

  async hasFree(db: Executor, userId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: monitoringSubscriptions.id })
      .from(monitoringSubscriptions)
      .where(
        and(eq(monitoringSubscriptions.userId, userId), eq(monitoringSubscriptions.plan, 'free')),
      );
    return row !== undefined;
  },

  /**
   * A new subscription. Its id is drawn first, so its activation key is sealed (`sealKey`) for
   * the row it goes to (db/sealed.ts).
   */
  async insertSubscription(
    db: Executor,
    values: Omit<typeof monitoringSubscriptions.$inferInsert, 'id' | 'keySealed'>,
    sealKey: (id: number) => string,
  ) {
    const { rows } = await db.execute<{ id: string }>(
      sql`select nextval(pg_get_serial_sequence('monitoring_subscriptions', 'id'))::text as id`,
    );
    const id = Number(rows[0]!.id);
    const [row] = await db
      .insert(monitoringSubscriptions)
      .values({ ...values, id, keySealed: sealKey(id) })
      .returning();
    return row!;
  },

  /** The user's subscriptions, oldest first, each with how many accounts it holds. */
  subscriptions(db: Executor, userId: number) {
    return db
      .select({ subscription: monitoringSubscriptions, used: count(monitoringAccounts.id) })
      .from(monitoringSubscriptions)
      .leftJoin(
        monitoringAccounts,
        eq(monitoringAccounts.subscriptionId, monitoringSubscriptions.id),
      )
      .where(eq(monitoringSubscriptions.userId, userId))
      .groupBy(monitoringSubscriptions.id)
      .orderBy(asc(monitoringSubscriptions.id));
  },

  /** One of the user's subscriptions; `lock` takes its row for the rest of the transaction. */
  async subscription(db: Executor, userId: number, id: number, lock = false) {
    const query = db
      .select()
      .from(monitoringSubscriptions)
      .where(and(eq(monitoringSubscriptions.id, id), eq(monitoringSubscriptions.userId, userId)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  /** A paid subscription's new end or account count (clearing the warnings of the old end). */
  async updateSubscription(
    db: Executor,
    id: number,
    values: Partial<Pick<SubscriptionRow, 'endsAt' | 'accounts' | 'warned3dAt' | 'warned1dAt'>>,
  ) {
    const [row] = await db
      .update(monitoringSubscriptions)
      .set(values)
      .where(eq(monitoringSubscriptions.id, id))
      .returning();
    return row!;
  },

  async setKey(db: Executor, id: number, keyHash: string, keySealed: string) {
    await db
      .update(monitoringSubscriptions)
      .set({ keyHash, keySealed })
      .where(eq(monitoringSubscriptions.id, id));
  },

  async accountsIn(db: Executor, subscriptionId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(monitoringAccounts)
      .where(eq(monitoringAccounts.subscriptionId, subscriptionId));
    return row?.n ?? 0;
  },

  /** Accounts with their stored summary (null until the statistics job has run), by id. */
  accountsWithSummary(db: Executor, where: SQL | undefined) {
    return db
      .select({
        account: monitoringAccounts,
        summary: {
          gain: monitoringStatistics.gain,
          maxDrawdown: monitoringStatistics.maxDrawdown,
          profit: monitoringStatistics.profit,
          trades: monitoringStatistics.trades,
          computedAt: monitoringStatistics.computedAt,
        },
      })
      .from(monitoringAccounts)
      .leftJoin(monitoringStatistics, eq(monitoringStatistics.accountId, monitoringAccounts.id))
      .where(where)
      .orderBy(asc(monitoringAccounts.id));
  },

  accounts(db: Executor, userId: number, monitoringId?: string) {
    const own = eq(monitoringAccounts.userId, userId);
    return monitoringRepository.accountsWithSummary(
      db,
      monitoringId === undefined
        ? own
        : and(own, eq(monitoringAccounts.monitoringId, monitoringId)),
    );
  },

  /** An account by its public id. */
  async byMonitoringId(db: Executor, monitoringId: string) {
    const [row] = await db
      .select()
      .from(monitoringAccounts)
      .where(eq(monitoringAccounts.monitoringId, monitoringId));
    return row;
  },

  async account(db: Executor, userId: number, id: number) {
    const [row] = await db
      .select()
      .from(monitoringAccounts)
      .where(and(eq(monitoringAccounts.id, id), eq(monitoringAccounts.userId, userId)));
    return row;
  },

  async insertAccount(db: Executor, values: typeof monitoringAccounts.$inferInsert) {
    const [row] = await db.insert(monitoringAccounts).values(values).returning();
    return row!;
  },

  async updateAccount(
    db: Executor,
    userId: number,
    id: number,
    values: Partial<
      Pick<
        AccountRow,
        | 'name'
        | 'email'
        | 'isPublic'
        | 'hideLogin'
        | 'hideBroker'
        | 'hideMoney'
        | 'hidePositions'
        | 'hideHistory'
        | 'timeZone'
      >
    >,
  ) {
    const [row] = await db
      .update(monitoringAccounts)
      .set(values)
      .where(and(eq(monitoringAccounts.id, id), eq(monitoringAccounts.userId, userId)))
      .returning();
    return row;
  },

  /** Whether the account has traded with the magic number, or has named it already. */
  async hasStrategy(db: Executor, accountId: number, magic: string): Promise<boolean> {
    const { rows } = await db.execute(sql`
      select 1 from monitoring_deals
        where account_id = ${accountId} and magic = ${magic}::bigint
      union all
      select 1 from monitoring_strategies
        where account_id = ${accountId} and magic = ${magic}::bigint
      limit 1`);
    return rows.length > 0;
  },

  async nameStrategy(db: Executor, accountId: number, magic: string, name: string, at: Date) {
    const values = { accountId, magic: BigInt(magic), name, updatedAt: at };
    await db
      .insert(monitoringStrategies)
      .values(values)
      .onConflictDoUpdate({
        target: [monitoringStrategies.accountId, monitoringStrategies.magic],
        set: { name, updatedAt: at },
      });
  },

  async clearStrategyName(db: Executor, accountId: number, magic: string) {
    await db
      .delete(monitoringStrategies)
      .where(
        and(
          eq(monitoringStrategies.accountId, accountId),
          eq(monitoringStrategies.magic, BigInt(magic)),
        ),
      );
  },

  async deleteAccount(db: Executor, userId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(monitoringAccounts)
      .where(and(eq(monitoringAccounts.id, id), eq(monitoringAccounts.userId, userId)))
      .returning({ id: monitoringAccounts.id });
    return rows.length > 0;
  },
};

/** Whether a subscription runs at `now` (the free plan always does). */
export const isRunning = (subscription: SubscriptionRow, now: Date) =>
  subscription.endsAt === null || subscription.endsAt.getTime() > now.getTime();

/** A subscription as the API shows it at `now`, `used` of its accounts taken. */
export const subscriptionView = (row: SubscriptionRow, used: number, now: Date): Subscription => ({
  id: row.id,
  plan: row.plan,
  accounts: row.accounts,
  used_accounts: used,
  created_at: row.createdAt.toISOString(),
  ends_at: row.endsAt?.toISOString() ?? null,
  active: isRunning(row, now),
});
