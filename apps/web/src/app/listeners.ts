import {
  createListenerMiddleware,
  isAnyOf,
  type PayloadAction,
  type UnknownAction,
} from '@reduxjs/toolkit';
import type { User } from '@tradehost/contracts';
import type { authApi } from '../features/auth/api/auth-api';
import { loggedOut } from '../features/auth/model/auth-slice';
import {
  languageChanged,
  languageRestored,
  themeChanged,
  type SettingsState,
} from '../features/settings/model/settings-slice';
import { loadedApi } from '../shared/api/api-registry';
import { LANGUAGE_STORAGE_KEY, THEME_STORAGE_KEY, writeStorage } from '../shared/lib/preferences';

interface ListenerState {
  auth: { authorized: boolean };
  settings: SettingsState;
}

// matchers in variables: the listener API infers their actions only so
const isLanguageSet = isAnyOf(languageChanged, languageRestored);

/**
 * The API loads after the store (shared/api/api-registry.ts), so these listeners reach it at
 * run time instead of importing it: no action of the API can come before it has loaded.
 */
type AuthEndpoints = Partial<(typeof authApi)['endpoints']>;
const isUserFetched = (action: UnknownAction): action is PayloadAction<User> =>
  (loadedApi()?.endpoints as AuthEndpoints | undefined)?.getUser?.matchFulfilled(action) ?? false;

/** Where the features meet (they do not import each other). */
export function createAppListeners() {
  const listeners = createListenerMiddleware();
  const listen = listeners.startListening.withTypes<ListenerState>();

  // Logging out clears the API cache too (the slices clear themselves); none before it loaded.
  listen({
    actionCreator: loggedOut,
    effect: (_action, api) => {
      const rtkApi = loadedApi();
      if (rtkApi) api.dispatch(rtkApi.util.resetApiState());
    },
  });

  listen({
    actionCreator: themeChanged,
    effect: (action) => writeStorage(THEME_STORAGE_KEY, action.payload),
  });

  listen({
    matcher: isLanguageSet,
    effect: (action) => writeStorage(LANGUAGE_STORAGE_KEY, action.payload),
  });

  // Signed in, the account's language follows the reader's choice (upper-case code, SPEC 7).
  // The signed-in layout has loaded the account endpoints already: the import only reaches them.
  listen({
    actionCreator: languageChanged,
    effect: async (action, api) => {
      if (!api.getState().auth.authorized) return;
      const language = action.payload === 'ru' ? 'RU' : 'EN';
      const { authApi } = await import('../features/auth/api/auth-api');
      void api.dispatch(authApi.endpoints.changeLanguage.initiate({ language }, { track: false }));
    },
  });

  // After sign-in (and on every start of a signed-in session) the account's language applies.
  listen({
    matcher: isUserFetched,
    effect: (action, api) => {
      const language = action.payload.language;
      if (language !== api.getState().settings.language) api.dispatch(languageRestored(language));
    },
  });

  return listeners;
}
