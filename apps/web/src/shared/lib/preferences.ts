/**
 * The device's display preferences in localStorage. public/head.js reads the same keys
 * before the first paint (keep the two in step).
 */
export const THEME_STORAGE_KEY = 'tradehost:theme';
export const LANGUAGE_STORAGE_KEY = 'tradehost:language';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const UI_LANGUAGES = ['en', 'ru'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: UiLanguage = 'en';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

export function isUiLanguage(value: unknown): value is UiLanguage {
  return value === 'en' || value === 'ru';
}

export function readStorage(key: string, storage: 'local' | 'session' = 'local'): string | null {
  try {
    return (storage === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null; // storage blocked (privacy settings): behave as if nothing was stored
  }
}

export function writeStorage(
  key: string,
  value: string,
  storage: 'local' | 'session' = 'local',
): void {
  try {
    (storage === 'local' ? localStorage : sessionStorage).setItem(key, value);
  } catch {
    // storage blocked or full: the preference lasts for this page only
  }
}

export function removeStorage(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage blocked: nothing was stored
  }
}

export function systemTheme(): Theme {
  const dark =
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches;
  return dark ? 'dark' : 'light';
}

/** The stored theme, else the system's. */
export function readTheme(): Theme {
  const stored = readStorage(THEME_STORAGE_KEY);
  return isTheme(stored) ? stored : systemTheme();
}

/** The stored language, else English. */
export function readLanguage(): UiLanguage {
  const stored = readStorage(LANGUAGE_STORAGE_KEY);
  return isUiLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}
