import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { auditRepository } from '../audit/audit.repository.ts';

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
