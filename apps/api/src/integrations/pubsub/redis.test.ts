import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  cleanUpRedis,
  rawRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
  unreachableRedisUrl,
  warnWithoutRedis,
} from '../../../test/test-redis.ts';
import { closeRedis, createRedisClient, type Redis } from '../../lib/redis.ts';
import type { PubSubLog } from './port.ts';
import {
  collector,
  describePubSubContract,
  recordingLog,
  settle,
  uniqueChannel,
} from './pubsub-contract.ts';
import { createRedisPubSub } from './redis.ts';

warnWithoutRedis('the Redis pub/sub driver’s tests on a Redis');

const prefix = testRedisPrefix();
const clients: Redis[] = [];

/** An instance of the driver with connections of its own, as an instance of the product has. */
function open(log: PubSubLog, url = TEST_REDIS_URL!, ownPrefix = prefix) {
  const publisher = createRedisClient(url, log, 'test-publisher');
  const subscriber = createRedisClient(url, log, 'test-subscriber');
  clients.push(publisher, subscriber);
  const pubsub = createRedisPubSub({ publisher, subscriber, prefix: ownPrefix, log });
  return { pubsub, publisher, subscriber };
}

afterAll(async () => {
  for (const client of clients) await closeRedis(client);
});

describe.runIf(TEST_REDIS_URL)('on a Redis', () => {
  describePubSubContract('the Redis pub/sub', { open: (log) => open(log).pubsub, shared: true });

  describe('the Redis pub/sub driver', () => {
    let raw: Redis;
    beforeAll(async () => {
      raw = await rawRedis();
    });
    afterAll(async () => cleanUpRedis(raw, prefix));

    /** How many connections Redis has subscribed to the channel (as named under the prefix). */
    const subscribers = async (channel: string, under = prefix) => {
      const [, count] = (await raw.pubsub('NUMSUB', `${under}pubsub:${channel}`)) as [
        string,
        number,
      ];
      return Number(count);
    };

    it('subscribes an instance once per channel, and unsubscribes it with the last subscriber', async () => {
      const a = open(recordingLog().log).pubsub;
      const b = open(recordingLog().log).pubsub;
      const channel = uniqueChannel('count');
      const first = await a.subscribe(channel, collector().handler);
      const second = await a.subscribe(channel, collector().handler);
      expect(await subscribers(channel)).toBe(1);
      const onB = await b.subscribe(channel, collector().handler);
      expect(await subscribers(channel)).toBe(2);
      await first();
      expect(await subscribers(channel)).toBe(2);
      await second();
      await onB();
      await vi.waitFor(async () => expect(await subscribers(channel)).toBe(0));
      await a.close();
      await b.close();
    });

    it('keeps installations with different prefixes apart', async () => {
      const ours = open(recordingLog().log).pubsub;
      const otherPrefix = testRedisPrefix();
      const theirs = open(recordingLog().log, TEST_REDIS_URL, otherPrefix).pubsub;
      const channel = uniqueChannel('installation');
      const onOurs = collector();
      const onTheirs = collector();
      await ours.subscribe(channel, onOurs.handler);
      await theirs.subscribe(channel, onTheirs.handler);
      expect(await subscribers(channel, otherPrefix)).toBe(1);
      await ours.publish(channel, 'ours');
      await theirs.publish(channel, 'theirs');
      expect(await onOurs.received(1)).toEqual(['ours']);
      expect(await onTheirs.received(1)).toEqual(['theirs']);
      await settle(ours, ours);
      await settle(theirs, theirs);
      expect(onOurs.messages).toEqual(['ours']);
      expect(onTheirs.messages).toEqual(['theirs']);
      await ours.close();
      await theirs.close();
    });

    it('drops and logs a message on its channel that is not JSON, and goes on', async () => {
      const logs = recordingLog();
      const { pubsub } = open(logs.log);
      const got = collector();
      const channel = uniqueChannel('foreign');
      await pubsub.subscribe(channel, got.handler);
      await raw.publish(`${prefix}pubsub:${channel}`, '{not json');
      await pubsub.publish(channel, { fine: true });
      expect(await got.received(1)).toEqual([{ fine: true }]);
      expect(logs.entries).toContainEqual({
        level: 'warn',
        msg: 'pub/sub: a message that is not JSON was dropped',
        fields: { channel: `${prefix}pubsub:${channel}` },
      });
      await pubsub.close();
    });

    it('subscribes its channels again once its lost connection is back', async () => {
      const logs = recordingLog();
      const { pubsub, subscriber } = open(logs.log);
      const got = collector();
      const channel = uniqueChannel('reconnect');
      await pubsub.subscribe(channel, got.handler);
      await pubsub.subscribe(uniqueChannel('reconnect-too'), collector().handler);
      subscriber.disconnect(true);
      await vi.waitFor(
        () =>
          expect(logs.entries).toContainEqual({
            level: 'info',
            msg: 'pub/sub: subscribed again after reconnecting',
            fields: { channels: 2 },
          }),
        { timeout: 10_000 },
      );
      expect(await subscribers(channel)).toBe(1);
      await pubsub.publish(channel, 'after the drop');
      expect(await got.received(1)).toEqual(['after the drop']);
      await pubsub.close();
    });

    it('ends every subscription and its connection on close', async () => {
      const { pubsub, subscriber } = open(recordingLog().log);
      const channel = uniqueChannel('close');
      const got = collector();
      await pubsub.subscribe(channel, got.handler);
      await pubsub.subscribe(channel, got.handler);
      await pubsub.close();
      expect(await subscribers(channel)).toBe(0);
      expect(subscriber.status).toBe('end');
      await raw.publish(`${prefix}pubsub:${channel}`, '"after"');
      await expect(pubsub.subscribe(channel, got.handler)).rejects.toThrow(/closed/);
      expect(got.messages).toEqual([]);
    });
  });
});

describe('the Redis pub/sub driver without a Redis to reach', () => {
  it('drops and logs what it publishes, refuses to subscribe, and never throws otherwise', async () => {
    const logs = recordingLog();
    const { pubsub, publisher } = open(logs.log, await unreachableRedisUrl());
    await expect(pubsub.publish('user:1', { balance: 1 })).resolves.toBeUndefined();
    const subscribing = pubsub.subscribe('user:1', collector().handler);
    await expect(subscribing).rejects.toThrow('pub/sub: could not subscribe to user:1');
    await expect(pubsub.publish('user:1', { balance: 2 })).resolves.toBeUndefined();
    const messages = logs.entries.map((entry) => `${entry.level} ${entry.msg}`);
    expect(messages).toContain('error pub/sub: a message could not be published (dropped)');
    expect(
      messages.filter((m) => m.startsWith('error redis (test-publisher): connect ECONNREFUSED')),
    ).toHaveLength(1);
    expect(
      messages.filter((m) => m.startsWith('error redis (test-subscriber): connect ECONNREFUSED')),
    ).toHaveLength(1);
    // a message that is not JSON is still the caller's bug, told at once
    await expect(pubsub.publish('user:1', 1n)).rejects.toThrow(TypeError);
    await pubsub.close();
    await closeRedis(publisher);
  });
});
