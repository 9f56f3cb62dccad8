import * as z from 'zod/mini';
import { pageOf, pagingFields } from './balance.ts';
import { idSchema, multiLine, personSchema, singleLine } from './input.ts';

/**
 * Support tickets (SPEC 4, 5): a user opens a ticket in a department with a title and a text and
 * a few files, talks to the staff in its thread, and resumes a closed ticket by writing. Only one
 * open ticket per department at a time. The staff work the tickets from the operator's help desk.
 *
 * Requests that carry files are multipart (`text`, `title`, `department_id` as fields, each file as
 * a `files` part); the same schemas check their fields.
 */

export const TICKET_STATUSES = ['new', 'processing', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** SPEC 5: the text of a ticket or a message, counted in characters (code points) everywhere. */
export const TICKET_TEXT_MAX = 1024;
/** A staff reply or internal note may be longer. */
export const STAFF_TEXT_MAX = 8000;
export const TICKET_TITLE_MAX = 200;
/** SPEC 5: jpeg, gif, png or pdf, up to 5 MB each. */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENTS_PER_MESSAGE = 5;
/** An image attachment has at most this many pixels (read from its header before decoding). */
export const ATTACHMENT_MAX_PIXELS = 50_000_000;
/** The longer side of an image's re-encoded preview. */
export const ATTACHMENT_PREVIEW_SIDE = 1280;
/** A shown file name (cleaned of paths and control characters) has at most this many characters. */
export const ATTACHMENT_NAME_MAX = 120;
export const ATTACHMENT_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'application/pdf',
] as const;
/** What the file picker offers (the API decides by content, never by name). */
export const ATTACHMENT_ACCEPT =
  '.jpg,.jpeg,.png,.gif,.pdf,image/jpeg,image/png,image/gif,application/pdf';

/** Characters as the database counts them (`char_length`): code points, not UTF-16 units. */
export const characterCount = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

const textField = (max: number) =>
  z.string({ error: 'TICKET_TEXT_REQUIRED' }).check(
    z.trim(),
    z.minLength(1, { error: 'TICKET_TEXT_REQUIRED' }),
    z.refine((text) => characterCount(text) <= max, { error: 'TICKET_TEXT_TOO_LONG' }),
    multiLine(),
  );

export const ticketTitleField = () =>
  z.string({ error: 'TICKET_TITLE_REQUIRED' }).check(
    z.trim(),
    z.minLength(1, { error: 'TICKET_TITLE_REQUIRED' }),
    z.refine((title) => characterCount(title) <= TICKET_TITLE_MAX, {
      error: 'TICKET_TITLE_TOO_LONG',
    }),
    singleLine(),
  );

export const ticketTextField = () => textField(TICKET_TEXT_MAX);
export const staffTextField = () => textField(STAFF_TEXT_MAX);

export const departmentIdField = () => idSchema('serial', 'DEPARTMENT_REQUIRED');

/** POST /api/user/support/tickets (multipart, with up to five `files`). */
export const createTicketFieldsSchema = z.object({
  department_id: departmentIdField(),
  title: ticketTitleField(),
  text: ticketTextField(),
});
export type CreateTicketFields = z.infer<typeof createTicketFieldsSchema>;

/** POST /api/user/support/tickets/:id/messages (multipart, with up to five `files`). */
export const ticketMessageFieldsSchema = z.object({ text: ticketTextField() });
export type TicketMessageFields = z.infer<typeof ticketMessageFieldsSchema>;

export const departmentSchema = z.object({
  id: z.int(),
  code: z.nullable(z.string()),
  name_en: z.string(),
  name_ru: z.string(),
  position: z.int(),
  active: z.boolean(),
});
export type Department = z.infer<typeof departmentSchema>;

/** GET /api/user/support/departments: the active ones, in order. */
export const departmentsResponseSchema = z.object({ data: z.array(departmentSchema) });
export type DepartmentsResponse = z.infer<typeof departmentsResponseSchema>;

export const attachmentSchema = z.object({
  id: z.int(),
  file_name: z.string(),
  content_type: z.enum(ATTACHMENT_MIME_TYPES),
  size_bytes: z.int(),
  /** Images have a re-encoded preview (`.../attachments/:id/preview`); PDFs none. */
  has_preview: z.boolean(),
  width: z.nullable(z.int()),
  height: z.nullable(z.int()),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const TICKET_MESSAGE_KINDS = ['message', 'note', 'event'] as const;

/**
 * One entry of a thread. `kind` `event` is a status change (`body` the new status); `note` an
 * internal note, only in the help desk's answers. `author` is the user's own name or, for the
 * staff, the operator's name.
 */
export const ticketMessageSchema = z.object({
  id: z.int(),
  kind: z.enum(TICKET_MESSAGE_KINDS),
  author_kind: z.enum(['user', 'staff']),
  author_name: z.nullable(z.string()),
  body: z.string(),
  created_at: z.iso.datetime(),
  attachments: z.array(attachmentSchema),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

export const ticketSummarySchema = z.object({
  id: z.int(),
  title: z.string(),
  status: z.enum(TICKET_STATUSES),
  department_id: z.int(),
  created_at: z.iso.datetime(),
  /** The last activity. */
  updated_at: z.iso.datetime(),
  /** The staff wrote or changed the status since the user last opened the ticket. */
  unread: z.boolean(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** GET /api/user/support/tickets: newest activity first. */
export const ticketsQuerySchema = z.object({
  status: z.optional(z.enum(['open', ...TICKET_STATUSES], { error: 'VALIDATION' })),
  department_id: z.optional(idSchema('serial', 'VALIDATION')),
  ...pagingFields(),
});
export type TicketsQuery = z.input<typeof ticketsQuerySchema>;
export const ticketsResponseSchema = pageOf(ticketSummarySchema);
export type TicketsResponse = z.infer<typeof ticketsResponseSchema>;

/** GET /api/user/support/tickets/:id: the ticket and its thread, oldest first; reading marks it read. */
export const ticketResponseSchema = z.object({
  ticket: ticketSummarySchema,
  messages: z.array(ticketMessageSchema),
});
export type TicketResponse = z.infer<typeof ticketResponseSchema>;

/** Answers of a new ticket, a new message, a close. */
export const ticketActionResponseSchema = z.object({
  ticket: ticketSummarySchema,
  message: z.string(),
  code: z.optional(z.string()),
});
export type TicketActionResponse = z.infer<typeof ticketActionResponseSchema>;

/** GET /api/user/support/unread: tickets with news from the staff (the navigation's badge). */
export const ticketsUnreadResponseSchema = z.object({ count: z.int() });

/** The 409 of TICKET_OPEN_EXISTS carries the open ticket, so the console can link to it. */
export const ticketOpenConflictSchema = z.object({
  message: z.string(),
  code: z.literal('TICKET_OPEN_EXISTS'),
  ticket_id: z.int(),
});
export type TicketOpenConflict = z.infer<typeof ticketOpenConflictSchema>;

// ---- the help desk (operator) ----------------------------------------------------------------

/** A queue: one department's open tickets, with the oldest unanswered one's wait. */
export const supportQueueSchema = z.object({
  department: departmentSchema,
  new_count: z.int(),
  processing_count: z.int(),
  waiting_count: z.int(),
  oldest_waiting_since: z.nullable(z.iso.datetime()),
});
export type SupportQueue = z.infer<typeof supportQueueSchema>;
export const supportQueuesResponseSchema = z.object({ data: z.array(supportQueueSchema) });
export type SupportQueuesResponse = z.infer<typeof supportQueuesResponseSchema>;

/** GET /api/admin/support/tickets: waiting longest first, then oldest activity first. */
export const adminTicketsQuerySchema = z.object({
  department_id: z.optional(idSchema('serial', 'VALIDATION')),
  status: z.optional(z.enum(['open', ...TICKET_STATUSES], { error: 'VALIDATION' })),
  assignee: z.optional(z.enum(['me', 'none', 'any'], { error: 'VALIDATION' })),
  /** A ticket number, or part of the title or the user's e-mail. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(100, { error: 'VALIDATION' }))),
  ...pagingFields(),
});
export type AdminTicketsQuery = z.input<typeof adminTicketsQuerySchema>;

export const adminTicketSummarySchema = z.object({
  ...ticketSummarySchema.shape,
  user: personSchema,
  assignee: z.nullable(personSchema),
  /** The user's oldest unanswered message; null when the staff spoke last. */
  waiting_since: z.nullable(z.iso.datetime()),
  user_language: z.enum(['en', 'ru']),
});
export type AdminTicketSummary = z.infer<typeof adminTicketSummarySchema>;
export const adminTicketsResponseSchema = pageOf(adminTicketSummarySchema);
export type AdminTicketsResponse = z.infer<typeof adminTicketsResponseSchema>;

/** GET /api/admin/support/tickets/:id: with internal notes. */
export const adminTicketResponseSchema = z.object({
  ticket: adminTicketSummarySchema,
  messages: z.array(ticketMessageSchema),
});
export type AdminTicketResponse = z.infer<typeof adminTicketResponseSchema>;

/** POST /api/admin/support/tickets/:id/messages (multipart like the user's; `internal` a note). */
export const staffMessageFieldsSchema = z.object({
  text: staffTextField(),
  internal: z._default(z.stringbool({ error: 'VALIDATION' }), false),
});
export type StaffMessageFields = z.input<typeof staffMessageFieldsSchema>;

/** POST /api/admin/support/tickets/:id/assign: `me` takes it, null gives it back. */
export const assignTicketRequestSchema = z.object({
  assignee: z.nullable(z.literal('me', { error: 'VALIDATION' })),
});
export const ticketStatusRequestSchema = z.object({
  status: z.enum(TICKET_STATUSES, { error: 'TICKET_STATUS_INVALID' }),
});

export const adminTicketActionResponseSchema = z.object({
  ticket: adminTicketSummarySchema,
  message: z.string(),
  code: z.optional(z.string()),
});
export type AdminTicketActionResponse = z.infer<typeof adminTicketActionResponseSchema>;

/** The help desk's canned replies, in both languages. */
export const cannedReplySchema = z.object({
  id: z.int(),
  title: z.string(),
  body_en: z.string(),
  body_ru: z.string(),
  updated_at: z.iso.datetime(),
});
export type CannedReply = z.infer<typeof cannedReplySchema>;
export const cannedRepliesResponseSchema = z.object({ data: z.array(cannedReplySchema) });
export type CannedRepliesResponse = z.infer<typeof cannedRepliesResponseSchema>;
export const cannedReplyRequestSchema = z.object({
  title: ticketTitleField(),
  body_en: staffTextField(),
  body_ru: staffTextField(),
});
export type CannedReplyRequest = z.infer<typeof cannedReplyRequestSchema>;

const departmentNameField = () =>
  z
    .string({ error: 'DEPARTMENT_NAME_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'DEPARTMENT_NAME_REQUIRED' }),
      z.maxLength(100, { error: 'DEPARTMENT_NAME_REQUIRED' }),
      singleLine(),
    );

/** POST /api/admin/support/departments and PUT .../:id; `operator_ids` whose mail it is (none: all). */
export const departmentRequestSchema = z.object({
  name_en: departmentNameField(),
  name_ru: departmentNameField(),
  position: z._default(z.int().check(z.minimum(0), z.maximum(1000)), 0),
  active: z._default(z.boolean(), true),
  operator_ids: z._default(z.array(idSchema('bigserial', 'VALIDATION')).check(z.maxLength(50)), []),
});
export type DepartmentRequest = z.input<typeof departmentRequestSchema>;
export const adminDepartmentSchema = z.object({
  ...departmentSchema.shape,
  operators: z.array(personSchema),
});
export type AdminDepartment = z.infer<typeof adminDepartmentSchema>;
export const adminDepartmentsResponseSchema = z.object({ data: z.array(adminDepartmentSchema) });
export type AdminDepartmentsResponse = z.infer<typeof adminDepartmentsResponseSchema>;
