import { randomBytes } from 'node:crypto';
import {
  SUCCESS_MESSAGES,
  TELEGRAM_PURPOSES,
  type ChangePasswordRequest,
  type SecurityEventKind,
  type SecurityEventsQuery,
  type SecurityEventsResponse,
  type MessageResponse,
  type SignOutOthersResponse,
  type User,
  type UserSessionsQuery,
  type UserSessionsResponse,
} from '@tradehost/contracts';
import { pageMeta, pagingOf } from '../../db/paging.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { passwordChangedMail } from '../../integrations/mail/profile-templates.ts';
import type { Storage } from '../../integrations/storage/index.ts';
import { stepUp } from '../../db/step-up.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { passwordPolicyOf } from '../../lib/password-policy.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { ServiceDeps } from '../deps.ts';
import { toUserResponse } from '../../db/user-response.ts';
import { userRepository } from '../../db/users.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { sessionsRepository } from '../../db/sessions.ts';
import { telegramChatsRepository } from '../../db/telegram-chats.ts';
import { toAvatarWebp } from './avatar-image.ts';
import { profileRepository } from './profile.repository.ts';
import { describeUserAgent } from './user-agent.ts';

/** Where the console loads an avatar from: `users.photo_path` is this plus the file's name. */
export const AVATAR_URL_PREFIX = '/api/user/avatar/';
/** 128 random bits, base64url, and the extension: unguessable, and new for every upload. */
export const AVATAR_NAME = /^[A-Za-z0-9_-]{22}\.webp$/;

const newAvatarName = () => `${randomBytes(16).toString('base64url')}.webp`;
const avatarKey = (name: string) => `avatars/${name}`;

/** The stored file behind a photo_path of ours; null for none (or a path the product never made). */
function avatarNameOf(photoPath: string | null): string | null {
  if (!photoPath?.startsWith(AVATAR_URL_PREFIX)) return null;
  const name = photoPath.slice(AVATAR_URL_PREFIX.length);
  return AVATAR_NAME.test(name) ? name : null;
}

const unauthorized = () => new AppError(401, 'UNAUTHORIZED');

export type ProfileService = ReturnType<typeof createProfileService>;

/** The profile page: name, avatar, password change and the sessions (sign-ins) of the account. */
export function createProfileService({
  db,
  config,
  mailer,
  now,
  log,
  storage,
  sessions,
}: ServiceDeps & { storage: Storage }) {
  const contextOf = (user: AuthUser): SecurityContext => ({ sessionId: user.sessionId });
  const passwordPolicy = passwordPolicyOf(config, log);

  /** A file no row points to any more; a failure leaves an orphan behind, never a broken avatar. */
  async function deleteAvatarFile(name: string | null) {
    if (!name) return;
    try {
      await storage.delete(avatarKey(name));
    } catch (error) {
      log.error({ err: error, name }, 'could not delete a replaced avatar');
    }
  }

  /**
   * Points the user's photo_path at `name` (null: none) and deletes the file it pointed to, once
   * the change has committed. The row is locked meanwhile, so of two uploads at once each one
   * deletes exactly what it replaced.
   */
  async function replaceAvatar(userId: number, name: string | null): Promise<UserRow> {
    const { row, previous } = await db.transaction(async (tx) => {
      const current = await profileRepository.lockPhotoPath(tx, userId);
      if (!current) throw unauthorized();
      const updated = await profileRepository.setPhotoPath(
        tx,
        userId,
        name === null ? null : AVATAR_URL_PREFIX + name,
      );
      if (!updated) throw unauthorized();
      return { row: updated, previous: avatarNameOf(current.photoPath) };
    });
    if (previous !== name) await deleteAvatarFile(previous);
    return row;
  }

  /**
   * A password change's current password, counted as a step-up proof is (db/step-up.ts): else a
   * stolen sign-in could guess the password here without limit. A wrong one is 422
   * CURRENT_PASSWORD_WRONG and a strike, the STEP_UP_MAX_FAILURES-th in a row ends the sign-in
   * (401 SESSION_EXPIRED). A right one is the step-up's proof while no second factor is on
   * (plugins/step-up.ts, 'with-factor'); with one on, the factor was, and the password proves
   * nothing more.
   */
  async function checkCurrentPassword(
    user: AuthUser,
    row: UserRow,
    password: string,
    context: SecurityContext,
  ): Promise<void> {
    const { sessionId } = user;
    // the strikes are kept per sign-in: a token without one has nowhere to keep them
    if (!sessionId) throw unauthorized();
    const at = now();
    const { verdict, ended } = await stepUp.attempt(
      db,
      { id: user.id, sessionId },
      'password',
      at,
      context,
      async (tx) => {
        if (!(await verifyPassword(row.passwordHash, password))) return 'wrong';
        if ((await stepUp.methods(tx, user.id)).includes('password'))
          await stepUp.proved(tx, user.id, sessionId, 'password', at, context);
        return 'right';
      },
    );
    // its access tokens stop at once, on every instance
    if (ended.length > 0) await sessions.revoke(ended);
    if (verdict === 'ended') throw new AppError(401, 'SESSION_EXPIRED');
    if (verdict === 'wrong') throw fieldError(422, 'current_password', 'CURRENT_PASSWORD_WRONG');
  }

  return {
    async changeName(userId: number, name: string): Promise<User> {
      const row = await profileRepository.setName(db, userId, name);
      if (!row) throw unauthorized();
      return toUserResponse(db, row);
    },

    /** Checks and re-encodes the upload (toAvatarWebp), stores it under a new name, and replaces the old one. */
    async setAvatar(userId: number, upload: Buffer): Promise<User> {
      const webp = await toAvatarWebp(upload);
      const name = newAvatarName();
      await storage.put(avatarKey(name), webp, 'image/webp');
      let row;
      try {
        row = await replaceAvatar(userId, name);
      } catch (error) {
        await deleteAvatarFile(name);
        throw error;
      }
      return toUserResponse(db, row);
    },

    async removeAvatar(userId: number): Promise<User> {
      return toUserResponse(db, await replaceAvatar(userId, null));
    },

    /** The stored WebP of an avatar's name (AVATAR_NAME), or null when there is none. */
    async avatarFile(name: string): Promise<Buffer | null> {
      return storage.get(avatarKey(name));
    },

    /**
     * Checks the current password (checkCurrentPassword: a wrong one counts toward ending the
     * sign-in), sets the new one, signs out every other session (the one asking stays) and mails
     * the owner, in their language, that it happened.
     */
    async changePassword(
      user: AuthUser,
      input: ChangePasswordRequest,
      requestContext: SecurityContext = {},
    ): Promise<MessageResponse> {
      const row = await userRepository.findById(db, user.id);
      if (!row) throw unauthorized();
      const context = { ...contextOf(user), ...requestContext };
      await checkCurrentPassword(user, row, input.current_password, context);
      await passwordPolicy.check(input.password);
      const passwordHash = await hashPassword(input.password);
      const at = now();
      const { ended, live: signedOut } = await db.transaction(async (tx) => {
        await userRepository.setPasswordHash(tx, user.id, passwordHash);
        const result = await sessionsRepository.end(
          tx,
          { userId: user.id, except: user.sessionId },
          at,
        );
        await securityLog.record(tx, user.id, 'password_changed', at, context, {
          signed_out: result.live,
        });
        return result;
      });
      await sessions.revoke(ended);
      await notify(mailer, log, row, (language) =>
        passwordChangedMail(language, {
          name: row.name,
          at,
          signedOut,
          resetLink: `${config.publicUrl}/forgot-password`,
        }),
      );
      return { message: SUCCESS_MESSAGES.PASSWORD_CHANGED, code: 'PASSWORD_CHANGED' };
    },

    async sessions(
      user: AuthUser,
      { page, per_page: perPage }: UserSessionsQuery,
    ): Promise<UserSessionsResponse> {
      const { rows, total, others } = await profileRepository.liveSessions(
        db,
        user.id,
        user.sessionId,
        now(),
        pagingOf(page, perPage),
      );
      return {
        meta: pageMeta(page, perPage, total),
        others,
        data: rows.map((row) => ({
          id: row.familyId,
          ...describeUserAgent(row.userAgent),
          created_at: row.createdAt.toISOString(),
          last_used_at: row.lastUsedAt.toISOString(),
          current: row.familyId === user.sessionId,
        })),
      };
    },

    /**
     * Signs out every session but the one asking ("sign out everywhere else"), and unlinks the
     * chats linked to the bot: whoever else was in must not keep reading the account in Telegram.
     */
    async signOutOthers(
      user: AuthUser,
      requestContext: SecurityContext = {},
    ): Promise<SignOutOthersResponse> {
      const at = now();
      const { ended, live } = await db.transaction(async (tx) => {
        const result = await sessionsRepository.end(
          tx,
          { userId: user.id, except: user.sessionId },
          at,
        );
        const chats = await telegramChatsRepository.unlink(tx, {
          userId: user.id,
          purposes: [...TELEGRAM_PURPOSES],
        });
        await securityLog.record(
          tx,
          user.id,
          'sessions_ended',
          at,
          { ...contextOf(user), ...requestContext },
          { signed_out: result.live, telegram_unlinked: chats.length },
        );
        return result;
      });
      await sessions.revoke(ended);
      return {
        message: SUCCESS_MESSAGES.SESSIONS_REVOKED,
        code: 'SESSIONS_REVOKED',
        revoked: live,
      };
    },

    /** Ends one sign-in of the user's (404 when it is not theirs or has ended already). */
    async endSession(
      user: AuthUser,
      sessionId: string,
      requestContext: SecurityContext = {},
    ): Promise<MessageResponse> {
      const at = now();
      const ended = await db.transaction(async (tx) => {
        const result = await sessionsRepository.end(
          tx,
          { userId: user.id, familyId: sessionId },
          at,
        );
        if (result.live === 0) return null;
        await securityLog.record(
          tx,
          user.id,
          'session_ended',
          at,
          { ...contextOf(user), ...requestContext },
          { session: sessionId },
        );
        return result.ended;
      });
      if (ended === null) throw new AppError(404, 'NOT_FOUND');
      await sessions.revoke(ended);
      return { message: SUCCESS_MESSAGES.SESSION_ENDED, code: 'SESSION_ENDED' };
    },

    /** A page of the account's security log ("Account activity"), newest first. */
    async activity(
      user: AuthUser,
      { page, per_page: perPage }: SecurityEventsQuery,
    ): Promise<SecurityEventsResponse> {
      const { rows, total } = await securityLog.page(db, user.id, pagingOf(page, perPage));
      return {
        meta: pageMeta(page, perPage, total),
        data: rows.map((row) => ({
          id: row.id,
          kind: row.kind as SecurityEventKind,
          at: row.at.toISOString(),
          ip: row.ip,
          ...describeUserAgent(row.userAgent),
          current_session: row.sessionId !== null && row.sessionId === user.sessionId,
          detail: row.detail,
        })),
      };
    },
  };
}
