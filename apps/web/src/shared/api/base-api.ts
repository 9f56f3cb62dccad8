import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
} from '@reduxjs/toolkit/query/react';
import { i18n } from '../i18n';
import { registerApi } from './api-registry';
import { errorText, toApiRequestError, type ApiRequestError } from '../lib/api-error';
import { englishErrorText } from '../lib/error-codes';
import { needsRefresh } from '../lib/token';
import { notify } from '../ui/toast/notify';
import { loggedOut, tokenReceived, type SessionView } from '../model/session';

/** Per-endpoint options of the base query. */
export interface ApiExtraOptions {
  /** The caller shows the failure itself (a form, a default value): no toast. */
  silent?: boolean;
}
export const SILENT: ApiExtraOptions = { silent: true };

// An absolute base so that Request accepts it outside a browser too (tests); the same origin.
const API_BASE = new URL('/api', globalThis.location?.href ?? 'http://localhost').href;

const fetchApi = fetchBaseQuery({
  baseUrl: API_BASE,
  credentials: 'include',
  prepareHeaders: (headers, { getState }) => {
    const { auth } = getState() as SessionView;
    if (auth.authorized && auth.token) headers.set('Authorization', `Bearer ${auth.token}`);
    // the API's CSRF guard for cookie-authenticated POSTs (refresh, logout) asks for it
    headers.set('X-Requested-With', 'XMLHttpRequest');
    return headers;
  },
});

const SESSION_EXPIRED: ApiRequestError = {
  status: 401,
  code: 'SESSION_EXPIRED',
  message: englishErrorText('SESSION_EXPIRED'),
};

type RefreshOutcome = 'refreshed' | 'refused' | 'failed';
let refreshing: Promise<RefreshOutcome> | null = null;

async function refreshToken(api: BaseQueryApi): Promise<RefreshOutcome> {
  // The server rotates the refresh cookie as it answers. A reload or a closed tab would cancel
  // the request after the rotation and lose the new cookie, and the page that follows would
  // present the old one, which counts as reuse and ends the session: keepalive lets the request
  // finish, and the browser store the cookie, whatever happens to the page.
  const result = await fetchApi(
    { url: '/user/auth/refresh-token', method: 'POST', keepalive: true },
    api,
    {},
  );
  const data = result.data as { token?: unknown; expires?: unknown } | undefined;
  if (!result.error && typeof data?.token === 'string' && typeof data.expires === 'string') {
    api.dispatch(tokenReceived({ token: data.token, expires: data.expires }));
    return 'refreshed';
  }
  if (result.error?.status === 401) {
    api.dispatch(loggedOut());
    notify('warning', errorText(i18n.t, SESSION_EXPIRED));
    return 'refused';
  }
  return 'failed'; // offline or a server error: let the call go and fail on its own
}

/** One refresh at a time: calls that find one under way wait for it. */
function refreshOnce(api: BaseQueryApi): Promise<RefreshOutcome> {
  refreshing ??= refreshToken(api).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * fetchBaseQuery at /api with the bearer token, plus:
 * - the token is refreshed first when under 5 seconds of it are left; a refused refresh (401)
 *   logs out (every slice and the cache clear; the routes fall back to /login);
 * - failures become ApiRequestError `{status, code, message, errors?}` (status 0, code NETWORK
 *   when there was no answer);
 * - a failure shows a toast unless the endpoint is `silent` or it is a 401 (ignored, SPEC 8).
 */
export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  ApiRequestError,
  ApiExtraOptions
> = async (args, api, extraOptions = {}) => {
  const { auth } = api.getState() as SessionView;
  if (auth.authorized && needsRefresh(auth.expires, Date.now())) {
    const outcome = await refreshOnce(api);
    if (outcome === 'refused') return { error: SESSION_EXPIRED };
  }
  const result = await fetchApi(args, api, {});
  if (!result.error) return { data: result.data, meta: result.meta };

  const error = toApiRequestError(result.error);
  if (!extraOptions.silent && error.status !== 401 && !api.signal.aborted) {
    notify('error', errorText(i18n.t, error, api.endpoint), {
      toastId: `${api.endpoint}:${error.code}`,
    });
  }
  return { error, meta: result.meta };
};

/**
 * The one API of the console; features add their endpoints with `baseApi.injectEndpoints`.
 * The store resets its cache on `loggedOut` (app/listeners.ts).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'User',
    'Permissions',
    'Alert',
    'PaymentMethods',
    'Payments',
    'Transfers',
    'Charges',
    'Withdrawals',
  ],
  endpoints: () => ({}),
});

// the store takes the API's reducer and middleware now (see api-registry.ts)
registerApi(baseApi);
