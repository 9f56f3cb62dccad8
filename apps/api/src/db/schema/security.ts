import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef, users } from './users.ts';

/**
 * The account's security log (sign-ins and their failures, locks, factor, password and e-mail
 * changes, session ends, token reuse, step-ups, reveals): append-only, a trigger refuses UPDATE
 * and DELETE. `user_id` has no foreign key on purpose: the log outlives the account.
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    at: timestamptz('at').notNull(),
    /** One of SECURITY_EVENT_KINDS (contracts). */
    kind: text('kind').notNull(),
    /** The client's address (request.ip, behind TRUST_PROXY the forwarded one). */
    ip: text('ip'),
    /** Its User-Agent, cut to 512. */
    userAgent: text('user_agent'),
    /** The sign-in (refresh-token family) it happened in, when there was one. */
    sessionId: uuid('session_id'),
    /** What else tells the event apart (a passkey's name, a server's id, the sessions ended). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('security_events_user_id_idx').on(t.userId, t.id),
    index('security_events_user_kind_at_idx').on(t.userId, t.kind, t.at),
  ],
);

/** A user's TOTP authenticator (RFC 6238); the secret is sealed with lib/crypto-box. */
export const userTotp = pgTable('user_totp', {
  userId: userRef('user_id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  /** Null while enrolment waits for its first code: not a factor yet. */
  confirmedAt: timestamptz('confirmed_at'),
  /** The 30-second step of the last code accepted: a code works once. */
  lastStep: bigint('last_step', { mode: 'number' }),
});

/** One-time recovery codes (ten per set), kept as an HMAC with the server secret. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('recovery_codes_user_id_idx').on(t.userId)],
);

/** WebAuthn credentials (passkeys), several per account, named by their owner. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    /** base64url, as the authenticator gave it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_id_idx').on(t.userId),
  ],
);

/** A WebAuthn challenge between its options and the answer; used once, then deleted. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: uuid('id').primaryKey(),
    /** Null for a sign-in that starts with a passkey alone (the account is not known yet). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    challenge: text('challenge').notNull(),
    /** 'register' | 'authenticate' */
    purpose: text('purpose').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * A sign-in whose password was right and whose second factor is still to come: the
 * half-session. Only the sha256 of its token is kept; it lives minutes and allows a few tries.
 */
export const pendingSignIns = pgTable(
  'pending_sign_ins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamptz('used_at'),
  },
  (t) => [uniqueIndex('pending_sign_ins_token_hash_key').on(t.tokenHash)],
);

/** Failed sign-ins of an account, for the growing delays and the temporary lock. */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    userId: userRef('user_id').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: timestamptz('last_failure_at'),
    lockedUntil: timestamptz('locked_until'),
  },
  (t) => [check('login_throttle_failures_check', sql`${t.failures} >= 0`)],
);

/** When a sign-in last proved its owner (password or second factor): step-up lasts 5 minutes. */
export const sessionProofs = pgTable('session_proofs', {
  sessionId: uuid('session_id').primaryKey(),
  userId: userRef('user_id'),
  provedAt: timestamptz('proved_at').notNull(),
});

export type SecurityEventRow = typeof securityEvents.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type PendingSignInRow = typeof pendingSignIns.$inferSelect;
