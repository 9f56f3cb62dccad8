import {
  createPortfolioRequestSchema,
  idParamsSchema,
  monitoringIdParamsSchema,
  portfolioDeletedResponseSchema,
  portfolioResponseSchema,
  portfoliosQuerySchema,
  portfoliosResponseSchema,
  publicPortfolioResponseSchema,
  updatePortfolioRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { PortfolioService } from './monitoring.portfolios.service.ts';

/**
 * /api/user/monitoring/portfolios/*: the reader's portfolios (several of their monitored accounts
 * seen as one); /api/monitoring/portfolios/:monitoringId: a shared one's public page, signed in
 * or out, 404 in the same words for a private and a missing one.
 */
export async function monitoringPortfolioRoutes(
  app: FastifyInstance,
  { portfolios, config }: { portfolios: PortfolioService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const } };
  const security = [{ bearer: [] }];
  const tags = ['monitoring'];

  r.get(
    '/user/monitoring/portfolios',
    {
      ...route,
      schema: {
        tags,
        summary:
          "The reader's portfolios with their combined gain and drawdown, or the one of a public id",
        security,
        querystring: portfoliosQuerySchema,
        response: { 200: portfoliosResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => portfolios.list(currentUser(request).id, request.query.monitoring_id),
  );

  r.post(
    '/user/monitoring/portfolios',
    {
      ...route,
      schema: {
        tags,
        summary:
          'Combine 2 to 20 of the reader’s accounts into a portfolio (20 portfolios at most)',
        security,
        body: createPortfolioRequestSchema,
        response: { 201: portfolioResponseSchema, ...errorResponses(401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await portfolios.create(currentUser(request).id, request.body)),
  );

  r.get(
    '/user/monitoring/portfolios/:id',
    {
      ...route,
      schema: {
        tags,
        summary:
          "A portfolio's combined figures (the time-weighted gain, the summed equity in one currency), its accounts and its series",
        security,
        params: idParamsSchema,
        response: { 200: portfolioResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => portfolios.get(currentUser(request).id, request.params.id),
  );

  r.patch(
    '/user/monitoring/portfolios/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Rename a portfolio, change its accounts, share it or hide its money',
        security,
        params: idParamsSchema,
        body: updatePortfolioRequestSchema,
        response: { 200: portfolioResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => portfolios.update(currentUser(request).id, request.params.id, request.body),
  );

  r.delete(
    '/user/monitoring/portfolios/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete a portfolio (its accounts stay as they are)',
        security,
        params: idParamsSchema,
        response: { 200: portfolioDeletedResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      await portfolios.remove(currentUser(request).id, request.params.id);
      return { message: 'The portfolio has been deleted' };
    },
  );

  r.get(
    '/monitoring/portfolios/:monitoringId',
    {
      config: perMinute(config.rateLimitUserMax),
      schema: {
        tags: ['monitoring (public)'],
        summary:
          "A public portfolio: its combined figures, series and accounts (a private account's gain and drawdown only); counts the visit once per visitor a day",
        params: monitoringIdParamsSchema,
        response: { 200: publicPortfolioResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) =>
      portfolios.publicPage(request.params.monitoringId, {
        ip: request.ip,
        agent: request.headers['user-agent'] ?? '',
      }),
  );
}
