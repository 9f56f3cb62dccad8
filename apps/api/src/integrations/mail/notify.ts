import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@tradehost/contracts';
import type { Mailer } from './mailer.ts';
import type { RenderedMail } from './templates.ts';

/** Who a letter goes to: the address and the language it is written in. */
export interface Recipient {
  id: number;
  email: string;
  language: Language;
}

/**
 * Sends a mail after the transaction it reports has committed, and its copy to the user's
 * Telegram chat (when the mailer has one: app.ts). A mail that cannot be sent is logged, never
 * thrown: the change it reports has happened and stays.
 */
export async function notify(
  mailer: Mailer,
  log: FastifyBaseLogger,
  to: Recipient,
  render: (language: Language) => RenderedMail,
): Promise<void> {
  let mail: RenderedMail | undefined;
  try {
    mail = render(to.language);
    await mailer.send({ to: to.email, ...mail });
  } catch (error) {
    log.error({ err: error, userId: to.id }, 'a mail could not be sent');
  }
  if (mail) await mailer.copyToChat?.(to.id, mail);
}
