import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import type { RenderedMail } from '../integrations/mail/templates.ts';
import type { Owner } from './jobs.repository.ts';

/** "Trader, London (LD4)" */
export const rateLabel = (rate: { name: string; location: string }) =>
  `${rate.name}, ${rate.location}`;

/** The console's servers page, the link of every VPS mail. */
export const serversLink = (config: Config) => `${config.publicUrl}/vps`;

/**
 * Sends a mail after the transaction it reports has committed. A mail that cannot be sent is
 * logged, never thrown: the change it reports has happened and stays.
 */
export async function notify(
  mailer: Mailer,
  log: FastifyBaseLogger,
  owner: Owner,
  render: (language: Owner['language']) => RenderedMail,
): Promise<void> {
  try {
    await mailer.send({ to: owner.email, ...render(owner.language) });
  } catch (error) {
    log.error({ err: error, userId: owner.id }, 'a VPS mail could not be sent');
  }
}
