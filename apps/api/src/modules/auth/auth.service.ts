import { randomUUID } from 'node:crypto';
import {
  REFRESH_RETRY_MS,
  SUCCESS_MESSAGES,
  TELEGRAM_PURPOSES,
  type SecurityEventKind,
  type Language,
  type MessageResponse,
  type SecondFactorChallenge,
  type SecondFactorSignInRequest,
  type TokenResponse,
  type User,
} from '@tradehost/contracts';
import type { UserRow } from '../../db/schema/index.ts';
import { resetCodeMail, verificationMail } from '../../integrations/mail/templates.ts';
import { AppError, fieldError, fieldErrors, isUniqueViolation } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/password.ts';
import { passwordPolicyOf } from '../../lib/password-policy.ts';
import {
  hmacHex,
  randomDigits,
  randomReferralCode,
  randomToken,
  sameHex,
  sha256Hex,
} from '../../lib/secrets.ts';
import type { Executor } from '../../db/client.ts';
import type { ServiceDeps } from '../deps.ts';
import { toUserResponse } from '../../db/user-response.ts';
import { referrals } from '../../db/referrals.ts';
import { userRepository } from '../../db/users.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { sessionsRepository, type SessionsToEnd } from '../../db/sessions.ts';
import { stepUp } from '../../db/step-up.ts';
import { telegramChatsRepository } from '../../db/telegram-chats.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { tokenReuseMail } from '../../integrations/mail/session-templates.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { authRepository } from './auth.repository.ts';
import { createSecondFactorSignIn } from './second-factor-sign-in.ts';
import { createSignInCheck } from './sign-in-check.ts';
import { passwordResetMail } from '../../integrations/mail/sign-in-templates.ts';

export const VERIFY_LINK_TTL_MS = 48 * 3600_000;
export const VERIFY_RESEND_INTERVAL_MS = 5 * 60_000;
export const RESET_CODE_TTL_MS = 10 * 60_000;
export const RESET_CODE_MAX_ATTEMPTS = 5;
/** Reset codes mailed to one account in 24 hours at most (then forgot-password sends nothing). */
export const RESET_CODES_PER_DAY = 5;
const DAY_MS = 24 * 3600_000;
/** The id no account has: an unknown e-mail's statements run against it (and find nothing). */
const NO_USER = 0;
/** The longest User-Agent kept of a sign-in (real ones are a few hundred characters). */
export const USER_AGENT_MAX = 512;

export interface SignupInput {
  name: string;
  email: string;
  password: string;
  partner_code?: string | undefined;
  language?: Language | undefined;
}

/** An access token for the body plus the refresh token for the cookie. */
export interface Session extends TokenResponse {
  refreshToken: string;
  /** When the refresh token (and so the cookie) stops working, and when it was made. */
  refreshExpires: Date;
  issuedAt: Date;
}

const done = (code: keyof typeof SUCCESS_MESSAGES): MessageResponse => ({
  message: SUCCESS_MESSAGES[code],
  code,
});
const sessionExpired = () => new AppError(401, 'SESSION_EXPIRED');
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

export type AuthService = ReturnType<typeof createAuthService>;

/** Sign-up, e-mail confirmation, sign-in, sessions (refresh token rotation) and password reset. */
export function createAuthService({
  db,
  config,
  mailer,
  tokens,
  sessions,
  redis,
  now,
  log,
}: ServiceDeps) {
  const resetCodeHash = (userId: number, code: string) =>
    hmacHex(config.jwtSecret, `password-reset:${userId}:${code}`);
  const signInCheck = createSignInCheck({ db, config, mailer, redis, now, log });
  const passwordPolicy = passwordPolicyOf(config, log);
  const secondStep = createSecondFactorSignIn({ db, config, now });

  /** Stores a new confirmation link for the user and returns the token to mail. */
  async function createVerification(executor: Executor, userId: number, at: Date): Promise<string> {
    const token = randomToken();
    await authRepository.insertEmailVerification(executor, {
      userId,
      tokenHash: sha256Hex(token),
      createdAt: at,
      expiresAt: plus(at, VERIFY_LINK_TTL_MS),
    });
    return token;
  }

  /** A failed confirmation mail is logged, not fatal: signing in sends a fresh one. */
  async function mailVerification(
    user: Pick<UserRow, 'id' | 'email' | 'name' | 'language'>,
    token: string,
  ) {
    const link = `${config.publicUrl}/login?verify=${encodeURIComponent(token)}`;
    try {
      await mailer.send({
        to: user.email,
        ...verificationMail(user.language, { name: user.name, link }),
      });
    } catch (error) {
      log.error({ err: error, userId: user.id }, 'could not send the confirmation e-mail');
    }
  }

  async function insertUser(
    input: SignupInput,
    passwordHash: string,
    referrerId: number | null,
    at: Date,
  ) {
    // a referral code collision (31^8 codes) is astronomically rare; retry a few times anyway
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction(async (tx) => {
          const user = await userRepository.insert(tx, {
            email: input.email.toLowerCase(),
            name: input.name,
            passwordHash,
            language: input.language ?? 'en',
            referralCode: randomReferralCode(),
            createdAt: at,
          });
          // a fresh user cannot be anyone's referrer: this always attaches
          if (referrerId !== null) await referrals.attach(tx, user.id, referrerId);
          const token = await createVerification(tx, user.id, at);
          return { user, token };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_lower_key'))
          throw fieldError(422, 'email', 'EMAIL_TAKEN');
        if (!isUniqueViolation(error, 'users_referral_code_key') || attempt >= 5) throw error;
      }
    }
  }

  /**
   * A new token of the sign-in `familyId` (begun at `startedAt`); its browser (`userAgent`) names
   * it in the profile's sessions. The token lives until the sign-in has been idle for the idle
   * limit (shorter for operators) or has reached SESSION_MAX_AGE, whichever comes first.
   */
  async function startSession(
    user: Pick<UserRow, 'id' | 'role'>,
    familyId: string,
    userAgent: string | null,
    startedAt: Date,
    executor: Executor = db,
  ): Promise<Session> {
    const at = now();
    const refreshToken = randomToken();
    const idle = user.role === 'admin' ? config.operatorSessionIdleLimit : config.sessionIdleLimit;
    const expiresAt = new Date(
      Math.min(at.getTime() + idle * 1000, startedAt.getTime() + config.sessionMaxAge * 1000),
    );
    await authRepository.insertRefreshToken(executor, {
      familyId,
      userId: user.id,
      tokenHash: sha256Hex(refreshToken),
      createdAt: at,
      expiresAt,
      userAgent,
      sessionStartedAt: startedAt,
    });
    const access = await tokens.sign(user.id, familyId);
    return {
      token: access.token,
      expires: access.expires.toISOString(),
      refreshToken,
      refreshExpires: expiresAt,
      issuedAt: at,
    };
  }

  /**
   * A new sign-in of `user`, whose owner has just proved themselves (the password, and the second
   * factor where one is on): that proof counts for step-up, and the sign-in is logged.
   */
  async function beginSignIn(
    user: Pick<UserRow, 'id' | 'role'>,
    context: SecurityContext,
  ): Promise<Session> {
    const familyId = randomUUID();
    const userAgent = context.userAgent?.slice(0, USER_AGENT_MAX) || null;
    return db.transaction(async (tx) => {
      const session = await startSession(user, familyId, userAgent, now(), tx);
      await stepUp.record(tx, familyId, user.id, session.issuedAt);
      await securityLog.record(tx, user.id, 'sign_in', session.issuedAt, {
        ...context,
        sessionId: familyId,
      });
      return session;
    });
  }

  /**
   * Ends the sign-ins `which`, records `kind` (when given and something ended) in the security
   * log in the same transaction, and stops their access tokens on every instance.
   */
  async function endSessions(
    which: SessionsToEnd,
    kind: SecurityEventKind | null,
    context: SecurityContext,
  ): Promise<string[]> {
    const at = now();
    const { ended } = await db.transaction(async (tx) => {
      const result = await sessionsRepository.end(tx, which, at);
      if (kind && result.ended.length > 0)
        await securityLog.record(tx, which.userId, kind, at, context);
      return result;
    });
    await sessions.revoke(ended);
    return ended;
  }

  /**
   * Checks a reset code under a row lock so attempts are counted one at a time.
   * A wrong code counts an attempt (committed even though the answer is an error);
   * after 5 the code is dead. `onValid` runs in the same transaction.
   */
  async function withResetCode(
    email: string,
    code: string,
    onValid?: (tx: Executor, userId: number, codeId: number, at: Date) => Promise<void>,
  ): Promise<UserRow> {
    const user = await userRepository.findByEmail(db, email);
    // an unknown e-mail is answered as a wrong code, after the same statements (on no row): the
    // answer must not tell whether the e-mail has an account
    const userId = user?.id ?? NO_USER;
    const at = now();
    const valid = await db.transaction(async (tx) => {
      const current = await authRepository.lockCurrentResetCode(tx, userId);
      if (!current || current.expiresAt <= at || current.attempts >= RESET_CODE_MAX_ATTEMPTS)
        return false;
      if (!sameHex(current.codeHash, resetCodeHash(userId, code))) {
        await authRepository.countResetAttempt(tx, current.id);
        return false;
      }
      await onValid?.(tx, userId, current.id, at);
      return true;
    });
    if (!valid || !user) throw fieldError(400, 'code', 'CODE_INVALID');
    return user;
  }

  return {
    async signup(input: SignupInput): Promise<MessageResponse> {
      const problems: Parameters<typeof fieldErrors>[1] = [];
      if (await userRepository.findByEmail(db, input.email))
        problems.push(['email', 'EMAIL_TAKEN']);
      const weak = await passwordPolicy.refusal(input.password);
      if (weak) problems.push(['password', weak]);
      let referrerId: number | null = null;
      if (input.partner_code) {
        referrerId = (await userRepository.findIdByReferralCode(db, input.partner_code)) ?? null;
        if (referrerId === null) problems.push(['partner_code', 'PARTNER_CODE_INVALID']);
      }
      // hashed even when the answer is a refusal: a taken e-mail must not answer sooner than a
      // new one (SPEC's "E-mail is already used" tells by its text, rate limited per address)
      const passwordHash = await hashPassword(input.password);
      if (problems.length > 0) throw fieldErrors(422, problems);

      const { user, token } = await insertUser(input, passwordHash, referrerId, now());
      await mailVerification(user, token);
      return done('SIGNUP_DONE');
    },

    async verifyEmail(token: string): Promise<MessageResponse> {
      const found = await authRepository.findEmailVerification(db, sha256Hex(token));
      if (!found) throw new AppError(404, 'VERIFY_LINK_INVALID');
      if (found.usedAt || found.userVerifiedAt) throw new AppError(422, 'EMAIL_ALREADY_VERIFIED');
      const at = now();
      if (found.expiresAt <= at) throw new AppError(422, 'VERIFY_LINK_EXPIRED');
      await db.transaction(async (tx) => {
        if (!(await authRepository.useEmailVerification(tx, found.id, at))) {
          throw new AppError(422, 'EMAIL_ALREADY_VERIFIED');
        }
        await userRepository.markEmailVerified(tx, found.userId, at);
      });
      return done('EMAIL_VERIFIED');
    },

    /** `context`: the request's address and browser (its User-Agent names the sign-in in the profile). */
    async login(
      email: string,
      password: string,
      context: SecurityContext = {},
    ): Promise<Session | SecondFactorChallenge> {
      // the per-account limit and the password, told apart from an unknown e-mail by nothing
      const user = await signInCheck.check(email, password, context);
      if (!user.emailVerifiedAt) {
        await signInCheck.succeeded(user.id);
        // the right password proves the person: send a fresh link (at most one per 5 minutes)
        const at = now();
        const last = await authRepository.lastEmailVerificationAt(db, user.id);
        if (!last || at.getTime() - last.getTime() >= VERIFY_RESEND_INTERVAL_MS) {
          await mailVerification(user, await createVerification(db, user.id, at));
        }
        throw new AppError(403, 'EMAIL_NOT_VERIFIED');
      }
      // with a second factor on, the password opens only the second step (a half-session)
      // (the try stays counted against the account's limit until that step succeeds)
      if (await secondStep.isOn(user.id)) return secondStep.begin(user.id, context);
      await signInCheck.succeeded(user.id);
      return beginSignIn(user, context);
    },

    /** The sign-in's second step: the half-session's token and a factor; then the session. */
    async completeSecondFactor(
      body: SecondFactorSignInRequest,
      context: SecurityContext = {},
    ): Promise<Session> {
      const user = await userRepository.findById(db, await secondStep.complete(body, context));
      if (!user) throw new AppError(401, 'SIGN_IN_PENDING_EXPIRED');
      await signInCheck.succeeded(user.id);
      return beginSignIn(user, context);
    },

    /** Passkey options for the half-session `token` (its account's passkeys, a challenge). */
    secondFactorPasskeyOptions: (token: string) => secondStep.passkeyOptions(token),

    /**
     * Rotates the refresh token. Presenting an already rotated one revokes its whole family,
     * unless it comes with the attempt that rotated it, within REFRESH_RETRY_MS: the same
     * refresh sent again (its answer lost with a reloaded page, or shared by another tab),
     * which gets a session of its own in the family.
     */
    async refresh(
      refreshToken: string | undefined,
      attempt?: string,
      context: SecurityContext = {},
    ): Promise<Session> {
      if (!refreshToken) throw sessionExpired();
      const tokenHash = sha256Hex(refreshToken);
      const attemptHash = attempt ? sha256Hex(attempt) : null;
      const at = now();
      const session = await db.transaction(async (tx) => {
        const current =
          (await authRepository.rotateRefreshToken(tx, tokenHash, at, attemptHash)) ??
          (attemptHash
            ? await authRepository.findRetriedRotation(
                tx,
                tokenHash,
                attemptHash,
                plus(at, -REFRESH_RETRY_MS),
                at,
              )
            : undefined);
        if (!current) return undefined;
        const user = await userRepository.findById(tx, current.userId);
        return user
          ? startSession(user, current.familyId, current.userAgent, current.sessionStartedAt, tx)
          : undefined;
      });
      if (session) return session;
      const known = await authRepository.findRefreshToken(db, tokenHash);
      if (known) {
        const reused = known.rotatedAt !== null && known.revokedAt === null;
        const ended = await endSessions(
          { userId: known.userId, familyId: known.familyId },
          reused ? 'token_reuse' : null,
          { ...context, sessionId: known.familyId },
        );
        if (reused && ended.length > 0) {
          log.warn(
            { userId: known.userId, familyId: known.familyId },
            'refresh token reused: family revoked',
          );
          const owner = await userRepository.findById(db, known.userId);
          if (owner)
            await notify(mailer, log, owner, (language) =>
              tokenReuseMail(language, {
                name: owner.name,
                at: now(),
                resetLink: `${config.publicUrl}/forgot-password`,
              }),
            );
        }
      }
      throw sessionExpired();
    },

    /**
     * Ends the sign-in of the refresh cookie (the cookie alone is enough: it is the sign-in) and
     * of the bearer token. With a bearer token of another user than the cookie's, only the
     * bearer's own sign-in ends: a cookie carried along is not the caller's to end.
     */
    async logout(
      refreshToken: string | undefined,
      bearer: AuthUser | null,
      context: SecurityContext = {},
    ): Promise<MessageResponse> {
      const known = refreshToken
        ? await authRepository.findRefreshToken(db, sha256Hex(refreshToken))
        : undefined;
      const toEnd: { userId: number; familyId: string }[] = [];
      if (bearer?.sessionId) toEnd.push({ userId: bearer.id, familyId: bearer.sessionId });
      if (known && (!bearer || known.userId === bearer.id) && known.familyId !== bearer?.sessionId)
        toEnd.push({ userId: known.userId, familyId: known.familyId });
      for (const which of toEnd)
        await endSessions(which, 'sign_out', { ...context, sessionId: which.familyId });
      return done('LOGGED_OUT');
    },

    async me(userId: number): Promise<User> {
      const user = await userRepository.findById(db, userId);
      if (!user) throw new AppError(401, 'UNAUTHORIZED');
      return toUserResponse(db, user);
    },

    /**
     * Mails a reset code to the account of `email`. The answer is the same success whether the
     * e-mail has an account or not (nothing is sent then), and it does not wait for the mail: a
     * failed delivery is logged (the owner asks again), since a 500 for accounts alone would tell.
     *
     * At most RESET_CODES_PER_DAY codes an account a day: past that the answer is still the same
     * success and nothing is sent or changed (the last code keeps working). Not a 429, because an
     * unknown e-mail never reaches the cap, so a 429 would tell that the e-mail has an account;
     * the owner loses nothing, their inbox holds today's codes.
     */
    async forgotPassword(email: string, context: SecurityContext = {}): Promise<MessageResponse> {
      const user = await userRepository.findByEmail(db, email);
      const at = now();
      // counted for an unknown e-mail too (on no user), so that both cost the same statements
      const today = await securityLog.countSince(
        db,
        user?.id ?? NO_USER,
        'password_reset_requested',
        plus(at, -DAY_MS),
      );
      if (!user || today >= RESET_CODES_PER_DAY) return done('RESET_CODE_SENT');
      const code = randomDigits(6);
      await db.transaction(async (tx) => {
        await authRepository.replaceResetCode(tx, {
          userId: user.id,
          codeHash: resetCodeHash(user.id, code),
          createdAt: at,
          expiresAt: plus(at, RESET_CODE_TTL_MS),
        });
        await securityLog.record(tx, user.id, 'password_reset_requested', at, context);
      });
      void mailer
        .send({ to: user.email, ...resetCodeMail(user.language, { name: user.name, code }) })
        .catch((error: unknown) =>
          log.error({ err: error, userId: user.id }, 'could not send the password reset code'),
        );
      return done('RESET_CODE_SENT');
    },

    async checkForgotOtp(email: string, code: string): Promise<MessageResponse> {
      await withResetCode(email, code);
      return done('CODE_VALID');
    },

    /** Sets the password, uses up the code, ends every session and confirms the e-mail (the code proved it). */
    async resetPassword(
      email: string,
      code: string,
      password: string,
      context: SecurityContext = {},
    ): Promise<MessageResponse> {
      // before the code: a refused password does not use up one of its tries
      await passwordPolicy.check(password);
      let ended: string[] = [];
      let resetAt = now();
      const user = await withResetCode(email, code, async (tx, userId, codeId, at) => {
        resetAt = at;
        await userRepository.setPasswordHash(tx, userId, await hashPassword(password));
        await authRepository.useResetCode(tx, codeId, at);
        // every sign-in ends, and the chats linked to the bot with them: whoever took the
        // account over must not keep reading it in Telegram
        ended = (await sessionsRepository.end(tx, { userId, all: true }, at)).ended;
        await telegramChatsRepository.unlink(tx, { userId, purposes: [...TELEGRAM_PURPOSES] });
        await userRepository.markEmailVerified(tx, userId, at);
        // the owner proved themselves by the mailed code: a sign-in lock ends
        await signInCheck.unlock(tx, userId);
        await securityLog.record(tx, userId, 'password_reset', at, context);
      });
      await sessions.revoke(ended);
      await notify(mailer, log, user, (language) =>
        passwordResetMail(language, {
          name: user.name,
          at: resetAt,
          ip: context.ip ?? null,
          resetLink: `${config.publicUrl}/forgot-password`,
        }),
      );
      return done('PASSWORD_RESET');
    },
  };
}
