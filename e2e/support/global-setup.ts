import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedUrl } from '../../apps/api/src/db/embedded.ts';
import { startTestSmtp } from '../../apps/api/test/smtp.ts';
import { startTelegramEmulator } from '../../apps/api/test/telegram-emulator.ts';
import { E2E_BOT } from './telegram.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The real SMTP server the API suite uses, and a tiny HTTP inbox the journeys read. */
async function startMailServers(): Promise<{
  smtpUrl: string;
  inboxUrl: string;
  close: () => Promise<void>;
}> {
  const smtp = await startTestSmtp();
  const inbox = createHttpServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://localhost').searchParams.get('to') ?? '';
    const mails = (to ? smtp.to(to) : smtp.mails).map(({ to, subject, text }) => ({
      to,
      subject,
      text,
    }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(mails));
  });
  await new Promise<void>((resolve) => inbox.listen(0, '127.0.0.1', resolve));
  return {
    smtpUrl: smtp.url,
    inboxUrl: `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`,
    close: async () => {
      await smtp.close();
      await new Promise<void>((resolve) => inbox.close(() => resolve()));
    },
  };
}

async function freePort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/front/permissions`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer in time:\n${log()}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const mail = await startMailServers();
  const telegram = (await startTelegramEmulator()).addBot(E2E_BOT.token, E2E_BOT.username);
  const dataDir = mkdtempSync(join(tmpdir(), 'tradehost-e2e-'));
  // reachable by the postgres user the embedded cluster runs as under root
  chmodSync(dataDir, 0o755);
  // the console as built for this run: a copy, so a rebuild in the working tree while the
  // journeys run cannot take the lazy chunks the open pages still ask for
  const builtConsole = join(repoRoot, 'apps', 'web', 'dist');
  if (!existsSync(join(builtConsole, 'index.html'))) {
    throw new Error('no console build in apps/web/dist: run npm run build (npm run test:e2e does)');
  }
  const webDist = join(dataDir, 'web');
  cpSync(builtConsole, webDist, { recursive: true });
  const port = await freePort();
  // localhost, not 127.0.0.1: WebAuthn takes its relying party (PUBLIC_URL's host) from a domain,
  // never an IP address, and localhost is a secure context over http (the passkey journeys)
  const baseUrl = `http://localhost:${port}`;
  const pgPort = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      EMBEDDED_PG_PORT: String(pgPort),
      SMTP_URL: mail.smtpUrl,
      // short-lived access tokens make every journey exercise the refresh path
      ACCESS_TOKEN_TTL: process.env.E2E_ACCESS_TOKEN_TTL ?? '8',
      RATE_LIMIT_AUTH_MAX: '1000',
      RATE_LIMIT_USER_MAX: '10000',
      LOG_LEVEL: 'warn',
      // the sandbox card page of the product itself, notifying the server's own webhook; the
      // delay is long enough for the return page to show Processing before Paid (on two busy
      // cores with two browsers the return page took over 2 s, and Processing was never seen)
      PAYMENT_DRIVERS: 'sandbox',
      PAYMENT_NOTIFY_BASE_URL: baseUrl,
      SANDBOX_GATEWAY_DELAY_MS: process.env.E2E_SANDBOX_DELAY_MS ?? '5000',
      // the simulated hypervisor: long enough to see "Rebooting…", short enough for a journey
      HYPERVISOR_DRIVER: 'simulated',
      HYPERVISOR_SIM_DELAY_MS: process.env.E2E_SIM_DELAY_MS ?? '2500',
      // the chat-bot against the emulator: it sets its webhook to PUBLIC_URL at start-up
      TELEGRAM_BOT_TOKEN: E2E_BOT.token,
      TELEGRAM_API_ROOT: telegram.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForServer(baseUrl, child, () => output);

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_INBOX_URL = mail.inboxUrl;
  // the emulator's control API (/_emulator/...): support/telegram.ts
  process.env.E2E_TELEGRAM_URL = telegram.url;
  // the server's database and data directory: support/money.ts makes operators with the admin
  // command and moves operations into the past for the period filters
  process.env.E2E_DB_URL =
    process.env.E2E_DATABASE_URL || embeddedUrl(join(dataDir, 'postgres'), pgPort, 'tradehost');
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await mail.close();
    await telegram.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.E2E_SERVER_LOG) console.log(output);
    else printWarnings(output);
  };
}

/**
 * The server's warnings and errors (its log runs at `warn`), the last 40: a failed run's output
 * is all CI keeps, and a journey's failure may have its cause on the server's side.
 */
function printWarnings(output: string) {
  const logged = output.split('\n').filter((line) => /^\{"level":(4|5|6)0\b/.test(line));
  if (logged.length === 0) return;
  console.log(`\nthe server's warnings and errors during the journeys (${logged.length}):`);
  for (const line of logged.slice(-40)) console.log(line.slice(0, 2000));
}
