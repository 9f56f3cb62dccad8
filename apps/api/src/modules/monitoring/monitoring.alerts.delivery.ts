import type { AlertDetails, Language } from '@tradehost/contracts';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { monitoringAccounts } from '../../db/schema/index.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import {
  alertText,
  monitoringAlertMail,
  monitoringReportMail,
  reportText,
  type AlertInput,
  type ReportInput,
} from '../../integrations/mail/monitoring-templates.ts';
import type {
  TelegramButton,
  TelegramMessage,
  TelegramOutbox,
} from '../../integrations/telegram/port.ts';
import { escapeHtml } from '../../lib/html.ts';
import { numero } from '../../lib/numero.ts';
import { serversLink } from '../../lib/vps-labels.ts';
import { alertsRepository as repo, type Channel } from './monitoring.alerts.repository.ts';

/**
 * Alerts and reports to their owner: by e-mail to the account's e-mail and by Telegram to the
 * owner's monitoring chat, in the owner's language. Each channel is its own pg-boss job (retried
 * with backoff), so a failing one never holds the other back; an alert's status per channel is
 * written to its event: sent, skipped (the channel off, no chat linked, the bot off or blocked),
 * or failed (the last try threw; a later retry may still send it).
 */

/** Telegram with no bot token: every message is 'off'. */
export const TELEGRAM_OFF: TelegramOutbox = { enabled: false, sendToUser: async () => 'off' };

/** A report claimed for a period, with its figures: what each channel's job sends. */
export interface ReportJob {
  accountId: number;
  report: ReportInput;
}

export interface DeliveryDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  telegram: TelegramOutbox;
}

/**
 * The button under a silent-terminal alert, one per server it can bring back: Start for a server
 * that is shut down, Reboot for one that runs (or whose state is unknown). The bot checks the
 * server again when pressed and does whichever fits it then.
 */
function serverButtons(language: Language, details: AlertDetails): TelegramButton[][] {
  const ru = language === 'ru';
  return (details.servers ?? [])
    .filter((s) => s.state === 'running' || s.state === 'shut_down' || s.state === 'unknown')
    .map((s) =>
      s.state === 'shut_down'
        ? [
            {
              text: ru ? `Запустить сервер ${numero(s.id)}` : `Start server #${s.id}`,
              data: `start:${s.id}`,
            },
          ]
        : [
            {
              text: ru ? `Перезагрузить сервер ${numero(s.id)}` : `Reboot server #${s.id}`,
              data: `reboot:${s.id}`,
            },
          ],
    );
}

export function alertTelegramMessage(language: Language, alert: AlertInput): TelegramMessage {
  const { subject, lines } = alertText(language, alert);
  const buttons = alert.kind === 'no_data' ? serverButtons(language, alert.details) : [];
  return {
    html: [`<b>${escapeHtml(subject)}</b>`, ...lines.map(escapeHtml)].join('\n\n'),
    ...(buttons.length > 0 ? { buttons } : {}),
  };
}

export function reportTelegramMessage(language: Language, report: ReportInput): TelegramMessage {
  const { subject, heading, rows } = reportText(language, report);
  return {
    html: [
      `<b>${escapeHtml(subject)}</b>`,
      escapeHtml(heading),
      rows.map(([label, value]) => `${escapeHtml(label)}: <b>${escapeHtml(value)}</b>`).join('\n'),
    ].join('\n\n'),
  };
}

export function createDelivery({ db, config, mailer, telegram }: DeliveryDeps) {
  const accountLink = (monitoringId: string) =>
    `${config.publicUrl}/online-monitoring/${monitoringId}`;

  /** One channel of an alert; a throw (after the status 'failed' is written) makes the job retry. */
  async function deliverAlert(eventId: number, channel: Channel): Promise<void> {
    const row = await repo.eventForDelivery(db, eventId);
    if (!row) return; // the account was deleted meanwhile
    const status = channel === 'email' ? row.event.emailStatus : row.event.telegramStatus;
    if (status === 'sent' || status === 'skipped') return;
    const { event, account, owner } = row;
    const alert: AlertInput = {
      account,
      kind: event.kind,
      at: event.at,
      value: event.value,
      threshold: event.threshold,
      details: event.details as AlertDetails,
    };
    try {
      if (channel === 'email') {
        await mailer.send({
          to: account.email,
          ...monitoringAlertMail(owner.language, alert, {
            name: owner.name,
            accountLink: accountLink(account.monitoringId),
            serversLink: `${serversLink(config)}?tab=servers`,
          }),
        });
        await repo.setDelivery(db, eventId, channel, 'sent');
      } else {
        const delivered = await telegram.sendToUser(
          account.userId,
          'monitoring',
          alertTelegramMessage(owner.language, alert),
        );
        await repo.setDelivery(db, eventId, channel, delivered === 'sent' ? 'sent' : 'skipped');
      }
    } catch (error) {
      await repo.setDelivery(db, eventId, channel, 'failed');
      throw error;
    }
  }

  /** One channel of a report; a throw makes the job retry. */
  async function deliverReport(job: ReportJob, channel: Channel): Promise<void> {
    const [account] = await db
      .select({
        userId: monitoringAccounts.userId,
        email: monitoringAccounts.email,
        monitoringId: monitoringAccounts.monitoringId,
      })
      .from(monitoringAccounts)
      .where(eq(monitoringAccounts.id, job.accountId));
    if (!account) return;
    const owner = await repo.owner(db, account.userId);
    if (!owner) return;
    if (channel === 'email')
      await mailer.send({
        to: account.email,
        ...monitoringReportMail(owner.language, job.report, {
          name: owner.name,
          accountLink: accountLink(account.monitoringId),
        }),
      });
    else
      await telegram.sendToUser(
        account.userId,
        'monitoring',
        reportTelegramMessage(owner.language, job.report),
      );
  }

  return { deliverAlert, deliverReport };
}

export type Delivery = ReturnType<typeof createDelivery>;
