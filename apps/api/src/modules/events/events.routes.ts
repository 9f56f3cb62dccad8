import { PassThrough } from 'node:stream';
import { isLiveEventName, type LiveEvent } from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { bindLive } from '../../db/live.ts';
import { AppError } from '../../lib/errors.ts';
import type { SessionRevocations } from '../../lib/session-revocations.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';

/** A comment line every so often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** How long the browser waits before connecting again (the console does its own backoff). */
export const RETRY_MS = 3_000;
/** Streams a user may open per minute (each tab opens one, and again after every drop). */
export const OPENS_PER_MINUTE = 30;

export interface EventsOptions {
  config: Config;
  /** Tests shorten the heartbeat. */
  heartbeatMs?: number;
  /** Ended sign-ins: a stream of one ends before it would write again. */
  sessions: Pick<SessionRevocations, 'has'>;
}

export const userChannel = (userId: number) => `user:${userId}`;

/** One server-sent event in the stream's text form. */
export function sseEvent({ event, data }: LiveEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The live updates: `GET /api/user/events`, a `text/event-stream` per tab carrying what
 * publishLive (db/live.ts) sends the signed-in user from any instance (app.pubsub channel
 * `user:<id>`): `balance`, `server`, `monitoring`, `ticket` (contracts/live.ts). The bearer token
 * comes in the Authorization header (the console reads the stream with fetch). When the
 * subscription cannot be made (Redis unreachable) the answer is 503 SERVICE_BUSY and the console
 * keeps polling. Also binds publishLive of app.db to app.pubsub: every module publishes through
 * db/live.ts, none imports this one.
 */
export async function eventsRoutes(
  app: FastifyInstance,
  { config, heartbeatMs, sessions }: EventsOptions,
) {
  const { pubsub, log } = app;
  bindLive(app.db, {
    toUser(userId, event) {
      pubsub.publish(userChannel(userId), event).catch((error: unknown) => {
        log.error({ err: error, userId, event: event.event }, 'a live update was not published');
      });
    },
  });

  // the shared store of the rate limits (Redis with REDIS_URL), under a key of the user's own
  const opensOf = app.rateLimiter({
    max: OPENS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `live-events-user-${currentUser(request).id}`,
  });

  const open = new Set<() => void>();
  // an open stream would hold app.close() until the client leaves
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get(
    '/user/events',
    {
      config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const },
      // after the token check: the opens are counted per user, on every instance together
      preHandler: async (request, reply) => {
        const limit = await opensOf(request);
        if (!limit.isExceeded) return;
        reply.header('retry-after', String(limit.ttlInSeconds));
        throw new AppError(429, 'TOO_MANY_REQUESTS');
      },
      schema: {
        tags: ['user'],
        summary:
          'Live updates (server-sent events: balance, server, monitoring, ticket), one stream per tab',
        security: [{ bearer: [] }],
        response: { ...errorResponses(401, 429, 503) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const stream = new PassThrough();
      let unsubscribe: (() => Promise<void>) | undefined;
      // a signed-out (or otherwise ended) sign-in hears nothing more; the stream stays open, as
      // quiet as a heartbeat, until the console, finding its session refused, closes it (an
      // ended stream would only be opened again, refused, by the browser's retry)
      const signedOut = () => user.sessionId !== null && sessions.has(user.sessionId);
      try {
        unsubscribe = await pubsub.subscribe(userChannel(user.id), (message) => {
          if (signedOut()) return;
          const event = message as Partial<LiveEvent> | null;
          if (!event || !isLiveEventName(event.event) || typeof event.data !== 'object') return;
          stream.write(sseEvent(event as LiveEvent));
        });
      } catch (error) {
        log.warn({ err: error, userId: user.id }, 'live updates: could not subscribe');
        throw new AppError(503, 'SERVICE_BUSY');
      }

      const heartbeat = setInterval(() => {
        stream.write(': heartbeat\n\n');
      }, heartbeatMs ?? HEARTBEAT_MS);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        open.delete(end);
        unsubscribe?.().catch((error: unknown) =>
          log.warn({ err: error, userId: user.id }, 'live updates: unsubscribe failed'),
        );
        stream.end();
      };
      open.add(end);
      // the response's close: the client left or the connection broke (a request's own 'close'
      // comes once its body is read)
      reply.raw.on('close', end);
      stream.on('error', end);

      stream.write(`retry: ${RETRY_MS}\n: connected\n\n`);
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .header('x-accel-buffering', 'no')
          // the connection ends with the stream (not kept for another request): a closing app
          // is not held by it
          .header('connection', 'close')
          .send(stream)
      );
    },
  );
}
