import { existsSync } from 'node:fs';

/** Debian's Chromium (Playwright's own browser download cannot work here). */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (!found) {
    throw new Error("Chromium not found: install Debian's chromium package or set CHROMIUM_PATH");
  }
  return found;
}
