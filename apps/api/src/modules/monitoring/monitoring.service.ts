import { randomBytes } from 'node:crypto';
import {
  addMonths,
  centsToDollars,
  enlargementPriceCents,
  FREE_PLAN_ACCOUNTS,
  monitoringPrice,
  type AddAccountRequest,
  type EnlargeRequest,
  type ExtendRequest,
  type UpdateAccountRequest,
  type MonitoringAccount,
  type MonitoringPlans,
  type SubscribeRequest,
  type SubscribedResponse,
  type Subscription,
  MANUAL_MAGIC,
  type StrategyResponse,
} from '@tradehost/contracts';
import { and, eq } from 'drizzle-orm';
import { billing } from '../../db/billing.ts';
import { partnerRewards } from '../../db/partner-rewards.ts';
import { monitoringAccounts } from '../../db/schema/index.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { SealedSecretError } from '../../lib/crypto-box.ts';
import { openIn, SEALED, sealIn } from '../../db/sealed.ts';
import {
  AppError,
  fieldError,
  isForeignKeyViolation,
  isUniqueViolation,
} from '../../lib/errors.ts';
import { pluralEn, pluralRu } from '../../lib/plural.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { auditRepository } from '../../db/audit.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome } from '../../plugins/idempotency.ts';
import type { MonitoringReads } from './monitoring.reads.ts';
import {
  isRunning,
  monitoringRepository as repo,
  subscriptionView,
  type AccountRow,
  type SubscriptionRow,
} from './monitoring.repository.ts';
import { numero } from '../../lib/numero.ts';

/** What a request's activation key is looked up by. */
export const hashActivationKey = sha256Hex;

/** A fresh activation key: what its owner copies and its hash (sealed by the row it goes to). */
export function newActivationKey() {
  const key = `mk_${randomBytes(24).toString('base64url')}`;
  return { key, keyHash: hashActivationKey(key) };
}

/** An account's public id (`:monitoringId`): 16 random base64url characters. */
export const newMonitoringId = () => randomBytes(12).toString('base64url');

/** The charge's line in the histories: "Monitoring: 5 accounts, 3 months". */
export function subscriptionCharge(accounts: number, months: number) {
  return {
    descriptionEn: `Monitoring: ${accounts} ${pluralEn(accounts, 'account', 'accounts')}, ${months} ${pluralEn(months, 'month', 'months')}`,
    descriptionRu: `Мониторинг: ${accounts} ${pluralRu(accounts, 'счёт', 'счёта', 'счетов')}, ${months} ${pluralRu(months, 'месяц', 'месяца', 'месяцев')}`,
  };
}

/** The charge's line of an extension: "Monitoring #12: 3 more months". */
export function extensionCharge(id: number, months: number) {
  return {
    descriptionEn: `Monitoring #${id}: ${months} more ${pluralEn(months, 'month', 'months')}`,
    descriptionRu: `Мониторинг ${numero(id)}: продление на ${months} ${pluralRu(months, 'месяц', 'месяца', 'месяцев')}`,
  };
}

/** The charge's line of an enlargement: "Monitoring #12: 2 more accounts". */
export function enlargementCharge(id: number, added: number) {
  return {
    descriptionEn: `Monitoring #${id}: ${added} more ${pluralEn(added, 'account', 'accounts')}`,
    descriptionRu: `Мониторинг ${numero(id)}: ещё ${added} ${pluralRu(added, 'счёт', 'счёта', 'счетов')}`,
  };
}

type Summary = {
  gain: number;
  maxDrawdown: number;
  profit: number;
  trades: number;
  computedAt: Date;
};

export function createMonitoringService(
  { db, config, now, log }: ServiceDeps,
  reads: MonitoringReads,
) {
  /** A fresh key's hash, and its sealing for the subscription's row (repo.insertSubscription). */
  const newKey = () => {
    const { key, keyHash } = newActivationKey();
    return [{ keyHash }, (id: number) => sealIn(config, SEALED.monitoringKey, id, key)] as const;
  };

  const toSubscription = (row: SubscriptionRow, used: number): Subscription =>
    subscriptionView(row, used, now());

  const toAccount = (row: AccountRow, summary: Summary | null = null): MonitoringAccount => ({
    id: row.id,
    monitoring_id: row.monitoringId,
    subscription_id: row.subscriptionId,
    login: row.login,
    platform: row.platform,
    name: row.name,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    is_public: row.isPublic,
    hide_login: row.hideLogin,
    hide_broker: row.hideBroker,
    hide_money: row.hideMoney,
    hide_positions: row.hidePositions,
    hide_history: row.hideHistory,
    time_zone: row.timeZone,
    views: row.views,
    server: row.server,
    company: row.company,
    currency: row.currency,
    leverage: row.leverage,
    ea_version: row.eaVersion,
    last_data_at: row.lastDataAt?.toISOString() ?? null,
    terminal_connected: row.terminalConnected,
    ping_ms: row.pingMs,
    trade_allowed: row.tradeAllowed,
    ea_trade_allowed: row.eaTradeAllowed,
    balance: row.balance,
    equity: row.equity,
    summary:
      summary === null
        ? null
        : {
            gain: summary.gain,
            max_drawdown: summary.maxDrawdown,
            profit: summary.profit,
            trades: summary.trades,
            computed_at: summary.computedAt.toISOString(),
          },
  });

  /** A paid plan's change in the caller's (idempotent) transaction: charged, audited, answered. */
  async function paidChange(
    tx: Tx,
    userId: number,
    row: SubscriptionRow,
    change: {
      action: 'monitoring.extend' | 'monitoring.enlarge';
      amountCents: number;
      values: Parameters<typeof repo.updateSubscription>[2];
      details: Record<string, unknown>;
      description: { descriptionEn: string; descriptionRu: string };
      message: string;
    },
  ): Promise<Outcome<SubscribedResponse>> {
    const charged = await billing.charge(tx, {
      userId,
      amountCents: change.amountCents,
      ...change.description,
    });
    await partnerRewards.grant(tx, charged.chargeId, now());
    const updated = await repo.updateSubscription(tx, row.id, change.values);
    await auditRepository.insert(tx, {
      actorId: userId,
      action: change.action,
      subjectType: 'monitoring_subscription',
      subjectId: String(row.id),
      targetUserId: userId,
      details: {
        ...change.details,
        price: centsToDollars(change.amountCents),
        charge_id: charged.chargeId,
      },
    });
    return {
      status: 200,
      body: {
        subscription: toSubscription(updated, await repo.accountsIn(tx, row.id)),
        charged: centsToDollars(change.amountCents),
        balance: centsToDollars(charged.balanceCents),
        message: change.message,
      },
    };
  }

  async function ownPaid(tx: Tx, userId: number, id: number) {
    const row = await ownSubscription(userId, id, tx, true);
    if (row.plan === 'free') throw new AppError(409, 'MONITORING_FREE_FIXED');
    return row;
  }

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
      const [prices, hasFree] = await Promise.all([repo.prices(db), repo.hasFree(db, userId)]);
      return { ...prices, free_accounts: FREE_PLAN_ACCOUNTS, free_available: !hasFree };
    },

    /** The free plan: one account, no end, once per user (a unique index under races). */
    async takeFree(userId: number): Promise<SubscribedResponse> {
      try {
        return await inTransaction(db, async (tx) => {
          const [key, sealKey] = newKey();
          const row = await repo.insertSubscription(
            tx,
            { userId, plan: 'free', accounts: FREE_PLAN_ACCOUNTS, endsAt: null, ...key },
            sealKey,
          );
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
      // a subscription is final once paid: its partner rewards
      await partnerRewards.grant(tx, charged.chargeId, now());
      const at = now();
      const [key, sealKey] = newKey();
      const row = await repo.insertSubscription(
        tx,
        {
          userId,
          plan: 'paid',
          accounts: input.accounts,
          createdAt: at,
          endsAt: addMonths(at, input.months),
          chargeId: charged.chargeId,
          ...key,
        },
        sealKey,
      );
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

    /**
     * More months for a paid subscription at its account count (the period discounts apply); an
     * ended one runs again from now, a running one from its end. The expiry warnings start over.
     */
    async extend(
      tx: Tx,
      userId: number,
      id: number,
      input: ExtendRequest,
    ): Promise<Outcome<SubscribedResponse>> {
      const row = await ownPaid(tx, userId, id);
      const price = monitoringPrice({
        accounts: row.accounts,
        months: input.months,
        accountMonthCents: await repo.accountMonthCents(tx),
        discounts: await repo.discounts(tx),
      });
      const at = now();
      const from = isRunning(row, at) ? row.endsAt! : at;
      const endsAt = addMonths(from, input.months);
      return paidChange(tx, userId, row, {
        action: 'monitoring.extend',
        amountCents: price.totalCents,
        values: { endsAt, warned3dAt: null, warned1dAt: null },
        details: {
          months: input.months,
          discount_percent: price.discountPercent,
          ends_at: endsAt.toISOString(),
          previous_ends_at: row.endsAt?.toISOString() ?? null,
        },
        description: extensionCharge(row.id, input.months),
        message: 'The subscription has been extended',
      });
    },

    /** More accounts for a running paid subscription, the added ones paid for the days left. */
    async enlarge(
      tx: Tx,
      userId: number,
      id: number,
      input: EnlargeRequest,
    ): Promise<Outcome<SubscribedResponse>> {
      const row = await ownPaid(tx, userId, id);
      const at = now();
      if (!isRunning(row, at)) throw new AppError(409, 'MONITORING_SUBSCRIPTION_ENDED');
      if (input.accounts <= row.accounts)
        throw fieldError(422, 'accounts', 'MONITORING_NOT_LARGER');
      const added = input.accounts - row.accounts;
      const amountCents = enlargementPriceCents(
        added,
        await repo.accountMonthCents(tx),
        at,
        row.endsAt!,
      );
      return paidChange(tx, userId, row, {
        action: 'monitoring.enlarge',
        amountCents,
        values: { accounts: input.accounts },
        details: { accounts: input.accounts, previous_accounts: row.accounts },
        description: enlargementCharge(row.id, added),
        message: 'The subscription has been enlarged',
      });
    },

    /** The key, opened on this request only; in the owner's security log (from `context`). */
    async revealKey(
      userId: number,
      id: number,
      context: SecurityContext,
    ): Promise<{ key: string }> {
      const row = await ownSubscription(userId, id);
      let key: string;
      try {
        key = openIn(config, SEALED.monitoringKey, row.id, row.keySealed);
      } catch (error) {
        // moved from another subscription's row, altered, or of a key no longer set: a new
        // key (regenerate) is the way on
        if (!(error instanceof SealedSecretError)) throw error;
        log.error({ err: error, subscriptionId: row.id }, 'a monitoring key does not open');
        throw new AppError(409, 'MONITORING_KEY_UNAVAILABLE');
      }
      await securityLog.record(db, userId, 'monitoring_key_revealed', now(), context, {
        subscription_id: row.id,
      });
      return { key };
    },

    /** A new key; the old one stops working at once (the lookup is by the new hash). */
    async regenerateKey(
      userId: number,
      id: number,
      context: SecurityContext,
    ): Promise<{ key: string }> {
      return inTransaction(db, async (tx) => {
        const row = await ownSubscription(userId, id, tx, true);
        const fresh = newActivationKey();
        const sealed = sealIn(config, SEALED.monitoringKey, row.id, fresh.key);
        await repo.setKey(tx, row.id, fresh.keyHash, sealed);
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'monitoring.key.regenerate',
          subjectType: 'monitoring_subscription',
          subjectId: String(row.id),
          targetUserId: userId,
          details: {},
        });
        await securityLog.record(tx, userId, 'monitoring_key_regenerated', now(), context, {
          subscription_id: row.id,
        });
        return { key: fresh.key };
      });
    },

    /** The user's accounts; with `monitoringId`, the one of that public id (if it is theirs). */
    async accounts(
      userId: number,
      monitoringId?: string,
    ): Promise<{ accounts: MonitoringAccount[] }> {
      const rows = await repo.accounts(db, userId, monitoringId);
      return { accounts: rows.map((r) => toAccount(r.account, r.summary)) };
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
            monitoringId: newMonitoringId(),
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
      input: UpdateAccountRequest,
    ): Promise<MonitoringAccount> {
      const changes = Object.fromEntries(
        Object.entries({
          name: input.name,
          email: input.email,
          isPublic: input.is_public,
          hideLogin: input.hide_login,
          hideBroker: input.hide_broker,
          hideMoney: input.hide_money,
          hidePositions: input.hide_positions,
          hideHistory: input.hide_history,
          timeZone: input.time_zone,
        }).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(changes).length > 0 && !(await repo.updateAccount(db, userId, id, changes)))
        throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      // the account as the list shows it, with its stored summary
      const [row] = await repo.accountsWithSummary(
        db,
        and(eq(monitoringAccounts.id, id), eq(monitoringAccounts.userId, userId)),
      );
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      return toAccount(row.account, row.summary);
    },

    /**
     * An account's figures: the whole history as the statistics job stored them, else (not yet
     * computed, or a range asked for) computed now from what its publisher stored.
     */
    async statistics(userId: number, id: number, range: { from?: string; to?: string }) {
      const row = await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      return reads.statistics(row, range);
    },

    /** One of the reader's accounts (404 otherwise): what the owner's reads start from. */
    async ownAccount(userId: number, id: number): Promise<AccountRow> {
      const row = await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      return row;
    },

    /**
     * Names one of an account's strategies: a magic number it has traded with (or already
     * named); '0', the trades placed by hand, is always "Manual".
     */
    async nameStrategy(
      userId: number,
      id: number,
      magic: string,
      name: string,
    ): Promise<StrategyResponse> {
      if (magic === MANUAL_MAGIC) throw new AppError(422, 'MONITORING_STRATEGY_MANUAL');
      const row = await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      if (!(await repo.hasStrategy(db, id, magic)))
        throw new AppError(404, 'MONITORING_STRATEGY_NOT_FOUND');
      try {
        await repo.nameStrategy(db, id, magic, name, now());
      } catch (error) {
        // the account was deleted meanwhile
        if (isForeignKeyViolation(error)) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
        throw error;
      }
      return { magic, name };
    },

    /** Takes a strategy's name away (it shows by its number again); none to take is no error. */
    async clearStrategyName(userId: number, id: number, magic: string): Promise<StrategyResponse> {
      if (magic === MANUAL_MAGIC) throw new AppError(422, 'MONITORING_STRATEGY_MANUAL');
      const row = await repo.account(db, userId, id);
      if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
      await repo.clearStrategyName(db, id, magic);
      return { magic, name: null };
    },

    async deleteAccount(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteAccount(db, userId, id)))
        throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
    },
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;
