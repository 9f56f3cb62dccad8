import { clickCreateRequestSchema, messageResponseSchema } from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { ClicksService } from './clicks.service.ts';

export async function clicksRoutes(
  app: FastifyInstance,
  { clicks, config }: { clicks: ClicksService; config: Config },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/clicks/create',
    {
      config: perMinute(config.rateLimitAuthMax),
      schema: {
        tags: ['partner'],
        summary: 'Record a visit through a partner link (?ref=CODE)',
        body: clickCreateRequestSchema,
        response: { 201: messageResponseSchema, ...errorResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await clicks.record(request.body.referral_code, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        }),
      ),
  );
}
