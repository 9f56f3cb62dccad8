import type { Language, TicketStatus } from '@tradehost/contracts';
import { BRAND, button, layout, type RenderedMail } from './templates.ts';
import { greeting, mailHtml, plainText, userText } from './user-text.ts';
import { numero } from '../../lib/numero.ts';

/** The support tickets' letters: to the user on each answer and status change, to the operators on each user message. */

const STATUS_NAMES: Record<Language, Record<TicketStatus, string>> = {
  en: { new: 'New', processing: 'Processing', closed: 'Closed' },
  ru: { new: 'Новый', processing: 'В работе', closed: 'Закрыт' },
};

/**
 * A letter with a quoted text (a reply, a user's message) kept as it was written: line breaks
 * and all, escaped for HTML (the user's parts, userText, unlinkable: user-text.ts).
 */
function ticketMail(
  language: Language,
  to: { name: string },
  subject: string,
  paragraphs: string[],
  quote: string | null,
  action: { href: string; label: string },
): RenderedMail {
  const title = `${BRAND}: ${subject}`;
  const hello = greeting(language, to.name);
  const quoted = quote
    ? `<span style="display:block;border-left:3px solid #c9d3e3;padding-left:12px;white-space:pre-wrap">${mailHtml(quote)}</span>`
    : null;
  const [lead = '', ...rest] = paragraphs;
  return {
    subject: plainText(title),
    text: plainText(
      `${[hello, lead, ...(quote ? [quote] : []), ...rest, `${action.label}: ${action.href}`, BRAND].join('\n\n')}\n`,
    ),
    html: layout(language, title, [
      mailHtml(hello),
      mailHtml(lead),
      ...(quoted ? [quoted] : []),
      ...rest.map(mailHtml),
      button(action.href, action.label),
    ]),
  };
}

const openTicket = (language: Language, link: string) => ({
  href: link,
  label: language === 'ru' ? 'Открыть обращение' : 'Open the ticket',
});

interface TicketRef {
  /** The recipient's name. */
  name: string;
  /** The ticket's page in the console. */
  link: string;
  ticketId: number;
  title: string;
}

/** The staff answered the user's ticket: the answer itself, and where to reply. */
export function ticketAnsweredMail(
  language: Language,
  input: TicketRef & { answer: string },
): RenderedMail {
  const { ticketId, answer, link } = input;
  const title = userText(input.title);
  return language === 'ru'
    ? ticketMail(
        language,
        input,
        `ответ по обращению ${numero(ticketId)}`,
        [
          `Служба поддержки ответила на ваше обращение ${numero(ticketId)} «${title}»:`,
          'Ответить можно в самом обращении. Если вопрос решён, там же его можно закрыть.',
        ],
        answer,
        openTicket(language, link),
      )
    : ticketMail(
        language,
        input,
        `a reply to your ticket #${ticketId}`,
        [
          `Our support team has replied to your ticket #${ticketId} "${title}":`,
          'You can reply in the ticket itself. If your question is solved, you can close it there.',
        ],
        answer,
        openTicket(language, link),
      );
}

/** The staff changed the ticket's status. */
export function ticketStatusMail(
  language: Language,
  input: TicketRef & { status: TicketStatus },
): RenderedMail {
  const { ticketId, status, link } = input;
  const title = userText(input.title);
  const name = STATUS_NAMES[language][status];
  if (language === 'ru') {
    const lines: Record<TicketStatus, string[]> = {
      new: [`Ваше обращение ${numero(ticketId)} «${title}» снова открыто (статус «${name}»).`],
      processing: [
        `Ваше обращение ${numero(ticketId)} «${title}» взято в работу (статус «${name}»).`,
      ],
      closed: [
        `Ваше обращение ${numero(ticketId)} «${title}» закрыто.`,
        'Если вопрос остался, просто напишите в этом обращении — оно откроется снова.',
      ],
    };
    return ticketMail(
      language,
      input,
      `обращение ${numero(ticketId)}: статус «${name}»`,
      lines[status],
      null,
      openTicket(language, link),
    );
  }
  const lines: Record<TicketStatus, string[]> = {
    new: [`Your ticket #${ticketId} "${title}" is open again (status ${name}).`],
    processing: [`Your ticket #${ticketId} "${title}" is being worked on (status ${name}).`],
    closed: [
      `Your ticket #${ticketId} "${title}" is closed.`,
      'If you still need help, just write in the ticket and it opens again.',
    ],
  };
  return ticketMail(
    language,
    input,
    `ticket #${ticketId} status: ${name}`,
    lines[status],
    null,
    openTicket(language, link),
  );
}

/** What the user did that the operators are told of. */
export type TicketEvent = 'new' | 'message' | 'resumed';

/**
 * To a department's operators: a new ticket, a new message or a closed ticket resumed, with the
 * user's text, the number of files and a link to the ticket in the help desk.
 */
export function ticketForStaffMail(
  language: Language,
  input: TicketRef & {
    event: TicketEvent;
    department: string;
    from: { name: string; email: string };
    text: string;
    files: number;
  },
): RenderedMail {
  const { ticketId, department, from, files, link, event } = input;
  const title = userText(input.title);
  const text = userText(input.text);
  const who = `${userText(from.name)} (${userText(from.email)})`;
  if (language === 'ru') {
    const subjects: Record<TicketEvent, string> = {
      new: `новое обращение ${numero(ticketId)} (${department})`,
      message: `новое сообщение в обращении ${numero(ticketId)}`,
      resumed: `обращение ${numero(ticketId)} возобновлено`,
    };
    const leads: Record<TicketEvent, string> = {
      new: `Новое обращение ${numero(ticketId)} «${title}» в отдел «${department}» от ${who}:`,
      message: `Новое сообщение в обращении ${numero(ticketId)} «${title}» (${department}) от ${who}:`,
      resumed: `Закрытое обращение ${numero(ticketId)} «${title}» (${department}) возобновлено сообщением от ${who}:`,
    };
    return ticketMail(
      language,
      input,
      subjects[event],
      [leads[event], ...(files > 0 ? [`Приложено файлов: ${files}.`] : [])],
      text,
      { href: link, label: 'Открыть обращение' },
    );
  }
  const subjects: Record<TicketEvent, string> = {
    new: `new ticket #${ticketId} (${department})`,
    message: `new message in ticket #${ticketId}`,
    resumed: `ticket #${ticketId} resumed`,
  };
  const leads: Record<TicketEvent, string> = {
    new: `New ticket #${ticketId} "${title}" in ${department} from ${who}:`,
    message: `New message in ticket #${ticketId} "${title}" (${department}) from ${who}:`,
    resumed: `The closed ticket #${ticketId} "${title}" (${department}) was resumed by a message from ${who}:`,
  };
  return ticketMail(
    language,
    input,
    subjects[event],
    [leads[event], ...(files > 0 ? [`Files attached: ${files}.`] : [])],
    text,
    { href: link, label: 'Open in the help desk' },
  );
}
