import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's Chromium (Playwright's own browser download cannot work here). */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (!found) {
    throw new Error("Chromium not found: install Debian's chromium package or set CHROMIUM_PATH");
  }
  return found;
}

/**
 * How to start Chromium for the journeys, Lighthouse and the screenshots: through
 * support/chromium.sh, which turns off the pages of Chromium's own that a test's window does not
 * need, keeping the launcher's (Playwright's, chrome-launcher's) feature switches, then starts
 * `chromiumPath()`.
 */
export function chromiumLaunch(): { executablePath: string; env: NodeJS.ProcessEnv } {
  return {
    executablePath: fileURLToPath(new URL('chromium.sh', import.meta.url)),
    env: { ...process.env, E2E_CHROMIUM: chromiumPath() },
  };
}
