import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// a page's first render in a file waits for its lazy chunk to be transformed and imported: on
// two busy cores that passes the library's default 1 s for findBy* and waitFor
configure({ asyncUtilTimeout: 4_000 });

// jsdom has no scrolling; ScrollRestoration calls it
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  document.body.removeAttribute('style');
});
