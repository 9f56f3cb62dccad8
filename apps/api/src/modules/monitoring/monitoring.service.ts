import { createHash, randomBytes } from 'node:crypto';
import {
  addMonths,
  centsToDollars,
  FREE_PLAN_ACCOUNTS,
  monitoringPrice,
  type AddAccountRequest,
  type MonitoringAccount,
  type MonitoringPlans,
  type SubscribeRequest,
  type SubscribedResponse,
  type Subscription,
} from '@tradehost/contracts';
import { billing } from '../../db/billing.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { openSecret, sealSecret } from '../../lib/crypto-box.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { pluralEn, pluralRu } from '../../lib/plural.ts';
import { auditRepository } from '../audit/audit.repository.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome } from '../idempotency/idempotency.ts';
import { accountStatistics, statisticsResponse } from './monitoring.statistics.ts';
import {
  isRunning,
  monitoringRepository as repo,
  type AccountRow,
  type SubscriptionRow,
} from './monitoring.repository.ts';

/** What a request's activation key is looked up by. */
export const hashActivationKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The charge's line in the histories: "Monitoring: 5 accounts, 3 months". */
export function subscriptionCharge(accounts: number, months: number) {
  return {
    descriptionEn: `Monitoring: ${accounts} ${pluralEn(accounts, 'account', 'accounts')}, ${months} ${pluralEn(months, 'month', 'months')}`,
    descriptionRu: `Мониторинг: ${accounts} ${pluralRu(accounts, 'счёт', 'счёта', 'счетов')}, ${months} ${pluralRu(months, 'месяц', 'месяца', 'месяцев')}`,
  };
}

export function createMonitoringService({ db, config, now }: ServiceDeps) {
  const secret = config.monitoring.secretKey;

  /** A fresh activation key: what its owner copies, its hash, and its sealed form. */
  function newKey() {
    const key = `mk_${randomBytes(24).toString('base64url')}`;
    return { key, keyHash: hashActivationKey(key), keySealed: sealSecret(secret, key) };
  }

  const toSubscription = (row: SubscriptionRow, used: number): Subscription => ({
    id: row.id,
    plan: row.plan,
    accounts: row.accounts,
    used_accounts: used,
    created_at: row.createdAt.toISOString(),
    ends_at: row.endsAt?.toISOString() ?? null,
    active: isRunning(row, now()),
  });

  const toAccount = (row: AccountRow): MonitoringAccount => ({
    id: row.id,
    monitoring_id: row.monitoringId,
    subscription_id: row.subscriptionId,
    login: row.login,
    platform: row.platform,
    name: row.name,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    is_public: row.isPublic,
    views: row.views,
  });

  async function ownSubscription(
    userId: number,
    id: number,
    tx: Tx | typeof db = db,
    lock = false,
  ) {
    const row = await repo.subscription(tx, userId, id, lock);
    if (!row) throw new AppError(404, 'MONITORING_SUBSCRIPTION_NOT_FOUND');
    return row;
  }

  return {
    async plans(userId: number): Promise<MonitoringPlans> {
      const [cents, discounts, hasFree] = await Promise.all([
        repo.accountMonthCents(db),
        repo.discounts(db),
        repo.hasFree(db, userId),
      ]);
      return {
        account_month_price: centsToDollars(cents),
        discounts: discounts.map((d) => ({ months: d.months, discount_percent: d.percent })),
        free_accounts: FREE_PLAN_ACCOUNTS,
        free_available: !hasFree,
      };
    },

    /** The free plan: one account, no end, once per user (a unique index under races). */
    async takeFree(userId: number): Promise<SubscribedResponse> {
      try {
        return await inTransaction(db, async (tx) => {
          const row = await repo.insertSubscription(tx, {
            userId,
            plan: 'free',
            accounts: FREE_PLAN_ACCOUNTS,
            endsAt: null,
            ...newKey(),
          });
          await auditRepository.insert(tx, {
            actorId: userId,
            action: 'monitoring.free',
            subjectType: 'monitoring_subscription',
            subjectId: String(row.id),
            targetUserId: userId,
            details: {},
          });
          const balance = await repo.balanceCents(tx, userId);
          return {
            subscription: toSubscription(row, 0),
            charged: 0,
            balance: centsToDollars(balance),
            message: 'The free plan is active',
          };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'monitoring_subscriptions_one_free_key'))
          throw new AppError(409, 'MONITORING_FREE_TAKEN');
        throw error;
      }
    },

    /** A paid plan from the balance, in the caller's (idempotent) transaction. */
    async subscribe(
      tx: Tx,
      userId: number,
      input: SubscribeRequest,
    ): Promise<Outcome<SubscribedResponse>> {
      const price = monitoringPrice({
        accounts: input.accounts,
        months: input.months,
        accountMonthCents: await repo.accountMonthCents(tx),
        discounts: await repo.discounts(tx),
      });
      const charged = await billing.charge(tx, {
        userId,
        amountCents: price.totalCents,
        ...subscriptionCharge(input.accounts, input.months),
      });
      const at = now();
      const row = await repo.insertSubscription(tx, {
        userId,
        plan: 'paid',
        accounts: input.accounts,
        createdAt: at,
        endsAt: addMonths(at, input.months),
        chargeId: charged.chargeId,
        ...newKey(),
      });
      await auditRepository.insert(tx, {
        actorId: userId,
        action: 'monitoring.subscribe',
        subjectType: 'monitoring_subscription',
        subjectId: String(row.id),
        targetUserId: userId,
        details: {
          accounts: input.accounts,
          months: input.months,
          price: centsToDollars(price.totalCents),
          discount_percent: price.discountPercent,
          charge_id: charged.chargeId,
        },
      });
      return {
        status: 201,
        body: {
          subscription: toSubscription(row, 0),
          charged: centsToDollars(price.totalCents),
          balance: centsToDollars(charged.balanceCents),
          message: 'The subscription is active',
        },
      };
    },

    async subscriptions(userId: number): Promise<{ subscriptions: Subscription[] }> {
      const rows = await repo.subscriptions(db, userId);
      return { subscriptions: rows.map((r) => toSubscription(r.subscription, r.used)) };
    },

    async revealKey(userId: number, id: number): Promise<{ key: string }> {
      const row = await ownSubscription(userId, id);
      return { key: openSecret(secret, row.keySealed) };
    },

    /** A new key; the old one stops working at once (the lookup is by the new hash). */
    async regenerateKey(userId: number, id: number): Promise<{ key: string }> {
      return inTransaction(db, async (tx) => {
        const row = await ownSubscription(userId, id, tx, true);
        const fresh = newKey();
        await repo.setKey(tx, row.id, fresh.keyHash, fresh.keySealed);
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'monitoring.key.regenerate',
          subjectType: 'monitoring_subscription',
          subjectId: String(row.id),
          targetUserId: userId,
          details: {},
        });
        return { key: fresh.key };
      });
    },

    async accounts(userId: number): Promise<{ accounts: MonitoringAccount[] }> {
      return { accounts: (await repo.accounts(db, userId)).map(toAccount) };
    },

    /**
     * An account in one of the user's running subscriptions, within its account count: the
     * subscription's row is locked, so two adds racing for its last place cannot both win.
     */
    async addAccount(userId: number, input: AddAccountRequest): Promise<MonitoringAccount> {
      try {
        return await inTransaction(db, async (tx) => {
          const subscription = await repo.subscription(
            tx,
            userId,
            Number(input.subscription_id),
            true,
          );
          if (!subscription)
            throw fieldError(422, 'subscription_id', 'MONITORING_SUBSCRIPTION_NOT_FOUND');
          if (!isRunning(subscription, now()))
            throw fieldError(422, 'subscription_id', 'MONITORING_SUBSCRIPTION_ENDED');
          if ((await repo.accountsIn(tx, subscription.id)) >= subscription.accounts)
            throw new AppError(409, 'MONITORING_ACCOUNTS_FULL');
          const row = await repo.insertAccount(tx, {
            subscriptionId: subscription.id,
            userId,
            monitoringId: randomBytes(12).toString('base64url'),
            login: Number(input.login),
            platform: input.platform,
            name: input.name,
            email: input.email,
          });
          return toAccount(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'monitoring_accounts_subscription_login_key'))
          throw fieldError(409, 'login', 'MONITORING_ACCOUNT_EXISTS');
        throw error;
      }
    },

    async updateAccount(
      userId: number,
      id: number,
      input: { name?: string; email?: string },
    ): Promise<MonitoringAccount> {
      const changes = {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.email === undefined ? {} : { email: input.email }),
      };
      const row =
        Object.keys(changes).length > 0
          ? await repo.updateAccount(db, userId, id, changes)
          : await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      return toAccount(row);
    },

    /**
     * An account's figures, computed now from what its publisher stored (the debounced job that
     * will keep them ready is still to come).
     */
    async statistics(userId: number, id: number, range: { from?: string; to?: string }) {
      const row = await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      const figures = await accountStatistics(db, row, now());
      return statisticsResponse(row, figures, {
        from: range.from === undefined ? undefined : Date.parse(range.from),
        to: range.to === undefined ? undefined : Date.parse(range.to),
      });
    },

    async deleteAccount(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteAccount(db, userId, id)))
        throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
    },
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;
