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
      // signed in or not: the code's owner visiting their own link is not counted
      config: { ...perMinute(config.rateLimitAuthMax), auth: 'optional' },
      schema: {
        tags: ['partner'],
        summary: 'Record a visit through a partner link (?ref=CODE): once a visitor a day',
        body: clickCreateRequestSchema,
        response: { 201: messageResponseSchema, ...errorResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(
        await clicks.record(request.body.referral_code, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          userId: request.user?.id ?? null,
        }),
      ),
  );
}
