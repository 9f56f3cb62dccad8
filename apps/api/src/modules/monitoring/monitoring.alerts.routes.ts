import {
  alertHistoryQuerySchema,
  alertHistoryResponseSchema,
  alertSettingsSchema,
  idParamsSchema,
  updateAlertSettingsSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { AlertsService } from './monitoring.alerts.service.ts';

/** /api/user/monitoring/accounts/:id/alerts*: an account's alert rules, channels, reports, history. */
export async function monitoringAlertsRoutes(
  app: FastifyInstance,
  { alerts, config }: { alerts: AlertsService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const } };
  const security = [{ bearer: [] }];
  const tags = ['monitoring'];

  r.get(
    '/user/monitoring/accounts/:id/alerts',
    {
      ...route,
      schema: {
        tags,
        summary: "An account's alert rules (each kind), where alerts go, and its reports",
        security,
        params: idParamsSchema,
        response: { 200: alertSettingsSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => alerts.settings(currentUser(request).id, request.params.id),
  );

  r.patch(
    '/user/monitoring/accounts/:id/alerts',
    {
      ...route,
      schema: {
        tags,
        summary:
          'Switch and set alert rules (a changed rule is armed afresh), the alert channels and the reports',
        security,
        params: idParamsSchema,
        body: updateAlertSettingsSchema,
        response: { 200: alertSettingsSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => alerts.update(currentUser(request).id, request.params.id, request.body),
  );

  r.get(
    '/user/monitoring/accounts/:id/alerts/history',
    {
      ...route,
      schema: {
        tags,
        summary:
          "An account's alerts as they fired, newest first, paged, with each channel's delivery",
        security,
        params: idParamsSchema,
        querystring: alertHistoryQuerySchema,
        response: { 200: alertHistoryResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => alerts.history(currentUser(request).id, request.params.id, request.query),
  );
}
