import {
  adminOperationSchema,
  adminOperationsPageSchema,
  adminOperationsQuerySchema,
  adminPromocodeSchema,
  adminPromocodesPageSchema,
  adminPromocodesQuerySchema,
  adminRateSchema,
  adminRatesResponseSchema,
  adminServerSchema,
  adminServersPageSchema,
  adminServersQuerySchema,
  adminTestRequestSchema,
  adminTestRequestsPageSchema,
  adminTestRequestsQuerySchema,
  discountsRequestSchema,
  failOperationRequestSchema,
  idParamsSchema,
  rateIdParamsSchema,
  periodDiscountSchema,
  promocodeInputSchema,
  promocodeUpdateSchema,
  rateInputSchema,
  rateUpdateSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { AdminVpsService } from './vps.admin.service.ts';

// the answers of the operator's changes: the changed item under its name
const rateResponse = z.object({ rate: adminRateSchema });
const discountsResponse = z.object({ periods: z.array(periodDiscountSchema) });
const promocodeResponse = z.object({ promocode: adminPromocodeSchema });
const approvedResponse = z.object({
  test_request: adminTestRequestSchema,
  server: adminServerSchema,
});
const testRequestResponse = z.object({ test_request: adminTestRequestSchema });
const operationResponse = z.object({ operation: adminOperationSchema });
/** A rejected test request's reason, shown to the user (the same rule as a failed operation's). */
const rejectRequestSchema = failOperationRequestSchema;

/** /api/admin/vps/*: rates, discounts, promocodes, test servers, servers and operations. */
export async function adminVpsRoutes(
  app: FastifyInstance,
  { adminVps, config }: { adminVps: AdminVpsService; config: Config },
) {
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/admin/vps/rates',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Every rate (active or not, with its servers) and the period discounts',
        security,
        response: { 200: adminRatesResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => adminVps.rates(),
  );

  r.post(
    '/admin/vps/rates',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Add a rate',
        security,
        body: rateInputSchema,
        response: { 201: rateResponse, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await adminVps.createRate(adminId(request), request.body)),
  );

  r.patch(
    '/admin/vps/rates/:id',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Change a rate (an inactive one is no longer offered; its servers keep running)',
        security,
        params: rateIdParamsSchema,
        body: rateUpdateSchema,
        response: { 200: rateResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => adminVps.updateRate(adminId(request), request.params.id, request.body),
  );

  r.put(
    '/admin/vps/discounts',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: "Set the rental periods' discounts",
        security,
        body: discountsRequestSchema,
        response: { 200: discountsResponse, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => adminVps.updateDiscounts(adminId(request), request.body),
  );

  r.get(
    '/admin/vps/promocodes',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Promocodes, newest first',
        security,
        querystring: adminPromocodesQuerySchema,
        response: { 200: adminPromocodesPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => adminVps.promocodes(request.query),
  );

  r.post(
    '/admin/vps/promocodes',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Add a promocode (a discount on a 1-month rental)',
        security,
        body: promocodeInputSchema,
        response: { 201: promocodeResponse, ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await adminVps.createPromocode(adminId(request), request.body)),
  );

  r.patch(
    '/admin/vps/promocodes/:id',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: 'Switch a promocode on or off',
        security,
        params: idParamsSchema,
        body: promocodeUpdateSchema,
        response: { 200: promocodeResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => adminVps.updatePromocode(adminId(request), request.params.id, request.body),
  );

  r.get(
    '/admin/vps/test-requests',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Test-server requests by status (the queue: under_review, oldest first)',
        security,
        querystring: adminTestRequestsQuerySchema,
        response: { 200: adminTestRequestsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => adminVps.testRequests(request.query),
  );

  r.post(
    '/admin/vps/test-requests/:id/approve',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Approve a test server: a free trial server is created',
        security,
        params: idParamsSchema,
        response: { 200: approvedResponse, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request) => adminVps.approveTestRequest(adminId(request), request.params.id),
  );

  r.post(
    '/admin/vps/test-requests/:id/reject',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Decline a test server with a reason shown to the user',
        security,
        params: idParamsSchema,
        body: rejectRequestSchema,
        response: { 200: testRequestResponse, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      adminVps.rejectTestRequest(adminId(request), request.params.id, request.body.reason),
  );

  r.get(
    '/admin/vps/servers',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: "Every server, newest first: by number or the owner's e-mail, and status",
        security,
        querystring: adminServersQuerySchema,
        response: { 200: adminServersPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => adminVps.servers(request.query),
  );

  r.get(
    '/admin/vps/operations',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'The operations log, newest first (status=stuck: waiting or running too long)',
        security,
        querystring: adminOperationsQuerySchema,
        response: { 200: adminOperationsPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => adminVps.operations(request.query),
  );

  r.post(
    '/admin/vps/operations/:id/retry',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Queue a stuck operation again',
        security,
        params: idParamsSchema,
        response: { 200: operationResponse, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request) => adminVps.retryOperation(adminId(request), request.params.id),
  );

  r.post(
    '/admin/vps/operations/:id/fail',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: 'Fail a queued or running operation with a reason (a failed create is refunded)',
        security,
        params: idParamsSchema,
        body: failOperationRequestSchema,
        response: { 200: operationResponse, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      adminVps.failOperation(adminId(request), request.params.id, request.body.reason),
  );
}
