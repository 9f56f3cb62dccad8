import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import type { Redis } from '../lib/redis.ts';
import type { SessionRevocations } from '../lib/session-revocations.ts';
import type { AccessTokens } from './auth/access-token.ts';

/** What every service is built from. `now` is injectable so tests can move time. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  tokens: AccessTokens;
  /** Ended sign-ins: tell it after ending one, so its access tokens stop on every instance. */
  sessions: SessionRevocations;
  /**
   * The shared Redis connection (REDIS_URL; undefined without it), for what the instances must
   * count together. Its commands fail at once while it is unreachable (lib/redis.ts): a caller
   * keeps a fallback of its own.
   */
  redis: Redis | undefined;
  now: () => Date;
  log: FastifyBaseLogger;
}
