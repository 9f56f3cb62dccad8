import { parse } from 'node:querystring';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { AppError } from '../../lib/errors.ts';
import type { BalanceService } from './balance.service.ts';

/**
 * POST /api/payments/webhook/:driver: the gateways' server-to-server notifications. They post
 * forms (application/x-www-form-urlencoded), so this scope, and only this one, parses them.
 * No session and no rate limit: the signature is the authentication, and a gateway retries.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  { balance }: { balance: BalanceService },
) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, parse(body.toString())),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/payments/webhook/:driver',
    {
      schema: {
        tags: ['payments'],
        summary: "A payment gateway's notification (signed by the gateway)",
        params: z.object({ driver: z.string().check(z.regex(/^[a-z]{2,20}$/)) }),
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        // the gateway's fields: each driver checks the ones it signs
        body: z.record(z.string(), z.unknown()),
      },
    },
    async (request, reply) => {
      const fields = flatten(request.body);
      if (!fields) throw new AppError(400, 'BAD_REQUEST');
      const ack = await balance.handleNotification(request.params.driver, fields, request.ip);
      return reply.code(ack.status).type(ack.contentType).send(ack.body);
    },
  );
}

/** A form or JSON object of scalars as strings (a repeated form field keeps its last value). */
function flatten(body: unknown): Record<string, string> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === 'string' || typeof last === 'number' || typeof last === 'boolean')
      fields[key] = String(last);
  }
  return fields;
}
