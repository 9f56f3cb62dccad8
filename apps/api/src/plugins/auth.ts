import type { OperatorRole } from '@tradehost/contracts';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { operatorRefusal } from '../db/operators.ts';
import { AppError } from '../lib/errors.ts';
import { perMinute } from './rate-limit.ts';
import type { SessionRevocations } from '../lib/session-revocations.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';
// `app.db`, wherever this file is compiled from
import type {} from './db.ts';

export interface AuthUser {
  id: number;
  /** The sign-in (refresh-token family) of the bearer token; null for a token without one. */
  sessionId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's user, set on routes with `config.auth`. */
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /**
     * `required`: 401 UNAUTHORIZED without a valid bearer token; the user is in `request.user`.
     * `optional`: the user when the token is valid, else null (never refused).
     */
    auth?: 'required' | 'optional';
    /**
     * The operator roles that may call the route (`admin` may call every one). Every route under
     * /api/admin declares it, or the app refuses to start; it implies `auth: 'required'`. The
     * one check (operatorGate) reads the caller's roles on every call, so a revoked role loses
     * the route at once; it runs before the body is read or validated, so a caller without the
     * role learns nothing of the route's requests: 403 FORBIDDEN, or 403
     * OPERATOR_SECOND_FACTOR_REQUIRED to an operator without a second factor.
     */
    operatorRoles?: readonly OperatorRole[];
  }
}

/** The operator area: every route under it declares `config.operatorRoles`. */
export const OPERATOR_AREA = /^\/api\/admin(\/|$)/;

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** The signed-in user of a route with `config: { auth: 'required' }`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError(401, 'UNAUTHORIZED');
  return request.user;
}

/**
 * What every operator route file shares: each route's config for the roles that may call it (a
 * signed-in user, the per-user rate limit, `operatorRoles`), the OpenAPI security and tag, and
 * the acting operator's id.
 */
export function operatorArea(rateLimitPerMinute: number) {
  return {
    forRoles: (...operatorRoles: OperatorRole[]) => ({
      ...perMinute(rateLimitPerMinute),
      auth: 'required' as const,
      operatorRoles,
    }),
    security: [{ bearer: [] }],
    tags: ['operator'],
    adminId: (request: FastifyRequest) => currentUser(request).id,
  };
}

/**
 * Verifies bearer JWTs on the routes that ask for it in `config.auth`. The hook is
 * appended to the route's onRequest hooks, after the rate limit's (registered first),
 * so a flood is refused before any token work.
 */
export const authPlugin = fp(
  async (app, { tokens, sessions }: { tokens: AccessTokens; sessions: SessionRevocations }) => {
    app.decorateRequest('user', null);

    /** The bearer token's user; null when it is missing, invalid, or of an ended sign-in. */
    const userOf = async (request: FastifyRequest): Promise<AuthUser | null> => {
      const token = bearerOf(request);
      const claims = token ? await tokens.verify(token) : null;
      if (claims === null) return null;
      if (claims.sessionId !== null && sessions.has(claims.sessionId)) return null;
      return { id: claims.userId, sessionId: claims.sessionId };
    };

    const requireUser: onRequestHookHandler = async function requireUser(
      request: FastifyRequest,
      _reply: FastifyReply,
    ) {
      const user = await userOf(request);
      if (user === null) throw new AppError(401, 'UNAUTHORIZED');
      request.user = user;
    };

    const optionalUser: onRequestHookHandler = async function optionalUser(
      request: FastifyRequest,
      _reply: FastifyReply,
    ) {
      request.user = await userOf(request);
    };

    /**
     * The operator area's one check, after the token's (config.operatorRoles): a customer is
     * FORBIDDEN, an operator without a second factor OPERATOR_SECOND_FACTOR_REQUIRED, an
     * operator without one of `allowed` (or admin) FORBIDDEN.
     */
    const operatorGate = (allowed: readonly OperatorRole[]): onRequestHookHandler =>
      async function operatorGate(request: FastifyRequest, _reply: FastifyReply) {
        const refusal = await operatorRefusal(app.db, currentUser(request).id, allowed);
        if (refusal !== null) throw new AppError(403, refusal);
      };

    app.addHook('onRoute', (route) => {
      const auth = route.config?.auth;
      const operatorRoles = route.config?.operatorRoles;
      if (OPERATOR_AREA.test(route.url) && operatorRoles === undefined)
        throw new Error(`${route.url}: an operator route declares config.operatorRoles`);
      if (operatorRoles !== undefined && auth !== 'required')
        throw new Error(`${route.url}: an operator route needs config.auth 'required'`);
      if (auth === undefined) return;
      // the API's reference says who may call an operator route (once: a GET's HEAD shares
      // its schema)
      const who = operatorRoles && `Operator roles: ${[...operatorRoles, 'admin'].join(', ')}.`;
      if (who && route.schema && !route.schema.description?.startsWith(who))
        route.schema.description = [who, route.schema.description].filter(Boolean).join(' ');
      const hooks = [auth === 'required' ? requireUser : optionalUser];
      if (operatorRoles !== undefined) hooks.push(operatorGate(operatorRoles));
      const existing = route.onRequest;
      route.onRequest = existing
        ? [...(Array.isArray(existing) ? existing : [existing]), ...hooks]
        : hooks;
    });
  },
  { name: 'tradehost-auth', dependencies: ['tradehost-rate-limit', 'tradehost-db'] },
);
