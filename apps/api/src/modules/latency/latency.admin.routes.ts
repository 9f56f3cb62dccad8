import {
  adminLatencyPageSchema,
  adminLatencyQuerySchema,
  LATENCY_MIN_OWNERS,
  LATENCY_WINDOW_DAYS,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { LatencyService } from './latency.service.ts';

/** /api/admin/vps/latency: where to put servers, for the operators of the VPS service. */
export async function latencyAdminRoutes(
  app: FastifyInstance,
  { latency, config }: { latency: LatencyService; config: Config },
) {
  const { forRoles, security, tags } = operatorArea(config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/admin/vps/latency',
    {
      config: forRoles('vps'),
      schema: {
        tags,
        summary: `Broker trade servers by VPS location with the ping measured over ${LATENCY_WINDOW_DAYS} days (median, 90th percentile, terminals), by location then the most terminals; only those measured by terminals of at least ${LATENCY_MIN_OWNERS} owners, as users see them`,
        security,
        querystring: adminLatencyQuerySchema,
        response: { 200: adminLatencyPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => latency.page(request.query),
  );
}
