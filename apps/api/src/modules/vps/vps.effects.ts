import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { RenderedMail } from '../../integrations/mail/templates.ts';
import { auditRepository } from '../audit/audit.repository.ts';
import type { Owner } from './vps.repository.ts';

/**
 * What a change of a server leaves besides its rows: the audit row and the owner's mail. Shared
 * by the runner, the lifecycle and the operator's service.
 */

/** "Trader, London (LD4)" */
export const rateLabel = (rate: { name: string; location: string }) =>
  `${rate.name}, ${rate.location}`;

/** The console's servers page, the link of every VPS mail. */
export const serversLink = (config: Config) => `${config.publicUrl}/vps`;

/** The audit row of a change of a server nobody asked for by hand (the runner, the lifecycle). */
export function auditServer(
  tx: Executor,
  action: string,
  server: { id: number; userId: number },
  details: Record<string, unknown>,
) {
  return auditRepository.insert(tx, {
    actorId: null,
    action,
    subjectType: 'vps_server',
    subjectId: String(server.id),
    targetUserId: server.userId,
    details,
  });
}

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
