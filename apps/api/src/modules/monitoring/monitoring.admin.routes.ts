import {
  adminExtendRequestSchema,
  adminMonitoringAccountsPageSchema,
  adminMonitoringAccountsQuerySchema,
  adminSubscriptionSchema,
  adminSubscriptionsPageSchema,
  adminSubscriptionsQuerySchema,
  idParamsSchema,
  monitoringPricesRequestSchema,
  monitoringPricesSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import type { MonitoringAdminService } from './monitoring.admin.service.ts';

const extendedResponse = z.object({ subscription: adminSubscriptionSchema, message: z.string() });

/** /api/admin/monitoring/*: the prices, every subscription (extend one), every account. */
export async function monitoringAdminRoutes(
  app: FastifyInstance,
  {
    monitoringAdmin,
    idempotency,
    config,
  }: {
    monitoringAdmin: MonitoringAdminService;
    idempotency: Idempotency;
    config: Config;
  },
) {
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/admin/monitoring/prices',
    {
      config: forRoles('billing', 'monitoring'),
      schema: {
        tags,
        summary: "Monitoring prices: the account-month price and the periods' discounts",
        security,
        response: { 200: monitoringPricesSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => monitoringAdmin.prices(),
  );

  r.put(
    '/admin/monitoring/prices',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          'Set the account-month price (dollars) and the discounts of the periods given; new orders pay them',
        security,
        body: monitoringPricesRequestSchema,
        response: { 200: monitoringPricesSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => monitoringAdmin.updatePrices(adminId(request), request.body),
  );

  r.get(
    '/admin/monitoring/subscriptions',
    {
      config: forRoles('monitoring'),
      schema: {
        tags,
        summary: 'Every monitoring subscription, newest first',
        security,
        querystring: adminSubscriptionsQuerySchema,
        response: { 200: adminSubscriptionsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => monitoringAdmin.subscriptions(request.query),
  );

  r.post(
    '/admin/monitoring/subscriptions/:id/extend',
    {
      config: forRoles('monitoring'),
      schema: {
        tags,
        summary:
          'Extend a paid subscription free of charge, with the reason (audited; Idempotency-Key)',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: adminExtendRequestSchema,
        response: { 200: extendedResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotency.respond(request, reply, (tx, adminId) =>
        monitoringAdmin.extend(tx, adminId, request.params.id, request.body),
      ),
  );

  r.get(
    '/admin/monitoring/accounts',
    {
      config: forRoles('monitoring'),
      schema: {
        tags,
        summary:
          "Every monitored account, newest first, with its publisher's version and last data",
        security,
        querystring: adminMonitoringAccountsQuerySchema,
        response: { 200: adminMonitoringAccountsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => monitoringAdmin.accounts(request.query),
  );
}
