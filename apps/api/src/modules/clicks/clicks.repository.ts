import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

export const clicksRepository = {
  /** One visit; the same visitor again that day adds nothing. Whether it was counted. */
  async insert(
    db: Executor,
    values: { partnerId: number; day: string; visitor: string; createdAt: Date },
  ): Promise<boolean> {
    const result = await db.execute(sql`
      insert into partner_clicks (partner_id, day, visitor, created_at)
      values (${values.partnerId}, ${values.day}, ${values.visitor}, ${values.createdAt})
      on conflict do nothing`);
    return result.rowCount === 1;
  },
};
