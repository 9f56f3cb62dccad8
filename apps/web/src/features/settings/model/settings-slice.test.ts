import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSettings } from './settings-slice';

function preferDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: dark && query === '(prefers-color-scheme: dark)',
      media: query,
    })),
  );
}

describe('readSettings', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('defaults to English and the light theme', () => {
    expect(readSettings()).toEqual({ theme: 'light', language: 'en' });
  });

  it('follows the system theme when none is stored', () => {
    preferDark(true);
    expect(readSettings().theme).toBe('dark');
  });

  it('prefers the stored theme and language', () => {
    preferDark(true);
    localStorage.setItem('tradehost:theme', 'light');
    localStorage.setItem('tradehost:language', 'ru');
    expect(readSettings()).toEqual({ theme: 'light', language: 'ru' });
  });

  it('ignores stored values it does not know', () => {
    localStorage.setItem('tradehost:theme', 'sepia');
    localStorage.setItem('tradehost:language', 'de');
    expect(readSettings()).toEqual({ theme: 'light', language: 'en' });
  });
});
