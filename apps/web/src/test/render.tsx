import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TokenResponse } from '@tradehost/contracts';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers } from '../app/providers';
import { makeStore, type RootState } from '../app/store';
import { i18n } from '../shared/i18n';
import { windowResized } from '../shared/model/ui-slice';

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

export const sessionToken = (): TokenResponse => ({
  token: 'test-token',
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
