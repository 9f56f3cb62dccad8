import {
  brokersQuerySchema,
  brokersResponseSchema,
  LATENCY_MIN_OWNERS,
  LATENCY_WINDOW_DAYS,
  latencyQuerySchema,
  latencyResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { LatencyService } from './latency.service.ts';

/** /api/user/vps/latency and /api/user/vps/brokers: the order form's latency map. */
export async function latencyRoutes(
  app: FastifyInstance,
  { latency, config }: { latency: LatencyService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const } };
  const security = [{ bearer: [] }];
  const tags = ['vps'];

  r.get(
    '/user/vps/latency',
    {
      ...route,
      schema: {
        tags,
        summary: `Each VPS location's ping to a broker's trade server as monitored terminals measured it over ${LATENCY_WINDOW_DAYS} days: median, 90th percentile and terminals; null where not measured or where fewer than ${LATENCY_MIN_OWNERS} owners' terminals did (no account can be singled out)`,
        security,
        querystring: latencyQuerySchema,
        response: { 200: latencyResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => latency.latency(request.query.broker),
  );

  r.get(
    '/user/vps/brokers',
    {
      ...route,
      schema: {
        tags,
        summary:
          'Broker trade server names starting so (any case) that some monitored terminal measured a ping to: at most 10, alphabetically',
        security,
        querystring: brokersQuerySchema,
        response: { 200: brokersResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => latency.brokers(request.query.query),
  );
}
