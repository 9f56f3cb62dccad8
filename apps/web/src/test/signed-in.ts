import type { User } from '@tradehost/contracts';
import { signedInRoutes } from '../app/router';
import { stubFetch, type Handler } from './fetch-stub';
import { testUser } from './fixtures';
import { renderApp } from './render';

/** The signed-in shell's calls (the user, the permissions, the alert) and the given routes. */
export function stubSignedInApi(routes: Record<string, Handler> = {}, user: User = testUser) {
  return stubFetch({
    'GET /user/auth': { body: user },
    'GET /front/permissions': { body: { partner: true, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    ...routes,
  });
}

/** The signed-in routes (the guards and the lazy pages included) opened at `path`. */
export function openSignedIn(
  path: string,
  options: { width?: number; language?: 'en' | 'ru' } = {},
) {
  return renderApp({ routes: signedInRoutes, path, signedIn: true, ...options });
}
