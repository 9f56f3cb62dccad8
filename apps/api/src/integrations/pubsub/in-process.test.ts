import { describe, expect, it } from 'vitest';
import { createInProcessPubSub } from './in-process.ts';
import {
  collector,
  describePubSubContract,
  recordingLog,
  settle,
  uniqueChannel,
} from './pubsub-contract.ts';

describePubSubContract('the in-process pub/sub', {
  open: (log) => createInProcessPubSub(log),
  shared: false,
});

describe('the in-process pub/sub driver', () => {
  it('takes channels named like the events an EventEmitter reserves', async () => {
    const pubsub = createInProcessPubSub(recordingLog().log);
    const got = collector();
    // nobody on "error": publishing there must not throw as an emitter's unhandled error would
    await pubsub.publish('error', 'nobody');
    await settle(pubsub, pubsub);
    for (const channel of ['error', 'newListener', 'removeListener'])
      await pubsub.subscribe(channel, got.handler);
    // a subscription added or removed is no message on newListener or removeListener
    const unsubscribe = await pubsub.subscribe(uniqueChannel('late'), got.handler);
    await unsubscribe();
    for (const [channel, message] of [
      ['error', 'e'],
      ['newListener', 'n'],
      ['removeListener', 'r'],
    ] as const)
      await pubsub.publish(channel, message);
    expect(await got.received(3)).toEqual(['e', 'n', 'r']);
    await settle(pubsub, pubsub);
    expect(got.messages).toEqual(['e', 'n', 'r']);
    await pubsub.close();
  });

  it('ends every subscription on close', async () => {
    const pubsub = createInProcessPubSub(recordingLog().log);
    const got = collector();
    const channel = uniqueChannel('closing');
    await pubsub.subscribe(channel, got.handler);
    await pubsub.subscribe(channel, got.handler);
    await pubsub.publish(channel, 'before');
    await pubsub.close();
    await pubsub.publish(channel, 'after');
    await settle(pubsub, pubsub);
    expect(got.messages).toEqual([]);
  });
});
