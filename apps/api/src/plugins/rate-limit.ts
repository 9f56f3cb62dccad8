import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';

/**
 * In-process rate limits, only on routes that set `config.rateLimit` (see `perMinute`).
 * Each such route has its own counters keyed by client IP, checked in onRequest:
 * before the body is parsed and before any password hashing.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      hook: 'onRequest',
      errorResponseBuilder: (_request, context) =>
        context.ban ? new AppError(403, 'FORBIDDEN') : new AppError(429, 'TOO_MANY_REQUESTS'),
    });
  },
  { name: 'tradehost-rate-limit' },
);

/** Route config for at most `max` requests per minute per IP on that route. */
export function perMinute(max: number) {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
