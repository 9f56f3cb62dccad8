/** Rows per statement of a cleanup that works in batches. */
export const BATCH = 1000;

/**
 * Runs `step` (one statement over at most `limit` rows, returning how many it changed) until a
 * batch comes back short; the total.
 */
export async function inBatches(
  step: (limit: number) => Promise<number>,
  limit = BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await step(limit);
    total += done;
    if (done < limit) return total;
  }
}
