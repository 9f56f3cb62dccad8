import { permissionsSchema } from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { FrontService } from './front.service.ts';

export async function frontRoutes(
  app: FastifyInstance,
  { front, config }: { front: FrontService; config: Config },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/front/permissions',
    {
      // public: the flags are not secret, and a bearer token (if sent) is simply not needed
      config: perMinute(config.rateLimitUserMax),
      schema: {
        tags: ['front'],
        summary: 'Which optional pages (partner, monitoring) the console shows',
        response: { 200: permissionsSchema, ...errorResponses(429) },
      },
    },
    async () => front.permissions(),
  );
}
