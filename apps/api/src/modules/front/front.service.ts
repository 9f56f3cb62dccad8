import { DEFAULT_PERMISSIONS, permissionsSchema, type Permissions } from '@tradehost/contracts';
import { PERMISSIONS_KEY } from '../../db/seed.ts';
import type { ServiceDeps } from '../deps.ts';
import { frontRepository } from './front.repository.ts';

export type FrontService = ReturnType<typeof createFrontService>;

/**
 * How long an instance answers the permissions from what it last read: every page load asks for
 * them, the row changes by hand (SQL) and rarely, so a change shows within this time.
 */
export const PERMISSIONS_TTL_MS = 10_000;

export function createFrontService({ db, log, now }: Pick<ServiceDeps, 'db' | 'log' | 'now'>) {
  let cached: { permissions: Permissions; readAt: number } | undefined;

  async function read(): Promise<Permissions> {
    const stored = await frontRepository.getSetting(db, PERMISSIONS_KEY);
    const parsed = permissionsSchema.safeParse(stored ?? {});
    if (!parsed.success) log.warn({ stored }, 'malformed permissions setting: using the defaults');
    return parsed.success ? parsed.data : DEFAULT_PERMISSIONS;
  }

  return {
    /** The optional pages the console shows; a missing flag (or row) means true. */
    async permissions(): Promise<Permissions> {
      const at = now().getTime();
      if (cached && at >= cached.readAt && at - cached.readAt < PERMISSIONS_TTL_MS)
        return cached.permissions;
      const permissions = await read();
      cached = { permissions, readAt: at };
      return permissions;
    },
  };
}
