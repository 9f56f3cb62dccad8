import {
  factorsResponseSchema,
  idParamsSchema,
  passkeyAddedSchema,
  passkeyItemSchema,
  passkeyOptionsSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  recoveryCodesResponseSchema,
  removeFactorRequestSchema,
  totpConfirmRequestSchema,
  totpEnrolmentSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { securityContextOf } from '../../db/security-events.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { FactorsService } from './factors.service.ts';

/** /api/user/factors...: the second factors of Profile (authenticator app, recovery codes, passkeys). */
export async function factorsRoutes(
  app: FastifyInstance,
  { factors, config }: { factors: FactorsService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['factors'];
  const security = [{ bearer: [] }];
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  // a code, a password or a passkey is checked: the sign-in limit
  const checking = { ...perMinute(config.rateLimitAuthMax), auth: 'required' as const };
  // secrets (the TOTP secret, recovery codes) must not stay in a cache
  const noStore = { 'cache-control': 'no-store' };

  r.get(
    '/user/factors',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'The second factors: the authenticator app (on/off, since), the passkeys, how many recovery codes are left',
        security,
        response: { 200: factorsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => factors.list(currentUser(request).id),
  );

  r.post(
    '/user/factors/totp',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Start setting up the authenticator app: a new secret (base32), its otpauth URI (issuer TradeHost, the e-mail) and QR code; on once a code confirms it. 409 TOTP_ALREADY_ON when it is on',
        security,
        response: { 200: totpEnrolmentSchema, ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return factors.startTotp(currentUser(request).id);
    },
  );

  r.post(
    '/user/factors/totp/confirm',
    {
      config: checking,
      schema: {
        tags,
        summary:
          'Confirm the authenticator app with its current code: it is on, and ten one-time recovery codes are made (shown this once). A wrong code is 422 SECOND_FACTOR_INVALID and changes nothing',
        security,
        body: totpConfirmRequestSchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(401, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return factors.confirmTotp(
        currentUser(request).id,
        request.body.code,
        securityContextOf(request),
      );
    },
  );

  r.post(
    '/user/factors/totp/disable',
    {
      config: checking,
      schema: {
        tags,
        summary:
          'Turn the authenticator app off: a step-up action (403 STEP_UP_REQUIRED); when it is the last factor, `password` and a current `code`, `recovery_code` or `passkey` are needed in the body instead, and the recovery codes go with it',
        security,
        body: removeFactorRequestSchema,
        response: { 200: factorsResponseSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      factors.removeTotp(currentUser(request), request.body, securityContextOf(request)),
  );

  r.post(
    '/user/factors/recovery-codes',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Ten new recovery codes in place of the old ones (shown this once): a step-up action (403 STEP_UP_REQUIRED); 409 without a second factor',
        security,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return factors.regenerateRecoveryCodes(currentUser(request), securityContextOf(request));
    },
  );

  r.post(
    '/user/factors/passkeys/options',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Options for navigator.credentials.create() (a challenge valid 5 minutes, once), for adding a passkey',
        security,
        response: { 200: passkeyOptionsSchema, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      // the options' JSON as @simplewebauthn made it
      return { ...(await factors.passkeyRegistrationOptions(currentUser(request).id)) };
    },
  );

  r.post(
    '/user/factors/passkeys',
    {
      config: checking,
      schema: {
        tags,
        summary:
          "Add a passkey: its name and the browser's answer (RegistrationResponseJSON) to the options' challenge. When it turns the second factor on and no unused recovery codes are left, ten are made with it (`recovery_codes`, shown this once). 422 PASSKEY_INVALID when it does not verify",
        security,
        body: passkeyRegisterRequestSchema,
        response: { 201: passkeyAddedSchema, ...errorResponses(401, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return reply
        .code(201)
        .send(
          await factors.registerPasskey(
            currentUser(request).id,
            request.body.name,
            request.body.response,
            securityContextOf(request),
          ),
        );
    },
  );

  r.post(
    '/user/factors/passkeys/assertion-options',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          "Options for navigator.credentials.get() with the account's passkeys: the proof for removing the last factor",
        security,
        response: { 200: passkeyOptionsSchema, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return { ...(await factors.passkeyRequestOptions(currentUser(request).id)) };
    },
  );

  r.patch(
    '/user/factors/passkeys/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Rename a passkey',
        security,
        params: idParamsSchema,
        body: passkeyRenameRequestSchema,
        response: { 200: passkeyItemSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      factors.renamePasskey(currentUser(request).id, request.params.id, request.body.name),
  );

  r.post(
    '/user/factors/passkeys/:id/remove',
    {
      config: checking,
      schema: {
        tags,
        summary:
          'Remove a passkey: a step-up action (403 STEP_UP_REQUIRED); when it is the last factor, `password` and a current `code`, `recovery_code` or `passkey` are needed in the body instead',
        security,
        params: idParamsSchema,
        body: removeFactorRequestSchema,
        response: { 200: factorsResponseSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      factors.removePasskey(
        currentUser(request),
        request.params.id,
        request.body,
        securityContextOf(request),
      ),
  );
}
