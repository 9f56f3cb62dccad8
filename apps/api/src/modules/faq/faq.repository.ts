import { FAQ_GROUPS } from '@tradehost/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { faqItems, type FaqItemRow } from '../../db/schema/index.ts';

/** What an operator writes of a question (the id and the time are the database's). */
export type FaqItemValues = Omit<typeof faqItems.$inferInsert, 'id'>;

/** SPEC's group order (partners, support, monitoring, monitoring guide), not the alphabet's. */
const groupOrder = sql`array_position(array[${sql.join(
  FAQ_GROUPS.map((group) => sql`${group}`),
  sql`, `,
)}]::text[], ${faqItems.group})`;

/** SQL of the FAQ. */
export const faqRepository = {
  /** By group (SPEC's order), then position, then id; `publishedOnly` for the users' page. */
  async list(db: Executor, publishedOnly: boolean): Promise<FaqItemRow[]> {
    return db
      .select()
      .from(faqItems)
      .where(publishedOnly ? eq(faqItems.published, true) : undefined)
      .orderBy(groupOrder, asc(faqItems.position), asc(faqItems.id));
  },

  /** The row locked until the transaction ends (two edits of one question apply in turn). */
  async lock(db: Executor, id: number): Promise<FaqItemRow | undefined> {
    const [row] = await db.select().from(faqItems).where(eq(faqItems.id, id)).for('update');
    return row;
  },

  async insert(db: Executor, values: FaqItemValues): Promise<FaqItemRow> {
    const [row] = await db.insert(faqItems).values(values).returning();
    return row!;
  },

  async update(db: Executor, id: number, values: FaqItemValues): Promise<FaqItemRow | undefined> {
    const [row] = await db.update(faqItems).set(values).where(eq(faqItems.id, id)).returning();
    return row;
  },

  async remove(db: Executor, id: number): Promise<FaqItemRow | undefined> {
    const [row] = await db.delete(faqItems).where(eq(faqItems.id, id)).returning();
    return row;
  },
};
