import {
  stepUpMethodOf,
  SUCCESS_MESSAGES,
  type MessageResponse,
  type StepUpRequest,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import {
  proofOf,
  secondFactor,
  secondFactorSettings,
  type SecondFactorProof,
} from '../../db/second-factor.ts';
import type { SecurityContext } from '../../db/security-events.ts';
import { stepUp } from '../../db/step-up.ts';
import { userRepository } from '../../db/users.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { ServiceDeps } from '../deps.ts';

export type StepUpService = ReturnType<typeof createStepUpService>;

/**
 * Step-up: a signed-in user proves again that they are the owner (the password, or a second
 * factor once one is on), which lets money and secrets leave for STEP_UP_WINDOW_MS (the routes'
 * `config.stepUp`, plugins/step-up.ts).
 */
export function createStepUpService({
  db,
  config,
  sessions,
  now,
}: Pick<ServiceDeps, 'db' | 'config' | 'sessions' | 'now'>) {
  const settings = secondFactorSettings(config);

  /**
   * Whether the proof is the owner's (only the methods the account allows get here): the
   * password when the body gives no second factor's proof, else the factor's proof as the
   * factor removal and the sign-in's second step read it (proofOf; db/second-factor.ts: a TOTP
   * step or a recovery code is used up by success, a passkey's challenge by any answer).
   */
  async function verify(
    tx: Executor,
    userId: number,
    body: StepUpRequest,
    factor: SecondFactorProof | undefined,
    at: Date,
    context: SecurityContext,
  ): Promise<boolean> {
    if (factor !== undefined)
      return (await secondFactor.verify(tx, userId, factor, at, settings, context)) !== null;
    const user = await userRepository.findById(tx, userId);
    return user !== undefined && (await verifyPassword(user.passwordHash, body.password!));
  }

  return {
    /**
     * Checks one proof of the sign-in `user`. Right: the sign-in may let money and secrets leave
     * for the next 5 minutes (`step_up` in the security log). Wrong: 422 STEP_UP_PROOF_INVALID
     * on the proof's field (`step_up_failed`); the STEP_UP_MAX_FAILURES-th wrong one in a row
     * (db/step-up.ts: a password change's wrong current password counts too) ends the sign-in
     * (401 SESSION_EXPIRED). A kind of proof the account does not take (the password once a
     * second factor is on, a factor while none is) is 422 STEP_UP_METHOD_NOT_ALLOWED, not
     * checked and not counted.
     */
    async prove(
      user: AuthUser,
      body: StepUpRequest,
      context: SecurityContext,
    ): Promise<MessageResponse> {
      const { sessionId } = user;
      // a proof is kept per sign-in: a token without one has nowhere to keep it
      if (!sessionId) throw new AppError(401, 'UNAUTHORIZED');
      const method = stepUpMethodOf(body);
      // a factor's proof and the field a wrong one is reported on; none: the password
      const [factor, field] = proofOf(body) ?? [undefined, 'password'];
      const at = now();
      const where = { ...context, sessionId };
      const { verdict, ended } = await stepUp.attempt(
        db,
        { id: user.id, sessionId },
        method,
        at,
        context,
        async (tx) => {
          // the password proves only without a second factor, a factor only with one (a used-up
          // recovery code or a code of a factor the account lacks is then a wrong proof)
          const withFactor = !(await stepUp.methods(tx, user.id)).includes('password');
          if ((method === 'password') === withFactor) return 'not-allowed';
          if (!(await verify(tx, user.id, body, factor, at, where))) return 'wrong';
          await stepUp.proved(tx, user.id, sessionId, method, at, context);
          return 'right';
        },
      );
      // its access tokens stop at once, on every instance
      if (ended.length > 0) await sessions.revoke(ended);
      switch (verdict) {
        case 'right':
          return { message: SUCCESS_MESSAGES.STEP_UP_DONE, code: 'STEP_UP_DONE' };
        case 'wrong':
          throw fieldError(422, field, 'STEP_UP_PROOF_INVALID');
        case 'not-allowed':
          throw fieldError(422, field, 'STEP_UP_METHOD_NOT_ALLOWED');
        case 'ended':
          throw new AppError(401, 'SESSION_EXPIRED');
      }
    },

    /**
     * Options for navigator.credentials.get() with the account's passkeys and a challenge of
     * ours (5 minutes, once), for a step-up with a passkey; 422 STEP_UP_METHOD_NOT_ALLOWED when
     * the account has none.
     */
    async passkeyOptions(user: AuthUser): Promise<Record<string, unknown>> {
      if (!(await stepUp.methods(db, user.id)).includes('passkey'))
        throw fieldError(422, 'passkey', 'STEP_UP_METHOD_NOT_ALLOWED');
      const options = await secondFactor.passkeyRequestOptions(db, user.id, now(), settings);
      return { ...options };
    },
  };
}
