import { randomUUID } from 'node:crypto';
import type { PubSub, PubSubLog, Unsubscribe } from '../integrations/pubsub/port.ts';

/** The channel every instance hears ended sign-ins on. */
export const REVOCATIONS_CHANNEL = 'sessions:revoked';

/** How long `revoke` waits for its own message to come back through the bus. */
export const REVOCATIONS_ECHO_MS = 1000;

/** How often the ended sign-ins are read again from the database, for any message missed. */
export const REVOCATIONS_RESYNC_MS = 15_000;

/**
 * The sign-ins (refresh-token families) that have ended while access tokens issued to them may
 * still be unexpired: the bearer check refuses those tokens at once, on every instance, with no
 * database read per request. Each instance keeps the set in memory; an end is published to the
 * others (Redis pub/sub with REDIS_URL), and the set is also read again from the database at
 * start and every REVOCATIONS_RESYNC_MS, so an instance that missed a message (started later, lost
 * its Redis connection) still learns of it within seconds. An entry is forgotten once every access
 * token of its sign-in has expired (the access token lifetime, plus a margin).
 */
export interface SessionRevocations {
  /** True when the sign-in has ended (its access tokens are refused). */
  has(sessionId: string): boolean;
  /**
   * Ends the sign-ins here at once and tells the other instances; resolves once the message has
   * come back through the bus (so the others have it too), or after REVOCATIONS_ECHO_MS. Call
   * after the change commits.
   */
  revoke(sessionIds: readonly string[]): Promise<void>;
  /**
   * Starts listening: subscribes to the channel, loads what ended within the access token
   * lifetime (`endedSince`), and reads it again every REVOCATIONS_RESYNC_MS.
   */
  start(pubsub: PubSub, endedSince: (since: Date) => Promise<string[]>): Promise<void>;
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createSessionRevocations(
  accessTokenTtlSeconds: number,
  now: () => Date,
  log: PubSubLog,
): SessionRevocations {
  // the sign-in and when this instance learnt it ended (insertion order is time order)
  const ended = new Map<string, number>();
  const keepMs = (accessTokenTtlSeconds + 60) * 1000;
  let pubsub: PubSub | undefined;
  let unsubscribe: Unsubscribe | undefined;
  let timer: NodeJS.Timeout | undefined;
  // the messages this instance published and waits to hear back, by their nonce
  const echoes = new Map<string, () => void>();

  function forgetOld(at: number) {
    for (const [id, learnt] of ended) {
      if (at - learnt <= keepMs) break;
      ended.delete(id);
    }
  }

  function add(ids: readonly unknown[]) {
    const at = now().getTime();
    forgetOld(at);
    for (const id of ids) {
      if (typeof id !== 'string' || !UUID.test(id)) continue;
      ended.delete(id);
      ended.set(id.toLowerCase(), at);
    }
  }

  return {
    has: (sessionId) => ended.has(sessionId.toLowerCase()),

    async revoke(sessionIds) {
      if (sessionIds.length === 0) return;
      add(sessionIds);
      if (!pubsub || !unsubscribe) return;
      const nonce = randomUUID();
      let timeout: NodeJS.Timeout | undefined;
      const heard = new Promise<void>((resolve) => {
        echoes.set(nonce, resolve);
        timeout = setTimeout(resolve, REVOCATIONS_ECHO_MS);
      });
      await pubsub.publish(REVOCATIONS_CHANNEL, { ids: sessionIds, nonce });
      await heard;
      clearTimeout(timeout);
      echoes.delete(nonce);
    },

    async start(bus, endedSince) {
      pubsub = bus;
      try {
        unsubscribe = await bus.subscribe(REVOCATIONS_CHANNEL, (message) => {
          const { ids, nonce } = (message ?? {}) as { ids?: unknown; nonce?: unknown };
          if (Array.isArray(ids)) add(ids);
          if (typeof nonce === 'string') echoes.get(nonce)?.();
        });
      } catch (error) {
        // the resync below still brings every end, a few seconds late
        log.error(
          { err: error },
          'sessions: cannot subscribe to revocations; reading them from the database',
        );
      }
      const resync = async () => {
        try {
          add(await endedSince(new Date(now().getTime() - keepMs)));
        } catch (error) {
          log.error({ err: error }, 'sessions: cannot read the ended sign-ins');
        }
      };
      await resync();
      timer = setInterval(() => void resync(), REVOCATIONS_RESYNC_MS);
      timer.unref();
    },

    async close() {
      if (timer) clearInterval(timer);
      await unsubscribe?.();
    },
  };
}
