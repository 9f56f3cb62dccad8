import { createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { authApi } from '../features/auth/api/auth-api';
import { loggedOut } from '../features/auth/model/auth-slice';
import {
  languageChanged,
  languageRestored,
  themeChanged,
  type SettingsState,
} from '../features/settings/model/settings-slice';
import { baseApi } from '../shared/api/base-api';
import { LANGUAGE_STORAGE_KEY, THEME_STORAGE_KEY, writeStorage } from '../shared/lib/preferences';

interface ListenerState {
  auth: { authorized: boolean };
  settings: SettingsState;
}

// matchers in variables: the listener API infers their actions only so
const isLanguageSet = isAnyOf(languageChanged, languageRestored);
const isUserFetched = isAnyOf(authApi.endpoints.getUser.matchFulfilled);

/** Where the features meet (they do not import each other). */
export function createAppListeners() {
  const listeners = createListenerMiddleware();
  const listen = listeners.startListening.withTypes<ListenerState>();

  // Logging out clears the API cache too (the slices clear themselves).
  listen({
    actionCreator: loggedOut,
    effect: (_action, api) => {
      api.dispatch(baseApi.util.resetApiState());
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
  listen({
    actionCreator: languageChanged,
    effect: (action, api) => {
      if (!api.getState().auth.authorized) return;
      const language = action.payload === 'ru' ? 'RU' : 'EN';
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
