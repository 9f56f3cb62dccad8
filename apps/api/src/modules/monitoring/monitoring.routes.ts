import {
  chartResponseSchema,
  enlargeRequestSchema,
  excursionsResponseSchema,
  extendRequestSchema,
  positionsResponseSchema,
  tradesQuerySchema,
  tradesResponseSchema,
  accountDeletedResponseSchema,
  activationKeyResponseSchema,
  addAccountRequestSchema,
  idParamsSchema,
  monitoringAccountResponseSchema,
  monitoringAccountsQuerySchema,
  monitoringAccountsResponseSchema,
  monitoringPlansSchema,
  pingQuerySchema,
  pingResponseSchema,
  subscribedResponseSchema,
  subscribeRequestSchema,
  statisticsQuerySchema,
  statisticsResponseSchema,
  strategyNameRequestSchema,
  strategyParamsSchema,
  strategyResponseSchema,
  subscriptionsResponseSchema,
  updateAccountRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { securityContextOf } from '../../db/security-events.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import type { MonitoringReads } from './monitoring.reads.ts';
import type { MonitoringService } from './monitoring.service.ts';

/** /api/user/monitoring/*: plans, subscriptions and their activation keys, accounts. */
export async function monitoringRoutes(
  app: FastifyInstance,
  {
    monitoring,
    reads,
    idempotency,
    config,
  }: {
    monitoring: MonitoringService;
    reads: MonitoringReads;
    idempotency: Idempotency;
    config: Config;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['monitoring'];
  const route = { config: routeConfig };

  r.get(
    '/user/monitoring/plans',
    {
      ...route,
      schema: {
        tags,
        summary: 'The plans: the free one (if still available) and the paid prices',
        security,
        response: { 200: monitoringPlansSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => monitoring.plans(currentUser(request).id),
  );

  r.get(
    '/user/monitoring/subscriptions',
    {
      ...route,
      schema: {
        tags,
        summary: "The reader's subscriptions, oldest first",
        security,
        response: { 200: subscriptionsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => monitoring.subscriptions(currentUser(request).id),
  );

  r.post(
    '/user/monitoring/subscriptions/free',
    {
      ...route,
      schema: {
        tags,
        summary: 'Take the free plan (1 account, no end date, once per user)',
        security,
        response: { 201: subscribedResponseSchema, ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await monitoring.takeFree(currentUser(request).id)),
  );

  r.post(
    '/user/monitoring/subscriptions',
    {
      ...route,
      schema: {
        tags,
        summary: 'Buy a paid plan from the balance (accounts 1-50, months 1-12)',
        security,
        headers: idempotencyHeaders,
        body: subscribeRequestSchema,
        response: { 201: subscribedResponseSchema, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotency.respond(request, reply, (tx, userId) =>
        monitoring.subscribe(tx, userId, request.body),
      ),
  );

  r.post(
    '/user/monitoring/subscriptions/:id/extend',
    {
      ...route,
      schema: {
        tags,
        summary:
          'More months for a paid subscription (an ended one runs again from now), from the balance',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: extendRequestSchema,
        response: {
          200: subscribedResponseSchema,
          ...errorResponses(400, 401, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) =>
      idempotency.respond(request, reply, (tx, userId) =>
        monitoring.extend(tx, userId, request.params.id, request.body),
      ),
  );

  r.post(
    '/user/monitoring/subscriptions/:id/enlarge',
    {
      ...route,
      schema: {
        tags,
        summary:
          'More accounts for a running paid subscription, the added ones paid for the days left',
        security,
        headers: idempotencyHeaders,
        params: idParamsSchema,
        body: enlargeRequestSchema,
        response: {
          200: subscribedResponseSchema,
          ...errorResponses(400, 401, 404, 409, 422, 429),
        },
      },
    },
    async (request, reply) =>
      idempotency.respond(request, reply, (tx, userId) =>
        monitoring.enlarge(tx, userId, request.params.id, request.body),
      ),
  );

  r.post(
    '/user/monitoring/subscriptions/:id/key',
    {
      // a secret leaves: a fresh proof of the owner first (403 STEP_UP_REQUIRED)
      config: { ...routeConfig, stepUp: true },
      schema: {
        tags,
        summary:
          "The subscription's activation key, for the publisher in the terminal; needs a fresh proof (403 STEP_UP_REQUIRED)",
        security,
        params: idParamsSchema,
        response: {
          200: activationKeyResponseSchema,
          ...errorResponses(401, 403, 404, 409, 429),
        },
      },
    },
    async (request) =>
      monitoring.revealKey(currentUser(request).id, request.params.id, securityContextOf(request)),
  );

  r.post(
    '/user/monitoring/subscriptions/:id/key/regenerate',
    {
      config: { ...routeConfig, stepUp: true },
      schema: {
        tags,
        summary:
          'A new activation key; the old one stops working at once; needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        params: idParamsSchema,
        response: { 200: activationKeyResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) =>
      monitoring.regenerateKey(
        currentUser(request).id,
        request.params.id,
        securityContextOf(request),
      ),
  );

  r.get(
    '/user/monitoring/accounts',
    {
      ...route,
      schema: {
        tags,
        summary: "The reader's monitored accounts, or the one of a public id",
        security,
        querystring: monitoringAccountsQuerySchema,
        response: { 200: monitoringAccountsResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => monitoring.accounts(currentUser(request).id, request.query.monitoring_id),
  );

  r.post(
    '/user/monitoring/accounts',
    {
      ...route,
      schema: {
        tags,
        summary: 'Add a trading account to a running subscription, within its account count',
        security,
        body: addAccountRequestSchema,
        response: {
          201: monitoringAccountResponseSchema,
          ...errorResponses(401, 409, 422, 429),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        account: await monitoring.addAccount(currentUser(request).id, request.body),
      }),
  );

  r.get(
    '/user/monitoring/accounts/:id/statistics',
    {
      ...route,
      schema: {
        tags,
        summary:
          "An account's statistics (gain, drawdowns, trades, ratios) and its daily and monthly tables",
        security,
        params: idParamsSchema,
        querystring: statisticsQuerySchema,
        response: { 200: statisticsResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      monitoring.statistics(currentUser(request).id, request.params.id, request.query),
  );

  r.get(
    '/user/monitoring/accounts/:id/chart',
    {
      ...route,
      schema: {
        tags,
        summary: "An account's growth, balance, equity and drawdown over time (the charts)",
        security,
        params: idParamsSchema,
        response: { 200: chartResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) =>
      reads.chart(await monitoring.ownAccount(currentUser(request).id, request.params.id)),
  );

  r.get(
    '/user/monitoring/accounts/:id/ping',
    {
      ...route,
      schema: {
        tags,
        summary:
          "An account's ping to its trade server over the day (each minute), week (each 10 minutes) or month (each hour), beside the equity chart",
        security,
        params: idParamsSchema,
        querystring: pingQuerySchema,
        response: { 200: pingResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      reads.ping(
        await monitoring.ownAccount(currentUser(request).id, request.params.id),
        request.query.period,
      ),
  );

  r.get(
    '/user/monitoring/accounts/:id/trades',
    {
      ...route,
      schema: {
        tags,
        summary: "An account's closed trades, newest first, paged",
        security,
        params: idParamsSchema,
        querystring: tradesQuerySchema,
        response: { 200: tradesResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      reads.trades(
        await monitoring.ownAccount(currentUser(request).id, request.params.id),
        request.query,
      ),
  );

  r.get(
    '/user/monitoring/accounts/:id/trades.csv',
    {
      ...route,
      schema: {
        tags,
        summary: "All of an account's closed trades as a CSV file",
        security,
        params: idParamsSchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const account = await monitoring.ownAccount(currentUser(request).id, request.params.id);
      const csv = await reads.tradesCsv(account);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="trades-${account.login}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  r.get(
    '/user/monitoring/accounts/:id/excursions',
    {
      ...route,
      schema: {
        tags,
        summary:
          "An account's closed trades with their excursions (MAE and MFE), the latest 5,000, for the scatter of result against MAE; and how many closed trades have none",
        security,
        params: idParamsSchema,
        response: { 200: excursionsResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) =>
      reads.excursions(await monitoring.ownAccount(currentUser(request).id, request.params.id)),
  );

  r.get(
    '/user/monitoring/accounts/:id/positions',
    {
      ...route,
      schema: {
        tags,
        summary: "An account's open positions, as its latest snapshot showed them",
        security,
        params: idParamsSchema,
        response: { 200: positionsResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) =>
      reads.positions(await monitoring.ownAccount(currentUser(request).id, request.params.id)),
  );

  r.patch(
    '/user/monitoring/accounts/:id',
    {
      ...route,
      schema: {
        tags,
        summary:
          'Rename an account, change where its reports and alerts go, or its settings (the public page, what it hides, the time zone)',
        security,
        params: idParamsSchema,
        body: updateAccountRequestSchema,
        response: { 200: monitoringAccountResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      account: await monitoring.updateAccount(
        currentUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );

  r.put(
    '/user/monitoring/accounts/:id/strategies/:magic',
    {
      ...route,
      schema: {
        tags,
        summary:
          "Name one of an account's strategies (a magic number it traded with): the name shows in its breakdown, trades and CSV",
        security,
        params: strategyParamsSchema,
        body: strategyNameRequestSchema,
        response: { 200: strategyResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      monitoring.nameStrategy(
        currentUser(request).id,
        request.params.id,
        request.params.magic,
        request.body.name,
      ),
  );

  r.delete(
    '/user/monitoring/accounts/:id/strategies/:magic',
    {
      ...route,
      schema: {
        tags,
        summary: "Take a strategy's name away: it shows by its magic number again",
        security,
        params: strategyParamsSchema,
        response: { 200: strategyResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      monitoring.clearStrategyName(
        currentUser(request).id,
        request.params.id,
        request.params.magic,
      ),
  );

  r.delete(
    '/user/monitoring/accounts/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete an account and everything monitored of it',
        security,
        params: idParamsSchema,
        response: { 200: accountDeletedResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => {
      await monitoring.deleteAccount(currentUser(request).id, request.params.id);
      return { message: 'The account has been deleted' };
    },
  );
}
