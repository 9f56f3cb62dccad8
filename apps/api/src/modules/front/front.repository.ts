import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

export const frontRepository = {
  async getSetting(db: Executor, key: string): Promise<unknown> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, key));
    return row?.value;
  },
};
