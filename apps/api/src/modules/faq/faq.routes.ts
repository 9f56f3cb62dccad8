import { faqResponseSchema } from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { FaqService } from './faq.service.ts';

/** /api/user/faq: the published questions, which the console's FAQ page searches itself. */
export async function faqRoutes(
  app: FastifyInstance,
  { faq, config }: { faq: FaqService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/user/faq',
    {
      config: { ...perMinute(config.rateLimitUserMax), auth: 'required' },
      schema: {
        tags: ['faq'],
        summary:
          'The published FAQ: groups partners, support, monitoring, monitoring_guide in that order, each by position',
        security: [{ bearer: [] }],
        response: { 200: faqResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async () => faq.published(),
  );
}
