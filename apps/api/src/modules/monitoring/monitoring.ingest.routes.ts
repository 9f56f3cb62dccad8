import {
  apiErrorSchema,
  ingestDealsResponseSchema,
  ingestDealsSchema,
  ingestHelloResponseSchema,
  ingestHelloSchema,
  ingestSnapshotSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { rateLimitKeyOf } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { Ingest } from './monitoring.ingest.ts';
import { hashActivationKey } from './monitoring.service.ts';

/** A deals call carries up to 500 deals: more than the API's usual 64 KB. */
const DEALS_BODY_LIMIT = 512 * 1024;
/** A snapshot carries up to 1,000 open positions, each about 300 bytes. */
const SNAPSHOT_BODY_LIMIT = 1024 * 1024;

/**
 * /api/ingest/v1/*: the publisher in the trader's terminal, authenticated by the subscription's
 * activation key (`Authorization: Bearer <key>`), rate-limited per key.
 */
export async function monitoringIngestRoutes(
  app: FastifyInstance,
  { ingest, config }: { ingest: Ingest; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The bearer activation key's hash, worked out once a request: the rate limit's and the lookup's. */
  const keyHashes = new WeakMap<FastifyRequest, string | null>();
  function keyHashOf(request: FastifyRequest): string | null {
    let keyHash = keyHashes.get(request);
    if (keyHash === undefined) {
      // a key pasted with a space around it is the same key
      const match = /^Bearer\s+([A-Za-z0-9_-]{8,200})\s*$/.exec(
        request.headers.authorization ?? '',
      );
      keyHash = match ? hashActivationKey(match[1]!) : null;
      keyHashes.set(request, keyHash);
    }
    return keyHash;
  }
  const routeConfig = {
    rateLimit: {
      max: config.ingestRateLimitMax,
      timeWindow: 60_000,
      // per key; calls without a well-formed key (refused anyway) per address
      keyGenerator: (request: FastifyRequest) =>
        keyHashOf(request) ?? `no key ${rateLimitKeyOf(request.ip)}`,
    },
  };
  const tags = ['ingestion'];
  const security = [{ activationKey: [] }];
  const failures = { ...errorResponses(400, 401, 404, 409, 422, 429), 402: apiErrorSchema };

  function keyOf(request: FastifyRequest): string {
    const keyHash = keyHashOf(request);
    if (keyHash === null) throw new AppError(401, 'MONITORING_KEY_UNKNOWN');
    return keyHash;
  }

  r.post(
    '/ingest/v1/hello',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The publisher starts: which account, and from which deal to send',
        security,
        body: ingestHelloSchema,
        response: { 200: ingestHelloResponseSchema, ...failures },
      },
    },
    async (request) => ingest.hello(keyOf(request), request.body, request.ip),
  );

  r.post(
    '/ingest/v1/deals',
    {
      config: routeConfig,
      bodyLimit: DEALS_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Deals (at most 500 a call), stored once per ticket',
        security,
        body: ingestDealsSchema,
        response: { 200: ingestDealsResponseSchema, ...failures },
      },
    },
    async (request) => ingest.deals(keyOf(request), request.body),
  );

  r.post(
    '/ingest/v1/snapshot',
    {
      config: routeConfig,
      bodyLimit: SNAPSHOT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'The account now: balance, equity, margin, open positions',
        security,
        body: ingestSnapshotSchema,
        response: { 200: z.object({ stored: z.boolean() }), ...failures },
      },
    },
    async (request) => ingest.snapshot(keyOf(request), request.body, request.ip),
  );
}
