import {
  adjustmentRequestSchema,
  adjustmentResponseSchema,
  adminPaymentResponseSchema,
  adminPaymentsPageSchema,
  adminPaymentsQuerySchema,
  declineApprovalSchema,
  idParamsSchema,
  moneyApprovalResponseSchema,
  moneyApprovalsPageSchema,
  moneyApprovalsQuerySchema,
  rejectPaymentRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import type { BalanceAdminService } from './balance.admin.service.ts';

/** The operator's money routes: the crypto review queue and balance corrections (role billing). */
export async function balanceAdminRoutes(
  app: FastifyInstance,
  {
    admin,
    idempotency,
    config,
  }: {
    admin: BalanceAdminService;
    idempotency: Idempotency;
    config: Config;
  },
) {
  const { forRoles, security, tags } = operatorArea(config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/admin/payments',
    {
      config: forRoles('billing'),
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
      config: forRoles('billing'),
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
      return idempotency.respond(
        request,
        reply,
        (tx, adminId) => admin.confirm(tx, adminId, id),
        // the user's notice once, after the commit: not again for a replayed answer
        () => admin.tellConfirmed(id),
      );
    },
  );

  r.post(
    '/admin/payments/:id/reject',
    {
      config: forRoles('billing'),
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

  r.post(
    '/admin/users/:id/adjustments',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Adjust a balance by a signed amount, with a reason (audited); above OPERATOR_APPROVAL_ABOVE it waits for a second operator (202)',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: adjustmentRequestSchema,
        response: {
          201: adjustmentResponseSchema,
          202: moneyApprovalResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(
        request,
        reply,
        (tx, adminId) => admin.adjust(tx, adminId, id, request.body),
        (outcome) => admin.tellAdjusted(outcome.body),
      );
    },
  );

  r.get(
    '/admin/approvals',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Adjustments and payouts waiting for a second operator (oldest first), or every request',
        security,
        querystring: moneyApprovalsQuerySchema,
        response: { 200: moneyApprovalsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.approvals(request.query),
  );

  r.post(
    '/admin/adjustments/:id/approve',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          "Approve an adjustment another operator asked for: it takes effect now (not the requester's own)",
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        response: {
          200: adjustmentResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(
        request,
        reply,
        (tx, adminId) => admin.approveAdjustment(tx, adminId, id),
        (outcome) => admin.tellAdjusted(outcome.body),
      );
    },
  );

  r.post(
    '/admin/adjustments/:id/decline',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Decline an adjustment waiting for approval, with a reason (or withdraw your own)',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: declineApprovalSchema,
        response: {
          200: moneyApprovalResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return idempotency.respond(request, reply, (tx, adminId) =>
        admin.declineAdjustment(tx, adminId, id, request.body.reason),
      );
    },
  );
}
