import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Redis } from '../../lib/redis.ts';
import { hmacHex } from '../../lib/secrets.ts';
import {
  NO_FAILURES,
  SIGN_IN_FAILURE_MEMORY_MS,
  UnknownEmails,
  type ThrottleState,
} from './sign-in-guard.ts';

/**
 * One sign-in try's access to the failure counts of e-mails that have no account
 * (sign-in-guard.ts). A try of an account takes one too and makes the very same calls (its
 * `claim` only never writes), so that whether Redis is asked, and how often, tells nothing.
 */
export interface UnknownEmailTally {
  /** The e-mail's failed sign-ins. */
  read(): Promise<ThrottleState>;
  /**
   * Sets the e-mail's state to `next` if it is still `seen` (compare and set, as an account's
   * `login_throttle` row): false when another try changed it first. `seen` null is an account's
   * try: the same work, against a state that is never stored, so nothing is written.
   */
  claim(seen: ThrottleState | null, next: ThrottleState): Promise<boolean>;
}

export interface UnknownEmailThrottles {
  /** The tally of one try of `email` (keep it for the whole try: it remembers a fallback). */
  tally(email: string): UnknownEmailTally;
}

/** The failures of unknown e-mails in this process alone (without REDIS_URL). */
export function memoryThrottles(memory = new UnknownEmails()): UnknownEmailThrottles {
  return {
    tally: (email) => ({
      read: async () => memory.get(email),
      claim: async (seen, next) => claimIn(memory, email, seen, next),
    }),
  };
}

/** Compare and set in this process: nothing is awaited between the comparison and the write. */
function claimIn(
  memory: UnknownEmails,
  email: string,
  seen: ThrottleState | null,
  next: ThrottleState,
): boolean {
  if (!seen || !sameState(memory.get(email), seen)) return false;
  memory.set(email, next);
  return true;
}

const sameState = (a: ThrottleState, b: ThrottleState) => encode(a) === encode(b);

/** Where the keys go under REDIS_PREFIX: `<prefix>sign-in:unknown-email:<keyed hash>`. */
export const UNKNOWN_EMAIL_KEYS = 'sign-in:unknown-email:';

/**
 * The compare and set, atomic in Redis: the key is set to ARGV[2] (kept ARGV[3] ms) only if it
 * still holds ARGV[1] ('' for no key). 1 when set, 0 when not.
 */
const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/** What an account's try compares with: no stored state is ever this. */
const NEVER_STORED = '-';

/** A state as stored: `failures:lastFailureAt:lockedUntil` (ms, empty for none); '' for none. */
function encode(state: ThrottleState): string {
  if (state.failures === 0 && !state.lastFailureAt && !state.lockedUntil) return '';
  const ms = (date: Date | null) => (date ? String(date.getTime()) : '');
  return `${state.failures}:${ms(state.lastFailureAt)}:${ms(state.lockedUntil)}`;
}

function decode(stored: string | null): ThrottleState {
  const [failures, last, until] = (stored ?? '').split(':');
  const count = Number(failures);
  if (!stored || !Number.isInteger(count) || count < 1) return NO_FAILURES;
  const date = (ms: string | undefined) => (ms ? new Date(Number(ms)) : null);
  return { failures: count, lastFailureAt: date(last), lockedUntil: date(until) };
}

/** How long Redis keeps a state: as long as the failures count (a day), and its lock at least. */
function keepMs(state: ThrottleState): number {
  const last = state.lastFailureAt?.getTime() ?? 0;
  const lockLeft = state.lockedUntil ? state.lockedUntil.getTime() - last : 0;
  return Math.max(SIGN_IN_FAILURE_MEMORY_MS, lockLeft);
}

/**
 * The Redis key of an e-mail's failures: a hash of the lowercased e-mail keyed with a secret
 * derived from `secret`, so that neither the key nor a guess at it tells the e-mail to whoever
 * reads Redis.
 */
export function unknownEmailKeys(prefix: string, secret: string): (email: string) => string {
  const hashKey = hmacHex(secret, 'tradehost unknown e-mails');
  return (email) => `${prefix}${UNKNOWN_EMAIL_KEYS}${hmacHex(hashKey, email.toLowerCase())}`;
}

/** Once a minute at most: an outage of Redis would otherwise log every sign-in. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

export interface SharedThrottlesOptions {
  /** The app's shared connection (`app.redis`). */
  redis: Redis;
  /** REDIS_PREFIX. */
  prefix: string;
  /** Keys the e-mails' hashes (JWT_SECRET, the same on every instance). */
  secret: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** This instance's own view, for when Redis does not answer. */
  memory?: UnknownEmails;
}

/**
 * The failures of unknown e-mails in Redis (with REDIS_URL), shared by every instance, under a
 * keyed hash of the lowercased e-mail (no e-mail is stored in Redis, nor can one be confirmed from
 * a key without the secret), each kept a day from its last failure. When Redis does not answer
 * (down, or no reply within the command timeout), the try goes on with this instance's memory,
 * which holds what this instance itself counted, and the failure is logged at warn (once a
 * minute): a Redis outage must not fail sign-ins.
 */
export function sharedThrottles(options: SharedThrottlesOptions): UnknownEmailThrottles {
  const { redis, log, memory = new UnknownEmails() } = options;
  const keyOf = unknownEmailKeys(options.prefix, options.secret);
  const failed = logOncePerMinute(log);

  return {
    tally(email) {
      const key = keyOf(email);
      // once Redis has failed this try, the rest of it is counted in memory
      let local = false;
      return {
        async read() {
          if (!local) {
            try {
              return decode(await redis.get(key));
            } catch (error) {
              local = true;
              failed(error);
            }
          }
          return memory.get(email);
        },

        async claim(seen, next) {
          if (!local) {
            try {
              const stored = seen ? encode(seen) : NEVER_STORED;
              const set = await redis.eval(
                CLAIM_SCRIPT,
                1,
                key,
                stored,
                encode(next),
                keepMs(next),
              );
              // this instance's own view, should Redis fail a later try
              if (set === 1) memory.set(email, next);
              return set === 1;
            } catch (error) {
              local = true;
              failed(error);
            }
          }
          return claimIn(memory, email, seen, next);
        },
      };
    },
  };
}

function logOncePerMinute(log: Pick<FastifyBaseLogger, 'warn'>) {
  let loggedAt = -Infinity;
  let unlogged = 0;
  return (error: unknown) => {
    const now = Date.now();
    if (now - loggedAt < FAILURE_LOG_INTERVAL_MS) {
      unlogged += 1;
      return;
    }
    log.warn(
      { err: error, failuresNotLogged: unlogged },
      'sign-in: the shared counts of unknown e-mails (Redis) did not answer; counted in this instance meanwhile',
    );
    loggedAt = now;
    unlogged = 0;
  };
}

/** Redis's store with REDIS_URL (and its connection), else this process's memory. */
export function createUnknownEmailThrottles({
  redis,
  config,
  log,
}: {
  redis: Redis | undefined;
  config: Pick<Config, 'redis' | 'jwtSecret'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
}): UnknownEmailThrottles {
  if (!redis || !config.redis) return memoryThrottles();
  return sharedThrottles({ redis, prefix: config.redis.prefix, secret: config.jwtSecret, log });
}
