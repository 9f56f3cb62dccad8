/**
 * `npm run screenshots [-- /path ...]`: starts the product on an embedded
 * PostgreSQL, signs a user up through the development mailbox, and saves a PNG
 * of every page at 375, 1024 and 1440 px, light and dark, English and Russian
 * into ./screenshots — for people to look at, not for assertions.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../e2e/support/browser.ts';
import { freePort, repoRoot, stop, waitFor } from './lib.ts';

const signedOut = [
  '/login',
  '/signup',
  '/forgot-password',
  '/password-reset',
  '/public-offer',
  '/privacy-policy',
];
const signedIn = [
  '/vps',
  '/online-monitoring',
  '/partner-program',
  '/balance-operations',
  '/support',
  '/profile',
  '/faq',
];
const only = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
const widths = [375, 1024, 1440];
const out = join(repoRoot, 'screenshots');
mkdirSync(out, { recursive: true });

const dataDir = mkdtempSync(join(tmpdir(), 'tradehost-shots-'));
// reachable by the postgres user the embedded cluster runs as under root
chmodSync(dataDir, 0o755);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['apps/api/src/server.ts'], {
  cwd: repoRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL: '3600',
    RATE_LIMIT_AUTH_MAX: '1000',
  },
});
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  await waitFor(`${url}/api/front/permissions`, server);
  const email = `shots.${Date.now()}@example.com`;
  const password = 'screenshot-pass-1';
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/api/user/auth/create', {
    name: 'Maxim Trader',
    email,
    password,
    password_confirmation: password,
    consent: true,
  });
  const { mails } = (await (await fetch(`${url}/api/dev/mailbox.json`)).json()) as {
    mails: Array<{
      text: string;
    }>;
  };
  const token = /verify=([\w-]+)/.exec(mails.map((mail) => mail.text).join('\n'))?.[1];
  await post('/api/user/auth/verify-email', { token });

  for (const theme of ['light', 'dark'] as const) {
    for (const language of ['en', 'ru'] as const) {
      for (const width of widths) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: theme,
        });
        await context.addInitScript(
          ([lng]) => localStorage.setItem('tradehost:language', lng as string),
          [language],
        );
        const page = await context.newPage();
        const shoot = async (path: string) => {
          if (only.length && !only.includes(path)) return;
          await page.goto(`${url}${path}`);
          await page.waitForLoadState('networkidle');
          const name = `${path.slice(1).replaceAll('/', '_') || 'root'}-${width}-${theme}-${language}.png`;
          await page.screenshot({ path: join(out, name), fullPage: true });
        };
        for (const path of signedOut) await shoot(path);
        await page.goto(`${url}/login`);
        await page.locator('input[type=email]').fill(email);
        await page.locator('input[autocomplete=current-password]').fill(password);
        await page.locator('form button[type=submit]').click();
        await page.waitForURL(/\/vps$/);
        for (const path of signedIn) await shoot(path);
        await context.close();
      }
    }
  }
  console.log(`screenshots in ${out}`);
} finally {
  await browser.close();
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
