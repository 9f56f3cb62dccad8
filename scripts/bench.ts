/**
 * `npm run bench`: figures, not assertions.
 * - API: requests/s and p99 of GET /api/user/auth and POST /api/user/auth/login
 *   on the real server (embedded PostgreSQL), each next to a bare Fastify
 *   hello-world started in the same run, printed as a ratio of the bare figure.
 * - Console: gzipped bytes of the first view of /login and of each route chunk.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { freePort, repoRoot, run, stop, waitFor } from './lib.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Figure {
  rps: number;
  p99: number;
  errors: number;
}

async function measure(options: autocannon.Options): Promise<Figure> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function bareHelloWorld(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function startProduct(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradehost-bench-'));
  // reachable by the postgres user the embedded cluster runs as under root
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['apps/api/src/server.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      EMBEDDED_PG_PORT: String(await freePort()),
      SMTP_URL: '',
      ACCESS_TOKEN_TTL: '3600',
      RATE_LIMIT_AUTH_MAX: '100000000',
      RATE_LIMIT_USER_MAX: '100000000',
      LOG_LEVEL: 'warn',
    },
  });
  await waitFor(`${url}/api/front/permissions`, child);
  return {
    url,
    stop: async () => {
      await stop(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Signs up, confirms through the development mailbox, signs in: a bearer token. */
async function benchUser(url: string): Promise<{ email: string; password: string; token: string }> {
  const email = `bench.${Date.now()}@example.com`;
  const password = 'bench-password-1';
  const created = await post(`${url}/api/user/auth/create`, {
    name: 'Bench',
    email,
    password,
    password_confirmation: password,
    consent: true,
  });
  if (created.status !== 201) throw new Error(`signup: ${created.status} ${await created.text()}`);
  const { mails } = (await (await fetch(`${url}/api/dev/mailbox.json`)).json()) as {
    mails: Array<{
      to: string | string[];
      text: string;
    }>;
  };
  const text = mails.find((mail) => [mail.to].flat().join(',').includes(email))?.text ?? '';
  const token = /verify=([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no confirmation link in the development mailbox');
  const verified = await post(`${url}/api/user/auth/verify-email`, { token });
  if (!verified.ok) throw new Error(`verify: ${verified.status}`);
  const login = await post(`${url}/api/user/auth/login`, { email, password });
  const body = (await login.json()) as { token: string };
  return { email, password, token: body.token };
}

function row(name: string, figure: Figure, bare: Figure): string {
  const ratio = (figure.rps / bare.rps).toFixed(3);
  return (
    `${name.padEnd(28)} ${figure.rps.toFixed(0).padStart(8)} req/s  p99 ${String(figure.p99).padStart(5)} ms  ` +
    `${ratio} x bare req/s  ${(figure.p99 / Math.max(bare.p99, 1)).toFixed(1)} x bare p99  errors ${figure.errors}`
  );
}

const hello = await bareHelloWorld();
const product = await startProduct();
try {
  const user = await benchUser(product.url);
  console.log(
    `API, ${CONNECTIONS} connections, ${DURATION} s each, two cores shared by client and server\n`,
  );
  const bare = await measure({ url: hello.url });
  console.log(
    `${'bare Fastify hello-world'.padEnd(28)} ${bare.rps.toFixed(0).padStart(8)} req/s  p99 ${String(bare.p99).padStart(5)} ms  (the unit)`,
  );
  const me = await measure({
    url: `${product.url}/api/user/auth`,
    headers: { authorization: `Bearer ${user.token}` },
  });
  console.log(row('GET /api/user/auth', me, bare));
  const login = await measure({
    url: `${product.url}/api/user/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  console.log(row('POST /api/user/auth/login', login, bare));
  console.log(
    '  (login hashes with argon2id, m=19 MiB t=2: its cost is the point, not the framework)',
  );
} finally {
  await product.stop();
  await hello.close();
}

console.log('\nConsole bundle');
const built = await run('npm', ['run', 'build', '-w', 'apps/web', '--silent']);
if (built !== 0) process.exit(built);
process.exit(await run(process.execPath, ['scripts/bundle-size.ts']));
