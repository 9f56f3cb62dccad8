import { messageResponseSchema, stepUpRequestSchema } from '@tradehost/contracts';
import * as z from 'zod/mini';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { securityContextOf } from '../../db/security-events.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { StepUpService } from './step-up.service.ts';

/** navigator.credentials.get()'s options as @simplewebauthn makes them (challenge, allowCredentials, ...). */
const passkeyRequestOptionsSchema = z.record(z.string(), z.unknown());

/** POST /api/user/auth/step-up: the fresh proof the routes that let money or secrets leave ask for. */
export async function stepUpRoutes(
  app: FastifyInstance,
  { stepUp, config }: { stepUp: StepUpService; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const security = [{ bearer: [] }];

  r.post(
    '/user/auth/step-up',
    {
      // a password or a code is checked: the sign-in limit
      config: { ...perMinute(config.rateLimitAuthMax), auth: 'required' },
      schema: {
        tags,
        summary:
          'Prove it is you again (after 403 STEP_UP_REQUIRED): `password` when no second factor is on, else `code` (TOTP), `recovery_code`, or `passkey` with its `challenge_id`. Lets money and secrets leave for 5 minutes. A wrong proof is 422 STEP_UP_PROOF_INVALID; the password once a factor is on, 422 STEP_UP_METHOD_NOT_ALLOWED; the 5th wrong proof in a row ends the sign-in (401)',
        security,
        body: stepUpRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return stepUp.prove(currentUser(request), request.body, securityContextOf(request));
    },
  );

  r.post(
    '/user/auth/step-up/passkey-options',
    {
      config: { ...perMinute(config.rateLimitAuthMax), auth: 'required' },
      schema: {
        tags,
        summary:
          'Options for navigator.credentials.get() with the account’s passkeys and a challenge (5 minutes, once), whose answer goes to /user/auth/step-up as `passkey`; 422 STEP_UP_METHOD_NOT_ALLOWED without a passkey',
        security,
        response: { 200: passkeyRequestOptionsSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => stepUp.passkeyOptions(currentUser(request)),
  );
}
