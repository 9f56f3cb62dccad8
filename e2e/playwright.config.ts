import { defineConfig, devices } from '@playwright/test';
import { chromiumPath } from './support/browser.ts';

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
  reporter: process.env.CI ? [['list']] : [['list']],
  forbidOnly: true,
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
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
