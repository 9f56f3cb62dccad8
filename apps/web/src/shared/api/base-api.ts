import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
} from '@reduxjs/toolkit/query/react';
import { i18n } from '../i18n';
import { registerApi } from './api-registry';
import { errorText, toApiRequestError, type ApiRequestError } from '../lib/api-error';
import { englishErrorText } from '../lib/error-codes';
import { notify } from '../ui/toast/notify';
import type { SessionView } from '../model/session';
import { API_BASE, refreshSession, SESSION_EXPIRED, sessionNeedsRefresh } from './session-refresh';
import { requestStepUp, stepUpMethodsOf } from './step-up-gate';

const isStepUpRequired = (error: ApiRequestError) =>
  error.status === 403 && error.code === 'STEP_UP_REQUIRED';

/** Per-endpoint options of the base query. */
export interface ApiExtraOptions {
  /** The caller shows the failure itself (a form, a default value): no toast. */
  silent?: boolean;
}
export const SILENT: ApiExtraOptions = { silent: true };

const fetchApi = fetchBaseQuery({
  baseUrl: API_BASE,
  credentials: 'include',
  prepareHeaders: (headers, { getState }) => {
    const { auth } = getState() as SessionView;
    if (auth.authorized && auth.token) headers.set('Authorization', `Bearer ${auth.token}`);
    // the API's CSRF guard for cookie-authenticated POSTs (logout) asks for it
    headers.set('X-Requested-With', 'XMLHttpRequest');
    return headers;
  },
});

/**
 * fetchBaseQuery at /api with the bearer token, plus:
 * - the token is refreshed first when under 5 seconds of it are left; a refused refresh (401)
 *   logs out (every slice and the cache clear; the routes fall back to /login);
 * - failures become ApiRequestError `{status, code, message, errors?}` (status 0, code NETWORK
 *   when there was no answer);
 * - a 403 STEP_UP_REQUIRED asks the owner for a fresh proof (step-up-gate.ts, one dialog for
 *   every call that asks) and sends the same request again once given; given up, it fails as
 *   STEP_UP_CANCELLED ("Not done: ...");
 * - a failure shows a toast unless the endpoint is `silent` or it is a 401 (ignored, SPEC 8).
 */
export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  ApiRequestError,
  ApiExtraOptions
> = async (args, api, extraOptions = {}) => {
  if (sessionNeedsRefresh(api.getState() as SessionView, Date.now())) {
    const outcome = await refreshSession(api.dispatch);
    if (outcome === 'refused') return { error: SESSION_EXPIRED };
  }
  let result = await fetchApi(args, api, {});
  let error = result.error ? toApiRequestError(result.error) : null;
  if (error && isStepUpRequired(error)) {
    // money or a secret: the owner proves it is them (one dialog for every call asking), then
    // the same request goes again (a money call keeps its Idempotency-Key: it is in `args`)
    if ((await requestStepUp(stepUpMethodsOf(error.details?.methods))) === 'proved') {
      result = await fetchApi(args, api, {});
      error = result.error ? toApiRequestError(result.error) : null;
    } else {
      // given up: the call fails as not done (a toast says so, or the form that asked)
      error = {
        status: 403,
        code: 'STEP_UP_CANCELLED',
        message: englishErrorText('STEP_UP_CANCELLED'),
      };
    }
  }
  if (!error) return { data: result.data, meta: result.meta };

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
