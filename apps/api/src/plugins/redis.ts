import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { closeRedis, connectRedis, createRedisClient, type Redis } from '../lib/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's shared Redis connection (REDIS_URL); undefined without it. */
    redis: Redis | undefined;
  }
}

/**
 * The shared Redis connection (with REDIS_URL): the rate limiter's counters and pub/sub's
 * publications go through it. It is opened when the app is ready, waiting at most the connect
 * timeout: an unreachable Redis is logged, never fatal (the app starts, and the connection keeps
 * being retried); it is closed with the app. Keys and channels start with `config.redis.prefix`.
 */
export const redisPlugin = fp(
  async (app, { config }: { config: Config }) => {
    if (!config.redis) {
      app.decorate('redis', undefined);
      return;
    }
    const client = createRedisClient(config.redis.url, app.log, 'shared');
    app.decorate('redis', client);
    app.addHook('onReady', async () => connectRedis(client));
    app.addHook('onClose', async () => closeRedis(client));
  },
  { name: 'tradehost-redis' },
);
