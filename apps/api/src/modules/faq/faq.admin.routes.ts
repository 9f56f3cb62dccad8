import {
  faqItemActionResponseSchema,
  faqItemRequestSchema,
  faqResponseSchema,
  idSchema,
  messageResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { FaqService } from './faq.service.ts';

// a path naming no row there can be (abc, 0, past the column) is 404 NOT_FOUND
const idParams = z.object({ id: idSchema('serial') });

/** /api/admin/faq: every question, published or not, and its editing. Role support, audited. */
export async function faqAdminRoutes(
  app: FastifyInstance,
  { faq, config }: { faq: FaqService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);

  r.get(
    '/admin/faq',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Every FAQ question, published or not, in the order users see them',
        security,
        response: { 200: faqResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => faq.all(),
  );

  r.post(
    '/admin/faq',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Add a question (409 FAQ_SLUG_TAKEN when another one has the link name)',
        security,
        body: faqItemRequestSchema,
        response: {
          201: faqItemActionResponseSchema,
          ...errorResponses(400, 401, 403, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return faq.create(adminId(request), request.body);
    },
  );

  r.put(
    '/admin/faq/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Replace a question: group, link name, position, both languages, published',
        security,
        params: idParams,
        body: faqItemRequestSchema,
        response: {
          200: faqItemActionResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request) => faq.update(adminId(request), request.params.id, request.body),
  );

  r.delete(
    '/admin/faq/:id',
    {
      config: forRoles('support'),
      schema: {
        tags,
        summary: 'Delete a question (its link stops working)',
        security,
        params: idParams,
        response: { 200: messageResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => faq.remove(adminId(request), request.params.id),
  );
}
