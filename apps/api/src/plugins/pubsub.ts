import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createPubSub, type PubSub } from '../integrations/pubsub/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Publish/subscribe between the instances (Redis with REDIS_URL, else this process alone). */
    pubsub: PubSub;
  }
}

/** `app.pubsub` (integrations/pubsub), for the live updates; its subscriptions end with the app. */
export const pubsubPlugin = fp(
  async (app, { config }: { config: Config }) => {
    const pubsub = createPubSub(config, app.redis, app.log);
    app.decorate('pubsub', pubsub);
    app.addHook('onClose', async () => pubsub.close());
  },
  { name: 'tradehost-pubsub', dependencies: ['tradehost-redis'] },
);
