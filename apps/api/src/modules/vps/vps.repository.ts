import {
  PUBLISHER_SILENT_AFTER_MS,
  type ServerOperationStatus,
  type ServerStatus,
  type TestRequestStatus,
  type UpgradeStatus,
} from '@tradehost/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import {
  charges,
  monitoringAccounts,
  promocodes,
  users,
  vpsOperations,
  vpsPeriodDiscounts,
  vpsRates,
  vpsServers,
  vpsTestRequests,
  vpsUpgrades,
} from '../../db/schema/index.ts';
import { containing, type Paging } from '../../db/paging.ts';
import { mappedOnce } from '../../db/prepared.ts';
import { publishesFrom } from '../../db/publishers.ts';

export type RateRow = typeof vpsRates.$inferSelect;
export type ServerRow = typeof vpsServers.$inferSelect;
export type NewServerRow = typeof vpsServers.$inferInsert;
export type UpgradeRow = typeof vpsUpgrades.$inferSelect;
export type TestRequestRow = typeof vpsTestRequests.$inferSelect;
export type PromocodeRow = typeof promocodes.$inferSelect;

const fromRate = alias(vpsRates, 'from_rate');
const toRate = alias(vpsRates, 'to_rate');
/** The server's (or request's) user, as the operator's lists join it. */
export const owner = alias(users, 'owner');

/** A user as the operator's lists show one: id, e-mail, name. */
export const personOf = <T extends { id: unknown; email: unknown; name: unknown }>(
  user: T,
): Pick<T, 'id' | 'email' | 'name'> => ({
  id: user.id,
  email: user.email,
  name: user.name,
});

/** Who is told about a server: the owner's address, name and language. */
export interface Owner {
  id: number;
  email: string;
  name: string;
  language: 'en' | 'ru';
}

/** A server with its rate and its owner, as the runner, the lifecycle and their mails need. */
export interface ServerContext {
  server: ServerRow;
  rate: RateRow;
  owner: Owner;
}

function serverContexts(db: Executor) {
  return db
    .select({
      server: vpsServers,
      rate: vpsRates,
      owner: { id: users.id, email: users.email, name: users.name, language: users.language },
    })
    .from(vpsServers)
    .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
    .innerJoin(users, eq(users.id, vpsServers.userId));
}

/** Test requests with their users (the operator's queue). */
function testRequestsWithUser(db: Executor) {
  return db
    .select({ request: vpsTestRequests, user: personOf(owner) })
    .from(vpsTestRequests)
    .innerJoin(owner, eq(owner.id, vpsTestRequests.userId));
}

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

/** An operation subquery's columns, as a server view selects them. */
const operationOf = <T extends Record<keyof typeof operationFields, unknown>>(
  op: T,
): Pick<T, keyof typeof operationFields> => ({
  id: op.id,
  kind: op.kind,
  status: op.status,
  createdAt: op.createdAt,
  startedAt: op.startedAt,
  finishedAt: op.finishedAt,
  error: op.error,
});

/** Every server column but the sealed password: a view never carries it. */
const { passwordEnc: _sealed, ...serverColumns } = getTableColumns(vpsServers);

/**
 * A server with everything its row in the list shows, in one statement: the rate, the operation
 * in progress (the partial unique index finds it), the last finished one (the (server_id, id)
 * index read backwards), the pending upgrade (its partial unique index) and the ping of the
 * terminals publishing from it that reported after `reportingSince` (the owner's accounts, by
 * their index), each a LATERAL subquery evaluated for the page's rows only.
 */
function serverViews(db: Executor, reportingSince: Placeholder | Date) {
  const operations = (statuses: ServerOperationStatus[]) =>
    db
      .select(operationFields)
      .from(vpsOperations)
      .where(
        and(
          sql`${vpsOperations.serverId} = ${vpsServers.id}`,
          inArray(vpsOperations.status, statuses),
        ),
      );
  const active = operations(['queued', 'running']).limit(1).as('active_op');
  const last = operations(['succeeded', 'failed'])
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
  // the highest ping: the terminal furthest from its broker is the one its owner worries about
  const terminals = db
    .select({
      pingMs: sql<number | null>`max(${monitoringAccounts.pingMs})`.as('ping_ms'),
      count: sql<number>`count(*)::int`.as('ping_terminals'),
    })
    .from(monitoringAccounts)
    .where(
      and(
        publishesFrom(),
        sql`${monitoringAccounts.lastDataAt} > ${reportingSince}`,
        sql`${monitoringAccounts.pingMs} is not null`,
      ),
    )
    .as('terminals');
  return db
    .select({
      server: serverColumns,
      hasPassword: sql<boolean>`${vpsServers.passwordEnc} is not null`,
      rate: vpsRates,
      operation: operationOf(active),
      lastOperation: operationOf(last),
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
      owner: personOf(owner),
      pingMs: terminals.pingMs,
      pingTerminals: terminals.count,
    })
    .from(vpsServers)
    .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
    .innerJoin(owner, eq(owner.id, vpsServers.userId))
    .leftJoinLateral(active, sql`true`)
    .leftJoinLateral(last, sql`true`)
    .leftJoinLateral(upgrade, sql`true`)
    .leftJoinLateral(terminals, sql`true`);
}

/** A terminal whose publisher sent nothing since this is not counted as running on its server. */
const reportingSince = (now: Date) => new Date(now.getTime() - PUBLISHER_SILENT_AFTER_MS);

export type ServerViewRow = Awaited<ReturnType<ReturnType<typeof serverViews>['execute']>>[number];

export interface ServerFilter {
  userId?: number;
  /** Digits: a prefix of the server's number. */
  search?: string | undefined;
  /** Text: a part of the owner's e-mail (operator). */
  email?: string | undefined;
  status?: ServerStatus | undefined;
}

/**
 * The filter's condition over placeholders (userId, status, digits, email), with their values:
 * the same filter shape is the same statement whatever the values (see preparedServerViews).
 */
function serverWhere(filter: ServerFilter): {
  shape: string;
  where: SQL | undefined;
  values: Record<string, unknown>;
} {
  const values: Record<string, unknown> = {};
  if (filter.userId !== undefined) values.userId = filter.userId;
  if (filter.status) values.status = filter.status;
  if (filter.search) values.digits = `${filter.search}%`;
  if (filter.email) values.email = containing(filter.email.toLowerCase());
  const idPrefix = filter.search
    ? sql`${vpsServers.id}::text like ${sql.placeholder('digits')}`
    : undefined;
  const email = filter.email
    ? sql`${vpsServers.userId} in (select ${users.id} from ${users} where ${users.email} ilike ${sql.placeholder('email')})`
    : undefined;
  const where = and(
    filter.userId !== undefined ? eq(vpsServers.userId, sql.placeholder('userId')) : undefined,
    filter.status ? eq(vpsServers.status, sql.placeholder('status')) : undefined,
    idPrefix && email ? sql`(${idPrefix} or ${email})` : (idPrefix ?? email),
  );
  return { shape: Object.keys(values).join(','), where, values };
}

function buildServerPage(db: Executor, where: SQL | undefined, name: string) {
  return {
    // the page's ids and how many match in all: the count a subquery run once (an index-only
    // count), where a window over the index kept every matching row to count them (2.5 x slower)
    ids: db
      .select({
        id: vpsServers.id,
        total: sql<number>`${db.select({ n: count() }).from(vpsServers).where(where)}`.mapWith(
          Number,
        ),
      })
      .from(vpsServers)
      .where(where)
      .orderBy(desc(vpsServers.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`vps_server_ids_${name}`),
    // then their rows: the LATERAL subqueries run for the page's rows only, and the statement has
    // no LIMIT parameter, so PostgreSQL keeps one generic plan instead of planning every call
    rows: mappedOnce(
      serverViews(db, sql.placeholder('reportingSince'))
        .where(sql`${vpsServers.id} = any(${sql.placeholder('ids')})`)
        .orderBy(desc(vpsServers.id))
        .prepare(`vps_server_page_${name}`),
    ),
    // past the last page there are no ids to count
    total: db
      .select({ n: count() })
      .from(vpsServers)
      .where(where)
      .prepare(`vps_server_count_${name}`),
  };
}

/**
 * The list's statements per filter shape (at most 16), built once per database or
 * transaction and run as named prepared statements: building the list's statement (four joins,
 * some forty columns) took more of the process's time than PostgreSQL took to run it.
 */
const serverPages = new WeakMap<Executor, Map<string, ReturnType<typeof buildServerPage>>>();
function preparedServerPage(db: Executor, shape: string, where: SQL | undefined) {
  let byShape = serverPages.get(db);
  if (!byShape) serverPages.set(db, (byShape = new Map()));
  let page = byShape.get(shape);
  if (!page) {
    page = buildServerPage(db, where, shape.replaceAll(',', '_') || 'all');
    byShape.set(shape, page);
  }
  return page;
}

/** SQL of the VPS rental: the catalogue, servers, upgrades, test requests. */
/** One line of a server's activity as the repository reads it (vps.service maps it). */
export interface ActivityRow {
  source: 'operation' | 'action';
  id: number;
  at: Date;
  /** An operation's kind, or an audit row's action ('vps.renew', ...). */
  kind: string;
  actorId: number | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  finishedAt: Date | null;
  /** An audit row's details (auto-renewal switched on or off). */
  details: Record<string, unknown>;
}

/** The owner's actions on a server besides its operations, as audit_log names them. */
export const ACTIVITY_ACTIONS = [
  'vps.renew',
  'vps.auto_renew',
  'vps.auto_renew_set',
  'vps.credentials_revealed',
  'vps.console_opened',
] as const;

export const vpsRepository = {
  /**
   * A page of a server's activity, newest first: its operations, and the audit rows of its
   * owner's other actions on it (found by the owner's index of audit_log, then the subject).
   */
  async activity(
    db: Executor,
    server: { id: number; userId: number },
    paging: Paging,
  ): Promise<{ rows: ActivityRow[]; total: number }> {
    const lines = sql`
      select 'operation' as source, id, created_at as at, kind, actor_id, status, finished_at,
             payload as details
        from vps_operations where server_id = ${server.id}
      union all
      select 'action', id, created_at, action, actor_id, 'succeeded', null, details
        from audit_log
       where target_user_id = ${server.userId} and subject_type = 'vps_server'
         and subject_id = ${String(server.id)}
         and action in (${sql.join(
           ACTIVITY_ACTIONS.map((action) => sql`${action}`),
           sql`, `,
         )})`;
    const { rows } = await db.execute<{
      source: ActivityRow['source'];
      id: string;
      at: string | Date;
      kind: string;
      actor_id: string | null;
      status: ActivityRow['status'];
      finished_at: string | Date | null;
      details: Record<string, unknown>;
      total: string;
    }>(sql`
      select *, count(*) over () as total
        from (${lines}) as line
       order by at desc, source, id desc
       limit ${paging.limit} offset ${paging.offset}`);
    const total = rows[0]
      ? Number(rows[0].total)
      : Number(
          (await db.execute<{ n: string }>(sql`select count(*) as n from (${lines}) as line`))
            .rows[0]!.n,
        );
    return {
      total,
      rows: rows.map((row) => ({
        source: row.source,
        id: Number(row.id),
        at: new Date(row.at),
        kind: row.kind,
        actorId: row.actor_id === null ? null : Number(row.actor_id),
        status: row.status,
        finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
        details: row.details,
      })),
    };
  },

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

  /** Whether the user had paid for anything before the charge `exceptChargeId`. */
  async hasPaidBefore(db: Executor, userId: number, exceptChargeId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: charges.id })
      .from(charges)
      .where(and(eq(charges.userId, userId), sql`${charges.id} <> ${exceptChargeId}`))
      .limit(1);
    return row !== undefined;
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

  async serverRow(db: Executor, id: number): Promise<ServerRow | undefined> {
    const [row] = await db.select().from(vpsServers).where(eq(vpsServers.id, id));
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

  /** Blocked -> Active (a renewal in time); false when it is not Blocked (any more). */
  async unblockServer(db: Executor, id: number): Promise<boolean> {
    const rows = await db
      .update(vpsServers)
      .set({ status: 'active', blockedAt: null })
      .where(and(eq(vpsServers.id, id), eq(vpsServers.status, 'blocked')))
      .returning({ id: vpsServers.id });
    return rows.length > 0;
  },

  /** The server with its rate and its owner. */
  async serverContext(db: Executor, id: number): Promise<ServerContext | undefined> {
    const [row] = await serverContexts(db).where(eq(vpsServers.id, id));
    return row;
  },

  /**
   * The server with its rate and owner, locked for a lifecycle step if it still matches `where`
   * and no other tick holds it (SKIP LOCKED: the other tick is doing this step).
   */
  async lockDueServer(db: Executor, id: number, where: SQL): Promise<ServerContext | undefined> {
    const [row] = await serverContexts(db)
      .where(and(eq(vpsServers.id, id), where))
      .for('update', { of: vpsServers, skipLocked: true });
    return row;
  },

  /** One server as the list shows it at `now`. */
  async serverView(db: Executor, id: number, now: Date): Promise<ServerViewRow | undefined> {
    const [row] = await serverViews(db, reportingSince(now)).where(eq(vpsServers.id, id));
    return row;
  },

  /** A page of servers as at `now`, newest first: its ids with the count, then their rows. */
  async serverViews(db: Executor, filter: ServerFilter, paging: Paging, now: Date) {
    const { shape, where, values } = serverWhere(filter);
    const page = preparedServerPage(db, shape, where);
    const ids = await page.ids.execute({ ...values, ...paging });
    if (ids.length === 0) {
      const [total] = await page.total.execute(values);
      return { rows: [], total: total?.n ?? 0 };
    }
    const rows = await page.rows.execute({
      ids: ids.map((row) => row.id),
      reportingSince: reportingSince(now),
    });
    return { rows, total: ids[0]!.total };
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

  async upgrade(db: Executor, id: number): Promise<UpgradeRow | undefined> {
    const [row] = await db.select().from(vpsUpgrades).where(eq(vpsUpgrades.id, id));
    return row;
  },

  /** The server's pending upgrade decided (once): undefined when it is not pending (any more). */
  async decideUpgrade(
    db: Executor,
    id: number,
    serverId: number,
    status: Extract<UpgradeStatus, 'done' | 'failed'>,
    at: Date,
  ): Promise<UpgradeRow | undefined> {
    const [row] = await db
      .update(vpsUpgrades)
      .set({ status, finishedAt: at })
      .where(
        and(
          eq(vpsUpgrades.id, id),
          eq(vpsUpgrades.serverId, serverId),
          eq(vpsUpgrades.status, 'pending'),
        ),
      )
      .returning();
    return row;
  },

  // ---- charges ----------------------------------------------------------------------------

  /** What a charge took (and its refund gave back). */
  async chargeCents(db: Executor, chargeId: number): Promise<number | null> {
    const [row] = await db
      .select({ amountCents: charges.amountCents })
      .from(charges)
      .where(eq(charges.id, chargeId));
    return row?.amountCents ?? null;
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
    const rows = await testRequestsWithUser(db)
      .where(where)
      // the queue is served oldest first
      .orderBy(asc(vpsTestRequests.createdAt), asc(vpsTestRequests.id))
      .limit(paging.limit)
      .offset(paging.offset);
    const [total] = await db.select({ n: count() }).from(vpsTestRequests).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async testRequestWithUser(db: Executor, id: number) {
    const [row] = await testRequestsWithUser(db).where(eq(vpsTestRequests.id, id));
    return row;
  },
};
