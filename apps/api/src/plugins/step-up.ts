import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { stepUp } from '../db/step-up.ts';
import { currentUser } from './auth.ts';
// `app.db`, wherever this file is compiled from
import type {} from './db.ts';

/** When a route asks for a fresh proof of its owner (see FastifyContextConfig.stepUp). */
export type StepUpRule = true | 'with-factor' | ((request: FastifyRequest) => boolean);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Step-up: money or a secret leaves through this route, so the sign-in must have proved its
     * owner within STEP_UP_WINDOW_MS (else 403 STEP_UP_REQUIRED with the `methods`). Checked
     * after validation and before the handler, so a refused request changes nothing and stores
     * no Idempotency-Key answer. `true`: always; `'with-factor'`: only while the account has a
     * second factor (the route's own password check is the proof otherwise); a function: when
     * it says so of the validated request (a transfer above STEP_UP_TRANSFER_ABOVE).
     */
    stepUp?: StepUpRule;
  }
}

/** Adds the step-up check to the routes that set `config.stepUp` (a signed-in user's routes). */
export const stepUpPlugin = fp(
  async (app, { now }: { now: () => Date }) => {
    const check =
      (rule: StepUpRule): preHandlerHookHandler =>
      async (request) => {
        if (typeof rule === 'function' && !rule(request)) return;
        const user = currentUser(request);
        if (rule === 'with-factor' && (await stepUp.methods(app.db, user.id)).includes('password'))
          return;
        await stepUp.require(app.db, user, now());
      };

    app.addHook('onRoute', (route) => {
      const rule = route.config?.stepUp;
      if (rule === undefined) return;
      const existing = route.preHandler;
      const hook = check(rule);
      route.preHandler = existing
        ? [...(Array.isArray(existing) ? existing : [existing]), hook]
        : [hook];
    });
  },
  { name: 'tradehost-step-up', dependencies: ['tradehost-db', 'tradehost-auth'] },
);
