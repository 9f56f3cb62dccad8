/**
 * Test helpers for the account screens: an i18next instance of their own per
 * test over the real locale resources, the real store, the pages on a memory
 * router under StrictMode. HTTP is stubbed at the global fetch by the shared
 * src/test/fetch-stub (real Response objects with the API's JSON shapes).
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type InitialEntry } from 'react-router';
import { makeStore } from '../../../app/store';
import { createTestI18n } from '../../../test/i18n-resources';
import type { Reply } from '../../../test/fetch-stub';
import { Component as ForgotPasswordPage } from '../pages/forgot-password-page';
import { Component as LoginPage } from '../pages/login-page';
import { Component as PasswordResetPage } from '../pages/password-reset-page';
import { Component as SignupPage } from '../pages/signup-page';

export { deferred, stubFetch } from '../../../test/fetch-stub';
export { createTestI18n };

/** A reply of the fetch stub: the status and the JSON body of the API. */
export function json(status: number, body: unknown): Reply {
  return { status, body };
}

function Placeholder({ title }: { title: string }) {
  return <h1>{title}</h1>;
}

export const routes = [
  { path: '/signup', Component: SignupPage },
  { path: '/login', Component: LoginPage },
  { path: '/forgot-password', Component: ForgotPasswordPage },
  { path: '/password-reset', Component: PasswordResetPage },
  { path: '/vps', element: <Placeholder title="VPS servers" /> },
  { path: '/public-offer', element: <Placeholder title="Public offer" /> },
  { path: '/privacy-policy', element: <Placeholder title="Privacy policy" /> },
];

export interface RenderOptions {
  language?: 'en' | 'ru';
  /** The partner code the shell took from a ?ref= link. */
  referralCode?: string | null;
}

export function renderAt(entry: InitialEntry, options: RenderOptions = {}) {
  const initial = makeStore().getState();
  const store = makeStore({
    ...initial,
    auth: { ...initial.auth, referralCode: options.referralCode ?? null },
  });
  const i18n = createTestI18n(options.language);
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  const user = userEvent.setup();
  const view = render(
    <StrictMode>
      <Provider store={store}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>
    </StrictMode>,
  );
  return { ...view, user, router, store, i18n };
}

/** The bodies sent to one endpoint. */
export function bodiesSentTo(
  api: { callsTo: (method: string, path: string) => { body: unknown }[] },
  path: string,
): unknown[] {
  return api.callsTo('POST', path).map((call) => call.body);
}
