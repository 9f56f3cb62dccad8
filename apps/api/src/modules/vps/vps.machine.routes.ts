import { idParamsSchema, metricsQuerySchema, serverMetricsSchema } from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { MachineService } from './vps.machine.service.ts';

/** /api/user/vps/servers/{id}/...: the owner's view into the machine (its load). */
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
}
