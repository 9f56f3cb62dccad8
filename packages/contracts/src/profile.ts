import * as z from 'zod/mini';
import { nameSchema, passwordSchema, passwordsDiffer, passwordsMatch } from './auth.ts';
import { pageOf, pagingFields } from './balance.ts';
import { PASSWORD_MAX } from './limits.ts';

/**
 * The profile page's contracts: the avatar's rules, the name and password forms, the sessions
 * (one per sign-in, that is per refresh-token family) and "sign out everywhere else".
 */

/** The largest avatar upload (SPEC: avatar up to 1 MB). */
export const AVATAR_MAX_BYTES = 1024 * 1024;
/** What an avatar may be, by content (magic bytes), not by name. */
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
/** The most pixels an avatar may have (width × height), checked before its pixels are decoded. */
export const AVATAR_MAX_PIXELS = 25_000_000;
/** The side of the square WebP an avatar is stored as. */
export const AVATAR_SIDE = 256;

export const changeNameRequestSchema = z.object({ name: nameSchema });
export type ChangeNameRequest = z.infer<typeof changeNameRequestSchema>;

export const changePasswordRequestSchema = z
  .object({
    current_password: z
      .string({ error: 'CURRENT_PASSWORD_REQUIRED' })
      .check(
        z.minLength(1, { error: 'CURRENT_PASSWORD_REQUIRED' }),
        z.maxLength(PASSWORD_MAX, { error: 'CURRENT_PASSWORD_WRONG' }),
      ),
    password: passwordSchema,
    password_confirmation: z.string({ error: 'PASSWORDS_DIFFER' }),
  })
  .check(z.refine(passwordsMatch, passwordsDiffer));
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/**
 * Where the account is signed in: one sign-in (a refresh-token family). `browser` and `os` are
 * plain names read from the browser's User-Agent ("Firefox", "Windows"), null when unknown.
 */
export const userSessionSchema = z.object({
  id: z.string(),
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  /** The sign-in. */
  created_at: z.iso.datetime(),
  /** The newest token of the sign-in: when it last refreshed its access. */
  last_used_at: z.iso.datetime(),
  /** The session of the access token that asked. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

/** The sign-ins on a page of the profile's list. */
export const SESSIONS_PER_PAGE = 10;

/** GET /api/user/sessions: a page at a time. */
export const userSessionsQuerySchema = z.object(pagingFields(SESSIONS_PER_PAGE));
export type UserSessionsQuery = z.infer<typeof userSessionsQuerySchema>;

/**
 * This sign-in first, then the others, newest use first. `others`: how many live sign-ins there
 * are besides this one, on every page (what "sign out everywhere else" would end).
 */
export const userSessionsResponseSchema = z.extend(pageOf(userSessionSchema), { others: z.int() });
export type UserSessionsResponse = z.infer<typeof userSessionsResponseSchema>;

/** `revoked`: how many other sessions were signed out. */
export const signOutOthersResponseSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  revoked: z.int(),
});
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponseSchema>;
