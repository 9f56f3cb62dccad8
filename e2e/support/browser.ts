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
 * Chromium's own pages that a test's window does not need. Each new window loads its omnibox
 * popup as a WebUI page, in a renderer of its own: with a window per test, that renderer and the
 * browser's side of it were a fifth of the CPU of the shell and account journeys on two cores.
 */
const UNUSED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The switch that turns them off; `chromiumLaunch` keeps it from replacing a launcher's own. */
export const UNUSED_FEATURES_OFF = `--disable-features=${UNUSED_FEATURES.join(',')}`;

/**
 * How to start Chromium for the journeys: through support/chromium.sh, which joins the
 * feature switches of the launcher (Playwright, chrome-launcher) and of the journeys into one,
 * as Chromium keeps only the last of each, then starts `chromiumPath()`.
 */
export function chromiumLaunch(): { executablePath: string; env: NodeJS.ProcessEnv } {
  return {
    executablePath: fileURLToPath(new URL('chromium.sh', import.meta.url)),
    env: { ...process.env, E2E_CHROMIUM: chromiumPath() },
  };
}
