/**
 * A Fastify hello-world with some of what the product's requests pass through, for the
 * bench's `layers` section: LAYERS=log,headers,cookie,ratelimit,compress (any of them, or none),
 * PORT. Each layer is the product's own (its log line to stdout, its security headers, its
 * plugins), so the section can say what each costs a request in the server's CPU.
 */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyContextConfig } from 'fastify';
import { requestLogging } from '../apps/api/src/lib/request-log.ts';
import { apiCompressionPlugin } from '../apps/api/src/plugins/compression.ts';
import { perMinute, rateLimitPlugin } from '../apps/api/src/plugins/rate-limit.ts';
import { redisPlugin } from '../apps/api/src/plugins/redis.ts';
import type { Config } from '../apps/api/src/config.ts';
import { securityPlugin } from '../apps/api/src/plugins/security.ts';

const layers = new Set((process.env.LAYERS ?? '').split(',').filter(Boolean));
const app = Fastify(layers.has('log') ? requestLogging('info') : { logger: false });
if (layers.has('headers')) await app.register(securityPlugin, { publicUrl: 'http://127.0.0.1' });
if (layers.has('cookie')) await app.register(cookie);
if (layers.has('ratelimit')) {
  // the product's limiter with its counters in this process (no REDIS_URL)
  const config = { redis: undefined } as Config;
  await app.register(redisPlugin, { config });
  await app.register(rateLimitPlugin, { config });
}
await app.register(async (api) => {
  if (layers.has('compress')) await api.register(apiCompressionPlugin);
  // counted as the product's routes are (perMinute), with a maximum the load never reaches
  const config: FastifyContextConfig = layers.has('ratelimit') ? perMinute(1e9) : {};
  api.get('/api/front/permissions', { config }, async () => ({
    can_register: true,
    can_login: true,
  }));
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
