/**
 * The pub/sub port's semantics as one set of tests, run by every driver's test file (a test
 * helper: nothing else imports it), so each driver is held to the same assertions.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MessageHandler, PubSub, PubSubLog } from './port.ts';

/** A logger keeping what it is given, for assertions on what a driver logged. */
export function recordingLog() {
  const entries: { level: string; msg: string; fields: unknown }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      const [first, second] = args;
      entries.push(
        typeof first === 'string'
          ? { level, msg: first, fields: undefined }
          : { level, msg: String(second), fields: first },
      );
    };
  const log: PubSubLog = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  };
  return { log, entries };
}

/** A handler keeping what it receives. */
export function collector() {
  const messages: unknown[] = [];
  const handler: MessageHandler = (message) => {
    messages.push(message);
  };
  return {
    messages,
    handler,
    /** Waits until at least `count` messages came. */
    async received(count: number) {
      await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(count), {
        timeout: 5000,
        interval: 5,
      });
      return messages;
    },
  };
}

/** A name of its own per test, so a test never sees another's messages. */
export const uniqueChannel = (name: string) => `${name}:${randomBytes(4).toString('hex')}`;

/**
 * Waits until everything `from` published before now has been delivered by `to` (messages of one
 * instance arrive in the order published, whatever their channels).
 */
export async function settle(from: PubSub, to: PubSub): Promise<void> {
  const barrier = collector();
  const channel = uniqueChannel('barrier');
  const unsubscribe = await to.subscribe(channel, barrier.handler);
  await from.publish(channel, 'barrier');
  await barrier.received(1);
  await unsubscribe();
}

export interface PubSubContractOptions {
  /** A new instance of the driver (an instance of the product); the contract closes it. */
  open(log: PubSubLog): PubSub | Promise<PubSub>;
  /** Whether two instances receive each other's messages (Redis) or stay apart (in-process). */
  shared: boolean;
}

/** Defines `describe(name)` with the port's semantics against two instances of the driver. */
export function describePubSubContract(name: string, options: PubSubContractOptions): void {
  describe(name, () => {
    const logs = recordingLog();
    let a: PubSub;
    let b: PubSub;
    beforeAll(async () => {
      a = await options.open(logs.log);
      b = await options.open(recordingLog().log);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('delivers a message after publish returns, to the subscribers of its channel only', async () => {
      const news = collector();
      const other = collector();
      const channel = uniqueChannel('news');
      await a.subscribe(channel, news.handler);
      await a.subscribe(uniqueChannel('other'), other.handler);
      const published = a.publish(channel, { n: 1 });
      expect(news.messages).toEqual([]);
      await published;
      expect(await news.received(1)).toEqual([{ n: 1 }]);
      await settle(a, a);
      expect(news.messages).toEqual([{ n: 1 }]);
      expect(other.messages).toEqual([]);
    });

    it('delivers what JSON.parse makes of the message, never the sent object', async () => {
      const got = collector();
      const channel = uniqueChannel('json');
      await a.subscribe(channel, got.handler);
      const sent = {
        text: 'Привет — ✓ "quoted" \\ \n\u0000',
        cents: -123_456_789,
        ratio: 0.1,
        nothing: null,
        yes: true,
        list: [1, 'two', { three: [3] }, []],
        at: new Date('2025-01-02T03:04:05.678Z'),
        skipped: undefined,
        large: 'x'.repeat(64 * 1024),
      };
      await a.publish(channel, sent);
      sent.list.push('after');
      sent.cents = 0;
      for (const value of [42, 'plain', null, [], false]) await a.publish(channel, value);
      const [first, ...rest] = await got.received(6);
      expect(first).toEqual({
        text: 'Привет — ✓ "quoted" \\ \n\u0000',
        cents: -123_456_789,
        ratio: 0.1,
        nothing: null,
        yes: true,
        list: [1, 'two', { three: [3] }, []],
        at: '2025-01-02T03:04:05.678Z',
        large: 'x'.repeat(64 * 1024),
      });
      expect(first).not.toHaveProperty('skipped');
      expect(rest).toEqual([42, 'plain', null, [], false]);
    });

    it('refuses a message that is not JSON and a channel name it does not take', async () => {
      const got = collector();
      const channel = uniqueChannel('refused');
      await a.subscribe(channel, got.handler);
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const message of [undefined, () => 1, Symbol('s'), 10n, cycle])
        await expect(a.publish(channel, message)).rejects.toThrow(TypeError);
      for (const bad of ['', 'a b', 'a/b', 'ключ', 'x'.repeat(201), 'a\nb']) {
        await expect(a.publish(bad, 'x'), bad).rejects.toThrow(/not a channel name/);
        await expect(a.subscribe(bad, got.handler), bad).rejects.toThrow(/not a channel name/);
      }
      await settle(a, a);
      expect(got.messages).toEqual([]);
      // the longest name and every allowed character
      const longest = `${'y'.repeat(192)}${randomBytes(4).toString('hex')}`;
      await a.subscribe(longest, got.handler);
      await a.subscribe('Az09_.:-', got.handler);
      await a.publish(longest, 1);
      await a.publish('Az09_.:-', 2);
      expect(await got.received(2)).toEqual([1, 2]);
    });

    it('gives every subscription each message once, in the order published', async () => {
      const one = collector();
      const two = collector();
      const channel = uniqueChannel('order');
      await a.subscribe(channel, one.handler);
      await a.subscribe(channel, two.handler);
      // the same function twice is two subscriptions
      await a.subscribe(channel, two.handler);
      const numbers = Array.from({ length: 50 }, (_, i) => i);
      for (const n of numbers) void a.publish(channel, n);
      expect(await one.received(50)).toEqual(numbers);
      await settle(a, a);
      expect(one.messages).toEqual(numbers);
      expect(two.messages).toHaveLength(100);
      expect(two.messages.filter((_, i) => i % 2 === 0)).toEqual(numbers);
      expect(two.messages.filter((_, i) => i % 2 === 1)).toEqual(numbers);
    });

    it('ends a subscription with its unsubscribe, leaving the others', async () => {
      const leaving = collector();
      const staying = collector();
      const channel = uniqueChannel('leave');
      const unsubscribe = await a.subscribe(channel, leaving.handler);
      await a.subscribe(channel, staying.handler);
      await a.publish(channel, 1);
      await settle(a, a);
      await unsubscribe();
      await unsubscribe();
      await a.publish(channel, 2);
      expect(await staying.received(2)).toEqual([1, 2]);
      await settle(a, a);
      expect(leaving.messages).toEqual([1]);
    });

    it('ends the last subscription of a channel, and takes a new one afterwards', async () => {
      const first = collector();
      const again = collector();
      const channel = uniqueChannel('again');
      const unsubscribe = await a.subscribe(channel, first.handler);
      await unsubscribe();
      await a.publish(channel, 'missed');
      await settle(a, a);
      await a.subscribe(channel, again.handler);
      await a.publish(channel, 'seen');
      expect(await again.received(1)).toEqual(['seen']);
      expect(first.messages).toEqual([]);
    });

    it('keeps delivering to the others when a handler throws or rejects, and logs it', async () => {
      const got = collector();
      const channel = uniqueChannel('faulty');
      const before = logs.entries.length;
      await a.subscribe(channel, () => {
        throw new Error('handler bug');
      });
      await a.subscribe(channel, async () => Promise.reject(new Error('async handler bug')));
      await a.subscribe(channel, got.handler);
      await a.publish(channel, 'still');
      await a.publish(channel, 'delivered');
      expect(await got.received(2)).toEqual(['still', 'delivered']);
      await vi.waitFor(() => expect(logs.entries.length - before).toBe(4));
      const failures = logs.entries.slice(before);
      expect(failures.map((entry) => [entry.level, entry.msg])).toEqual(
        Array(4).fill(['error', 'pub/sub: a subscriber failed on a message']),
      );
      const fields = failures.map((entry) => entry.fields as { err: Error; channel: string });
      expect(fields.map((field) => field.err.message).sort()).toEqual([
        'async handler bug',
        'async handler bug',
        'handler bug',
        'handler bug',
      ]);
      expect(fields.every((field) => field.channel === channel)).toBe(true);
    });

    if (options.shared) {
      it('reaches the subscribers of every instance, whichever instance publishes', async () => {
        const onA = collector();
        const onB = collector();
        const channel = uniqueChannel('shared');
        await a.subscribe(channel, onA.handler);
        const unsubscribeB = await b.subscribe(channel, onB.handler);
        await a.publish(channel, { from: 'a' });
        await b.publish(channel, { from: 'b' });
        expect(await onB.received(2)).toEqual([{ from: 'a' }, { from: 'b' }]);
        expect(await onA.received(2)).toEqual([{ from: 'a' }, { from: 'b' }]);
        await unsubscribeB();
        await a.publish(channel, { from: 'a', after: 'b left' });
        expect(await onA.received(3)).toHaveLength(3);
        await settle(a, b);
        expect(onB.messages).toHaveLength(2);
      });
    } else {
      it('keeps messages inside the instance that publishes them', async () => {
        const onA = collector();
        const onB = collector();
        const channel = uniqueChannel('apart');
        await a.subscribe(channel, onA.handler);
        await b.subscribe(channel, onB.handler);
        await a.publish(channel, 'only a');
        expect(await onA.received(1)).toEqual(['only a']);
        await settle(a, a);
        await settle(b, b);
        expect(onB.messages).toEqual([]);
      });
    }
  });
}
