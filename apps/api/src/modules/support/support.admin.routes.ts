import {
  adminDepartmentSchema,
  adminDepartmentsResponseSchema,
  adminTicketActionResponseSchema,
  adminTicketResponseSchema,
  adminTicketsQuerySchema,
  adminTicketsResponseSchema,
  assignTicketRequestSchema,
  cannedRepliesResponseSchema,
  cannedReplyRequestSchema,
  cannedReplySchema,
  departmentRequestSchema,
  idParamsSchema,
  idSchema,
  messageResponseSchema,
  supportQueuesResponseSchema,
  ticketOpenConflictSchema,
  ticketStatusRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { readForm, screenForm } from './support.attachments.ts';
import { acceptTicketForms, MULTIPART_NOTE, sendAttachment } from './support.routes.ts';
import type { SupportService } from './support.service.ts';

/** `:id` of a department or a canned reply (serial keys). */
const serialParams = z.object({ id: idSchema('serial') });

/**
 * /api/admin/support/*: the help desk. Queues per department, the tickets (filtered, searched,
 * waiting longest first), a ticket with its internal notes, replies and notes, assignment,
 * statuses, canned replies and departments. Admins only; every change is audited.
 */
export async function supportAdminRoutes(
  app: FastifyInstance,
  {
    support,
    config,
  }: {
    support: SupportService['admin'];
    config: Config;
  },
) {
  await acceptTicketForms(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);
  const changed = {
    200: adminTicketActionResponseSchema,
    409: ticketOpenConflictSchema,
    ...errorResponses(401, 403, 404, 422, 429),
  };

  r.get(
    '/admin/support/queues',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'The help desk’s queues: each department’s open tickets (new, processing, waiting for an answer) and since when the longest-waiting one waits',
        security,
        response: { 200: supportQueuesResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => support.queues(),
  );

  r.get(
    '/admin/support/tickets',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'Tickets, waiting longest first, then the oldest activity; by department, status (open: New or Processing), assignee (me, none, any) and a search (a ticket number, part of the title or of the user’s e-mail)',
        security,
        querystring: adminTicketsQuerySchema,
        response: { 200: adminTicketsResponseSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => support.tickets(adminId(request), request.query),
  );

  r.get(
    '/admin/support/tickets/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'A ticket with its whole thread, internal notes included',
        security,
        params: idParamsSchema,
        response: { 200: adminTicketResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => support.ticket(request.params.id),
  );

  r.post(
    '/admin/support/tickets/:id/messages',
    {
      config: forRoles('support'),
      // (the role is checked on request, before anything of the body is read or judged)
      preParsing: async (request) => {
        await screenForm(request);
      },
      schema: {
        tags,
        summary: `Reply or add an internal note: ${MULTIPART_NOTE}; fields text (1 to 8000 characters) and internal (true: a note the user never sees; else a reply: the ticket becomes Processing and the user is told, a closed one opens again unless another of its department is: 409 with ticket_id)`,
        security,
        params: idParamsSchema,
        consumes: ['multipart/form-data'],
        response: {
          201: adminTicketActionResponseSchema,
          409: ticketOpenConflictSchema,
          ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await support.write(adminId(request), request.params.id, await readForm(request))),
  );

  r.post(
    '/admin/support/tickets/:id/assign',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Take the ticket (`me`) or give it back (null)',
        security,
        params: idParamsSchema,
        body: assignTicketRequestSchema,
        response: changed,
      },
    },
    async (request) => support.assign(adminId(request), request.params.id, request.body.assignee),
  );

  r.post(
    '/admin/support/tickets/:id/status',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'Set the status (New, Processing, Closed): a status entry in the thread and a mail to the user; reopening keeps one open ticket per department (409 with ticket_id)',
        security,
        params: idParamsSchema,
        body: ticketStatusRequestSchema,
        response: changed,
      },
    },
    async (request) => support.setStatus(adminId(request), request.params.id, request.body.status),
  );

  r.get(
    '/admin/support/attachments/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'A ticket’s file as a download (Content-Disposition attachment, nosniff, a sandboxing CSP)',
        security,
        params: idParamsSchema,
        produces: ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await support.attachment(request.params.id, 'original'), 'original'),
  );

  r.get(
    '/admin/support/attachments/:id/preview',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'The re-encoded WebP preview of an image file, inline, nosniff, sandboxed',
        security,
        params: idParamsSchema,
        produces: ['image/webp'],
      },
    },
    async (request, reply) =>
      sendAttachment(reply, await support.attachment(request.params.id, 'preview'), 'preview'),
  );

  // ---- canned replies ----------------------------------------------------------------------

  const cannedAnswer = z.object({ reply: cannedReplySchema, message: z.string() });

  r.get(
    '/admin/support/canned',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'The canned replies, by title (each in English and Russian)',
        security,
        response: { 200: cannedRepliesResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => support.cannedReplies(),
  );

  r.post(
    '/admin/support/canned',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Add a canned reply',
        security,
        body: cannedReplyRequestSchema,
        response: { 201: cannedAnswer, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await support.createCannedReply(adminId(request), request.body)),
  );

  r.put(
    '/admin/support/canned/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Change a canned reply',
        security,
        params: serialParams,
        body: cannedReplyRequestSchema,
        response: { 200: cannedAnswer, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request) => support.updateCannedReply(adminId(request), request.params.id, request.body),
  );

  r.delete(
    '/admin/support/canned/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Delete a canned reply',
        security,
        params: serialParams,
        response: { 200: messageResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => support.deleteCannedReply(adminId(request), request.params.id),
  );

  // ---- departments -------------------------------------------------------------------------

  const departmentAnswer = z.object({ department: adminDepartmentSchema, message: z.string() });

  r.get(
    '/admin/support/departments',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'Every department (inactive ones too) with the operators its mail goes to (none: every operator)',
        security,
        response: { 200: adminDepartmentsResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => support.departments(),
  );

  r.post(
    '/admin/support/departments',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary:
          'Add a department: names in both languages, position, active, operator_ids (operators whose mail it is)',
        security,
        body: departmentRequestSchema,
        response: { 201: departmentAnswer, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await support.createDepartment(adminId(request), request.body)),
  );

  r.put(
    '/admin/support/departments/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Change a department (an inactive one takes no new tickets; its open ones go on)',
        security,
        params: serialParams,
        body: departmentRequestSchema,
        response: { 200: departmentAnswer, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request) => support.updateDepartment(adminId(request), request.params.id, request.body),
  );
}
