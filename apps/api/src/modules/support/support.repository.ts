import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { holdsRole } from '../../db/operators.ts';
import { containing, type Paging } from '../../db/paging.ts';
import {
  supportAttachments,
  supportCannedReplies,
  supportDepartmentOperators,
  supportDepartments,
  supportMessages,
  supportTickets,
  users,
  type SupportTicketRow,
  type TicketStatus,
} from '../../db/schema/index.ts';

/** The support tickets' SQL: departments, tickets and their threads, attachments, canned replies. */

export type StatusFilter = 'open' | TicketStatus;

const assignee = alias(users, 'assignee');
const author = alias(users, 'author');

const personOf = <T extends { id: unknown; email: unknown; name: unknown }>(
  table: T,
): Pick<T, 'id' | 'email' | 'name'> => ({ id: table.id, email: table.email, name: table.name });

const statusIs = (status: StatusFilter | undefined): SQL | undefined => {
  if (status === undefined) return undefined;
  return status === 'open'
    ? ne(supportTickets.status, 'closed')
    : eq(supportTickets.status, status);
};

/** The staff wrote or changed the status since the owner last opened the ticket. */
const unread = sql<boolean>`coalesce(${supportTickets.staffUpdatedAt} > coalesce(${supportTickets.userReadAt}, '-infinity'::timestamptz), false)`;

const withUnread = { ticket: supportTickets, unread };

/** A ticket as the help desk lists it: with its user, the user's language and the assignee. */
const adminTicketColumns = {
  ticket: supportTickets,
  unread,
  user: personOf(users),
  userLanguage: users.language,
  assignee: personOf(assignee),
};

export interface AdminTicketFilter {
  departmentId?: number | undefined;
  status?: StatusFilter | undefined;
  /** Only those of this operator; null: only the unassigned ones. */
  assigneeId?: number | null | undefined;
  search?: string | undefined;
}

/** A ticket number (`#12` only that one), or part of the title or of the user's e-mail. */
function searchWhere(search: string): SQL | undefined {
  const number = /^#?(\d{1,19})$/.exec(search);
  const byNumber = number ? sql`${supportTickets.id}::text = ${number[1]}` : undefined;
  if (search.startsWith('#')) return byNumber ?? sql`false`;
  return or(
    byNumber,
    sql`${supportTickets.title} ilike ${containing(search)}`,
    sql`${users.email} ilike ${containing(search)}`,
  );
}

function adminWhere(filter: AdminTicketFilter): SQL | undefined {
  return and(
    filter.departmentId === undefined
      ? undefined
      : eq(supportTickets.departmentId, filter.departmentId),
    statusIs(filter.status),
    filter.assigneeId === undefined
      ? undefined
      : filter.assigneeId === null
        ? isNull(supportTickets.assigneeId)
        : eq(supportTickets.assigneeId, filter.assigneeId),
    filter.search ? searchWhere(filter.search) : undefined,
  );
}

export const supportRepository = {
  // ---- departments -----------------------------------------------------------------------

  async departments(db: Executor, activeOnly: boolean) {
    return db
      .select()
      .from(supportDepartments)
      .where(activeOnly ? eq(supportDepartments.active, true) : undefined)
      .orderBy(asc(supportDepartments.position), asc(supportDepartments.id));
  },

  async department(db: Executor, id: number) {
    const [row] = await db.select().from(supportDepartments).where(eq(supportDepartments.id, id));
    return row;
  },

  async insertDepartment(db: Executor, values: typeof supportDepartments.$inferInsert) {
    const [row] = await db.insert(supportDepartments).values(values).returning();
    return row!;
  },

  async updateDepartment(
    db: Executor,
    id: number,
    values: Partial<typeof supportDepartments.$inferInsert>,
  ) {
    const [row] = await db
      .update(supportDepartments)
      .set(values)
      .where(eq(supportDepartments.id, id))
      .returning();
    return row;
  },

  /** Every department's listed operators (whose mail it is), by name. */
  async departmentOperators(db: Executor, departmentIds?: number[]) {
    return db
      .select({ departmentId: supportDepartmentOperators.departmentId, person: personOf(users) })
      .from(supportDepartmentOperators)
      .innerJoin(users, eq(users.id, supportDepartmentOperators.userId))
      .where(
        departmentIds ? inArray(supportDepartmentOperators.departmentId, departmentIds) : undefined,
      )
      .orderBy(asc(users.name), asc(users.id));
  },

  async replaceDepartmentOperators(db: Executor, departmentId: number, userIds: number[]) {
    await db
      .delete(supportDepartmentOperators)
      .where(eq(supportDepartmentOperators.departmentId, departmentId));
    if (userIds.length > 0)
      await db
        .insert(supportDepartmentOperators)
        .values(userIds.map((userId) => ({ departmentId, userId })));
  },

  /** Which of `ids` are operators of the help desk (role support, or admin). */
  async helpDeskIdsAmong(db: Executor, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), holdsRole(users.id, ['support'])));
    return rows.map((row) => row.id);
  },

  /** Who a letter goes to: address, language and name. */
  async recipient(db: Executor, userId: number) {
    const [row] = await db
      .select({ id: users.id, email: users.email, language: users.language, name: users.name })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  },

  /**
   * The department's listed operators who are still operators of the help desk (role support, or
   * admin); none listed: every one of them.
   */
  async operatorsOf(db: Executor, departmentId: number) {
    const columns = {
      id: users.id,
      email: users.email,
      language: users.language,
      name: users.name,
    };
    const listed = await db
      .select(columns)
      .from(supportDepartmentOperators)
      .innerJoin(users, eq(users.id, supportDepartmentOperators.userId))
      .where(
        and(
          eq(supportDepartmentOperators.departmentId, departmentId),
          holdsRole(users.id, ['support']),
        ),
      );
    if (listed.length > 0) return listed;
    return db
      .select(columns)
      .from(users)
      .where(holdsRole(users.id, ['support']));
  },

  // ---- tickets --------------------------------------------------------------------------

  /** A user's tickets, newest activity first. */
  async userTickets(
    db: Executor,
    userId: number,
    filter: { status?: StatusFilter | undefined; departmentId?: number | undefined },
    paging: Paging,
  ) {
    const where = and(
      eq(supportTickets.userId, userId),
      statusIs(filter.status),
      filter.departmentId === undefined
        ? undefined
        : eq(supportTickets.departmentId, filter.departmentId),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(withUnread)
        .from(supportTickets)
        .where(where)
        .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
        .limit(paging.limit)
        .offset(paging.offset),
      db.select({ n: count() }).from(supportTickets).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async unreadCount(db: Executor, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(supportTickets)
      .where(and(eq(supportTickets.userId, userId), unread));
    return row?.n ?? 0;
  },

  async ticket(db: Executor, id: number): Promise<SupportTicketRow | undefined> {
    const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, id));
    return row;
  },

  /** The ticket locked for a change until the transaction ends. */
  async lockTicket(db: Executor, id: number): Promise<SupportTicketRow | undefined> {
    const [row] = await db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.id, id))
      .for('update');
    return row;
  },

  /** The user's open ticket in the department (other than `exceptId`), if any. */
  async openTicketId(
    db: Executor,
    userId: number,
    departmentId: number,
    exceptId?: number,
  ): Promise<number | undefined> {
    const [row] = await db
      .select({ id: supportTickets.id })
      .from(supportTickets)
      .where(
        and(
          eq(supportTickets.userId, userId),
          eq(supportTickets.departmentId, departmentId),
          ne(supportTickets.status, 'closed'),
          exceptId === undefined ? undefined : ne(supportTickets.id, exceptId),
        ),
      );
    return row?.id;
  },

  async insertTicket(db: Executor, values: typeof supportTickets.$inferInsert) {
    const [row] = await db.insert(supportTickets).values(values).returning();
    return row!;
  },

  async updateTicket(
    db: Executor,
    id: number,
    values: Partial<typeof supportTickets.$inferInsert>,
  ): Promise<SupportTicketRow> {
    const [row] = await db
      .update(supportTickets)
      .set(values)
      .where(eq(supportTickets.id, id))
      .returning();
    return row!;
  },

  async markRead(db: Executor, id: number, at: Date): Promise<void> {
    await db.update(supportTickets).set({ userReadAt: at }).where(eq(supportTickets.id, id));
  },

  async insertMessage(db: Executor, values: typeof supportMessages.$inferInsert) {
    const [row] = await db.insert(supportMessages).values(values).returning();
    return row!;
  },

  async insertAttachments(db: Executor, values: (typeof supportAttachments.$inferInsert)[]) {
    if (values.length > 0) await db.insert(supportAttachments).values(values);
  },

  /** The thread, oldest first, with each author's name; the internal notes only when asked. */
  async thread(db: Executor, ticketId: number, withNotes: boolean) {
    const [messages, attachments] = await Promise.all([
      db
        .select({ message: supportMessages, authorName: author.name })
        .from(supportMessages)
        .leftJoin(author, eq(author.id, supportMessages.authorId))
        .where(
          and(
            eq(supportMessages.ticketId, ticketId),
            withNotes ? undefined : ne(supportMessages.kind, 'note'),
          ),
        )
        .orderBy(asc(supportMessages.id)),
      db
        .select()
        .from(supportAttachments)
        .where(eq(supportAttachments.ticketId, ticketId))
        .orderBy(asc(supportAttachments.id)),
    ]);
    return { messages, attachments };
  },

  // ---- the help desk ----------------------------------------------------------------------

  /** Each department's open tickets: how many new, in processing and waiting, and the oldest wait. */
  async queues(db: Executor) {
    return db
      .select({
        department: supportDepartments,
        newCount:
          sql<number>`count(${supportTickets.id}) filter (where ${supportTickets.status} = 'new')`.mapWith(
            Number,
          ),
        processingCount:
          sql<number>`count(${supportTickets.id}) filter (where ${supportTickets.status} = 'processing')`.mapWith(
            Number,
          ),
        waitingCount: sql<number>`count(${supportTickets.waitingSince})`.mapWith(Number),
        oldestWaitingSince: sql<Date | null>`min(${supportTickets.waitingSince})`.mapWith(
          supportTickets.waitingSince,
        ),
      })
      .from(supportDepartments)
      .leftJoin(
        supportTickets,
        and(
          eq(supportTickets.departmentId, supportDepartments.id),
          ne(supportTickets.status, 'closed'),
        ),
      )
      .groupBy(supportDepartments.id)
      .orderBy(asc(supportDepartments.position), asc(supportDepartments.id));
  },

  /** The help desk's list: waiting longest first, then the oldest activity. */
  async adminTickets(db: Executor, filter: AdminTicketFilter, paging: Paging) {
    const where = adminWhere(filter);
    const [rows, [total]] = await Promise.all([
      db
        .select(adminTicketColumns)
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .leftJoin(assignee, eq(assignee.id, supportTickets.assigneeId))
        .where(where)
        .orderBy(
          sql`${supportTickets.waitingSince} asc nulls last`,
          asc(supportTickets.updatedAt),
          asc(supportTickets.id),
        )
        .limit(paging.limit)
        .offset(paging.offset),
      db
        .select({ n: count() })
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async adminTicket(db: Executor, id: number) {
    const [row] = await db
      .select(adminTicketColumns)
      .from(supportTickets)
      .innerJoin(users, eq(users.id, supportTickets.userId))
      .leftJoin(assignee, eq(assignee.id, supportTickets.assigneeId))
      .where(eq(supportTickets.id, id));
    return row;
  },

  // ---- attachments ------------------------------------------------------------------------

  /** An attachment with whose ticket it is and the kind of message it came with. */
  async attachment(db: Executor, id: number) {
    const [row] = await db
      .select({
        attachment: supportAttachments,
        ownerId: supportTickets.userId,
        messageKind: supportMessages.kind,
      })
      .from(supportAttachments)
      .innerJoin(supportTickets, eq(supportTickets.id, supportAttachments.ticketId))
      .innerJoin(supportMessages, eq(supportMessages.id, supportAttachments.messageId))
      .where(eq(supportAttachments.id, id));
    return row;
  },

  // ---- canned replies -----------------------------------------------------------------------

  async cannedReplies(db: Executor) {
    return db
      .select()
      .from(supportCannedReplies)
      .orderBy(asc(supportCannedReplies.title), asc(supportCannedReplies.id));
  },

  async insertCannedReply(db: Executor, values: typeof supportCannedReplies.$inferInsert) {
    const [row] = await db.insert(supportCannedReplies).values(values).returning();
    return row!;
  },

  async updateCannedReply(
    db: Executor,
    id: number,
    values: Partial<typeof supportCannedReplies.$inferInsert>,
  ) {
    const [row] = await db
      .update(supportCannedReplies)
      .set(values)
      .where(eq(supportCannedReplies.id, id))
      .returning();
    return row;
  },

  async deleteCannedReply(db: Executor, id: number) {
    const [row] = await db
      .delete(supportCannedReplies)
      .where(eq(supportCannedReplies.id, id))
      .returning();
    return row;
  },
};
