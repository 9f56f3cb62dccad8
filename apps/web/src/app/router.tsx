import type { Permissions } from '@tradehost/contracts';
import { lazy, type ComponentType } from 'react';
import {
  createBrowserRouter,
  matchRoutes,
  redirect,
  RouterProvider,
  type RouteObject,
} from 'react-router';
import { selectAuthorized } from '../features/auth/model/auth-slice';
import type {
  OperatorLayoutHandle,
  OperatorRouteHandle,
  OperatorSection,
} from '../features/operator/lib/operator-roles';
import { loadTexts } from '../shared/i18n';
import type { PrefetchDispatch, RouteHandle } from '../shared/lib/route-handle';
import { FullScreenSpinner } from '../shared/ui/spinner/spinner';
import { StartFallback } from './start-frame';
import { useAppSelector } from './hooks';
import { RouteError } from './layouts/route-error';
import { SignedOutLayout } from './layouts/signed-out-layout';

/** A page module together with its section's texts (they are not in the first view). */
const withTexts = <T,>(namespace: string, page: Promise<T>): Promise<T> =>
  Promise.all([page, loadTexts(namespace)]).then(([module]) => module);

/** A route that only sends the reader elsewhere, before anything renders (element null: nothing to show). */
const redirectTo = (path: string) => ({ loader: () => redirect(path), element: null });

const legalRoutes: RouteObject[] = [
  { path: 'public-offer', lazy: () => import('../features/legal/pages/public-offer-page') },
  { path: 'privacy-policy', lazy: () => import('../features/legal/pages/privacy-policy-page') },
];

/** The routes while signed out (state.auth.authorized false). Pages load on demand. */
export const signedOutRoutes: RouteObject[] = [
  {
    path: '/',
    Component: SignedOutLayout,
    HydrateFallback: FullScreenSpinner,
    ErrorBoundary: RouteError,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          { index: true, ...redirectTo('/login') },
          { path: 'login', lazy: () => import('../features/auth/pages/login-page') },
          { path: 'signup', lazy: () => import('../features/auth/pages/signup-page') },
          {
            path: 'forgot-password',
            lazy: () => import('../features/auth/pages/forgot-password-page'),
          },
          {
            path: 'password-reset',
            lazy: () => import('../features/auth/pages/password-reset-page'),
          },
          ...legalRoutes,
          {
            path: 'online-monitoring/:monitoringId',
            lazy: () =>
              withTexts('monitoring', import('../features/monitoring/pages/public-account-page')),
          },
          {
            path: 'online-monitoring/portfolios/:monitoringId',
            lazy: () =>
              withTexts('monitoring', import('../features/monitoring/pages/public-portfolio-page')),
          },
          { path: '*', ...redirectTo('/') },
        ],
      },
    ],
  },
];

/** A section shown only when its permission flag allows it (the guard loads with the section). */
const requirePermission = (flag: keyof Permissions): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const { RequirePermission } = await import('./layouts/require-permission');
    return { element: <RequirePermission flag={flag} /> };
  },
});

/**
 * A page of the operator area (role admin, which the API gives every operator). Its module is a
 * React.lazy component, not the route's `lazy`: the router fetches every matched route's `lazy`
 * at once, before any guard renders, so a non-admin who typed /operator would download the area;
 * this way only RequireAdmin's small chunk loads, and the pages load when it renders them for an
 * admin.
 */
const adminPage = (
  load: () => Promise<{ Component: ComponentType }>,
): Pick<RouteObject, 'Component'> => ({
  Component: lazy(() =>
    Promise.all([load(), loadTexts('operator')]).then(([module]) => ({
      default: module.Component,
    })),
  ),
});

/**
 * An operator page (adminPage) with, in its `handle`, the operator role it needs (admin holds
 * every one; none: every operator's) and its entry in the area's navigation (a key of the
 * operator namespace). The area's layout reads both: it lists the sections the operator's roles
 * open and shows a page of another role as no access, without loading it.
 */
const operatorPage = (
  access: OperatorRouteHandle,
  load: () => Promise<{ Component: ComponentType }>,
): Pick<RouteObject, 'Component' | 'handle'> => ({ handle: access, ...adminPage(load) });

/**
 * The operator area's pages and their roles: support (the help desk, the FAQ), billing (payments,
 * promocodes, monitoring prices, the partner programme), vps, monitoring, and admin (everything,
 * the operators' roles and the audit log among it). The users and a user's page are every
 * operator's; the sections of a user's page hide themselves by role. The navigation follows this
 * order.
 */
const operatorPages: RouteObject[] = [
  {
    index: true,
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.queue' },
      () => import('../features/balance/operator/pages/review-queue-page'),
    ),
  },
  {
    path: 'approvals',
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.approvals' },
      () => import('../features/balance/operator/pages/approvals-page'),
    ),
  },
  {
    path: 'users',
    ...operatorPage({ nav: 'tabs.users' }, () => import('../features/operator/pages/users-page')),
  },
  {
    path: 'users/:userId',
    ...operatorPage({}, () => import('../features/operator/pages/user-page')),
  },
  {
    path: 'vps/test-servers',
    ...operatorPage(
      { operatorRole: 'vps', nav: 'tabs.testServers' },
      () => import('../features/vps/operator/pages/test-servers-page'),
    ),
  },
  {
    path: 'vps/servers',
    ...operatorPage(
      { operatorRole: 'vps', nav: 'tabs.servers' },
      () => import('../features/vps/operator/pages/vps-servers-page'),
    ),
  },
  {
    path: 'vps/operations',
    ...operatorPage(
      { operatorRole: 'vps', nav: 'tabs.operations' },
      () => import('../features/vps/operator/pages/vps-operations-page'),
    ),
  },
  {
    path: 'vps/rates',
    ...operatorPage(
      { operatorRole: 'vps', nav: 'tabs.rates' },
      () => import('../features/vps/operator/pages/vps-rates-page'),
    ),
  },
  {
    path: 'vps/latency',
    ...operatorPage(
      { operatorRole: 'vps', nav: 'tabs.latency' },
      () => import('../features/vps/operator/pages/vps-latency-page'),
    ),
  },
  {
    path: 'vps/promocodes',
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.promocodes' },
      () => import('../features/vps/operator/pages/promocodes-page'),
    ),
  },
  {
    path: 'monitoring/subscriptions',
    ...operatorPage(
      { operatorRole: 'monitoring', nav: 'tabs.monitoringSubscriptions' },
      () => import('../features/monitoring/operator/pages/monitoring-subscriptions-page'),
    ),
  },
  {
    path: 'monitoring/accounts',
    ...operatorPage(
      { operatorRole: 'monitoring', nav: 'tabs.monitoringAccounts' },
      () => import('../features/monitoring/operator/pages/monitoring-accounts-page'),
    ),
  },
  {
    path: 'monitoring/prices',
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.monitoringPrices' },
      () => import('../features/monitoring/operator/pages/monitoring-prices-page'),
    ),
  },
  {
    path: 'partner/withdrawals',
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.partnerWithdrawals' },
      () => import('../features/partners/operator/pages/partner-withdrawals-page'),
    ),
  },
  {
    path: 'partner/settings',
    ...operatorPage(
      { operatorRole: 'billing', nav: 'tabs.partnerSettings' },
      () => import('../features/partners/operator/pages/partner-settings-page'),
    ),
  },
  {
    path: 'support',
    ...operatorPage(
      { operatorRole: 'support', nav: 'tabs.support' },
      () => import('../features/support/operator/pages/support-page'),
    ),
  },
  {
    path: 'support/canned',
    ...operatorPage(
      { operatorRole: 'support' },
      () => import('../features/support/operator/pages/support-canned-page'),
    ),
  },
  {
    path: 'support/departments',
    ...operatorPage(
      { operatorRole: 'support' },
      () => import('../features/support/operator/pages/support-departments-page'),
    ),
  },
  {
    path: 'support/:ticketId',
    ...operatorPage(
      { operatorRole: 'support' },
      () => import('../features/support/operator/pages/support-ticket-page'),
    ),
  },
  {
    path: 'faq',
    ...operatorPage(
      { operatorRole: 'support', nav: 'tabs.faq' },
      () => import('../features/faq/operator/pages/faq-editor-page'),
    ),
  },
  {
    path: 'operators',
    ...operatorPage(
      { operatorRole: 'admin', nav: 'tabs.operators' },
      () => import('../features/operator/pages/operators-page'),
    ),
  },
  {
    path: 'audit',
    ...operatorPage(
      { operatorRole: 'admin', nav: 'tabs.audit' },
      () => import('../features/operator/pages/audit-page'),
    ),
  },
];

/** The navigation's sections: the pages with an entry, in their order. */
const operatorSections = (pages: RouteObject[]): OperatorSection[] =>
  pages.flatMap(({ index, path, handle }) => {
    const { nav, operatorRole } = handle as OperatorRouteHandle;
    if (!nav) return [];
    return [
      {
        to: index ? '/operator' : `/operator/${path}`,
        end: Boolean(index),
        label: nav,
        role: operatorRole,
      },
    ];
  });

const operatorRoute: RouteObject = {
  path: 'operator',
  lazy: async () => {
    const { RequireAdmin } = await import('./layouts/require-admin');
    return { Component: RequireAdmin };
  },
  children: [
    {
      ...adminPage(() => import('../features/operator/pages/operator-layout')),
      handle: { operatorSections: operatorSections(operatorPages) } satisfies OperatorLayoutHandle,
      children: operatorPages,
    },
  ],
};

/**
 * The routes while signed in. Monitoring and Partners also need their permission flag, the
 * operator area the admin role (any operator) and each of its pages its operator role. The layout (header with balance, profile and logout, the alert
 * banner) is a chunk of its own, so the signed-out first view does not load it.
 */
export const signedInRoutes: RouteObject[] = [
  {
    path: '/',
    lazy: async () => {
      const { SignedInLayout, handle } = await import('./layouts/signed-in-layout');
      return { Component: SignedInLayout, handle };
    },
    HydrateFallback: StartFallback,
    ErrorBoundary: RouteError,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          { index: true, ...redirectTo('/vps') },
          { path: 'vps', lazy: () => withTexts('vps', import('../features/vps/pages/vps-page')) },
          {
            path: 'vps/servers/:serverId',
            lazy: () => withTexts('vps', import('../features/vps/pages/server-page')),
          },
          {
            // noVNC loads with this page only
            path: 'vps/servers/:serverId/console',
            lazy: () => withTexts('vps', import('../features/vps/pages/server-console-page')),
          },
          {
            path: 'online-monitoring',
            ...requirePermission('monitoring'),
            children: [
              {
                lazy: () =>
                  withTexts('monitoring', import('../features/monitoring/pages/monitoring-layout')),
                children: [
                  {
                    index: true,
                    lazy: () => import('../features/monitoring/pages/subscription-page'),
                  },
                  {
                    path: 'accounts',
                    lazy: () => import('../features/monitoring/pages/accounts-page'),
                  },
                  { path: 'guide', lazy: () => import('../features/monitoring/pages/guide-page') },
                  {
                    path: 'portfolios',
                    lazy: () => import('../features/monitoring/pages/portfolios-page'),
                  },
                  {
                    path: 'portfolios/:monitoringId',
                    lazy: () => import('../features/monitoring/pages/portfolio-page'),
                  },
                  {
                    path: ':monitoringId',
                    lazy: () => import('../features/monitoring/pages/account-page'),
                  },
                ],
              },
            ],
          },
          {
            path: 'partner-program',
            ...requirePermission('partner'),
            children: [
              {
                index: true,
                lazy: () =>
                  withTexts('partners', import('../features/partners/pages/partner-program-page')),
              },
            ],
          },
          {
            path: 'balance-operations',
            lazy: () =>
              withTexts('balance', import('../features/balance/pages/balance-operations-page')),
          },
          {
            path: 'support',
            children: [
              {
                index: true,
                lazy: () => withTexts('support', import('../features/support/pages/support-page')),
              },
              {
                path: ':ticketId',
                lazy: () => withTexts('support', import('../features/support/pages/ticket-page')),
              },
            ],
          },
          {
            path: 'profile',
            lazy: () => withTexts('profile', import('../features/profile/pages/profile-page')),
          },
          { path: 'faq', lazy: () => withTexts('faq', import('../features/faq/pages/faq-page')) },
          operatorRoute,
          ...legalRoutes,
          ...['login', 'signup', 'forgot-password', 'password-reset'].map((path) => ({
            path,
            ...redirectTo('/vps'),
          })),
          { path: '*', ...redirectTo('/') },
        ],
      },
    ],
  },
];

export function routesFor(authorized: boolean): RouteObject[] {
  return authorized ? signedInRoutes : signedOutRoutes;
}

/**
 * Starts loading the page modules of `url` (the matched routes' `lazy`) at start-up, beside the
 * first render: the router calls the same imports only once it is made, after the session is
 * restored and the providers have rendered, and the page's chunks would wait for that render
 * (on a slow phone, hundreds of milliseconds of the first paint). With `dispatch`, each loaded
 * module's `handle.prefetch` then starts its screen's first calls. A failure is the router's to
 * report when it loads the route itself.
 */
export function preloadRoutes(authorized: boolean, url: URL, dispatch?: PrefetchDispatch): void {
  for (const { route } of matchRoutes(routesFor(authorized), url.pathname) ?? []) {
    if (typeof route.lazy !== 'function') continue;
    route
      .lazy()
      .then((loaded) => {
        const prefetch = (loaded.handle as RouteHandle | undefined)?.prefetch;
        // in a task of its own: the module's evaluation has just taken this one, and on a
        // phone the two together block the page (Lighthouse's total blocking time)
        if (dispatch && prefetch) setTimeout(() => prefetch(dispatch, url), 0);
      })
      .catch(() => undefined);
  }
}

type AppRouter = ReturnType<typeof createBrowserRouter>;
let current: { authorized: boolean; router: AppRouter } | null = null;

/**
 * The browser router of the current route set. Signing in or out swaps it: the old one is
 * disposed (it stops listening to the history) and the new one starts from the current URL, so
 * /login becomes /vps after sign-in and any signed-in page becomes /login after sign-out.
 */
function browserRouterFor(authorized: boolean): AppRouter {
  if (current?.authorized !== authorized) {
    current?.router.dispose();
    current = { authorized, router: createBrowserRouter(routesFor(authorized)) };
  }
  return current.router;
}

/**
 * Makes the router of the auth state ahead of its first render, in a task of its own: making it
 * (the route tree, the history, the first navigation) is one piece of work React cannot split,
 * 25 ms on a fast machine, which inside the first render made that render's longest task.
 */
export function prepareRouter(authorized: boolean): void {
  browserRouterFor(authorized);
}

/** The router of the auth state; render it after the session is restored (RestoreGate). */
export function AppRouter() {
  const authorized = useAppSelector(selectAuthorized);
  return <RouterProvider router={browserRouterFor(authorized)} />;
}
