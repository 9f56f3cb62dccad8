import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';

export const REFRESH_COOKIE = 'th_rt';
export const REFRESH_COOKIE_PATH = '/api/user/auth';

/** The refresh token lives in an HttpOnly, SameSite=Strict cookie sent only to the auth calls. */
export function refreshCookie(config: Config) {
  const secure = config.publicUrl.startsWith('https:');
  return {
    read: (request: FastifyRequest): string | undefined =>
      request.cookies[REFRESH_COOKIE] || undefined,
    /** The cookie lasts as long as the token: until `expires`, seen from `at`. */
    set(reply: FastifyReply, token: string, expires: Date, at: Date) {
      reply.setCookie(REFRESH_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path: REFRESH_COOKIE_PATH,
        maxAge: Math.max(0, Math.round((expires.getTime() - at.getTime()) / 1000)),
      });
    },
    clear(reply: FastifyReply) {
      reply.clearCookie(REFRESH_COOKIE, {
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path: REFRESH_COOKIE_PATH,
      });
    },
  };
}

/**
 * The cookie-authenticated calls (refresh, logout) demand `X-Requested-With:
 * XMLHttpRequest` (a header cross-site forms cannot send) and, when the browser
 * names an Origin, that it is ours: PUBLIC_URL's origin or the request's own host.
 */
export function checkRequestOrigin(config: Config) {
  const publicOrigin = new URL(config.publicUrl).origin;
  return async (request: FastifyRequest) => {
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest')
      throw new AppError(403, 'ORIGIN_REJECTED');
    const origin = request.headers.origin;
    if (origin === undefined) return;
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      throw new AppError(403, 'ORIGIN_REJECTED');
    }
    if (origin !== publicOrigin && host !== request.host)
      throw new AppError(403, 'ORIGIN_REJECTED');
  };
}
