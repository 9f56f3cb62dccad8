import { EventEmitter } from 'node:events';
import {
  assertChannelName,
  deliver,
  encodeMessage,
  type MessageHandler,
  type PubSub,
  type PubSubLog,
} from './port.ts';

/**
 * Publish/subscribe inside this process (without REDIS_URL): one instance of the API. Messages go
 * through JSON and are delivered on a later turn of the event loop, in order, like the Redis
 * driver's, so callers cannot come to depend on what only one driver does.
 */
export function createInProcessPubSub(log: PubSubLog): PubSub {
  const emitter = new EventEmitter();
  // one listener per subscription: many tabs may follow one channel
  emitter.setMaxListeners(0);
  const subscriptions = new Set<() => void>();
  // never the bare name: 'error', 'newListener' and 'removeListener' mean something to an emitter
  const eventOf = (channel: string) => `message ${channel}`;

  return {
    async publish(channel, message) {
      assertChannelName(channel);
      const text = encodeMessage(message);
      setImmediate(() => {
        const event = eventOf(channel);
        if (emitter.listenerCount(event) > 0) emitter.emit(event, JSON.parse(text));
      });
    },

    async subscribe(channel, handler: MessageHandler) {
      assertChannelName(channel);
      const listener = (message: unknown) => deliver(handler, message, channel, log);
      emitter.on(eventOf(channel), listener);
      const end = () => {
        emitter.off(eventOf(channel), listener);
        subscriptions.delete(end);
      };
      subscriptions.add(end);
      return async () => end();
    },

    async close() {
      for (const end of [...subscriptions]) end();
    },
  };
}
