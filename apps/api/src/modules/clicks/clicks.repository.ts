import type { Executor } from '../../db/client.ts';
import { referralClicks } from '../../db/schema/index.ts';

export const clicksRepository = {
  async insert(
    db: Executor,
    values: { partnerId: number; createdAt: Date; ip: string | null; userAgent: string | null },
  ) {
    await db.insert(referralClicks).values(values);
  },
};
