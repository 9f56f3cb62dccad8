// Runs in <head> before the first paint (a file: the CSP allows scripts from 'self' only).
// Applies the stored theme ('light' | 'dark', else the system's) and language ('en' | 'ru', else
// 'en'). Keep the keys in step with src/shared/lib/preferences.ts.
/* global document, window */
(function () {
  var root = document.documentElement;
  var theme = null;
  var language = null;
  try {
    theme = localStorage.getItem('tradehost:theme');
    language = localStorage.getItem('tradehost:language');
  } catch {
    // storage blocked: defaults below
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme =
      window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  }
  if (language !== 'en' && language !== 'ru') language = 'en';
  root.setAttribute('data-theme', theme);
  root.style.colorScheme = theme;
  root.setAttribute('lang', language);
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', theme === 'dark' ? '#151c23' : '#ffffff');
})();
