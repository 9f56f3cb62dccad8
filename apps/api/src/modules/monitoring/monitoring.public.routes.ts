import {
  chartResponseSchema,
  excursionsResponseSchema,
  monitoringIdParamsSchema,
  positionsResponseSchema,
  publicAccountResponseSchema,
  tradesQuerySchema,
  tradesResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { MonitoringReads } from './monitoring.reads.ts';

/**
 * /api/monitoring/:monitoringId: an account's public page, signed in or out, less what its owner
 * hid. A private or missing account, or a hidden part, is 404 in the same words.
 */
export async function monitoringPublicRoutes(
  app: FastifyInstance,
  { reads, config }: { reads: MonitoringReads; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: perMinute(config.rateLimitUserMax) };
  const tags = ['monitoring (public)'];
  const params = monitoringIdParamsSchema;

  r.get(
    '/monitoring/:monitoringId',
    {
      ...route,
      schema: {
        tags,
        summary: 'A public account and its statistics; counts the visit once per visitor a day',
        params,
        response: { 200: publicAccountResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) =>
      reads.publicPage(request.params.monitoringId, {
        ip: request.ip,
        agent: request.headers['user-agent'] ?? '',
      }),
  );

  r.get(
    '/monitoring/:monitoringId/chart',
    {
      ...route,
      schema: {
        tags,
        summary: "A public account's growth and drawdown charts",
        params,
        response: { 200: chartResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => reads.publicChart(request.params.monitoringId),
  );

  r.get(
    '/monitoring/:monitoringId/trades',
    {
      ...route,
      schema: {
        tags,
        summary: "A public account's closed trades, unless its owner hides the history",
        params,
        querystring: tradesQuerySchema,
        response: { 200: tradesResponseSchema, ...errorResponses(404, 422, 429) },
      },
    },
    async (request) => reads.publicTrades(request.params.monitoringId, request.query),
  );

  r.get(
    '/monitoring/:monitoringId/excursions',
    {
      ...route,
      schema: {
        tags,
        summary:
          "A public account's closed trades with their excursions (MAE and MFE), unless its owner hides the history",
        params,
        response: { 200: excursionsResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => reads.publicExcursions(request.params.monitoringId),
  );

  r.get(
    '/monitoring/:monitoringId/positions',
    {
      ...route,
      schema: {
        tags,
        summary: "A public account's open positions, unless its owner hides them",
        params,
        response: { 200: positionsResponseSchema, ...errorResponses(404, 429) },
      },
    },
    async (request) => reads.publicPositions(request.params.monitoringId),
  );
}
