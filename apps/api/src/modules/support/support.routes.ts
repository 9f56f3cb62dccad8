import multipart from '@fastify/multipart';
import {
  departmentsResponseSchema,
  idParamsSchema,
  ticketActionResponseSchema,
  ticketOpenConflictSchema,
  ticketResponseSchema,
  ticketsQuerySchema,
  ticketsResponseSchema,
  ticketsUnreadResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import {
  contentDisposition,
  MULTIPART_LIMITS,
  readForm,
  screenForm,
} from './support.attachments.ts';
import { TicketOpenError, type SupportService } from './support.service.ts';

/**
 * What a ticket's routes share with the help desk's: the multipart parser with its limits (in
 * this plugin only: every other route keeps refusing multipart bodies), and the 409 of the
 * one-open-ticket rule answered with the open ticket's id (`ticket_id`).
 */
export async function acceptTicketForms(app: FastifyInstance) {
  await app.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof TicketOpenError)
      return reply
        .code(409)
        .send({ message: error.message, code: error.code, ticket_id: error.ticketId });
    // everything else: the app's error handler
    throw error;
  });
}

/** The sandbox every served file gets: no script, no style, no plugin, no same origin. */
export const FILE_CSP = "default-src 'none'; sandbox";

/**
 * Sends an attachment: the original always as a download (its own type, checked by content),
 * the preview (a re-encoded WebP) inline; both `nosniff`, sandboxed, and never in a shared cache.
 */
export function sendAttachment(
  reply: FastifyReply,
  file: { bytes: Buffer; fileName: string; contentType: string },
  which: 'original' | 'preview',
) {
  const name =
    which === 'preview' ? `${file.fileName.replace(/\.[^.]*$/, '')}.webp` : file.fileName;
  return reply
    .type(which === 'preview' ? 'image/webp' : file.contentType)
    .header(
      'content-disposition',
      contentDisposition(which === 'preview' ? 'inline' : 'attachment', name),
    )
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CSP)
    .header('cache-control', 'private')
    .send(file.bytes);
}

export const MULTIPART_NOTE =
  'multipart/form-data; each file a `files` part (at most 5, each a JPEG, PNG, GIF or PDF by content, at most 5 MB: larger ones are cut off unread, 413 ATTACHMENT_TOO_LARGE)';

/** /api/user/support/*: a user's tickets, their threads and files. */
export async function supportRoutes(
  app: FastifyInstance,
  { support, config }: { support: SupportService['user']; config: Config },
) {
  await acceptTicketForms(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  // a new ticket decodes up to five images: the tighter limit (a user opens few)
  const opening = { ...perMinute(config.rateLimitAuthMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['support'];

  r.get(
    '/user/support/departments',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The departments a ticket can be opened in (the active ones, in order)',
        security,
        response: { 200: departmentsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async () => support.departments(),
  );

  r.get(
    '/user/support/tickets',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'The user’s tickets, newest activity first; `status` open (New or Processing) or one status, `department_id`; `unread` when the staff wrote or changed the status since the user last opened it',
        security,
        querystring: ticketsQuerySchema,
        response: { 200: ticketsResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => support.tickets(currentUser(request).id, request.query),
  );

  r.get(
    '/user/support/unread',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'How many of the user’s tickets have news from the staff',
        security,
        response: { 200: ticketsUnreadResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => support.unread(currentUser(request).id),
  );

  r.post(
    '/user/support/tickets',
    {
      config: opening,
      preParsing: async (request) => screenForm(request),
      schema: {
        tags,
        summary: `Open a ticket: ${MULTIPART_NOTE}; fields department_id (an active department), title (1 to 200 characters), text (1 to 1024 characters). 409 TICKET_OPEN_EXISTS with ticket_id when the department has an open ticket of the user`,
        security,
        consumes: ['multipart/form-data'],
        response: {
          201: ticketActionResponseSchema,
          409: ticketOpenConflictSchema,
          ...errorResponses(400, 401, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await support.create(currentUser(request).id, await readForm(request))),
  );

  r.get(
    '/user/support/tickets/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'A ticket of the user with its thread, oldest first (messages and status changes, never the staff’s internal notes); reading it marks it read. Anyone else’s: 404',
        security,
        params: idParamsSchema,
        response: { 200: ticketResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => support.ticket(currentUser(request).id, request.params.id),
  );

  r.post(
    '/user/support/tickets/:id/messages',
    {
      config: routeConfig,
      preParsing: async (request) => screenForm(request),
      schema: {
        tags,
        summary: `Write in a ticket: ${MULTIPART_NOTE}; field text (1 to 1024 characters). A closed ticket is resumed (New), unless another ticket of its department is open: 409 TICKET_OPEN_EXISTS with ticket_id`,
        security,
        params: idParamsSchema,
        consumes: ['multipart/form-data'],
        response: {
          201: ticketActionResponseSchema,
          409: ticketOpenConflictSchema,
          ...errorResponses(400, 401, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await support.write(currentUser(request).id, request.params.id, await readForm(request)),
        ),
  );

  r.post(
    '/user/support/tickets/:id/close',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Close the ticket (409 TICKET_CLOSED when it is); writing in it resumes it',
        security,
        params: idParamsSchema,
        response: { 200: ticketActionResponseSchema, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request) => support.close(currentUser(request).id, request.params.id),
  );

  r.get(
    '/user/support/attachments/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'A file of the user’s ticket (operators: any), always as a download (Content-Disposition attachment, nosniff, a sandboxing CSP). Anyone else’s: 404 ATTACHMENT_NOT_FOUND',
        security,
        params: idParamsSchema,
        // no response schema: the body is the file's bytes
        produces: ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'],
      },
    },
    async (request, reply) =>
      sendAttachment(
        reply,
        await support.attachment(currentUser(request).id, request.params.id, 'original'),
        'original',
      ),
  );

  r.get(
    '/user/support/attachments/:id/preview',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'The preview of an image file: a re-encoded WebP (at most 1280 px a side, no metadata), inline, nosniff, sandboxed. A PDF has none (404)',
        security,
        params: idParamsSchema,
        produces: ['image/webp'],
      },
    },
    async (request, reply) =>
      sendAttachment(
        reply,
        await support.attachment(currentUser(request).id, request.params.id, 'preview'),
        'preview',
      ),
  );
}
