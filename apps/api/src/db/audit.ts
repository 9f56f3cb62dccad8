import { count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';
import { auditLog, users } from './schema/index.ts';

const actor = alias(users, 'actor');
const target = alias(users, 'target');

/** The audit log: written in the transaction of the action it records, never changed. */
export const auditRepository = {
  async insert(db: Executor, values: typeof auditLog.$inferInsert): Promise<void> {
    await db.insert(auditLog).values(values);
  },

  async page(db: Executor, limit: number, offset: number) {
    const rows = await db
      .select({
        entry: auditLog,
        actor: { id: actor.id, email: actor.email, name: actor.name },
        target: { id: target.id, email: target.email, name: target.name },
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .leftJoin(target, eq(target.id, auditLog.targetUserId))
      .orderBy(desc(auditLog.id))
      .limit(limit)
      .offset(offset);
    const [total] = await db.select({ n: count() }).from(auditLog);
    return { rows, total: total?.n ?? 0 };
  },
};
