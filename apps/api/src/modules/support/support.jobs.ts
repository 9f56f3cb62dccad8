import { characterCount, type TicketStatus } from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SupportTicketRow } from '../../db/schema/index.ts';
import { telegramChatsRepository as chats } from '../../db/telegram-chats.ts';
import type { Tx } from '../../db/transaction.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import {
  ticketAnsweredMail,
  ticketForStaffMail,
  ticketStatusMail,
  type TicketEvent,
} from '../../integrations/mail/support-templates.ts';
import type { RenderedMail } from '../../integrations/mail/templates.ts';
import type { Jobs } from '../../jobs/index.ts';
import { supportRepository as repo } from './support.repository.ts';

/**
 * The tickets' notifications, on the pg-boss queue `support-notice`: the owner is told of a
 * staff answer or a status change, the department's operators (none listed: every operator) of
 * a new ticket, a user's message or a resumed ticket, each in their language, by mail and by a
 * copy to the Telegram chat they linked for account notices.
 *
 * The jobs are written in the transaction of the change they report (JobQueue.sendIn): none
 * for a change rolled back, none lost when the process ends after the commit, and the request
 * never waits for the mail server. One job per recipient and channel, so a retry (8 of them
 * from 30 s, doubling: about two hours) sends again only what failed: a mail that went out is
 * never sent twice because another recipient's or the chat's failed.
 */

export const NOTICE_QUEUE = 'support-notice';
const RETRIES = { retryLimit: 8, retryDelaySeconds: 30 };
/** How much of a staff answer its Telegram notice quotes (a chat message holds 4096 characters). */
const CHAT_QUOTE_MAX = 3000;

export type NoticeChannel = 'email' | 'chat';

/** What a notice tells. */
export type Notice =
  | { kind: 'answer'; answer: string }
  | { kind: 'status'; status: TicketStatus }
  | { kind: 'staff'; event: TicketEvent; text: string; files: number };

export interface NoticeJob {
  ticketId: number;
  recipientId: number;
  channel: NoticeChannel;
  notice: Notice;
}

export interface SupportJobsDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  jobs: Jobs;
}

const quote = (text: string) =>
  characterCount(text) > CHAT_QUOTE_MAX
    ? `${Array.from(text).slice(0, CHAT_QUOTE_MAX).join('')}…`
    : text;

export function createSupportJobs({ db, config, mailer, log, jobs }: SupportJobsDeps) {
  const userLink = (id: number) => `${config.publicUrl}/support/${id}`;
  const helpDeskLink = (id: number) => `${config.publicUrl}/operator/support/${id}`;

  /** The notice's letter to its recipient, in their language; undefined when either is gone. */
  async function render(job: NoticeJob) {
    const ticket = await repo.ticket(db, job.ticketId);
    const to = await repo.recipient(db, job.recipientId);
    if (!ticket || !to) return undefined;
    const { notice } = job;
    const ref = { name: to.name, ticketId: ticket.id, title: ticket.title };
    let mail: RenderedMail;
    if (notice.kind === 'answer') {
      // the whole answer by mail; in the chat (a message holds 4096 characters) its beginning
      const answer = job.channel === 'chat' ? quote(notice.answer) : notice.answer;
      mail = ticketAnsweredMail(to.language, { ...ref, link: userLink(ticket.id), answer });
    } else if (notice.kind === 'status') {
      mail = ticketStatusMail(to.language, {
        ...ref,
        link: userLink(ticket.id),
        status: notice.status,
      });
    } else {
      const department = await repo.department(db, ticket.departmentId);
      const from = await repo.recipient(db, ticket.userId);
      if (!department || !from) return undefined;
      mail = ticketForStaffMail(to.language, {
        ...ref,
        link: helpDeskLink(ticket.id),
        event: notice.event,
        department: to.language === 'ru' ? department.nameRu : department.nameEn,
        from: { name: from.name, email: from.email },
        text: notice.text,
        files: notice.files,
      });
    }
    return { to, mail };
  }

  /** One notice to one recipient on one channel; a mail that fails throws, so the job retries. */
  async function deliver(job: NoticeJob): Promise<void> {
    const rendered = await render(job);
    if (!rendered) return; // the ticket or the account was deleted meanwhile
    const { to, mail } = rendered;
    if (job.channel === 'chat') {
      await mailer.copyToChat?.(to.id, mail);
      return;
    }
    try {
      await mailer.send({ to: to.email, ...mail });
    } catch (error) {
      log.error({ err: error, userId: to.id, ticketId: job.ticketId }, 'a mail could not be sent');
      throw error;
    }
  }

  const queue = jobs.define<NoticeJob>({
    queue: NOTICE_QUEUE,
    policy: 'standard',
    expireInSeconds: 120,
    workers: 2,
    ...RETRIES,
    run: deliver,
  });

  /** Each channel of `recipientId` (the chat only when one is linked for account notices). */
  async function send(tx: Tx, ticketId: number, recipientId: number, notice: Notice) {
    await queue.sendIn(tx, { ticketId, recipientId, channel: 'email', notice });
    if (mailer.copyToChat && (await chats.ofUserFor(tx, recipientId, 'account')))
      await queue.sendIn(tx, { ticketId, recipientId, channel: 'chat', notice });
  }

  return {
    /** The owner is told of a staff answer or a status change, after `tx` commits. */
    async tellUser(
      tx: Tx,
      ticket: SupportTicketRow,
      notice: Notice & { kind: 'answer' | 'status' },
    ) {
      await send(tx, ticket.id, ticket.userId, notice);
    },

    /** The department's operators are told of the user's ticket or message, after `tx` commits. */
    async tellOperators(
      tx: Tx,
      ticket: SupportTicketRow,
      event: TicketEvent,
      text: string,
      files: number,
    ) {
      const operators = await repo.operatorsOf(tx, ticket.departmentId);
      for (const operator of operators)
        if (operator.id !== ticket.userId)
          await send(tx, ticket.id, operator.id, { kind: 'staff', event, text, files });
    },

    /** One job's work, as its worker does it (the tests, with jobs off). */
    deliver,
  };
}

export type SupportJobs = ReturnType<typeof createSupportJobs>;
