import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';
import type { Mailer, MailMessage } from './mailer.ts';

export interface StoredMail extends MailMessage {
  id: number;
  sentAt: string;
}

export const DEV_MAILBOX_SIZE = 200;

/** Development driver: keeps the last 200 mails in memory, newest first, for /api/dev/mailbox. */
export interface DevMailbox extends Mailer {
  list(): StoredMail[];
}

export function createDevMailbox(now: () => Date = () => new Date()): DevMailbox {
  const mails: StoredMail[] = [];
  let nextId = 1;
  return {
    async send(message) {
      mails.unshift({ ...message, id: nextId++, sentAt: now().toISOString() });
      mails.length = Math.min(mails.length, DEV_MAILBOX_SIZE);
    },
    async close() {},
    list: () => [...mails],
  };
}

/** Escapes the text and turns its http(s) addresses into links. */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) =>
      i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
}

export function renderMailbox(mails: StoredMail[]): string {
  const items = mails
    .map(
      (mail) => `<article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(mail.to)}</strong> · <time datetime="${mail.sentAt}">${mail.sentAt.replace('T', ' ').slice(0, 19)} UTC</time></p>
  <pre>${linkify(mail.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TradeHost development mailbox</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 860px; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
  article { border: 1px solid #d5dae3; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
  .meta { color: #5b6474; margin: 0 0 .75rem; }
  pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
  a { color: #1a5fd0; }
</style>
</head>
<body>
<h1>Development mailbox</h1>
<p>E-mails the API sent while no <code>SMTP_URL</code> is set, newest first (the last ${DEV_MAILBOX_SIZE}, kept in memory). Reload to see new ones; <a href="/api/dev/mailbox.json">JSON</a>.</p>
${items || '<p>No mail yet.</p>'}
</body>
</html>
`;
}

/** GET /api/dev/mailbox (HTML) and /api/dev/mailbox.json. Registered only in development without SMTP. */
export async function devMailboxRoutes(app: FastifyInstance, { mailbox }: { mailbox: DevMailbox }) {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderMailbox(mailbox.list()));
  });
  app.get('/dev/mailbox.json', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send({ mails: mailbox.list() });
  });
}
