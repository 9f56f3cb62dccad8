import type { baseApi } from './base-api';

export type BaseApi = typeof baseApi;

/**
 * RTK Query (~17 KB gzipped with the API's code) is not part of the signed-out first view: the
 * sign-in screen needs it only once the reader submits. base-api.ts registers the API here when
 * it first loads (with the first module that uses an endpoint: a page, the signed-in layout, the
 * login form's logic), and the store (app/store.ts) then takes its reducer and middleware. This
 * module itself imports nothing of RTK Query.
 */
let loaded: BaseApi | null = null;
const waiting = new Set<(api: BaseApi) => void>();

/** base-api.ts calls it once, as it loads. */
export function registerApi(api: BaseApi): void {
  loaded = api;
  const callbacks = [...waiting];
  waiting.clear();
  callbacks.forEach((callback) => callback(api));
}

/** The API when it has loaded, else null. */
export function loadedApi(): BaseApi | null {
  return loaded;
}

/** Calls `callback` with the API once it has loaded: at once when it has. */
export function whenApiLoaded(callback: (api: BaseApi) => void): void {
  if (loaded) callback(loaded);
  else waiting.add(callback);
}
