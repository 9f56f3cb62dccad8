import multipart from '@fastify/multipart';
import {
  securityEventsQuerySchema,
  securityEventsResponseSchema,
  AVATAR_MAX_BYTES,
  changeNameRequestSchema,
  changePasswordRequestSchema,
  messageResponseSchema,
  signOutOthersResponseSchema,
  userSchema,
  userSessionsQuerySchema,
  userSessionsResponseSchema,
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
import { AVATAR_NAME, type ProfileService } from './profile.service.ts';

/** Room for the multipart boundaries and part headers around a file of AVATAR_MAX_BYTES. */
const MULTIPART_OVERHEAD = 16 * 1024;
const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Before a byte of the body is read: an upload is multipart (415 otherwise) and, when it says
 * its length, not larger than an avatar can be (413). A body without a length (chunked) is cut
 * off by the multipart limits as it streams instead.
 */
async function screenAvatarUpload(request: FastifyRequest) {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
  const length = Number(request.headers['content-length']);
  if (length > AVATAR_MAX_BYTES + MULTIPART_OVERHEAD) throw new AppError(413, 'AVATAR_TOO_LARGE');
}

/**
 * The uploaded file's bytes: at most AVATAR_MAX_BYTES are ever held (the parser stops there). The
 * form is read to its end, so a second file is refused rather than silently dropped.
 */
async function readAvatarUpload(request: FastifyRequest): Promise<Buffer> {
  const errors = request.server.multipartErrors;
  try {
    let upload: Buffer | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'file') upload = await part.toBuffer();
    }
    if (!upload) throw new AppError(422, 'AVATAR_REQUIRED');
    return upload;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.RequestFileTooLargeError)
      throw new AppError(413, 'AVATAR_TOO_LARGE');
    if (
      error instanceof errors.FilesLimitError ||
      error instanceof errors.PartsLimitError ||
      error instanceof errors.FieldsLimitError
    )
      throw new AppError(413, 'PAYLOAD_TOO_LARGE');
    // busboy's own failures (a body that is no multipart form) carry no status
    if (error instanceof Error && !('statusCode' in error)) throw new AppError(400, 'BAD_REQUEST');
    throw error;
  }
}

/**
 * /api/user/...: the profile page's calls (name, avatar, password, sessions). The language is
 * /user/change_language of the user module.
 */
export async function profileRoutes(
  app: FastifyInstance,
  { profile, config }: { profile: ProfileService; config: Config },
) {
  // in this plugin only: every other route keeps refusing multipart bodies (415)
  await app.register(multipart, {
    limits: {
      fileSize: AVATAR_MAX_BYTES,
      files: 1,
      fields: 2,
      parts: 3,
      fieldNameSize: 100,
      fieldSize: 1024,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  // checking a password (argon2) and decoding an image are the expensive calls: the auth limit
  const expensive = { ...perMinute(config.rateLimitAuthMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['profile'];

  r.post(
    '/user/change_name',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Set the account’s name (the sign-up rules: 1 to 100 characters); returns the user',
        security,
        body: changeNameRequestSchema,
        response: { 200: userSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => profile.changeName(currentUser(request).id, request.body.name),
  );

  r.post(
    '/user/avatar',
    {
      config: expensive,
      preParsing: async (request) => screenAvatarUpload(request),
      schema: {
        tags,
        summary:
          'Upload the avatar: multipart/form-data with one file (JPEG, PNG, GIF or WebP by content, at most 1 MB and 25 megapixels), stored as a 256×256 WebP without metadata; photo_path becomes its URL and the previous file is deleted. Returns the user',
        security,
        consumes: ['multipart/form-data'],
        response: { 200: userSchema, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
    },
    async (request) => profile.setAvatar(currentUser(request).id, await readAvatarUpload(request)),
  );

  r.delete(
    '/user/avatar',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Remove the avatar (photo_path becomes null, the file is deleted); returns the user',
        security,
        response: { 200: userSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => profile.removeAvatar(currentUser(request).id),
  );

  r.get(
    '/user/avatar/:file',
    {
      // no token: an <img> sends none; the name (128 random bits, new per upload) is the key
      config: perMinute(config.rateLimitUserMax),
      schema: {
        tags,
        summary:
          'An avatar (the URL in photo_path): image/webp, nosniff, cached for a year (a new upload gets a new name)',
        params: z.object({ file: z.string().check(z.regex(AVATAR_NAME)) }),
        // no response schema: the body is the file's bytes (404 and 429 are the usual error shape)
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const file = await profile.avatarFile(request.params.file);
      if (!file) throw new AppError(404, 'NOT_FOUND');
      return reply
        .type('image/webp')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`)
        .send(file);
    },
  );

  r.post(
    '/user/change_password',
    {
      // with no second factor the current password in the body is the proof (recorded as one);
      // with one on, a fresh proof of it first (403 STEP_UP_REQUIRED)
      config: { ...expensive, stepUp: 'with-factor' },
      schema: {
        tags,
        summary:
          'Change the password: the current one (422 CURRENT_PASSWORD_WRONG on current_password; a wrong one counts as a wrong step-up proof, and the 5th in a row ends the sign-in, 401), the new one twice (at least 8). Signs out every other session and mails the owner. With a second factor on, needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        body: changePasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) =>
      profile.changePassword(currentUser(request), request.body, securityContextOf(request)),
  );

  r.get(
    '/user/sessions',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Where the account is signed in, a page at a time: one row per live sign-in (browser and OS, created, last use), this one first (`current`), then newest use first; `others` counts the live ones but this',
        security,
        querystring: userSessionsQuerySchema,
        response: { 200: userSessionsResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => profile.sessions(currentUser(request), request.query),
  );

  r.post(
    '/user/sessions/sign_out_others',
    {
      // whoever holds a stolen session must not lock the owner out: a fresh proof first
      config: { ...routeConfig, stepUp: true },
      schema: {
        tags,
        summary:
          'Sign out everywhere else: revokes every sign-in but this one; `revoked` counts the live ones; needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        response: { 200: signOutOthersResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => profile.signOutOthers(currentUser(request), securityContextOf(request)),
  );

  r.delete(
    '/user/sessions/:id',
    {
      // a stolen session must not end the owner's: a fresh proof first
      config: { ...routeConfig, stepUp: true },
      schema: {
        tags,
        summary:
          'End one sign-in of the account (its access tokens stop at once, on every instance); needs a fresh proof (403 STEP_UP_REQUIRED); 404 when it is not live',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: messageResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) =>
      profile.endSession(currentUser(request), request.params.id, securityContextOf(request)),
  );

  r.get(
    '/user/activity',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Account activity: the security log (sign-ins and failures, locks, factor, password and e-mail changes, session ends, token reuse, step-ups, reveals), newest first, a page at a time',
        security,
        querystring: securityEventsQuerySchema,
        response: { 200: securityEventsResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => profile.activity(currentUser(request), request.query),
  );
}
