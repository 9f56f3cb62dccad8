import {
  ALERT_KINDS,
  type AlertDetails,
  type AlertEvent,
  type AlertHistory,
  type AlertKind,
  type AlertSettings,
  type UpdateAlertSettings,
} from '@tradehost/contracts';
import { and, eq } from 'drizzle-orm';
import { monitoringAccounts } from '../../db/schema/index.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { AppError } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import {
  alertsRepository as repo,
  type AlertEventRow,
  type AlertRuleRow,
} from './monitoring.alerts.repository.ts';
import type { AccountRow } from './monitoring.repository.ts';

/**
 * The owner's side of alerts and reports: read and set an account's rules, channels and
 * reports; read its alert history. Another user's account is 404, as everywhere in monitoring.
 */

const eventView = (row: AlertEventRow): AlertEvent => ({
  id: row.id,
  kind: row.kind,
  at: row.at.toISOString(),
  value: row.value,
  threshold: row.threshold,
  details: row.details as AlertDetails,
  email_status: row.emailStatus,
  telegram_status: row.telegramStatus,
});

/**
 * The peak a new drawdown rule starts from: the value now over (1 - the current drawdown the
 * statistics stored), so the rule measures from the whole history's peak, not from its first
 * snapshot; null (the next snapshot starts it) when neither is known yet.
 */
function drawdownBase(account: AccountRow, drawdown: number | null): number | null {
  if (account.equity === null || drawdown === null || drawdown >= 1) return null;
  return (account.equity - (account.credit ?? 0)) / (1 - drawdown);
}

export function createAlertsService({ db, now }: ServiceDeps, telegram: { enabled: boolean }) {
  async function ownAccount(tx: Tx | typeof db, userId: number, id: number, lock = false) {
    const query = tx
      .select()
      .from(monitoringAccounts)
      .where(and(eq(monitoringAccounts.id, id), eq(monitoringAccounts.userId, userId)));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, 'MONITORING_ACCOUNT_NOT_FOUND');
    return row;
  }

  async function view(
    tx: Tx | typeof db,
    account: AccountRow,
    rules: AlertRuleRow[],
  ): Promise<AlertSettings> {
    const byKind = new Map(rules.map((r) => [r.kind, r]));
    return {
      alerts_enabled: account.alertsEnabled,
      alert_email: account.alertEmail,
      alert_telegram: account.alertTelegram,
      report_daily: account.reportDaily,
      report_weekly: account.reportWeekly,
      report_monthly: account.reportMonthly,
      report_email: account.reportEmail,
      report_telegram: account.reportTelegram,
      rules: ALERT_KINDS.map((kind) => {
        const rule = byKind.get(kind);
        return {
          kind,
          enabled: rule?.enabled ?? false,
          threshold: rule?.threshold ?? null,
          fired_at: rule?.firedAt?.toISOString() ?? null,
        };
      }),
      email: account.email,
      currency: account.currency,
      telegram: {
        available: telegram.enabled,
        linked: await repo.telegramLinked(tx, account.userId),
      },
    };
  }

  return {
    async settings(userId: number, id: number): Promise<AlertSettings> {
      const account = await ownAccount(db, userId, id);
      return view(db, account, await repo.rules(db, id));
    },

    /**
     * Changes what is given. A rule whose switch or line changes starts afresh: armed, its peak
     * or day base measured again (a drawdown rule from the statistics' current drawdown).
     */
    async update(userId: number, id: number, input: UpdateAlertSettings): Promise<AlertSettings> {
      return inTransaction(db, async (tx) => {
        let account = await ownAccount(tx, userId, id, true);
        const flags = Object.fromEntries(
          Object.entries({
            alertsEnabled: input.alerts_enabled,
            alertEmail: input.alert_email,
            alertTelegram: input.alert_telegram,
            reportDaily: input.report_daily,
            reportWeekly: input.report_weekly,
            reportMonthly: input.report_monthly,
            reportEmail: input.report_email,
            reportTelegram: input.report_telegram,
          }).filter(([, value]) => value !== undefined),
        );
        if (Object.keys(flags).length > 0)
          [account] = (await tx
            .update(monitoringAccounts)
            .set(flags)
            .where(eq(monitoringAccounts.id, id))
            .returning()) as [AccountRow];
        const current = new Map((await repo.rules(tx, id)).map((r) => [r.kind, r]));
        const at = now();
        for (const [kind, rule] of Object.entries(input.rules ?? {}) as [
          AlertKind,
          { enabled: boolean; threshold?: number },
        ][]) {
          const threshold = rule.threshold ?? null;
          const was = current.get(kind);
          if (was && was.enabled === rule.enabled && was.threshold === threshold) continue;
          const base =
            kind === 'drawdown' && rule.enabled
              ? drawdownBase(account, await repo.storedDrawdown(tx, id))
              : null;
          await repo.putRule(
            tx,
            { accountId: id, kind, enabled: rule.enabled, threshold },
            base,
            at,
          );
        }
        return view(tx, account, await repo.rules(tx, id));
      });
    },

    async history(
      userId: number,
      id: number,
      query: { page: number; per_page: number },
    ): Promise<AlertHistory> {
      await ownAccount(db, userId, id);
      const { rows, total } = await repo.history(db, id, query.page, query.per_page);
      return {
        data: rows.map(eventView),
        meta: { page: query.page, per_page: query.per_page, total },
      };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
