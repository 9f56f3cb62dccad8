import {
  adminUserResponseSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  auditPageSchema,
  auditQuerySchema,
  idParamsSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { AdminService } from './admin.service.ts';

/** /api/admin/*: the operator area, for users with role admin (403 for anyone else). */
export async function adminRoutes(
  app: FastifyInstance,
  { admin, config }: { admin: AdminService; config: Config },
) {
  // the role is read on every call: a demoted operator loses the area at once. Before
  // validation, so a non-admin learns nothing of the area's requests from a 422.
  const { routeConfig, security, tags } = operatorArea(app, admin.isAdmin, config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/admin/users',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Users by e-mail or name, with their balances',
        security,
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.users(request.query),
  );

  r.get(
    '/admin/users/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'A user with their balances',
        security,
        params: idParamsSchema,
        response: { 200: adminUserResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => admin.user(request.params.id),
  );

  r.get(
    '/admin/users/:id/ledger',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "A user's ledger entries, newest first",
        security,
        params: idParamsSchema,
        querystring: ledgerQuerySchema,
        response: { 200: ledgerPageSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => admin.ledger(request.params.id, request.query.page, request.query.per_page),
  );

  r.get(
    '/admin/audit',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The audit log of operator actions and refused notifications, newest first',
        security,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.audit(request.query.page, request.query.per_page),
  );
}
