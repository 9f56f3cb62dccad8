import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { telegramChatsRepository as chats } from '../../db/telegram-chats.ts';
import type { Jobs } from '../../jobs/index.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { BRAND } from '../mail/templates.ts';
import type { TelegramMessage, TelegramOutbox } from './port.ts';

/**
 * Account notifications in Telegram: each notice mailed to a user through `notify()` (servers
 * ready, expiring, renewed, blocked, upgraded, withdrawals, ...) also goes to the chat the user
 * linked for `account`, as a pg-boss job of its own (queue `telegram-notice`, retried with
 * backoff), so a Telegram failure never holds back the mail or the change it reports.
 */

export const NOTICE_QUEUE = 'telegram-notice';

interface NoticeJob {
  userId: number;
  message: TelegramMessage;
}

export interface TelegramNotices {
  /** Queues a message to the user's account chat; never throws. */
  send(userId: number, message: TelegramMessage): Promise<void>;
}

/** A mail as a chat message: its subject in bold over its plain text, without the signature. */
export function noticeFromMail(mail: Omit<MailMessage, 'to'>): TelegramMessage {
  const body = mail.text.trim().replace(new RegExp(`\\n+${BRAND}$`), '');
  return { html: `<b>${escapeHtml(mail.subject)}</b>\n\n${escapeHtml(body)}` };
}

export function createTelegramNotices(deps: {
  db: Db;
  config: Config;
  jobs: Jobs;
  outbox: TelegramOutbox;
  log: FastifyBaseLogger;
}): TelegramNotices {
  const { db, config, jobs, outbox, log } = deps;
  if (!outbox.enabled) return { send: async () => {} };

  const deliver = async ({ userId, message }: NoticeJob) => {
    await outbox.sendToUser(userId, 'account', message);
  };
  const queue = jobs.define<NoticeJob>({
    queue: NOTICE_QUEUE,
    policy: 'standard',
    expireInSeconds: 5 * 60,
    retryLimit: 5,
    retryDelaySeconds: 20,
    run: deliver,
  });

  return {
    async send(userId, message) {
      try {
        // most users link no chat: no job for them
        if (!(await chats.ofUserFor(db, userId, 'account'))) return;
        if (config.vps.jobs) await queue.send({ userId, message });
        // no job workers in this process (an HTTP-only instance, the tests): sent at once
        else await deliver({ userId, message });
      } catch (error) {
        log.warn({ err: error, userId }, 'a Telegram notice could not be sent');
      }
    },
  };
}

/**
 * The mailer whose notices (`notify()`) are also copied to Telegram. `notices` is looked up at
 * send time: the mailer exists before the app's plugins, which build the notices.
 */
export function withTelegramNotices(
  mailer: Mailer,
  notices: () => TelegramNotices | undefined,
): Mailer {
  return {
    send: (message) => mailer.send(message),
    close: () => mailer.close(),
    copyToChat: async (userId, mail) => notices()?.send(userId, noticeFromMail(mail)),
  };
}
