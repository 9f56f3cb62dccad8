import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../integrations/mail/index.ts';
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
  now: () => Date;
  log: FastifyBaseLogger;
}
