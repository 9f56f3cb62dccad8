import { DEFAULT_PERMISSIONS, permissionsSchema, type Permissions } from '@tradehost/contracts';
import { PERMISSIONS_KEY } from '../../db/seed.ts';
import type { ServiceDeps } from '../deps.ts';
import { frontRepository } from './front.repository.ts';

export type FrontService = ReturnType<typeof createFrontService>;

export function createFrontService({ db, log }: Pick<ServiceDeps, 'db' | 'log'>) {
  return {
    /** The optional pages the console shows; a missing flag (or row) means true. */
    async permissions(): Promise<Permissions> {
      const stored = await frontRepository.getSetting(db, PERMISSIONS_KEY);
      const parsed = permissionsSchema.safeParse(stored ?? {});
      if (!parsed.success)
        log.warn({ stored }, 'malformed permissions setting: using the defaults');
      return parsed.success ? parsed.data : DEFAULT_PERMISSIONS;
    },
  };
}
