import { waitFor } from '@testing-library/react';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { testUser } from '../test/fixtures';
import { renderApp } from '../test/render';
import { SIGNED_IN_HOME, SIGNED_IN_LAYOUT } from '../../build/signed-in-preload';
import { tokenReceived } from '../features/auth/model/auth-slice';
import type { OperatorRouteHandle } from '../features/operator/lib/operator-roles';
import { preloadRoutes, signedInRoutes, signedOutRoutes } from './router';
import { makeStore } from './store';

function stubSignedInApi(permissions: unknown = { partner: true, monitoring: true }) {
  return stubFetch({
    'GET /user/auth': { body: testUser },
    'GET /front/permissions': { body: permissions },
    'GET /user/alert': { body: { alert: null } },
  });
}

/** Opens `path` and waits until the router has settled (initialised, no navigation under way). */
async function landsOn(
  routes: typeof signedOutRoutes,
  path: string,
  options: { signedIn?: boolean } = {},
) {
  const { router, unmount } = await renderApp({ routes, path, signedIn: options.signedIn });
  await waitFor(() => {
    expect(router.state.initialized).toBe(true);
    expect(router.state.navigation.state).toBe('idle');
  });
  const { pathname } = router.state.location;
  unmount();
  return pathname;
}

describe('signed-out routes', () => {
  it('send the root to /login', async () => {
    stubFetch();
    expect(await landsOn(signedOutRoutes, '/')).toBe('/login');
  });

  it('send an unknown path to the root, hence /login', async () => {
    stubFetch();
    expect(await landsOn(signedOutRoutes, '/no/such/page')).toBe('/login');
  });

  it('send signed-in pages to /login', async () => {
    stubFetch();
    expect(await landsOn(signedOutRoutes, '/vps')).toBe('/login');
    expect(await landsOn(signedOutRoutes, '/support/12')).toBe('/login');
  });

  it('keep the public pages', async () => {
    stubFetch();
    expect(await landsOn(signedOutRoutes, '/signup')).toBe('/signup');
    expect(await landsOn(signedOutRoutes, '/online-monitoring/77')).toBe('/online-monitoring/77');
  });
});

describe('signed-in routes', () => {
  it('send the root to /vps', async () => {
    stubSignedInApi();
    expect(await landsOn(signedInRoutes, '/', { signedIn: true })).toBe('/vps');
  });

  it('send an unknown path to the root, hence /vps', async () => {
    stubSignedInApi();
    expect(await landsOn(signedInRoutes, '/no/such/page', { signedIn: true })).toBe('/vps');
  });

  it('send the account screens to /vps', async () => {
    stubSignedInApi();
    expect(await landsOn(signedInRoutes, '/login', { signedIn: true })).toBe('/vps');
    expect(await landsOn(signedInRoutes, '/signup', { signedIn: true })).toBe('/vps');
  });

  it('keep the nested pages', async () => {
    stubSignedInApi();
    expect(await landsOn(signedInRoutes, '/online-monitoring/guide', { signedIn: true })).toBe(
      '/online-monitoring/guide',
    );
    expect(await landsOn(signedInRoutes, '/support/12', { signedIn: true })).toBe('/support/12');
  });

  it('send a section its permission flag hides back to the root', async () => {
    stubSignedInApi({ partner: false, monitoring: true });
    const { router } = await renderApp({
      routes: signedInRoutes,
      path: '/partner-program',
      signedIn: true,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/vps'));
  });
});

describe('the operator area', () => {
  it('declares the role of each page beside its route; the users and a user are every operator’s', () => {
    const area = matchRoutes(signedInRoutes, '/operator/users')!.find(
      ({ route }) => route.path === 'operator',
    )!.route;
    const pages = area.children![0]!.children!;
    const roles = Object.fromEntries(
      pages.map(({ index, path, handle }) => [
        index ? '(index)' : path,
        (handle as OperatorRouteHandle).operatorRole ?? null,
      ]),
    );
    expect(roles).toEqual({
      '(index)': 'billing',
      approvals: 'billing',
      users: null,
      'users/:userId': null,
      'vps/test-servers': 'vps',
      'vps/servers': 'vps',
      'vps/operations': 'vps',
      'vps/rates': 'vps',
      'vps/latency': 'vps',
      'vps/promocodes': 'billing',
      'monitoring/subscriptions': 'monitoring',
      'monitoring/accounts': 'monitoring',
      'monitoring/prices': 'billing',
      'partner/withdrawals': 'billing',
      'partner/settings': 'billing',
      support: 'support',
      'support/canned': 'support',
      'support/departments': 'support',
      'support/:ticketId': 'support',
      faq: 'support',
      operators: 'admin',
      audit: 'admin',
    });
  });
});

describe('the signed-in home that index.html preloads (build/signed-in-preload.ts)', () => {
  /** The components the routes matching `path` load. */
  async function componentsAt(path: string) {
    const matches = matchRoutes(signedInRoutes, path) ?? [];
    const loaded = await Promise.all(
      matches.map(({ route }) => (typeof route.lazy === 'function' ? route.lazy() : route)),
    );
    return loaded.map((route) => route.Component);
  }

  it("is the layout's module and the page's at each of its addresses", async () => {
    const { SignedInLayout } = (await import(/* @vite-ignore */ `../../${SIGNED_IN_LAYOUT}`)) as {
      SignedInLayout: unknown;
    };
    const page = (await import(/* @vite-ignore */ `../../${SIGNED_IN_HOME.page}`)) as {
      Component: unknown;
    };
    expect(await componentsAt('/vps')).toEqual([SignedInLayout, undefined, page.Component]);
    stubSignedInApi();
    for (const path of SIGNED_IN_HOME.paths) {
      expect(await landsOn(signedInRoutes, path, { signedIn: true })).toBe('/vps');
    }
  });
});

describe('preloadRoutes', () => {
  /** The route at `path` below `routes`' layout, and a spy on its `lazy` (restored after). */
  function spyOnLazy(routes: RouteObject[], path: string | undefined) {
    const find = (list: RouteObject[]): RouteObject | undefined =>
      list.reduce<RouteObject | undefined>(
        (found, route) => found ?? (route.path === path ? route : find(route.children ?? [])),
        undefined,
      );
    const route = find(routes);
    if (!route || typeof route.lazy !== 'function') throw new Error(`no lazy route ${path}`);
    return vi.spyOn(route as { lazy: () => Promise<unknown> }, 'lazy');
  }

  it('starts the modules of the routes matching the path, of the auth state, and no others', () => {
    const login = spyOnLazy(signedOutRoutes, 'login');
    const signup = spyOnLazy(signedOutRoutes, 'signup');
    const layout = spyOnLazy(signedInRoutes, '/');
    const vps = spyOnLazy(signedInRoutes, 'vps');
    try {
      preloadRoutes(false, new URL('http://localhost/login'));
      expect(login).toHaveBeenCalledTimes(1);
      expect(signup).not.toHaveBeenCalled();
      expect(layout).not.toHaveBeenCalled();
      preloadRoutes(true, new URL('http://localhost/vps'));
      expect(layout).toHaveBeenCalledTimes(1);
      expect(vps).toHaveBeenCalledTimes(1);
      expect(login).toHaveBeenCalledTimes(1);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('with a dispatch, starts the first calls of the layout and the page, before any render', async () => {
    const http = stubFetch({
      'GET /user/auth': { body: testUser },
      'GET /front/permissions': { body: { partner: true, monitoring: true } },
      'GET /user/alert': { body: { alert: null } },
      'GET /user/support/unread': { body: { count: 0 } },
      'GET /user/vps/servers': { body: { data: [], meta: { total: 0, page: 1, per_page: 20 } } },
    });
    const store = makeStore();
    store.dispatch(tokenReceived({ token: 'jwt', expires: '2030-01-01T00:00:00.000Z' }));
    const paths = () => http.calls.map((call) => call.path).sort();
    preloadRoutes(true, new URL('http://localhost/vps'), store.dispatch);
    await expect
      .poll(paths)
      .toEqual([
        '/front/permissions',
        '/user/alert',
        '/user/auth',
        '/user/support/unread',
        '/user/vps/servers',
      ]);
    expect(http.callsTo('GET', '/user/vps/servers')[0]?.headers.get('Authorization')).toBe(
      'Bearer jwt',
    );
  });

  it("runs a module's prefetch in a task of its own, not in the one that evaluated the module", async () => {
    const prefetch = vi.fn();
    const layout = spyOnLazy(signedInRoutes, '/').mockResolvedValue({ handle: { prefetch } });
    try {
      const store = makeStore();
      // a page without a prefetch of its own, so that the layout's is the only one
      preloadRoutes(true, new URL('http://localhost/profile'), store.dispatch);
      await layout.mock.results[0]!.value;
      // the module is in, the microtasks that follow it have run: not yet
      for (let i = 0; i < 10; i += 1) await Promise.resolve();
      expect(prefetch).not.toHaveBeenCalled();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(prefetch).toHaveBeenCalledTimes(1);
      expect(prefetch).toHaveBeenCalledWith(store.dispatch, new URL('http://localhost/profile'));
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('leaves out what the address does not show, and calls nothing while signed out', async () => {
    const http = stubFetch({ 'GET /user/auth': { body: testUser } });
    const store = makeStore();
    preloadRoutes(false, new URL('http://localhost/login'), store.dispatch);
    store.dispatch(tokenReceived({ token: 'jwt', expires: '2030-01-01T00:00:00.000Z' }));
    preloadRoutes(true, new URL('http://localhost/vps?tab=rates'), store.dispatch);
    await expect.poll(() => http.calls.length).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(http.calls.map((call) => call.path)).not.toContain('/user/vps/servers');
  });
});
