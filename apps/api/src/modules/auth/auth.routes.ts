import cookiePlugin from '@fastify/cookie';
import {
  checkForgotOtpRequestSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  loginResponseSchema,
  passkeyOptionsSchema,
  pendingSignInRequestSchema,
  secondFactorSignInRequestSchema,
  messageResponseSchema,
  REFRESH_ATTEMPT_HEADER,
  REFRESH_ATTEMPT_PATTERN,
  resetPasswordRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenResponseSchema,
  userSchema,
  verifyEmailRequestSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { securityContextOf } from '../../db/security-events.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { AuthService, Session } from './auth.service.ts';
import { SignInRefusedError } from './sign-in-guard.ts';
import { checkRequestOrigin, refreshCookie } from './refresh-cookie.ts';

const bearer = [{ bearer: [] }];

const refreshHeaders = z.object({ [REFRESH_ATTEMPT_HEADER]: z.optional(z.string()) });

/** The refresh's X-Refresh-Attempt, when sent; 400 when it is not one. */
function attemptOf(request: FastifyRequest): string | undefined {
  const value = request.headers[REFRESH_ATTEMPT_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !REFRESH_ATTEMPT_PATTERN.test(value))
    throw new AppError(400, 'REFRESH_ATTEMPT_INVALID');
  return value;
}

/** /api/user/auth/*: the paths of SPEC.md section 7. */
export async function authRoutes(
  app: FastifyInstance,
  { auth, config }: { auth: AuthService; config: Config },
) {
  // the refresh cookie is these routes' alone: no other request parses cookies or checks for one
  await app.register(cookiePlugin);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limited = perMinute(config.rateLimitAuthMax);
  const cookie = refreshCookie(config);
  const sameOrigin = checkRequestOrigin(config);
  const tags = ['auth'];

  const sendSession = (session: Session, reply: Parameters<typeof cookie.set>[0]) => {
    cookie.set(reply, session.refreshToken, session.refreshExpires, session.issuedAt);
    return { token: session.token, expires: session.expires };
  };

  r.post(
    '/user/auth/create',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Sign up; mails a confirmation link',
        body: signupRequestSchema,
        response: { 201: signupResponseSchema, ...errorResponses(422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await auth.signup(request.body)),
  );

  r.post(
    '/user/auth/verify-email',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Confirm the e-mail with the token of the mailed link',
        body: verifyEmailRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(404, 422, 429) },
      },
    },
    async (request) => auth.verifyEmail(request.body.token),
  );

  r.post(
    '/user/auth/login',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Sign in: an access token in the body, the refresh token in the th_rt cookie; when a second factor is on, `second_factor` (a 5-minute half-session token for POST /api/user/auth/second-factor and the methods) instead (429 LOGIN_THROTTLED or LOGIN_LOCKED, with Retry-After, after repeated failures)',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      try {
        const answer = await auth.login(
          request.body.email,
          request.body.password,
          securityContextOf(request),
        );
        // a second factor is on: the second step's half-session, no token and no cookie
        return 'second_factor' in answer ? answer : sendSession(answer, reply);
      } catch (error) {
        if (error instanceof SignInRefusedError)
          void reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  r.post(
    '/user/auth/second-factor',
    {
      config: limited,
      schema: {
        tags,
        summary:
          "Sign in's second step: the login's `second_factor.token` and one of `code` (the authenticator's 6 digits), `recovery_code` (used up) or `passkey` (the browser's answer to /second-factor/passkey-options). Answers as login does. A wrong one is 422 SECOND_FACTOR_INVALID; after 5 or 5 minutes the token is dead: 401 SIGN_IN_PENDING_EXPIRED",
        body: secondFactorSignInRequestSchema,
        response: { 200: tokenResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) =>
      sendSession(await auth.completeSecondFactor(request.body, securityContextOf(request)), reply),
  );

  r.post(
    '/user/auth/second-factor/passkey-options',
    {
      config: limited,
      schema: {
        tags,
        summary:
          "Options for navigator.credentials.get() for the sign-in's second step (the half-session's token): the account's passkeys and a challenge (5 minutes, once)",
        body: pendingSignInRequestSchema,
        response: { 200: passkeyOptionsSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => ({ ...(await auth.secondFactorPasskeyOptions(request.body.token)) }),
  );

  r.post(
    '/user/auth/refresh-token',
    {
      config: limited,
      onRequest: sameOrigin,
      schema: {
        tags,
        summary:
          'Rotate the th_rt refresh cookie and get a new access token (needs X-Requested-With: XMLHttpRequest; X-Refresh-Attempt names the attempt, so that a lost answer can be asked for again)',
        headers: refreshHeaders,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      try {
        return sendSession(
          await auth.refresh(cookie.read(request), attemptOf(request), securityContextOf(request)),
          reply,
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'SESSION_EXPIRED') cookie.clear(reply);
        throw error;
      }
    },
  );

  r.post(
    '/user/auth/logout',
    {
      config: { ...limited, auth: 'optional' },
      onRequest: sameOrigin,
      schema: {
        tags,
        summary:
          'Sign out: end the sign-in of the th_rt cookie (enough on its own) and of the bearer token, at once on every instance (needs X-Requested-With: XMLHttpRequest)',
        security: [{}, ...bearer],
        response: { 200: messageResponseSchema, ...errorResponses(403, 429) },
      },
    },
    async (request, reply) => {
      const result = await auth.logout(
        cookie.read(request),
        request.user,
        securityContextOf(request),
      );
      cookie.clear(reply);
      return result;
    },
  );

  r.get(
    '/user/auth',
    {
      config: { ...perMinute(config.rateLimitUserMax), auth: 'required' },
      schema: {
        tags,
        summary: 'The signed-in user',
        security: bearer,
        response: { 200: userSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => auth.me(currentUser(request).id),
  );

  r.post(
    '/user/auth/forgot-password-code',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Mail a 6-digit password reset code (valid 10 minutes; 5 a day at most); the same answer for an e-mail without an account, which gets nothing',
        body: forgotPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(422, 429) },
      },
    },
    async (request) => auth.forgotPassword(request.body.email, securityContextOf(request)),
  );

  r.post(
    '/user/auth/check-forgot-otp',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Check a reset code without using it (5 wrong tries lock it)',
        body: checkForgotOtpRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) => auth.checkForgotOtp(request.body.email, request.body.code),
  );

  r.post(
    '/user/auth/reset-password-with-code',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Set a new password with the code; ends every session',
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request) =>
      auth.resetPassword(
        request.body.email,
        request.body.code,
        request.body.password,
        securityContextOf(request),
      ),
  );
}
