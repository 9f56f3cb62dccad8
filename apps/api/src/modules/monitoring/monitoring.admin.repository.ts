import type { PublisherState, SubscriptionState } from '@tradehost/contracts';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containing, startsWithDigits, type Paging } from '../../db/paging.ts';
import {
  monitoringAccounts,
  monitoringPeriodDiscounts,
  monitoringSubscriptions,
  settings,
  users,
} from '../../db/schema/index.ts';
import { MONITORING_PRICE_KEY } from './monitoring.repository.ts';

const person = { id: users.id, email: users.email, name: users.name };

export interface SubscriptionFilter {
  /** Digits: a prefix of the subscription's number. */
  digits?: string | undefined;
  /** Text: a part of the owner's e-mail. */
  email?: string | undefined;
  state?: SubscriptionState | undefined;
  plan?: 'free' | 'paid' | undefined;
}

export interface AccountFilter {
  /** Digits: a prefix of the account number. */
  digits?: string | undefined;
  /** Text: a part of the account's name or of the owner's e-mail. */
  text?: string | undefined;
  publisher?: PublisherState | undefined;
}

function subscriptionWhere(filter: SubscriptionFilter, now: Date): SQL | undefined {
  const s = monitoringSubscriptions;
  const running = sql`(${s.endsAt} is null or ${s.endsAt} > ${now})`;
  const matches = [
    startsWithDigits(s.id, filter.digits),
    filter.email ? sql`${users.email} ilike ${containing(filter.email)}` : undefined,
  ].filter((part): part is SQL => part !== undefined);
  return and(
    matches.length > 0 ? sql`(${sql.join(matches, sql` or `)})` : undefined,
    filter.state === 'running'
      ? running
      : filter.state === 'ended'
        ? sql`not ${running}`
        : undefined,
    filter.plan ? eq(s.plan, filter.plan) : undefined,
  );
}

function accountWhere(filter: AccountFilter, silentSince: Date): SQL | undefined {
  const a = monitoringAccounts;
  const matches = [
    startsWithDigits(a.login, filter.digits),
    filter.text ? sql`${a.name} ilike ${containing(filter.text)}` : undefined,
    filter.text ? sql`${users.email} ilike ${containing(filter.text)}` : undefined,
  ].filter((part): part is SQL => part !== undefined);
  const publisher = {
    reporting: sql`${a.lastDataAt} > ${silentSince}`,
    silent: sql`${a.lastDataAt} <= ${silentSince}`,
    never: sql`${a.lastDataAt} is null`,
  };
  return and(
    matches.length > 0 ? sql`(${sql.join(matches, sql` or `)})` : undefined,
    filter.publisher ? publisher[filter.publisher] : undefined,
  );
}

/** The operator's reads and writes of monitoring: prices, every subscription, every account. */
export const monitoringAdminRepository = {
  async setAccountMonthCents(db: Executor, cents: number): Promise<void> {
    await db
      .insert(settings)
      .values({ key: MONITORING_PRICE_KEY, value: cents })
      .onConflictDoUpdate({ target: settings.key, set: { value: cents } });
  },

  async upsertDiscount(db: Executor, months: number, percent: number): Promise<void> {
    await db
      .insert(monitoringPeriodDiscounts)
      .values({ months, discountPercent: percent })
      .onConflictDoUpdate({
        target: monitoringPeriodDiscounts.months,
        set: { discountPercent: percent },
      });
  },

  async subscriptionsPage(db: Executor, filter: SubscriptionFilter, now: Date, paging: Paging) {
    const where = subscriptionWhere(filter, now);
    const used = db
      .select({ n: count() })
      .from(monitoringAccounts)
      .where(eq(monitoringAccounts.subscriptionId, monitoringSubscriptions.id));
    const rows = await db
      .select({
        subscription: monitoringSubscriptions,
        used: sql<number>`(${used})::int`,
        user: person,
      })
      .from(monitoringSubscriptions)
      .innerJoin(users, eq(users.id, monitoringSubscriptions.userId))
      .where(where)
      .orderBy(desc(monitoringSubscriptions.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db
      .select({ n: count() })
      .from(monitoringSubscriptions)
      .innerJoin(users, eq(users.id, monitoringSubscriptions.userId))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /** A subscription by its number, its row taken for the rest of the transaction. */
  async lockSubscription(db: Executor, id: number) {
    const [row] = await db
      .select()
      .from(monitoringSubscriptions)
      .where(eq(monitoringSubscriptions.id, id))
      .for('update');
    return row;
  },

  async owner(db: Executor, userId: number) {
    const [row] = await db.select(person).from(users).where(eq(users.id, userId));
    return row!;
  },

  async accountsPage(db: Executor, filter: AccountFilter, silentSince: Date, paging: Paging) {
    const where = accountWhere(filter, silentSince);
    const rows = await db
      .select({ account: monitoringAccounts, user: person, endsAt: monitoringSubscriptions.endsAt })
      .from(monitoringAccounts)
      .innerJoin(users, eq(users.id, monitoringAccounts.userId))
      .innerJoin(
        monitoringSubscriptions,
        eq(monitoringSubscriptions.id, monitoringAccounts.subscriptionId),
      )
      .where(where)
      .orderBy(desc(monitoringAccounts.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db
      .select({ n: count() })
      .from(monitoringAccounts)
      .innerJoin(users, eq(users.id, monitoringAccounts.userId))
      .where(where);
    return { rows, total: total?.n ?? 0 };
  },
};
