import {
  actionParamsSchema,
  activityPageSchema,
  activityQuerySchema,
  autoRenewRequestSchema,
  commentRequestSchema,
  credentialsResponseSchema,
  idParamsSchema,
  operationResponseSchema,
  orderRequestSchema,
  paidResponseSchema,
  promocodeQuerySchema,
  promocodeResponseSchema,
  ratesResponseSchema,
  renewRequestSchema,
  serverResponseSchema,
  serversPageSchema,
  serversQuerySchema,
  testServerRequestSchema,
  testServerResponseSchema,
  upgradeRequestSchema,
  upgradeResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/transaction.ts';
import { securityContextOf } from '../../db/security-events.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import type { Dispatching, VpsService } from './vps.service.ts';

/** /api/user/vps/*: rates, ordering, the servers list and its controls, test servers. */
export async function vpsRoutes(
  app: FastifyInstance,
  { vps, idempotency, config }: { vps: VpsService; idempotency: Idempotency; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['vps'];

  /**
   * A money-moving POST: once per Idempotency-Key; the operations it wrote are dispatched after
   * its transaction committed (a replay dispatches nothing, its work having run before).
   */
  async function paid<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    work: (tx: Tx, userId: number) => Promise<Dispatching<T>>,
  ) {
    let dispatch: number[] = [];
    const sent = await idempotency.respond(request, reply, async (tx, userId) => {
      const result = await work(tx, userId);
      // assigned, not appended: a transaction run again keeps only its last attempt's
      dispatch = result.dispatch;
      return result.outcome;
    });
    await vps.dispatch(dispatch);
    return sent;
  }

  r.get(
    '/user/vps/rates',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The rates on offer, the rental periods with their discounts, the test server',
        security,
        response: { 200: ratesResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => vps.rates(currentUser(request).id),
  );

  r.get(
    '/user/vps/promocode',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "A promocode's discount (it applies to a 1-month rental)",
        security,
        querystring: promocodeQuerySchema,
        response: { 200: promocodeResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => vps.promocode(currentUser(request).id, request.query.code),
  );

  r.post(
    '/user/vps/order',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Order a server, paid from the balance; it is created in the background',
        security,
        headers: idempotencyHeaders,
        body: orderRequestSchema,
        response: { 201: paidResponseSchema, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      paid(request, reply, (tx, userId) => vps.order(tx, userId, request.body)),
  );

  r.get(
    '/user/vps/servers',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "The reader's servers, newest first: search by number, filter by status",
        security,
        querystring: serversQuerySchema,
        response: { 200: serversPageSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => vps.servers(currentUser(request).id, request.query),
  );

  r.get(
    '/user/vps/servers/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'One server (the console polls it while an operation runs)',
        security,
        params: idParamsSchema,
        response: { 200: serverResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => vps.server(currentUser(request).id, request.params.id),
  );

  r.patch(
    '/user/vps/servers/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "Set the server's comment",
        security,
        params: idParamsSchema,
        body: commentRequestSchema,
        response: { 200: serverResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      vps.comment(currentUser(request).id, request.params.id, request.body.comment),
  );

  r.post(
    '/user/vps/servers/:id/credentials',
    {
      // a secret leaves: a fresh proof of the owner first (403 STEP_UP_REQUIRED)
      config: { ...routeConfig, stepUp: true },
      schema: {
        tags,
        summary:
          'Reveal the login details (host, port, user, password); audited; needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        params: idParamsSchema,
        response: { 200: credentialsResponseSchema, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return vps.credentials(
        currentUser(request).id,
        request.params.id,
        securityContextOf(request),
      );
    },
  );

  r.get(
    '/user/vps/servers/:id/activity',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          "The server's activity, newest first: its operations and the owner's other actions on it, with who and the outcome",
        security,
        params: idParamsSchema,
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => vps.activity(currentUser(request).id, request.params.id, request.query),
  );

  r.get(
    '/user/vps/servers/:id/rdp',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'A Remote Desktop (.rdp) file for the server, without the password',
        security,
        params: idParamsSchema,
        produces: ['application/x-rdp'],
      },
    },
    async (request, reply) => {
      const file = await vps.rdp(currentUser(request).id, request.params.id);
      return reply
        .type('application/x-rdp; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );

  r.post(
    '/user/vps/servers/:id/renew',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Renew a server for a period, paid from the balance',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: renewRequestSchema,
        response: { 200: paidResponseSchema, ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      paid(request, reply, (tx, userId) =>
        vps.renew(tx, userId, request.params.id, request.body.months),
      ),
  );

  r.put(
    '/user/vps/servers/:id/auto-renew',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Switch auto-renewal on or off (and the period it pays for)',
        security,
        params: idParamsSchema,
        body: autoRenewRequestSchema,
        response: { 200: serverResponseSchema, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request) => vps.autoRenew(currentUser(request).id, request.params.id, request.body),
  );

  r.post(
    '/user/vps/servers/:id/actions/:action',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Start, shut down or reboot: 202 with the operation, one at a time per server',
        security,
        params: actionParamsSchema,
        response: { 202: operationResponseSchema, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { id, action } = request.params;
      return reply.code(202).send(await vps.action(currentUser(request).id, id, action));
    },
  );

  r.post(
    '/user/vps/servers/:id/upgrade',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Upgrade to a larger rate on a chosen date, paid now for the remaining days',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: upgradeRequestSchema,
        response: { 202: upgradeResponseSchema, ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      paid(request, reply, (tx, userId) =>
        vps.upgrade(tx, userId, request.params.id, request.body),
      ),
  );

  r.post(
    '/user/vps/test-server',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Ask for a free test server (one per user), reviewed within one business day',
        security,
        body: testServerRequestSchema,
        response: { 201: testServerResponseSchema, ...errorResponses(401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await vps.requestTestServer(currentUser(request).id, request.body)),
  );
}
