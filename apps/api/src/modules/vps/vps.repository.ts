import type { ServerStatus, TestRequestStatus } from '@tradehost/contracts';
import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  promocodes,
  users,
  vpsOperations,
  vpsPeriodDiscounts,
  vpsRates,
  vpsServers,
  vpsTestRequests,
  vpsUpgrades,
} from '../../db/schema/index.ts';
import type { Paging } from '../balance/balance.repository.ts';

export type RateRow = typeof vpsRates.$inferSelect;
export type ServerRow = typeof vpsServers.$inferSelect;
export type NewServerRow = typeof vpsServers.$inferInsert;
export type UpgradeRow = typeof vpsUpgrades.$inferSelect;
export type TestRequestRow = typeof vpsTestRequests.$inferSelect;
export type PromocodeRow = typeof promocodes.$inferSelect;

const fromRate = alias(vpsRates, 'from_rate');
const toRate = alias(vpsRates, 'to_rate');
const owner = alias(users, 'owner');

/** The operation columns a server view shows. */
const operationFields = {
  id: vpsOperations.id,
  kind: vpsOperations.kind,
  status: vpsOperations.status,
  createdAt: vpsOperations.createdAt,
  startedAt: vpsOperations.startedAt,
  finishedAt: vpsOperations.finishedAt,
  error: vpsOperations.error,
};

/** Every server column but the sealed password: a view never carries it. */
const { passwordEnc: _sealed, ...serverColumns } = getTableColumns(vpsServers);

/**
 * A server with everything its row in the list shows, in one statement: the rate, the operation
 * in progress (the partial unique index finds it), the last finished one (the (server_id, id)
 * index read backwards) and the pending upgrade (its partial unique index), each a LATERAL
 * subquery evaluated for the page's rows only.
 */
function serverViews(db: Executor) {
  const active = db
    .select(operationFields)
    .from(vpsOperations)
    .where(
      and(
        sql`${vpsOperations.serverId} = ${vpsServers.id}`,
        inArray(vpsOperations.status, ['queued', 'running']),
      ),
    )
    .limit(1)
    .as('active_op');
  const last = db
    .select(operationFields)
    .from(vpsOperations)
    .where(
      and(
        sql`${vpsOperations.serverId} = ${vpsServers.id}`,
        inArray(vpsOperations.status, ['succeeded', 'failed']),
      ),
    )
    .orderBy(desc(vpsOperations.id))
    .limit(1)
    .as('last_op');
  const upgrade = db
    .select({
      id: vpsUpgrades.id,
      createdAt: vpsUpgrades.createdAt,
      fromRate: sql<string>`${fromRate.name}`.as('from_rate_name'),
      toRate: sql<string>`${toRate.name}`.as('to_rate_name'),
      toRateId: vpsUpgrades.toRateId,
      scheduledFor: vpsUpgrades.scheduledFor,
      priceCents: vpsUpgrades.priceCents,
      status: vpsUpgrades.status,
    })
    .from(vpsUpgrades)
    .innerJoin(fromRate, eq(fromRate.id, vpsUpgrades.fromRateId))
    .innerJoin(toRate, eq(toRate.id, vpsUpgrades.toRateId))
    .where(and(sql`${vpsUpgrades.serverId} = ${vpsServers.id}`, eq(vpsUpgrades.status, 'pending')))
    .limit(1)
    .as('pending_upgrade');
  return db
    .select({
      server: serverColumns,
      hasPassword: sql<boolean>`${vpsServers.passwordEnc} is not null`,
      rate: vpsRates,
      operation: {
        id: active.id,
        kind: active.kind,
        status: active.status,
        createdAt: active.createdAt,
        startedAt: active.startedAt,
        finishedAt: active.finishedAt,
        error: active.error,
      },
      lastOperation: {
        id: last.id,
        kind: last.kind,
        status: last.status,
        createdAt: last.createdAt,
        startedAt: last.startedAt,
        finishedAt: last.finishedAt,
        error: last.error,
      },
      upgrade: {
        id: upgrade.id,
        createdAt: upgrade.createdAt,
        fromRate: upgrade.fromRate,
        toRate: upgrade.toRate,
        toRateId: upgrade.toRateId,
        scheduledFor: upgrade.scheduledFor,
        priceCents: upgrade.priceCents,
        status: upgrade.status,
      },
      owner: { id: owner.id, email: owner.email, name: owner.name },
    })
    .from(vpsServers)
    .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
    .innerJoin(owner, eq(owner.id, vpsServers.userId))
    .leftJoinLateral(active, sql`true`)
    .leftJoinLateral(last, sql`true`)
    .leftJoinLateral(upgrade, sql`true`);
}

export type ServerViewRow = Awaited<ReturnType<ReturnType<typeof serverViews>['execute']>>[number];

export interface ServerFilter {
  userId?: number;
  /** Digits: a prefix of the server's number. */
  search?: string | undefined;
  /** Text: a part of the owner's e-mail (operator). */
  email?: string | undefined;
  status?: ServerStatus | undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function serverWhere(filter: ServerFilter): SQL | undefined {
  const digits = filter.search ?? '';
  const idPrefix = digits ? sql`${vpsServers.id}::text like ${`${digits}%`}` : undefined;
  const email = filter.email
    ? sql`${vpsServers.userId} in (select ${users.id} from ${users} where ${users.email} ilike ${`%${escapeLike(filter.email.toLowerCase())}%`})`
    : undefined;
  return and(
    filter.userId !== undefined ? eq(vpsServers.userId, filter.userId) : undefined,
    filter.status ? eq(vpsServers.status, filter.status) : undefined,
    idPrefix && email ? sql`(${idPrefix} or ${email})` : (idPrefix ?? email),
  );
}

/** SQL of the VPS rental: the catalogue, servers, upgrades, test requests. */
export const vpsRepository = {
  // ---- catalogue --------------------------------------------------------------------------

  async activeRates(db: Executor): Promise<RateRow[]> {
    return db
      .select()
      .from(vpsRates)
      .where(eq(vpsRates.active, true))
      .orderBy(asc(vpsRates.sort), asc(vpsRates.id));
  },

  async rate(db: Executor, id: number): Promise<RateRow | undefined> {
    const [row] = await db.select().from(vpsRates).where(eq(vpsRates.id, id));
    return row;
  },

  /** The cheapest active rate (a test server's). */
  async cheapestRate(db: Executor): Promise<RateRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsRates)
      .where(eq(vpsRates.active, true))
      .orderBy(asc(vpsRates.monthlyPriceCents), asc(vpsRates.sort), asc(vpsRates.id))
      .limit(1);
    return row;
  },

  async periods(db: Executor): Promise<{ months: number; discountPercent: number }[]> {
    return db.select().from(vpsPeriodDiscounts).orderBy(asc(vpsPeriodDiscounts.months));
  },

  async periodDiscount(db: Executor, months: number): Promise<number> {
    const [row] = await db
      .select()
      .from(vpsPeriodDiscounts)
      .where(eq(vpsPeriodDiscounts.months, months));
    return row?.discountPercent ?? 0;
  },

  /** An active promocode, whatever the case it is typed in. */
  async activePromocode(db: Executor, code: string): Promise<PromocodeRow | undefined> {
    const [row] = await db
      .select()
      .from(promocodes)
      .where(and(sql`upper(${promocodes.code}) = upper(${code})`, eq(promocodes.active, true)));
    return row;
  },

  /** One more use, counted in the order's transaction; false when it went inactive meanwhile. */
  async usePromocode(db: Executor, id: number): Promise<boolean> {
    const rows = await db
      .update(promocodes)
      .set({ timesUsed: sql`${promocodes.timesUsed} + 1` })
      .where(and(eq(promocodes.id, id), eq(promocodes.active, true)))
      .returning({ id: promocodes.id });
    return rows.length > 0;
  },

  // ---- servers ----------------------------------------------------------------------------

  /** A server number taken before its charge, so the charge's description can name it. */
  async nextServerId(db: Executor): Promise<number> {
    const result = await db.execute<{ id: string }>(
      sql`select nextval(pg_get_serial_sequence('vps_servers', 'id')) as id`,
    );
    return Number(result.rows[0]!.id);
  },

  async insertServer(db: Executor, values: NewServerRow): Promise<ServerRow> {
    const [row] = await db.insert(vpsServers).values(values).returning();
    if (!row) throw new Error('insert into vps_servers returned no row');
    return row;
  },

  /** The user's server (any user's when userId is null), locked for this transaction. */
  async lockServer(
    db: Executor,
    id: number,
    userId: number | null,
  ): Promise<ServerRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsServers)
      .where(
        and(eq(vpsServers.id, id), userId === null ? undefined : eq(vpsServers.userId, userId)),
      )
      .for('update');
    return row;
  },

  async findServer(db: Executor, id: number, userId: number): Promise<ServerRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsServers)
      .where(and(eq(vpsServers.id, id), eq(vpsServers.userId, userId)));
    return row;
  },

  async updateServer(db: Executor, id: number, values: Partial<NewServerRow>): Promise<ServerRow> {
    const [row] = await db.update(vpsServers).set(values).where(eq(vpsServers.id, id)).returning();
    if (!row) throw new Error(`server ${id} vanished`);
    return row;
  },

  /** One server as the list shows it. */
  async serverView(db: Executor, id: number): Promise<ServerViewRow | undefined> {
    const [row] = await serverViews(db).where(eq(vpsServers.id, id));
    return row;
  },

  /** A page of servers, newest first, in one statement (and one to count them). */
  async serverViews(db: Executor, filter: ServerFilter, paging: Paging) {
    const where = serverWhere(filter);
    const rows = await serverViews(db)
      .where(where)
      .orderBy(desc(vpsServers.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(vpsServers).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /** The server's queued or running operation, if any. */
  async activeOperation(db: Executor, serverId: number) {
    const [row] = await db
      .select({ id: vpsOperations.id, kind: vpsOperations.kind })
      .from(vpsOperations)
      .where(
        and(
          eq(vpsOperations.serverId, serverId),
          inArray(vpsOperations.status, ['queued', 'running']),
        ),
      );
    return row;
  },

  // ---- upgrades ---------------------------------------------------------------------------

  async pendingUpgrade(db: Executor, serverId: number): Promise<UpgradeRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsUpgrades)
      .where(and(eq(vpsUpgrades.serverId, serverId), eq(vpsUpgrades.status, 'pending')));
    return row;
  },

  async insertUpgrade(db: Executor, values: typeof vpsUpgrades.$inferInsert): Promise<UpgradeRow> {
    const [row] = await db.insert(vpsUpgrades).values(values).returning();
    if (!row) throw new Error('insert into vps_upgrades returned no row');
    return row;
  },

  async updateUpgrade(
    db: Executor,
    id: number,
    values: Partial<typeof vpsUpgrades.$inferInsert>,
  ): Promise<UpgradeRow> {
    const [row] = await db
      .update(vpsUpgrades)
      .set(values)
      .where(eq(vpsUpgrades.id, id))
      .returning();
    if (!row) throw new Error(`upgrade ${id} vanished`);
    return row;
  },

  // ---- test servers -----------------------------------------------------------------------

  async testRequestOf(db: Executor, userId: number): Promise<TestRequestRow | undefined> {
    const [row] = await db.select().from(vpsTestRequests).where(eq(vpsTestRequests.userId, userId));
    return row;
  },

  async insertTestRequest(
    db: Executor,
    values: typeof vpsTestRequests.$inferInsert,
  ): Promise<TestRequestRow> {
    const [row] = await db.insert(vpsTestRequests).values(values).returning();
    if (!row) throw new Error('insert into vps_test_requests returned no row');
    return row;
  },

  async lockTestRequest(db: Executor, id: number): Promise<TestRequestRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsTestRequests)
      .where(eq(vpsTestRequests.id, id))
      .for('update');
    return row;
  },

  async updateTestRequest(
    db: Executor,
    id: number,
    values: Partial<typeof vpsTestRequests.$inferInsert>,
  ): Promise<TestRequestRow> {
    const [row] = await db
      .update(vpsTestRequests)
      .set(values)
      .where(eq(vpsTestRequests.id, id))
      .returning();
    if (!row) throw new Error(`test request ${id} vanished`);
    return row;
  },

  async testRequestsPage(db: Executor, status: TestRequestStatus, paging: Paging) {
    const where = eq(vpsTestRequests.status, status);
    const rows = await db
      .select({
        request: vpsTestRequests,
        user: { id: owner.id, email: owner.email, name: owner.name },
      })
      .from(vpsTestRequests)
      .innerJoin(owner, eq(owner.id, vpsTestRequests.userId))
      .where(where)
      // the queue is served oldest first
      .orderBy(asc(vpsTestRequests.createdAt), asc(vpsTestRequests.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(vpsTestRequests).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async testRequestWithUser(db: Executor, id: number) {
    const [row] = await db
      .select({
        request: vpsTestRequests,
        user: { id: owner.id, email: owner.email, name: owner.name },
      })
      .from(vpsTestRequests)
      .innerJoin(owner, eq(owner.id, vpsTestRequests.userId))
      .where(eq(vpsTestRequests.id, id));
    return row;
  },
};
