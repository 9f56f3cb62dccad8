import type { Config } from '../config.ts';
import { createDb } from '../db/client.ts';
import { resealAll, type ResealCounts } from '../db/sealed.ts';
import { openCliDatabase } from './database.ts';

/** One line per sealed column: what a reseal found and did. */
export function resealReport(counts: ResealCounts[]): string[] {
  return counts.map(
    (c) =>
      `${c.table}.${c.column}: ${c.sealed} sealed, ${c.resealed} resealed, ` +
      `${c.sealed - c.resealed - c.unopenable} already under the current key, ${c.unopenable} unopenable`,
  );
}

/**
 * `npm run admin -- reseal`: every sealed value (db/sealed.ts) under the current keys, in
 * batches, each a transaction; run it again at will (what is current is left alone). After a
 * rotation (VPS_SECRET_KEY with VPS_SECRET_KEY_PREVIOUS set), once it reports no unopenable
 * value, the previous key can go. 1 when some value did not open (each is named), else 0.
 */
export async function reseal(config: Config): Promise<number> {
  const database = await openCliDatabase(config);
  try {
    const counts = await resealAll(createDb(database.pool), config);
    for (const line of resealReport(counts)) console.log(line);
    const unopenable = counts.reduce((sum, c) => sum + c.unopenable, 0);
    if (unopenable > 0) {
      console.error(
        `${unopenable} sealed values did not open under the current or previous keys (named above): ` +
          'keep the previous key set until they are dealt with.',
      );
      return 1;
    }
    return 0;
  } finally {
    await database.close();
  }
}
