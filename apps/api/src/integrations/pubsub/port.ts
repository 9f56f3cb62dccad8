import type { FastifyBaseLogger } from 'fastify';

/**
 * The publish/subscribe port: how one instance of the API tells the others (and itself) that
 * something changed, for the live updates of the console (a balance, a server's status, a
 * ticket's new message).
 *
 * Drivers: in-process (one instance: an EventEmitter) without REDIS_URL, Redis with it (every
 * instance sharing that Redis and prefix).
 *
 * Semantics every driver keeps:
 * - A message is any JSON value (`JSON.stringify`): subscribers receive what `JSON.parse` makes
 *   of it (a Date arrives as its ISO string), never the publisher's object. `publish` throws at
 *   once for a message that is not JSON (undefined, a function, a BigInt, a cycle): a bug.
 * - Delivery is asynchronous (never inside the `publish` call) and at most once: every handler
 *   subscribed to the channel when the message arrives gets it once; a subscriber that is not
 *   there (not yet subscribed, or its instance lost its Redis connection) misses it. Live updates
 *   are hints: after a missed one the console refetches (it polls, and it reloads on reconnecting).
 * - Messages from one instance reach a subscribing instance in the order they were published.
 * - `publish` never fails the caller's work for a transport problem: when the message cannot be
 *   handed over (Redis unreachable) it is dropped and the failure logged.
 * - `subscribe` resolves once messages published afterwards will be delivered, with the function
 *   that ends the subscription (idempotent); it rejects when that cannot be done (Redis
 *   unreachable), so the caller can say so (e.g. the console falls back to polling).
 * - A handler that throws (or rejects) is logged; the other handlers still get the message.
 * - Handlers of one instance share the parsed message: treat it as read-only.
 * - Channels are names the product makes itself: 1 to 200 letters, digits and `_ . : -`
 *   (`user:42`, `ticket:7`); any other name throws (isChannelName).
 */
export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;
  /** Ends every subscription and releases the driver's own connections. */
  close(): Promise<void>;
}

/** What the drivers log with (the app's logger). */
export type PubSubLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;

export type MessageHandler = (message: unknown) => void | Promise<void>;
export type Unsubscribe = () => Promise<void>;

const CHANNEL = /^[A-Za-z0-9_.:-]{1,200}$/;

export function isChannelName(channel: string): boolean {
  return CHANNEL.test(channel);
}

/** Throws for a channel no driver takes: a bug in the caller, never a user's input. */
export function assertChannelName(channel: string): void {
  if (!isChannelName(channel)) throw new Error(`not a channel name: ${JSON.stringify(channel)}`);
}

/** The message as JSON text; throws for a value that has none. */
export function encodeMessage(message: unknown): string {
  const text = JSON.stringify(message) as string | undefined;
  if (text === undefined)
    throw new TypeError('not a JSON message: undefined, a function or a symbol');
  return text;
}

/** Calls `handler`, logging what it throws or rejects with, so one handler cannot stop the others. */
export function deliver(
  handler: MessageHandler,
  message: unknown,
  channel: string,
  log: PubSubLog,
): void {
  const failed = (error: unknown) =>
    log.error({ err: error, channel }, 'pub/sub: a subscriber failed on a message');
  try {
    const result = handler(message);
    if (result instanceof Promise) result.catch(failed);
  } catch (error) {
    failed(error);
  }
}
