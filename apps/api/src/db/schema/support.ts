import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef, users } from './users.ts';

/**
 * Support: departments, tickets (one thread each), messages (the user's and the staff's, internal
 * notes and status events), attachments (files in the storage port), canned replies; and the FAQ.
 */

export type TicketStatus = 'new' | 'processing' | 'closed';
/** `message`: seen by both sides; `note`: the staff's internal note, never shown to the user; `event`: a status change, its body the new status. */
export type TicketMessageKind = 'message' | 'note' | 'event';
export type TicketAuthorKind = 'user' | 'staff';
export type FaqGroup = 'partners' | 'support' | 'monitoring' | 'monitoring_guide';

/** Operator-editable; `code` names the seeded ones (the FAQ's "Write to support" picks by it). */
export const supportDepartments = pgTable(
  'support_departments',
  {
    id: serial('id').primaryKey(),
    code: text('code'),
    nameEn: text('name_en').notNull(),
    nameRu: text('name_ru').notNull(),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('support_departments_code_key').on(t.code)],
);

/** The operators a department's mail goes to (none: every operator). */
export const supportDepartmentOperators = pgTable(
  'support_department_operators',
  {
    departmentId: integer('department_id')
      .notNull()
      .references(() => supportDepartments.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
  },
  (t) => [primaryKey({ columns: [t.departmentId, t.userId] })],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    departmentId: integer('department_id')
      .notNull()
      .references(() => supportDepartments.id),
    title: text('title').notNull(),
    status: text('status').$type<TicketStatus>().notNull().default('new'),
    /** The operator who took the ticket. */
    assigneeId: bigint('assignee_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** The last message or status change (not an internal note: the user sees it): the lists sort by it. */
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /** The user's oldest message the staff has not answered yet; null when the staff spoke last. */
    waitingSince: timestamptz('waiting_since'),
    /** The staff's last visible message or status change, and when the user last read the ticket: unread when the first is later. */
    staffUpdatedAt: timestamptz('staff_updated_at'),
    userReadAt: timestamptz('user_read_at'),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    // SPEC 4: only one open ticket per department at a time, under races too
    uniqueIndex('support_tickets_one_open_key')
      .on(t.userId, t.departmentId)
      .where(sql`${t.status} <> 'closed'`),
    index('support_tickets_user_idx').on(t.userId, t.updatedAt),
    index('support_tickets_queue_idx').on(t.departmentId, t.status, t.waitingSince),
    check('support_tickets_status_check', sql`${t.status} in ('new', 'processing', 'closed')`),
    check('support_tickets_title_check', sql`char_length(${t.title}) between 1 and 200`),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    authorId: bigint('author_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    authorKind: text('author_kind').$type<TicketAuthorKind>().notNull(),
    kind: text('kind').$type<TicketMessageKind>().notNull().default('message'),
    body: text('body').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_messages_ticket_idx').on(t.ticketId, t.id),
    check('support_messages_author_kind_check', sql`${t.authorKind} in ('user', 'staff')`),
    check('support_messages_kind_check', sql`${t.kind} in ('message', 'note', 'event')`),
    // SPEC 5: the user's text at most 1024 characters, counted as code points everywhere
    check(
      'support_messages_body_check',
      sql`char_length(${t.body}) <= 8000 and (${t.authorKind} <> 'user' or char_length(${t.body}) <= 1024)`,
    ),
    // a user writes messages and changes the status (closing, or writing to a closed ticket);
    // internal notes are the staff's only
    check(
      'support_messages_user_kind_check',
      sql`${t.authorKind} = 'staff' or ${t.kind} in ('message', 'event')`,
    ),
  ],
);

/** A file attached to a message; `previewKey` a re-encoded WebP of an image (none for a PDF). */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    previewKey: text('preview_key'),
    /** The uploaded name, cleaned (no path, no control characters), only ever shown and sent as a download name. */
    fileName: text('file_name').notNull(),
    /** By content: image/jpeg, image/png, image/gif or application/pdf. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('support_attachments_storage_key_key').on(t.storageKey),
    index('support_attachments_message_idx').on(t.messageId),
    index('support_attachments_ticket_idx').on(t.ticketId),
    check(
      'support_attachments_type_check',
      sql`${t.contentType} in ('image/jpeg', 'image/png', 'image/gif', 'application/pdf')`,
    ),
    check('support_attachments_size_check', sql`${t.sizeBytes} between 1 and 5242880`),
  ],
);

/** The help desk's canned replies, in both languages: the reply box takes the ticket owner's. */
export const supportCannedReplies = pgTable('support_canned_replies', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  bodyEn: text('body_en').notNull(),
  bodyRu: text('body_ru').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** The FAQ: SPEC's four groups, both languages, operator-editable; `slug` the question's link (/faq#slug). */
export const faqItems = pgTable(
  'faq_items',
  {
    id: serial('id').primaryKey(),
    group: text('group').$type<FaqGroup>().notNull(),
    slug: text('slug').notNull(),
    position: integer('position').notNull().default(0),
    questionEn: text('question_en').notNull(),
    answerEn: text('answer_en').notNull(),
    questionRu: text('question_ru').notNull(),
    answerRu: text('answer_ru').notNull(),
    published: boolean('published').notNull().default(true),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('faq_items_slug_key').on(t.slug),
    index('faq_items_group_idx').on(t.group, t.position),
    check(
      'faq_items_group_check',
      sql`${t.group} in ('partners', 'support', 'monitoring', 'monitoring_guide')`,
    ),
    check('faq_items_slug_check', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
  ],
);

export type SupportTicketRow = typeof supportTickets.$inferSelect;
export type SupportMessageRow = typeof supportMessages.$inferSelect;
export type SupportAttachmentRow = typeof supportAttachments.$inferSelect;
export type FaqItemRow = typeof faqItems.$inferSelect;
