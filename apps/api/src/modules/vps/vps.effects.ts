import type { Executor } from '../../db/client.ts';
import { auditRepository } from '../../db/audit.ts';

/**
 * What a change of a server leaves besides its rows: the audit row and the owner's mail. Shared
 * by the runner, the lifecycle and the operator's service.
 */

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
