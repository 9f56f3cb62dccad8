import {
  guardianResponseSchema,
  guardianSettingsSchema,
  idParamsSchema,
  metricsQuerySchema,
  operationResponseSchema,
  serverMetricsSchema,
  snapshotParamsSchema,
  snapshotRequestSchema,
  snapshotsResponseSchema,
  type OperationResponse,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { MachineService } from './vps.machine.service.ts';

/**
 * /api/user/vps/servers/{id}/...: the owner's view into the machine (its load) and its repairs
 * (snapshots, rollback, reinstall, a new password), each an operation answered 202.
 */
export async function vpsMachineRoutes(
  app: FastifyInstance,
  { machine, config }: { machine: MachineService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['vps'];

  r.get(
    '/user/vps/servers/:id/metrics',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          "The server's CPU, memory, network and disk over the last hour, day or week, as the hypervisor measured them",
        security,
        params: idParamsSchema,
        querystring: metricsQuerySchema,
        response: { 200: serverMetricsSchema, ...errorResponses(401, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      // a minute's resolution at best: a page may keep it that long
      reply.header('cache-control', 'private, max-age=30');
      return machine.metrics(currentUser(request).id, request.params.id, request.query.timeframe);
    },
  );

  r.get(
    '/user/vps/servers/:id/guardian',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "The terminal guardian's policy for the server and its last ten incidents",
        security,
        params: idParamsSchema,
        response: { 200: guardianResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => machine.guardian(currentUser(request).id, request.params.id),
  );

  r.put(
    '/user/vps/servers/:id/guardian',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'What the terminal guardian may do when a terminal on the server falls silent: tell only, restart, or restart then reboot',
        security,
        params: idParamsSchema,
        body: guardianSettingsSchema,
        response: { 200: guardianResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      machine.setGuardian(currentUser(request).id, request.params.id, request.body),
  );

  const operated = { 202: operationResponseSchema, ...errorResponses(401, 404, 409, 422, 429) };

  /**
   * A repair of the owner's server: a queued operation answered 202. `call` asks for it as the
   * signed-in user with the path's params (and the body, for a route with `body`), which the
   * schemas have checked.
   */
  function operationRoute<
    Params extends z.ZodMiniType,
    Body extends z.ZodMiniType = z.ZodMiniUndefined,
  >(
    method: 'POST' | 'DELETE',
    url: string,
    summary: string,
    schemas: { params: Params; body?: Body },
    call: (
      userId: number,
      params: z.infer<Params>,
      body: z.infer<Body>,
    ) => Promise<OperationResponse>,
  ) {
    app.route({
      method,
      url,
      config: routeConfig,
      schema: { tags, summary, security, ...schemas, response: operated },
      handler: async (request, reply) => {
        const { params, body } = request as { params: z.infer<Params>; body: z.infer<Body> };
        return reply.code(202).send(await call(currentUser(request).id, params, body));
      },
    });
  }

  r.get(
    '/user/vps/servers/:id/snapshots',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "The server's snapshots, oldest first, and how many it may keep",
        security,
        params: idParamsSchema,
        response: { 200: snapshotsResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => machine.snapshots(currentUser(request).id, request.params.id),
  );

  operationRoute(
    'POST',
    '/user/vps/servers/:id/snapshots',
    'Take a snapshot of the server (at most VPS_SNAPSHOTS_MAX): a queued operation',
    { params: idParamsSchema, body: snapshotRequestSchema },
    (userId, { id }, { name }) => machine.takeSnapshot(userId, id, name),
  );

  operationRoute(
    'POST',
    '/user/vps/servers/:id/snapshots/:snapshotId/rollback',
    'Return the server to the snapshot (what was written since is lost): a queued operation',
    { params: snapshotParamsSchema },
    (userId, { id, snapshotId }) => machine.rollback(userId, id, snapshotId),
  );

  operationRoute(
    'DELETE',
    '/user/vps/servers/:id/snapshots/:snapshotId',
    'Delete the snapshot: a queued operation',
    { params: snapshotParamsSchema },
    (userId, { id, snapshotId }) => machine.deleteSnapshot(userId, id, snapshotId),
  );

  operationRoute(
    'POST',
    '/user/vps/servers/:id/reinstall',
    "Reinstall Windows from the rate's template, keeping the server's number, address and paid period (a snapshot first when there is room): a queued operation",
    { params: idParamsSchema },
    (userId, { id }) => machine.reinstall(userId, id),
  );

  operationRoute(
    'POST',
    '/user/vps/servers/:id/password-reset',
    'Set a new generated Windows password (the server must be running); shown on request like the first: a queued operation',
    { params: idParamsSchema },
    (userId, { id }) => machine.resetPassword(userId, id),
  );
}
