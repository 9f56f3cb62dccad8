import {
  alertResponseSchema,
  changeLanguageRequestSchema,
  messageResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { UserService } from './user.service.ts';

export async function userRoutes(
  app: FastifyInstance,
  { user, config }: { user: UserService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['user'];

  r.post(
    '/user/change_language',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Set the account language (EN or RU); e-mails follow it',
        security,
        body: changeLanguageRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => user.changeLanguage(currentUser(request).id, request.body.language),
  );

  r.get(
    '/user/alert',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The newest active alert, or null',
        security,
        response: { 200: alertResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async () => user.currentAlert(),
  );
}
