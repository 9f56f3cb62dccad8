import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../deps.ts';
import { latencyAdminRoutes } from './latency.admin.routes.ts';
import { latencyRoutes } from './latency.routes.ts';
import { createLatencyService } from './latency.service.ts';

/**
 * The latency map's module, registered under /api as one piece: its service, the users' routes
 * (the order form's) and the operators' route.
 */
export async function latencyModule(api: FastifyInstance, deps: ServiceDeps) {
  const latency = createLatencyService(deps);
  await api.register(latencyRoutes, { latency, config: deps.config });
  await api.register(latencyAdminRoutes, { latency, config: deps.config });
}
