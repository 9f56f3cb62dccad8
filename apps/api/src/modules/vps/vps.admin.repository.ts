import type { ServerOperationStatus } from '@tradehost/contracts';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  promocodes,
  users,
  vpsOperations,
  vpsPeriodDiscounts,
  vpsRates,
  vpsServers,
} from '../../db/schema/index.ts';
import type { Paging } from '../../db/paging.ts';
import { owner, personOf } from './vps.repository.ts';

const actor = alias(users, 'actor');
const partner = alias(users, 'partner');

export type OperationStatusFilter = ServerOperationStatus | 'stuck';

/** An operation waiting or running since before `cutoff`. */
const stuckSince = (cutoff: Date): SQL =>
  and(
    inArray(vpsOperations.status, ['queued', 'running']),
    sql`coalesce(${vpsOperations.startedAt}, ${vpsOperations.createdAt}) < ${cutoff.toISOString()}::timestamptz`,
  )!;

/**
 * The servers living on a rate (not failed, not revoked). Written out qualified: drizzle leaves
 * the columns of a one-table select unqualified, and inside this subquery "id" would be the
 * server's.
 */
const liveServers = sql<number>`(select count(*)::int from vps_servers s
  where s.rate_id = "vps_rates"."id" and s.status in ('provisioning', 'active', 'blocked'))`;

/** Rates with the number of servers that live on them. */
const ratesWithServers = (db: Executor) =>
  db.select({ rate: vpsRates, servers: liveServers }).from(vpsRates);

/** Promocodes with their partner, if any. */
const promocodesWithOwner = (db: Executor) =>
  db
    .select({ promocode: promocodes, owner: personOf(partner) })
    .from(promocodes)
    .leftJoin(partner, eq(partner.id, promocodes.ownerUserId));

/** The operator's VPS reads and writes: the catalogue, promocodes and the operations log. */
export const adminVpsRepository = {
  /** Every rate, with the number of servers that live on it (not failed, not revoked). */
  async rates(db: Executor) {
    return ratesWithServers(db).orderBy(asc(vpsRates.sort), asc(vpsRates.id));
  },

  async rateWithServers(db: Executor, id: number) {
    const [row] = await ratesWithServers(db).where(eq(vpsRates.id, id));
    return row;
  },

  async insertRate(db: Executor, values: typeof vpsRates.$inferInsert) {
    const [row] = await db
      .insert(vpsRates)
      .values({
        ...values,
        // a new rate goes after the others unless told otherwise
        sort: sql`(select coalesce(max(${vpsRates.sort}), 0) + 10 from ${vpsRates})`,
      })
      .returning();
    if (!row) throw new Error('insert into vps_rates returned no row');
    return row;
  },

  async lockRate(db: Executor, id: number) {
    const [row] = await db.select().from(vpsRates).where(eq(vpsRates.id, id)).for('update');
    return row;
  },

  async updateRate(db: Executor, id: number, values: Partial<typeof vpsRates.$inferInsert>) {
    const [row] = await db.update(vpsRates).set(values).where(eq(vpsRates.id, id)).returning();
    return row;
  },

  async upsertDiscount(db: Executor, months: number, discountPercent: number) {
    await db
      .insert(vpsPeriodDiscounts)
      .values({ months, discountPercent })
      .onConflictDoUpdate({ target: vpsPeriodDiscounts.months, set: { discountPercent } });
  },

  // ---- promocodes -------------------------------------------------------------------------

  async promocodesPage(db: Executor, paging: Paging) {
    const rows = await promocodesWithOwner(db)
      .orderBy(desc(promocodes.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(promocodes);
    return { rows, total: total?.n ?? 0 };
  },

  async promocodeWithOwner(db: Executor, id: number) {
    const [row] = await promocodesWithOwner(db).where(eq(promocodes.id, id));
    return row;
  },

  async insertPromocode(db: Executor, values: typeof promocodes.$inferInsert) {
    const [row] = await db.insert(promocodes).values(values).returning();
    if (!row) throw new Error('insert into promocodes returned no row');
    return row;
  },

  async updatePromocode(db: Executor, id: number, values: { active: boolean }) {
    const [row] = await db.update(promocodes).set(values).where(eq(promocodes.id, id)).returning();
    return row;
  },

  // ---- operations -------------------------------------------------------------------------

  /** Operations newest first; `stuck`: queued or running since before `stuckCutoff`. */
  async operationsPage(
    db: Executor,
    filter: { status?: OperationStatusFilter | undefined; serverId?: number | undefined },
    stuckCutoff: Date,
    paging: Paging,
  ) {
    const where = and(
      filter.status === 'stuck'
        ? stuckSince(stuckCutoff)
        : filter.status
          ? eq(vpsOperations.status, filter.status)
          : undefined,
      filter.serverId !== undefined ? eq(vpsOperations.serverId, filter.serverId) : undefined,
    );
    const rows = await operationsWithPeople(db, stuckCutoff)
      .where(where)
      .orderBy(desc(vpsOperations.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(vpsOperations).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async operationWithPeople(db: Executor, id: number, stuckCutoff: Date) {
    const [row] = await operationsWithPeople(db, stuckCutoff).where(eq(vpsOperations.id, id));
    return row;
  },

  async lockOperation(db: Executor, id: number) {
    const [row] = await db
      .select()
      .from(vpsOperations)
      .where(eq(vpsOperations.id, id))
      .for('update');
    return row;
  },

  async updateOperation(
    db: Executor,
    id: number,
    values: Partial<typeof vpsOperations.$inferInsert>,
  ) {
    const [row] = await db
      .update(vpsOperations)
      .set(values)
      .where(eq(vpsOperations.id, id))
      .returning();
    if (!row) throw new Error(`operation ${id} vanished`);
    return row;
  },
};

function operationsWithPeople(db: Executor, stuckCutoff: Date) {
  return db
    .select({
      operation: vpsOperations,
      userId: vpsServers.userId,
      user: personOf(owner),
      actor: personOf(actor),
      stuck: sql<boolean>`${stuckSince(stuckCutoff)}`,
    })
    .from(vpsOperations)
    .innerJoin(vpsServers, eq(vpsServers.id, vpsOperations.serverId))
    .innerJoin(owner, eq(owner.id, vpsServers.userId))
    .leftJoin(actor, eq(actor.id, vpsOperations.actorId));
}
