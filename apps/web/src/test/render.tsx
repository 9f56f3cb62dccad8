import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TokenResponse } from '@tradehost/contracts';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers } from '../app/providers';
import { makeStore, type RootState } from '../app/store';
import { i18n } from '../shared/i18n';
import { tokenReceived } from '../shared/model/session';
import { windowResized } from '../shared/model/ui-slice';
import { createTestI18n } from './i18n-resources';

export interface RenderAppOptions {
  /** The routes of the memory router (e.g. signedInRoutes from app/router). */
  routes: RouteObject[];
  path?: string;
  preloadedState?: Partial<RootState>;
  /** A signed-in session (a token good for an hour). */
  signedIn?: boolean;
  /** The window width the store starts with (mobile < 768 <= tablet < 1280 <= desktop). */
  width?: number;
  language?: 'en' | 'ru';
}

export const sessionToken = (token = 'test-token'): TokenResponse => ({
  token,
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});

/** The app's providers (store, i18n, shell) around a memory router of the given routes. */
export async function renderApp({
  routes,
  path = '/',
  preloadedState,
  signedIn = false,
  width = 1440,
  language = 'en',
}: RenderAppOptions) {
  const store = makeStore(preloadedState);
  if (signedIn) store.dispatch({ type: 'auth/tokenReceived', payload: sessionToken() });
  Object.assign(window, { innerWidth: width });
  store.dispatch(windowResized({ width, height: 900 }));
  await act(() => i18n.changeLanguage(language));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <Providers store={store}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, store, router, user };
}

export interface RenderPageOptions {
  language?: 'en' | 'ru';
  /** The window width (mobile < 768). */
  width?: number;
}

/**
 * A feature's page: the real store signed in with `token` (good for an hour), an i18next
 * instance of the test's own over the real locale resources, and `routes` on a memory router
 * at `path`, under StrictMode.
 */
export function renderSignedInPage(
  routes: RouteObject[],
  path: string,
  token: string,
  options: RenderPageOptions = {},
) {
  const store = makeStore();
  store.dispatch(tokenReceived(sessionToken(token)));
  store.dispatch(windowResized({ width: options.width ?? 1440, height: 900 }));
  const pageI18n = createTestI18n(options.language ?? 'en');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const events = userEvent.setup();
  const view = render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={pageI18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
  return { ...view, user: events, router, store, i18n: pageI18n };
}

/** The search parameters of the router's current address. */
export function searchOf(router: { state: { location: { search: string } } }): URLSearchParams {
  return new URLSearchParams(router.state.location.search);
}
