import {
  adminWithdrawalResponseSchema,
  adminWithdrawalsPageSchema,
  adminWithdrawalsQuerySchema,
  declineApprovalSchema,
  partnerSettingsSchema,
  payWithdrawalSchema,
  rejectWithdrawalSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { partnerSummaryRoute, type PartnerSummary } from './partner.admin.summary.ts';
import type { PartnerSettingsService } from './partner.settings.ts';
import type { Withdrawals } from './partner.withdrawals.ts';

const idParams = z.object({ id: z.coerce.number().check(z.int(), z.positive()) });

/**
 * /api/admin/partner/*: the withdrawal queue (review, pay out, cancel), the settings and a user's
 * partner figures. Role billing.
 */
export async function partnerAdminRoutes(
  app: FastifyInstance,
  {
    withdrawals,
    settings,
    summary,
    config,
  }: {
    withdrawals: Withdrawals;
    settings: PartnerSettingsService;
    summary: PartnerSummary;
    config: Config;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);
  const decided = {
    200: adminWithdrawalResponseSchema,
    ...errorResponses(401, 403, 404, 409, 422, 429),
  };

  r.get(
    '/admin/partner/withdrawals',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Partner withdrawals: the open ones oldest first (overdue marked), or all',
        security,
        querystring: adminWithdrawalsQuerySchema,
        response: { 200: adminWithdrawalsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => withdrawals.queue(request.query),
  );

  r.post(
    '/admin/partner/withdrawals/:id/review',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Take a received withdrawal for review (Under review)',
        security,
        params: idParams,
        response: decided,
      },
    },
    async (request) => withdrawals.review(adminId(request), request.params.id),
  );

  r.post(
    '/admin/partner/withdrawals/:id/pay',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Mark a withdrawal paid out, with the payment reference; the partner is told. Above OPERATOR_APPROVAL_ABOVE it waits for a second operator (202)',
        security,
        params: idParams,
        body: payWithdrawalSchema,
        response: { ...decided, 202: adminWithdrawalResponseSchema },
      },
    },
    async (request, reply) => {
      const { status, body } = await withdrawals.pay(
        adminId(request),
        request.params.id,
        request.body.reference,
      );
      return reply.code(status).send(body);
    },
  );

  r.post(
    '/admin/partner/payouts/:id/approve',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          "Approve a payout another operator asked for: the withdrawal is paid out (not the requester's own)",
        security,
        params: idParams,
        response: decided,
      },
    },
    async (request) => withdrawals.approvePayout(adminId(request), request.params.id),
  );

  r.post(
    '/admin/partner/payouts/:id/decline',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Decline a payout waiting for approval, with a reason (or withdraw your own): the request stays open',
        security,
        params: idParams,
        body: declineApprovalSchema,
        response: decided,
      },
    },
    async (request) =>
      withdrawals.declinePayout(adminId(request), request.params.id, request.body.reason),
  );

  r.post(
    '/admin/partner/withdrawals/:id/reject',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Cancel a withdrawal with a reason: the amount returns to the partner balance',
        security,
        params: idParams,
        body: rejectWithdrawalSchema,
        response: decided,
      },
    },
    async (request) => withdrawals.reject(adminId(request), request.params.id, request.body.reason),
  );

  r.get(
    '/admin/partner/settings',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: "The programme's settings: each level's percentage, the promocode discount tiers",
        security,
        response: { 200: partnerSettingsSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => settings.read(),
  );

  r.put(
    '/admin/partner/settings',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Change the percentages and tiers (granted rewards and made promocodes keep theirs)',
        security,
        body: partnerSettingsSchema,
        response: { 200: partnerSettingsSchema, ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request) => settings.update(adminId(request), request.body),
  );

  partnerSummaryRoute(app, summary, { forRoles, security, tags });
}
