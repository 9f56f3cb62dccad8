import type { Config } from '../../config.ts';
import { createRedisClient, type Redis } from '../../lib/redis.ts';
import { createInProcessPubSub } from './in-process.ts';
import type { PubSub, PubSubLog } from './port.ts';
import { createRedisPubSub } from './redis.ts';

export * from './port.ts';

/**
 * The publish/subscribe the configuration names: through Redis with REDIS_URL (publishing on
 * `redis`, the app's shared connection, and receiving on a connection of its own), else inside
 * this process.
 */
export function createPubSub(config: Config, redis: Redis | undefined, log: PubSubLog): PubSub {
  if (!config.redis || !redis) return createInProcessPubSub(log);
  return createRedisPubSub({
    publisher: redis,
    subscriber: createRedisClient(config.redis.url, log, 'subscriber'),
    prefix: config.redis.prefix,
    log,
  });
}
