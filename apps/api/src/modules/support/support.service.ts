import { randomBytes } from 'node:crypto';
import {
  createTicketFieldsSchema,
  staffMessageFieldsSchema,
  SUCCESS_MESSAGES,
  ticketMessageFieldsSchema,
  type AdminTicketSummary,
  type Attachment,
  type CannedReply,
  type CannedReplyRequest,
  type Department,
  type departmentRequestSchema,
  type SupportQueuesResponse,
  type TicketMessage,
  type TicketStatus,
  type TicketSummary,
} from '@tradehost/contracts';
import type * as z from 'zod/mini';
import { auditRepository } from '../../db/audit.ts';
import { operatorRefusal } from '../../db/operators.ts';
import { pageMeta, pagingOf } from '../../db/paging.ts';
import type {
  SupportAttachmentRow,
  SupportTicketRow,
  supportDepartments,
  supportCannedReplies,
} from '../../db/schema/index.ts';
import { publishLive } from '../../db/live.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import type { Storage } from '../../integrations/storage/index.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import {
  checkAttachments,
  formFields,
  type AttachmentType,
  type CheckedAttachment,
  type SupportForm,
} from './support.attachments.ts';
import type { SupportJobs } from './support.jobs.ts';
import { supportRepository as repo, type StatusFilter } from './support.repository.ts';

/**
 * Support tickets (SPEC 4, 5): departments, one thread per ticket, attachments in the storage
 * port, notifications both ways (support.jobs.ts: pg-boss jobs written in the transaction of the
 * change they report); and the operators' help desk (queues, assignment, replies and
 * internal notes, statuses, canned replies, departments), every operator action audited.
 *
 * Rules kept here:
 * - one open (New or Processing) ticket per user and department, by the partial unique index
 *   support_tickets_one_open_key, so two requests at once cannot both open one: the loser is
 *   answered 409 TICKET_OPEN_EXISTS with the open ticket's id (TicketOpenError);
 * - the user writing in a closed ticket resumes it (New), under the same rule;
 * - files are checked, then stored, then the rows written in one transaction; if it fails the
 *   stored files are deleted: a refusal leaves nothing behind;
 * - `waiting_since` is the user's oldest unanswered message (cleared by a visible staff reply),
 *   `staff_updated_at` the staff's last visible message or status change, and a ticket is unread
 *   while that is later than the owner's last reading (`user_read_at`);
 * - the users never see internal notes nor their files.
 */

const ONE_OPEN = 'support_tickets_one_open_key';

/** 409 TICKET_OPEN_EXISTS; the answer names the open ticket (`ticket_id`). */
export class TicketOpenError extends AppError {
  readonly ticketId: number;
  constructor(ticketId: number) {
    super(409, 'TICKET_OPEN_EXISTS');
    this.ticketId = ticketId;
  }
}

type DepartmentRow = typeof supportDepartments.$inferSelect;
type DepartmentInput = z.output<typeof departmentRequestSchema>;
type CannedReplyRow = typeof supportCannedReplies.$inferSelect;
type Person = { id: number; email: string; name: string };

const iso = (date: Date) => date.toISOString();

const ticketNotFound = () => new AppError(404, 'TICKET_NOT_FOUND');
const attachmentNotFound = () => new AppError(404, 'ATTACHMENT_NOT_FOUND');

/** The staff wrote or changed the status since the owner last read the ticket. */
const isUnread = (row: SupportTicketRow) =>
  row.staffUpdatedAt !== null && (row.userReadAt === null || row.staffUpdatedAt > row.userReadAt);

const toDepartment = (row: DepartmentRow): Department => ({
  id: row.id,
  code: row.code,
  name_en: row.nameEn,
  name_ru: row.nameRu,
  position: row.position,
  active: row.active,
});

const toSummary = (row: SupportTicketRow, unread = isUnread(row)): TicketSummary => ({
  id: row.id,
  title: row.title,
  status: row.status,
  department_id: row.departmentId,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
  unread,
});

const toAttachment = (row: SupportAttachmentRow): Attachment => ({
  id: row.id,
  file_name: row.fileName,
  content_type: row.contentType as AttachmentType,
  size_bytes: row.sizeBytes,
  has_preview: row.previewKey !== null,
  width: row.width,
  height: row.height,
});

const toCannedReply = (row: CannedReplyRow): CannedReply => ({
  id: row.id,
  title: row.title,
  body_en: row.bodyEn,
  body_ru: row.bodyRu,
  updated_at: iso(row.updatedAt),
});

/** A file stored under generated keys: the original, and the preview of an image. */
interface StoredFile extends CheckedAttachment {
  storageKey: string;
  previewKey: string | null;
}

/** 128 random bits: names nobody can guess or choose. */
const newKey = (extension: string) =>
  `support/${randomBytes(16).toString('base64url')}.${extension}`;

export type SupportService = ReturnType<typeof createSupportService>;

export function createSupportService({
  db,
  now,
  log,
  storage,
  notices,
}: Pick<ServiceDeps, 'db' | 'now' | 'log'> & {
  storage: Storage;
  /** The notifications' jobs, written in the service's transactions. */
  notices: Pick<SupportJobs, 'tellUser' | 'tellOperators'>;
}) {
  // ---- files ---------------------------------------------------------------------------------

  async function discard(keys: string[]) {
    for (const key of keys) {
      try {
        await storage.delete(key);
      } catch (error) {
        log.error({ err: error, key }, 'could not delete an unused attachment file');
      }
    }
  }

  /**
   * Stores the checked files under new keys and runs `work` with them; when `work` fails (a
   * refusal, a conflict, the database) the files are deleted again.
   */
  async function withStoredFiles<T>(
    checked: CheckedAttachment[],
    work: (stored: StoredFile[]) => Promise<T>,
  ): Promise<T> {
    const keys: string[] = [];
    try {
      const stored: StoredFile[] = [];
      for (const file of checked) {
        const storageKey = newKey(file.extension);
        keys.push(storageKey);
        await storage.put(storageKey, file.bytes, file.contentType);
        let previewKey: string | null = null;
        if (file.preview) {
          previewKey = newKey('webp');
          keys.push(previewKey);
          await storage.put(previewKey, file.preview, 'image/webp');
        }
        stored.push({ ...file, storageKey, previewKey });
      }
      return await work(stored);
    } catch (error) {
      await discard(keys);
      throw error;
    }
  }

  const attachmentRows = (ticketId: number, messageId: number, stored: StoredFile[], at: Date) =>
    stored.map((file) => ({
      ticketId,
      messageId,
      storageKey: file.storageKey,
      previewKey: file.previewKey,
      fileName: file.fileName,
      contentType: file.contentType,
      sizeBytes: file.bytes.length,
      width: file.width,
      height: file.height,
      createdAt: at,
    }));

  // ---- the one-open-ticket rule ------------------------------------------------------------

  /** 409 when the user already has another open ticket in the department. */
  async function refuseIfOpen(userId: number, departmentId: number, exceptId?: number) {
    const open = await repo.openTicketId(db, userId, departmentId, exceptId);
    if (open !== undefined) throw new TicketOpenError(open);
  }

  /**
   * Runs `work` (a transaction that may open a ticket); when the unique index refuses it because
   * another request opened one meanwhile, answers 409 with that ticket. Should that ticket have
   * been closed again in between, the work runs again.
   */
  async function underOneOpenRule<T>(
    userId: number,
    departmentId: number,
    exceptId: number | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (!isUniqueViolation(error, ONE_OPEN)) throw error;
        const open = await repo.openTicketId(db, userId, departmentId, exceptId);
        if (open !== undefined) throw new TicketOpenError(open);
        if (attempt >= 3) throw error;
      }
    }
  }

  // ---- audit -------------------------------------------------------------------------------

  /**
   * A ticket's entry holds its department as it was named then, `{ id, name_en, name_ru }`: the
   * log showed "Department #3" (the id alone, before), which a reader had to look up, and a
   * department renamed since would not tell which desk it was when the entry was written.
   */
  const auditTicket = async (
    tx: Tx,
    actorId: number,
    action: string,
    ticket: SupportTicketRow,
    details: Record<string, unknown> = {},
    /** The ticket's department when the caller has read it already (opening a ticket). */
    known?: DepartmentRow,
  ) => {
    const department = known ?? (await repo.department(tx, ticket.departmentId));
    await auditRepository.insert(tx, {
      actorId,
      action,
      subjectType: 'support_ticket',
      subjectId: String(ticket.id),
      targetUserId: ticket.userId,
      details: {
        title: ticket.title,
        department: {
          id: ticket.departmentId,
          name_en: department?.nameEn,
          name_ru: department?.nameRu,
        },
        ...details,
      },
    });
  };

  const auditSubject = (
    tx: Tx,
    actorId: number,
    action: string,
    subjectType: string,
    subjectId: number,
    details: Record<string, unknown>,
  ) =>
    auditRepository.insert(tx, {
      actorId,
      action,
      subjectType,
      subjectId: String(subjectId),
      details,
    });

  // ---- notifications -----------------------------------------------------------------------

  /**
   * The owner's open consoles show a staff answer or status change and the unread count at
   * once (after the commit; the mail and the chat are the notice jobs'). Never throws.
   */
  async function publishTicket(ticket: SupportTicketRow) {
    try {
      const unread = await repo.unreadCount(db, ticket.userId);
      publishLive(db, ticket.userId, {
        event: 'ticket',
        data: { ticket_id: ticket.id, unread },
      });
    } catch (error) {
      log.warn({ err: error, ticketId: ticket.id }, 'the live update of a ticket was not sent');
    }
  }

  // ---- reads -------------------------------------------------------------------------------

  async function threadOf(ticketId: number, withNotes: boolean): Promise<TicketMessage[]> {
    const { messages, attachments } = await repo.thread(db, ticketId, withNotes);
    const byMessage = new Map<number, Attachment[]>();
    for (const row of attachments) {
      const list = byMessage.get(row.messageId) ?? [];
      list.push(toAttachment(row));
      byMessage.set(row.messageId, list);
    }
    return messages.map(({ message, authorName }) => ({
      id: message.id,
      kind: message.kind,
      author_kind: message.authorKind,
      author_name: authorName,
      body: message.body,
      created_at: iso(message.createdAt),
      attachments: byMessage.get(message.id) ?? [],
    }));
  }

  /** The user's own ticket; anyone else's is 404 (its existence is not told). */
  async function ownTicket(userId: number, id: number): Promise<SupportTicketRow> {
    const row = await repo.ticket(db, id);
    if (!row || row.userId !== userId) throw ticketNotFound();
    return row;
  }

  async function adminSummary(id: number): Promise<AdminTicketSummary> {
    const row = await repo.adminTicket(db, id);
    if (!row) throw ticketNotFound();
    return toAdminSummary(row);
  }

  function toAdminSummary(row: NonNullable<Awaited<ReturnType<typeof repo.adminTicket>>>) {
    return {
      ...toSummary(row.ticket, row.unread),
      user: row.user,
      assignee: row.assignee?.id ? (row.assignee as Person) : null,
      waiting_since: row.ticket.waitingSince ? iso(row.ticket.waitingSince) : null,
      user_language: row.userLanguage,
    };
  }

  /** An attachment's bytes (the original, or the preview of an image), or 404. */
  async function fileOf(row: SupportAttachmentRow, which: 'original' | 'preview') {
    const key = which === 'preview' ? row.previewKey : row.storageKey;
    if (!key) throw attachmentNotFound();
    const bytes = await storage.get(key);
    if (!bytes) throw attachmentNotFound();
    return {
      bytes,
      fileName: row.fileName,
      contentType: which === 'preview' ? 'image/webp' : row.contentType,
    };
  }

  // ---- the user's side ---------------------------------------------------------------------

  /** A new message of the user (a ticket's first one or a later one) with its files. */
  async function insertUserMessage(
    tx: Tx,
    ticket: SupportTicketRow,
    userId: number,
    text: string,
    stored: StoredFile[],
    at: Date,
  ) {
    const message = await repo.insertMessage(tx, {
      ticketId: ticket.id,
      authorId: userId,
      authorKind: 'user',
      kind: 'message',
      body: text,
      createdAt: at,
    });
    await repo.insertAttachments(tx, attachmentRows(ticket.id, message.id, stored, at));
  }

  /** A status change in the thread: the staff's, or the user's own (closing, writing to resume). */
  async function statusEvent(
    tx: Tx,
    ticketId: number,
    author: { id: number; kind: 'user' | 'staff' },
    status: TicketStatus,
    at: Date,
  ) {
    await repo.insertMessage(tx, {
      ticketId,
      authorId: author.id,
      authorKind: author.kind,
      kind: 'event',
      body: status,
      createdAt: at,
    });
  }

  const user = {
    async departments() {
      return { data: (await repo.departments(db, true)).map(toDepartment) };
    },

    async tickets(
      userId: number,
      query: { status?: StatusFilter; department_id?: number; page: number; per_page: number },
    ) {
      const { rows, total } = await repo.userTickets(
        db,
        userId,
        { status: query.status, departmentId: query.department_id },
        pagingOf(query.page, query.per_page),
      );
      return {
        data: rows.map((row) => toSummary(row.ticket, row.unread)),
        meta: pageMeta(query.page, query.per_page, total),
      };
    },

    async unread(userId: number) {
      return { count: await repo.unreadCount(db, userId) };
    },

    /** The ticket and its thread without the internal notes; reading it marks it read. */
    async ticket(userId: number, id: number) {
      const row = await ownTicket(userId, id);
      await repo.markRead(db, id, now());
      return { ticket: toSummary(row, false), messages: await threadOf(id, false) };
    },

    /** Opens a ticket in an active department with its first message and files. */
    async create(userId: number, form: SupportForm) {
      const fields = formFields(createTicketFieldsSchema, form, {
        title: 'TICKET_TITLE_TOO_LONG',
        text: 'TICKET_TEXT_TOO_LONG',
      });
      const department = await repo.department(db, fields.department_id);
      if (!department?.active) throw fieldError(422, 'department_id', 'DEPARTMENT_REQUIRED');
      // the common case answered before any file is decoded; the index decides the races
      await refuseIfOpen(userId, department.id);
      const checked = await checkAttachments(form.files);
      const ticket = await withStoredFiles(checked, (stored) =>
        underOneOpenRule(userId, department.id, undefined, () =>
          inTransaction(db, async (tx) => {
            const at = now();
            const ticket = await repo.insertTicket(tx, {
              userId,
              departmentId: department.id,
              title: fields.title,
              status: 'new',
              createdAt: at,
              updatedAt: at,
              waitingSince: at,
            });
            await insertUserMessage(tx, ticket, userId, fields.text, stored, at);
            await auditTicket(
              tx,
              userId,
              'support.ticket_open',
              ticket,
              { files: stored.length },
              department,
            );
            await notices.tellOperators(tx, ticket, 'new', fields.text, stored.length);
            return ticket;
          }),
        ),
      );
      return {
        ticket: toSummary(ticket),
        message: SUCCESS_MESSAGES.TICKET_CREATED,
        code: 'TICKET_CREATED',
      };
    },

    /**
     * The user's message in their ticket. A closed ticket is resumed (New), unless another of
     * the department is open (409). A processing one stays processing.
     */
    async write(userId: number, id: number, form: SupportForm) {
      const { text } = formFields(ticketMessageFieldsSchema, form, {
        text: 'TICKET_TEXT_TOO_LONG',
      });
      const current = await ownTicket(userId, id);
      if (current.status === 'closed') await refuseIfOpen(userId, current.departmentId, id);
      const checked = await checkAttachments(form.files);
      const { ticket, resumed } = await withStoredFiles(checked, (stored) =>
        underOneOpenRule(userId, current.departmentId, id, () =>
          inTransaction(db, async (tx) => {
            const locked = await repo.lockTicket(tx, id);
            if (!locked) throw ticketNotFound();
            const at = now();
            const resumed = locked.status === 'closed';
            const ticket = await repo.updateTicket(tx, id, {
              status: resumed ? 'new' : locked.status,
              closedAt: resumed ? null : locked.closedAt,
              updatedAt: at,
              waitingSince: locked.waitingSince ?? at,
            });
            // the thread shows the ticket opening again before what the user wrote
            if (resumed) await statusEvent(tx, id, { id: userId, kind: 'user' }, 'new', at);
            await insertUserMessage(tx, ticket, userId, text, stored, at);
            if (resumed) await auditTicket(tx, userId, 'support.ticket_resume', ticket);
            const event = resumed ? 'resumed' : 'message';
            await notices.tellOperators(tx, ticket, event, text, stored.length);
            return { ticket, resumed };
          }),
        ),
      );
      return resumed
        ? {
            ticket: toSummary(ticket),
            message: SUCCESS_MESSAGES.TICKET_RESUMED,
            code: 'TICKET_RESUMED',
          }
        : {
            ticket: toSummary(ticket),
            message: SUCCESS_MESSAGES.TICKET_MESSAGE_SENT,
            code: 'TICKET_MESSAGE_SENT',
          };
    },

    /** The user closes their ticket (409 TICKET_CLOSED when it is). */
    async close(userId: number, id: number) {
      const ticket = await inTransaction(db, async (tx) => {
        const locked = await repo.lockTicket(tx, id);
        if (!locked || locked.userId !== userId) throw ticketNotFound();
        if (locked.status === 'closed') throw new AppError(409, 'TICKET_CLOSED');
        const at = now();
        const ticket = await repo.updateTicket(tx, id, {
          status: 'closed',
          closedAt: at,
          waitingSince: null,
          updatedAt: at,
        });
        await statusEvent(tx, id, { id: userId, kind: 'user' }, 'closed', at);
        await auditTicket(tx, userId, 'support.ticket_close', ticket);
        return ticket;
      });
      return {
        ticket: toSummary(ticket),
        message: SUCCESS_MESSAGES.TICKET_CLOSE_DONE,
        code: 'TICKET_CLOSE_DONE',
      };
    },

    /**
     * A file of the user's own ticket (not of an internal note), or any for an operator of the
     * help desk (as its own route would let them); anyone else's is 404, whether it exists or not.
     */
    async attachment(userId: number, id: number, which: 'original' | 'preview') {
      const row = await repo.attachment(db, id);
      if (!row) throw attachmentNotFound();
      const own = row.ownerId === userId && row.messageKind !== 'note';
      if (!own && (await operatorRefusal(db, userId, ['support'])) !== null)
        throw attachmentNotFound();
      return fileOf(row.attachment, which);
    },
  };

  // ---- the help desk -----------------------------------------------------------------------

  /** Which operators a department's mail goes to: each must be an operator (422 otherwise). */
  async function checkOperators(ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const operators = await repo.helpDeskIdsAmong(db, unique);
    if (operators.length !== unique.length) throw fieldError(422, 'operator_ids', 'VALIDATION');
    return unique;
  }

  async function adminDepartment(id: number) {
    const row = await repo.department(db, id);
    if (!row) throw new AppError(404, 'NOT_FOUND');
    const operators = await repo.departmentOperators(db, [id]);
    return { ...toDepartment(row), operators: operators.map((o) => o.person) };
  }

  const departmentValues = (input: {
    name_en: string;
    name_ru: string;
    position: number;
    active: boolean;
  }) => ({
    nameEn: input.name_en,
    nameRu: input.name_ru,
    position: input.position,
    active: input.active,
  });

  const admin = {
    async queues(): Promise<SupportQueuesResponse> {
      const rows = await repo.queues(db);
      return {
        data: rows.map((row) => ({
          department: toDepartment(row.department),
          new_count: row.newCount,
          processing_count: row.processingCount,
          waiting_count: row.waitingCount,
          oldest_waiting_since: row.oldestWaitingSince ? iso(row.oldestWaitingSince) : null,
        })),
      };
    },

    async tickets(
      adminId: number,
      query: {
        department_id?: number;
        status?: StatusFilter;
        assignee?: 'me' | 'none' | 'any';
        search?: string;
        page: number;
        per_page: number;
      },
    ) {
      const { rows, total } = await repo.adminTickets(
        db,
        {
          departmentId: query.department_id,
          status: query.status,
          assigneeId:
            query.assignee === 'me' ? adminId : query.assignee === 'none' ? null : undefined,
          search: query.search || undefined,
        },
        pagingOf(query.page, query.per_page),
      );
      return {
        data: rows.map(toAdminSummary),
        meta: pageMeta(query.page, query.per_page, total),
      };
    },

    /** The ticket with its whole thread, internal notes included (reading it marks nothing). */
    async ticket(id: number) {
      const ticket = await adminSummary(id);
      return { ticket, messages: await threadOf(id, true) };
    },

    /**
     * A staff message: a reply the user sees (the ticket becomes Processing, is no longer
     * waiting, and the user is told; a closed one opens again under the one-open rule), or an
     * internal note (`internal`) that changes nothing the user sees.
     */
    async write(adminId: number, id: number, form: SupportForm) {
      const { text, internal } = formFields(staffMessageFieldsSchema, form, {
        text: 'TICKET_TEXT_TOO_LONG',
      });
      const current = await repo.ticket(db, id);
      if (!current) throw ticketNotFound();
      if (!internal && current.status === 'closed')
        await refuseIfOpen(current.userId, current.departmentId, id);
      const checked = await checkAttachments(form.files);
      const ticket = await withStoredFiles(checked, (stored) =>
        underOneOpenRule(current.userId, current.departmentId, id, () =>
          inTransaction(db, async (tx) => {
            const locked = await repo.lockTicket(tx, id);
            if (!locked) throw ticketNotFound();
            const at = now();
            const ticket = internal
              ? locked
              : await repo.updateTicket(tx, id, {
                  status: 'processing',
                  closedAt: null,
                  waitingSince: null,
                  staffUpdatedAt: at,
                  updatedAt: at,
                });
            const message = await repo.insertMessage(tx, {
              ticketId: id,
              authorId: adminId,
              authorKind: 'staff',
              kind: internal ? 'note' : 'message',
              body: text,
              createdAt: at,
            });
            await repo.insertAttachments(tx, attachmentRows(id, message.id, stored, at));
            await auditTicket(tx, adminId, internal ? 'support.note' : 'support.reply', ticket, {
              message_id: message.id,
              files: stored.length,
              ...(internal || locked.status === 'processing'
                ? {}
                : { from: locked.status, to: 'processing' }),
            });
            if (!internal) await notices.tellUser(tx, ticket, { kind: 'answer', answer: text });
            return ticket;
          }),
        ),
      );
      if (!internal) await publishTicket(ticket);
      return {
        ticket: await adminSummary(id),
        message: internal ? 'The note has been added' : 'The reply has been sent',
      };
    },

    /** Takes the ticket (`me`) or gives it back (null). */
    async assign(adminId: number, id: number, assignee: 'me' | null) {
      await inTransaction(db, async (tx) => {
        const locked = await repo.lockTicket(tx, id);
        if (!locked) throw ticketNotFound();
        const assigneeId = assignee === 'me' ? adminId : null;
        if (locked.assigneeId === assigneeId) return;
        const ticket = await repo.updateTicket(tx, id, { assigneeId });
        await auditTicket(
          tx,
          adminId,
          assigneeId === null ? 'support.unassign' : 'support.assign',
          ticket,
          { from: locked.assigneeId, to: assigneeId },
        );
      });
      return {
        ticket: await adminSummary(id),
        message:
          assignee === 'me' ? 'The ticket is assigned to you' : 'The ticket is no longer assigned',
      };
    },

    /**
     * Sets the status: closing sets closed_at and ends the wait, reopening keeps the one-open
     * rule (409). An `event` entry goes in the thread and the user is told.
     */
    async setStatus(adminId: number, id: number, status: TicketStatus) {
      const current = await repo.ticket(db, id);
      if (!current) throw ticketNotFound();
      if (current.status === 'closed' && status !== 'closed')
        await refuseIfOpen(current.userId, current.departmentId, id);
      const changed = await underOneOpenRule(current.userId, current.departmentId, id, () =>
        inTransaction(db, async (tx) => {
          const locked = await repo.lockTicket(tx, id);
          if (!locked) throw ticketNotFound();
          if (locked.status === status) return null;
          const at = now();
          const closing = status === 'closed';
          const ticket = await repo.updateTicket(tx, id, {
            status,
            closedAt: closing ? at : null,
            waitingSince: closing ? null : locked.waitingSince,
            staffUpdatedAt: at,
            updatedAt: at,
          });
          await statusEvent(tx, id, { id: adminId, kind: 'staff' }, status, at);
          await auditTicket(tx, adminId, 'support.status', ticket, {
            from: locked.status,
            to: status,
          });
          await notices.tellUser(tx, ticket, { kind: 'status', status });
          return ticket;
        }),
      );
      if (changed) await publishTicket(changed);
      return {
        ticket: await adminSummary(id),
        message: changed ? 'The status has been changed' : 'The status is unchanged',
      };
    },

    // ---- canned replies ------------------------------------------------------------------

    async cannedReplies() {
      return { data: (await repo.cannedReplies(db)).map(toCannedReply) };
    },

    async createCannedReply(adminId: number, input: CannedReplyRequest) {
      const row = await inTransaction(db, async (tx) => {
        const at = now();
        const row = await repo.insertCannedReply(tx, {
          title: input.title,
          bodyEn: input.body_en,
          bodyRu: input.body_ru,
          createdAt: at,
          updatedAt: at,
        });
        await auditSubject(tx, adminId, 'support.canned_create', 'support_canned_reply', row.id, {
          title: row.title,
        });
        return row;
      });
      return { reply: toCannedReply(row), message: 'The canned reply has been added' };
    },

    async updateCannedReply(adminId: number, id: number, input: CannedReplyRequest) {
      const row = await inTransaction(db, async (tx) => {
        const row = await repo.updateCannedReply(tx, id, {
          title: input.title,
          bodyEn: input.body_en,
          bodyRu: input.body_ru,
          updatedAt: now(),
        });
        if (!row) throw new AppError(404, 'CANNED_REPLY_NOT_FOUND');
        await auditSubject(tx, adminId, 'support.canned_update', 'support_canned_reply', id, {
          title: row.title,
        });
        return row;
      });
      return { reply: toCannedReply(row), message: 'The canned reply has been saved' };
    },

    async deleteCannedReply(adminId: number, id: number) {
      await inTransaction(db, async (tx) => {
        const row = await repo.deleteCannedReply(tx, id);
        if (!row) throw new AppError(404, 'CANNED_REPLY_NOT_FOUND');
        await auditSubject(tx, adminId, 'support.canned_delete', 'support_canned_reply', id, {
          title: row.title,
        });
      });
      return { message: 'The canned reply has been deleted' };
    },

    // ---- departments ---------------------------------------------------------------------

    async departments() {
      const [rows, operators] = await Promise.all([
        repo.departments(db, false),
        repo.departmentOperators(db),
      ]);
      return {
        data: rows.map((row) => ({
          ...toDepartment(row),
          operators: operators.filter((o) => o.departmentId === row.id).map((o) => o.person),
        })),
      };
    },

    async createDepartment(adminId: number, input: DepartmentInput) {
      const operatorIds = await checkOperators(input.operator_ids);
      const id = await inTransaction(db, async (tx) => {
        const row = await repo.insertDepartment(tx, departmentValues(input));
        await repo.replaceDepartmentOperators(tx, row.id, operatorIds);
        await auditSubject(tx, adminId, 'support.department_create', 'support_department', row.id, {
          name_en: row.nameEn,
          name_ru: row.nameRu,
          active: row.active,
          operator_ids: operatorIds,
        });
        return row.id;
      });
      return { department: await adminDepartment(id), message: 'The department has been added' };
    },

    async updateDepartment(adminId: number, id: number, input: DepartmentInput) {
      const operatorIds = await checkOperators(input.operator_ids);
      await inTransaction(db, async (tx) => {
        const row = await repo.updateDepartment(tx, id, departmentValues(input));
        if (!row) throw new AppError(404, 'NOT_FOUND');
        await repo.replaceDepartmentOperators(tx, id, operatorIds);
        await auditSubject(tx, adminId, 'support.department_update', 'support_department', id, {
          name_en: row.nameEn,
          name_ru: row.nameRu,
          position: row.position,
          active: row.active,
          operator_ids: operatorIds,
        });
      });
      return { department: await adminDepartment(id), message: 'The department has been saved' };
    },

    /** Any ticket's file, for the operators. */
    async attachment(id: number, which: 'original' | 'preview') {
      const row = await repo.attachment(db, id);
      if (!row) throw attachmentNotFound();
      return fileOf(row.attachment, which);
    },
  };

  return { user, admin };
}
