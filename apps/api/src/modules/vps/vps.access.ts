import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { vpsRepository, type ServerRow } from './vps.repository.ts';

/**
 * How the owner's routes reach a server, in one place for the services that act on it (the
 * controls, the machine's repairs, the web console): the refusals in the API's codes.
 */

/** The user's own server, read or locked; another user's is as unknown as a missing one. */
export async function ownServer(
  on: Executor,
  userId: number,
  id: number,
  { lock = false } = {},
): Promise<ServerRow> {
  const server = lock
    ? await vpsRepository.lockServer(on, id, userId)
    : await vpsRepository.findServer(on, id, userId);
  if (!server) throw new AppError(404, 'SERVER_NOT_FOUND');
  return server;
}

export type MachineServer = ServerRow & { machineId: string };

/**
 * The server has a machine on the hypervisor to act on: still being created is SERVER_NOT_READY;
 * anything but active (or blocked, when `blocked` allows it: a blocked server's machine is only
 * stopped) is SERVER_NOT_ACTIVE.
 */
export function requireMachine(
  server: ServerRow,
  { blocked = false } = {},
): asserts server is MachineServer {
  if (server.status === 'provisioning') throw new AppError(409, 'SERVER_NOT_READY');
  const usable = server.status === 'active' || (blocked && server.status === 'blocked');
  if (!usable || !server.machineId) throw new AppError(409, 'SERVER_NOT_ACTIVE');
}
