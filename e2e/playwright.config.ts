import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch } from './support/browser.ts';

/**
 * Browser journeys against the real product: the built console served by the
 * API process, an embedded PostgreSQL, and mail delivered over SMTP to a test
 * SMTP server (support/global-setup.ts starts all three).
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  forbidOnly: true,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // a failed test keeps its trace: each action's DOM snapshot, which the trace viewer renders,
    // and the page at the failure (`screenshot`). Not the screencast: its frames were a quarter
    // of the journeys' CPU (the compositor, the browser's encoding), for every test that passed.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...chromiumLaunch(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /lighthouse\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
    {
      // scores hang on the CPU the page gets: Lighthouse runs once the other journeys are done
      name: 'lighthouse',
      testMatch: /lighthouse\.spec\.ts/,
      dependencies: ['chromium'],
    },
  ],
});
