import {
  adjustmentRequestSchema,
  adjustmentResponseSchema,
  adminPaymentResponseSchema,
  adminPaymentsPageSchema,
  adminPaymentsQuerySchema,
  adminUserResponseSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  auditPageSchema,
  auditQuerySchema,
  idParamsSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  rejectPaymentRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { idempotencyHeaders, type Idempotency } from '../idempotency/idempotency.ts';
import type { AdminService } from './admin.service.ts';

/** /api/admin/*: the operator area, for users with role admin (403 for anyone else). */
export async function adminRoutes(
  app: FastifyInstance,
  { admin, idempotency, config }: { admin: AdminService; idempotency: Idempotency; config: Config },
) {
  // the role is read on every call: a demoted operator loses the area at once. Before
  // validation, so a non-admin learns nothing of the area's requests from a 422.
  const { routeConfig, security, tags } = operatorArea(app, admin.isAdmin, config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/admin/payments',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Payments by status (the crypto review queue: under_review, oldest first)',
        security,
        querystring: adminPaymentsQuerySchema,
        response: { 200: adminPaymentsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.payments(request.query),
  );

  r.post(
    '/admin/payments/:id/confirm',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Confirm a crypto payment: Paid, the balance credited',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        response: {
          200: adminPaymentResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(request, reply, (tx, adminId) => admin.confirm(tx, adminId, id));
    },
  );

  r.post(
    '/admin/payments/:id/reject',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Reject a crypto payment with a reason shown to the user',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: rejectPaymentRequestSchema,
        response: {
          200: adminPaymentResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(request, reply, (tx, adminId) =>
        admin.reject(tx, adminId, id, request.body.reason),
      );
    },
  );

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

  r.post(
    '/admin/users/:id/adjustments',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Adjust a balance by a signed amount, with a reason (audited)',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: adjustmentRequestSchema,
        response: {
          201: adjustmentResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(request, reply, (tx, adminId) =>
        admin.adjust(tx, adminId, id, request.body),
      );
    },
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
