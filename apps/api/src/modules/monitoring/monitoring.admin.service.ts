import {
  addMonths,
  PUBLISHER_SILENT_AFTER_MS,
  publisherStateAt,
  type AdminExtendRequest,
  type AdminMonitoringAccount,
  type AdminSubscription,
  type MonitoringPrices,
  type Page,
  type PublisherState,
  type SubscriptionState,
} from '@tradehost/contracts';
import { digitsOf, pageMeta, pagingOf } from '../../db/paging.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import { refuseOwnAccount } from '../../db/operators.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome } from '../../plugins/idempotency.ts';
import { monitoringAdminRepository as adminRepo } from './monitoring.admin.repository.ts';
import {
  isRunning,
  monitoringRepository as repo,
  subscriptionView,
} from './monitoring.repository.ts';

/**
 * The operator's side of monitoring: the prices (the account-month price and the period
 * discounts), every subscription with the free extension of one, every account with its
 * publisher's state. Each change is audited in its own transaction.
 */
export function createMonitoringAdminService({ db, now }: ServiceDeps) {
  return {
    prices: (): Promise<MonitoringPrices> => repo.prices(db),

    async updatePrices(
      adminId: number,
      input: {
        account_month_price: number;
        discounts: { months: number; discount_percent: number }[];
      },
    ): Promise<MonitoringPrices> {
      const seen = new Set<number>();
      for (const [index, period] of input.discounts.entries()) {
        if (seen.has(period.months))
          throw fieldError(422, `discounts.${index}.months`, 'VALIDATION');
        seen.add(period.months);
      }
      return inTransaction(db, async (tx) => {
        const before = await repo.prices(tx);
        await adminRepo.setAccountMonthCents(tx, input.account_month_price);
        for (const period of input.discounts)
          await adminRepo.upsertDiscount(tx, period.months, period.discount_percent);
        const after = await repo.prices(tx);
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'monitoring.prices_update',
          subjectType: 'monitoring_prices',
          subjectId: null,
          details: { before, after },
        });
        return after;
      });
    },

    /** Every subscription, newest first: by number (a prefix) or the owner's e-mail, state, plan. */
    async subscriptions(filter: {
      search?: string | undefined;
      state?: SubscriptionState | undefined;
      plan?: 'free' | 'paid' | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminSubscription>> {
      const search = filter.search?.trim() ?? '';
      const at = now();
      const { rows, total } = await adminRepo.subscriptionsPage(
        db,
        {
          digits: digitsOf(search),
          email: search || undefined,
          state: filter.state,
          plan: filter.plan,
        },
        at,
        pagingOf(filter.page, filter.per_page),
      );
      return {
        data: rows.map((r) => ({ ...subscriptionView(r.subscription, r.used, at), user: r.user })),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },

    /**
     * Months added to a paid subscription free of charge: a running one from its end, an ended
     * one from now. The expiry warnings start over; the audit log keeps the reason. Under an
     * Idempotency-Key: a retried extension adds its months once.
     */
    async extend(
      tx: Tx,
      adminId: number,
      id: number,
      input: AdminExtendRequest,
    ): Promise<Outcome<{ subscription: AdminSubscription; message: string }>> {
      const row = await adminRepo.lockSubscription(tx, id);
      if (!row) throw new AppError(404, 'NOT_FOUND');
      refuseOwnAccount(adminId, row.userId);
      if (row.plan === 'free') throw new AppError(409, 'MONITORING_FREE_FIXED');
      const at = now();
      const endsAt = addMonths(isRunning(row, at) ? row.endsAt! : at, input.months);
      const updated = await repo.updateSubscription(tx, row.id, {
        endsAt,
        warned3dAt: null,
        warned1dAt: null,
      });
      await auditRepository.insert(tx, {
        actorId: adminId,
        action: 'monitoring.operator_extend',
        subjectType: 'monitoring_subscription',
        subjectId: String(row.id),
        targetUserId: row.userId,
        details: {
          months: input.months,
          reason: input.reason,
          previous_ends_at: row.endsAt?.toISOString() ?? null,
          ends_at: endsAt.toISOString(),
        },
      });
      const used = await repo.accountsIn(tx, row.id);
      return {
        status: 200,
        body: {
          subscription: {
            ...subscriptionView(updated, used, at),
            user: await adminRepo.owner(tx, row.userId),
          },
          message: 'The subscription has been extended',
        },
      };
    },

    /** Every account, newest first: by number, name or owner's e-mail, and publisher state. */
    async accounts(filter: {
      search?: string | undefined;
      publisher?: PublisherState | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminMonitoringAccount>> {
      const search = filter.search?.trim() ?? '';
      const at = now();
      const silentSince = new Date(at.getTime() - PUBLISHER_SILENT_AFTER_MS);
      const { rows, total } = await adminRepo.accountsPage(
        db,
        { digits: digitsOf(search), text: search || undefined, publisher: filter.publisher },
        silentSince,
        pagingOf(filter.page, filter.per_page),
      );
      return {
        data: rows.map(({ account: a, user, endsAt }) => ({
          id: a.id,
          monitoring_id: a.monitoringId,
          subscription_id: a.subscriptionId,
          subscription_active: endsAt === null || endsAt > at,
          user,
          login: a.login,
          platform: a.platform,
          name: a.name,
          server: a.server,
          company: a.company,
          is_public: a.isPublic,
          views: a.views,
          ea_version: a.eaVersion,
          hello_at: a.helloAt?.toISOString() ?? null,
          last_data_at: a.lastDataAt?.toISOString() ?? null,
          terminal_connected: a.terminalConnected,
          publisher: publisherStateAt(a.lastDataAt, at),
        })),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },
  };
}

export type MonitoringAdminService = ReturnType<typeof createMonitoringAdminService>;
