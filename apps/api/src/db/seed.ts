import { DEFAULT_PERMISSIONS } from '@tradehost/contracts';
import type pg from 'pg';
import { createDb } from './client.ts';
import { settings } from './schema/index.ts';

export const PERMISSIONS_KEY = 'permissions';

/** Rows every installation needs. Safe to run on every start: existing rows are kept. */
export async function seed(pool: pg.Pool): Promise<void> {
  const db = createDb(pool);
  await db
    .insert(settings)
    .values({ key: PERMISSIONS_KEY, value: DEFAULT_PERMISSIONS })
    .onConflictDoNothing();
}
