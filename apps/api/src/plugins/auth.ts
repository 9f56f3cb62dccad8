import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { perMinute } from './rate-limit.ts';
import type { SessionRevocations } from '../lib/session-revocations.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';

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
  }
}

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
 * A plugin's hook that answers 403 FORBIDDEN to anyone but an admin: the role is read on every
 * call, before validation (a malformed request from a non-admin learns nothing about the route).
 */
function adminOnly(isAdmin: (userId: number) => Promise<boolean>) {
  return async (request: FastifyRequest) => {
    if (!(await isAdmin(currentUser(request).id))) throw new AppError(403, 'FORBIDDEN');
  };
}

/**
 * The start every operator route file shares: admins only (adminOnly, on the file's plugin), and
 * what each of its routes declares (a signed-in user, the per-user rate limit, the OpenAPI
 * security and tag), with the acting operator's id.
 */
export function operatorArea(
  app: FastifyInstance,
  isAdmin: (userId: number) => Promise<boolean>,
  rateLimitPerMinute: number,
) {
  app.addHook('preValidation', adminOnly(isAdmin));
  return {
    routeConfig: { ...perMinute(rateLimitPerMinute), auth: 'required' as const },
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

    app.addHook('onRoute', (route) => {
      const auth = route.config?.auth;
      if (auth === undefined) return;
      const hook = auth === 'required' ? requireUser : optionalUser;
      const existing = route.onRequest;
      route.onRequest = existing
        ? [...(Array.isArray(existing) ? existing : [existing]), hook]
        : [hook];
    });
  },
  { name: 'tradehost-auth', dependencies: ['@fastify/rate-limit'] },
);
