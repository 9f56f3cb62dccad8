import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import type { AccessTokens } from './auth/access-token.ts';

/** What every service is built from. `now` is injectable so tests can move time. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  tokens: AccessTokens;
  now: () => Date;
  log: FastifyBaseLogger;
}
