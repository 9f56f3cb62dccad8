import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  readLanguage,
  readTheme,
  type Theme,
  type UiLanguage,
} from '../../../shared/lib/preferences';

export interface SettingsState {
  theme: Theme;
  language: UiLanguage;
}

/** From localStorage (`tradehost:theme`, `tradehost:language`); the theme falls back to the system's. */
export function readSettings(): SettingsState {
  return { theme: readTheme(), language: readLanguage() };
}

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: readSettings,
  reducers: {
    themeChanged(state, action: PayloadAction<Theme>) {
      state.theme = action.payload;
    },
    /** The reader picked a language (signed in, the account's language follows). */
    languageChanged(state, action: PayloadAction<UiLanguage>) {
      state.language = action.payload;
    },
    /** The account's stored language, applied after sign-in (nothing to send back). */
    languageRestored(state, action: PayloadAction<UiLanguage>) {
      state.language = action.payload;
    },
  },
  // Theme and language are the device's preferences, not the session's: loggedOut leaves them.
});

export const { themeChanged, languageChanged, languageRestored } = settingsSlice.actions;
export const settingsReducer = settingsSlice.reducer;

type WithSettings = { settings: SettingsState };
export const selectTheme = (state: WithSettings) => state.settings.theme;
export const selectLanguage = (state: WithSettings) => state.settings.language;
