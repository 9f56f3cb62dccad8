import { bigserial, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef } from './users.ts';

/** E-mail confirmation links; only the sha256 of the token is kept. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    uniqueIndex('email_verifications_token_hash_key').on(t.tokenHash),
    index('email_verifications_user_id_idx').on(t.userId),
  ],
);

/** 6-digit password reset codes; the code is kept as an HMAC with the server secret. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef('user_id'),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('password_reset_codes_user_id_idx').on(t.userId)],
);

/** Refresh tokens, rotated on every use; a family is one sign-in. Only the sha256 of a token is kept. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    familyId: uuid('family_id').notNull(),
    userId: userRef('user_id'),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    rotatedAt: timestamptz('rotated_at'),
    /** The SHA-256 of the X-Refresh-Attempt that rotated it: that attempt sent again is a retry. */
    rotatedBy: text('rotated_by'),
    revokedAt: timestamptz('revoked_at'),
    /** The browser that signed in (its User-Agent, cut to 512), carried over on rotation: the sessions list's device. */
    userAgent: text('user_agent'),
    /** When the sign-in began, carried over on rotation: SESSION_MAX_AGE counts from it. */
    sessionStartedAt: timestamptz('session_started_at').notNull(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_id_idx').on(t.familyId),
    index('refresh_tokens_user_id_idx').on(t.userId),
    // the sign-ins ended lately, which every instance refuses the access tokens of
    index('refresh_tokens_revoked_at_idx').on(t.revokedAt),
  ],
);

export type EmailVerificationRow = typeof emailVerifications.$inferSelect;
export type PasswordResetCodeRow = typeof passwordResetCodes.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
