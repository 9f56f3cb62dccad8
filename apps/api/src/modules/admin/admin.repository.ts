import { count, desc, ilike, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containing } from '../../db/paging.ts';
import { users } from '../../db/schema/index.ts';

/** The operator area's reads (writes go through the ledger and balance repositories). */
export const adminRepository = {
  async users(db: Executor, query: string, limit: number, offset: number) {
    const pattern = containing(query);
    const where: SQL | undefined = query
      ? or(ilike(users.email, pattern), ilike(users.name, pattern))
      : undefined;
    const rows = await db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(limit)
      .offset(offset);
    const [total] = await db.select({ n: count() }).from(users).where(where);
    return { rows, total: total?.n ?? 0 };
  },
};
