import { closeRedis, connectRedis, type Redis } from '../../lib/redis.ts';
import {
  assertChannelName,
  deliver,
  encodeMessage,
  type MessageHandler,
  type PubSub,
  type PubSubLog,
} from './port.ts';

export interface RedisPubSubOptions {
  /** Publishes: the app's shared connection (its owner closes it). */
  publisher: Redis;
  /**
   * Receives: a connection of its own (a subscribed Redis connection takes no other command),
   * owned by the driver and closed by `close()`. Both come from lib/redis.ts createRedisClient.
   */
  subscriber: Redis;
  /** Starts every channel's name in Redis (REDIS_PREFIX). */
  prefix: string;
  log: PubSubLog;
}

interface Channel {
  handlers: Set<MessageHandler>;
  /** The SUBSCRIBE of this channel; settled once Redis confirmed it (or refused). */
  subscribed: Promise<void>;
}

/**
 * Publish/subscribe through Redis (with REDIS_URL): every instance sharing the Redis and the prefix
 * receives what any of them publishes. One SUBSCRIBE per channel per instance however many local
 * subscribers it has (the last one leaving sends UNSUBSCRIBE). After a lost connection the driver
 * subscribes its channels again once it is back; what was published meanwhile is missed (the
 * port's at-most-once delivery).
 */
export function createRedisPubSub(options: RedisPubSubOptions): PubSub {
  const { publisher, subscriber, log } = options;
  const base = `${options.prefix}pubsub:`;
  const channels = new Map<string, Channel>();
  let closed = false;

  subscriber.on('message', (name: string, text: string) => {
    const channel = channels.get(name);
    if (!channel) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      log.warn({ channel: name }, 'pub/sub: a message that is not JSON was dropped');
      return;
    }
    const plain = name.slice(base.length);
    for (const handler of [...channel.handlers]) deliver(handler, message, plain, log);
  });

  let reconnecting = false;
  subscriber.on('close', () => {
    reconnecting = true;
  });
  subscriber.on('ready', () => {
    if (!reconnecting) return;
    reconnecting = false;
    const names = [...channels.keys()];
    if (names.length === 0 || closed) return;
    subscriber.subscribe(...names).then(
      () => log.info({ channels: names.length }, 'pub/sub: subscribed again after reconnecting'),
      (error: unknown) =>
        log.error({ err: error }, 'pub/sub: subscribing again after reconnecting failed'),
    );
  });

  function unsubscribeFrom(name: string, channel: Channel) {
    if (channels.get(name) !== channel || channel.handlers.size > 0) return;
    channels.delete(name);
    // sent after the SUBSCRIBE on the same connection, so Redis sees them in that order
    if (subscriber.status === 'ready')
      subscriber
        .unsubscribe(name)
        .catch((error: unknown) =>
          log.warn({ err: error, channel: name }, 'pub/sub: unsubscribe failed'),
        );
  }

  return {
    async publish(channel, message) {
      assertChannelName(channel);
      const text = encodeMessage(message);
      try {
        await connectRedis(publisher);
        await publisher.publish(base + channel, text);
      } catch (error) {
        log.error({ err: error, channel }, 'pub/sub: a message could not be published (dropped)');
      }
    },

    async subscribe(channel, handler) {
      assertChannelName(channel);
      if (closed) throw new Error('pub/sub: closed');
      await connectRedis(subscriber);
      const name = base + channel;
      let entry = channels.get(name);
      if (!entry) {
        entry = { handlers: new Set(), subscribed: subscriber.subscribe(name).then(() => {}) };
        channels.set(name, entry);
      }
      const own = entry;
      // a wrapper per call: the same function subscribed twice is two subscriptions
      const subscription: MessageHandler = (message) => handler(message);
      own.handlers.add(subscription);
      try {
        await own.subscribed;
      } catch (error) {
        own.handlers.delete(subscription);
        if (channels.get(name) === own) channels.delete(name);
        throw new Error(`pub/sub: could not subscribe to ${channel}`, { cause: error });
      }
      let ended = false;
      return async () => {
        if (ended) return;
        ended = true;
        own.handlers.delete(subscription);
        unsubscribeFrom(name, own);
      };
    },

    async close() {
      closed = true;
      channels.clear();
      await closeRedis(subscriber);
    },
  };
}
