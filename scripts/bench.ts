/**
 * `npm run bench`: figures, not assertions. Each HTTP figure is the steady state: the same load
 * runs for BENCH_WARMUP_SECONDS (1) uncounted before its BENCH_SECONDS (5) are measured, as a
 * server in use has compiled its routes and prepared its statements.
 * - API: requests/s and p99 of GET /api/user/auth and POST /api/user/auth/login
 *   on the real server (embedded PostgreSQL), each next to a bare Fastify
 *   hello-world started in the same run, printed as a ratio of the bare figure.
 * - Idle: the CPU the server and its PostgreSQL use with no request, the job workers polling.
 * - Per request (issue 43's goals): GET /api/front/permissions, GET / and GET /api/user/auth at
 *   50 connections, each taken in turns with the bare hello-world, 3 rounds of 2 s, so the ratio
 *   compares the same minutes of a machine whose speed drifts; and the largest console script at
 *   1,500 req/s offered.
 * - Layers: the server's CPU per request of a hello-world with each of what every request of the
 *   product passes through (log line, security headers, rate limit, compression) and of the
 *   auth routes' cookies.
 * - Money: transfers per second and p99 over 20 funded accounts, uniform pairs and every
 *   transfer into one hot account, each request with its own Idempotency-Key.
 * - VPS: GET /api/user/vps/servers (a page of 20, and a search by ID) for a user with 1,000
 *   servers among 100,000, seeded with SQL into the product's database.
 * - Monitoring ingestion: snapshots/s and p99 from 2,000 terminals (each its own key and
 *   account, seeded with SQL), round robin, 100 in flight at once, next to a bare Fastify with as
 *   many connections (goal 5,000/s, p99 under 100 ms, no errors).
 * - Latency map: GET /api/user/vps/latency (the order form's ping from each location to a broker)
 *   and GET /api/user/vps/brokers (its autocomplete) over 1,000 broker trade servers and 100,000
 *   ping points of 300 owners' terminals, seeded with SQL, popular brokers asked for more (goal
 *   p99 under 20 ms); and the query alone, one at a time, in this process.
 * - Monitoring alerts: the lag from a snapshot that crosses an alert line to its alert event
 *   being written (goal within 30 s), while 2,000 terminals with alert rules publish; and their
 *   snapshots/s next to the plain ingestion's.
 * - Monitoring statistics: computeStatistics over an account of 100,000 deals (goal under 1 s),
 *   next to sorting the same deals by time in the same run; and the job's whole work for such an
 *   account in PostgreSQL (read, compute, store).
 * - Partner programme: in a referral tree of 1,000,000 users (seeded with SQL), the time the
 *   three-level reward fan-out adds to a paid order's transaction (goal under 2 ms), next to the
 *   charge alone; and GET levels and network for a partner with about 100,000 below (p99 under
 *   50 ms), next to the bare Fastify.
 * - Lighthouse (mobile): the performance score of /login and of the signed-in /vps, the median of
 *   three runs each (goal at least 95), by the browser journeys' Lighthouse test on a fresh build.
 * - Console: the bytes on the wire of the first view of /login and of each route chunk, identity,
 *   gzip and brotli (the build's .gz/.br files, as the server sends them), with the ratios
 *   compressed / identity (scripts/bundle-size.ts).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { embeddedUrl } from '../apps/api/src/db/embedded.ts';
import {
  computeStatistics,
  type StatDeal,
} from '../packages/contracts/src/monitoring-statistics.ts';
import { breakdownsOf, riskOfRuin } from '../packages/contracts/src/monitoring-analysis.ts';
import { sandboxSignature } from '../apps/api/src/integrations/payments/sandbox.ts';
import { loadConfig, type Config } from '../apps/api/src/config.ts';
import { createDb, createPool } from '../apps/api/src/db/client.ts';
import { SEALED, sealIn } from '../apps/api/src/db/sealed.ts';
import { storeStatistics } from '../apps/api/src/modules/monitoring/monitoring.statistics.ts';
import { latencyRepository } from '../apps/api/src/modules/latency/latency.repository.ts';
import { LATENCY_WINDOW_DAYS } from '../packages/contracts/src/latency.ts';
import { billing } from '../apps/api/src/db/billing.ts';
import { partnerRewards } from '../apps/api/src/db/partner-rewards.ts';
import { inTransaction } from '../apps/api/src/db/transaction.ts';
import {
  hashActivationKey,
  newMonitoringId,
} from '../apps/api/src/modules/monitoring/monitoring.service.ts';
import { freePort, repoRoot, run, stop, waitFor } from './lib.ts';
import { pacedLoad, type PacedRequest } from './paced-load.ts';

const SANDBOX_SECRET = 'bench-sandbox-secret-bench-sandbox-secret';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Issue 14's transfer goals, offered at their rate (uniform pairs, into one hot account). */
const UNIFORM_GOAL_RATE = 1_000;
const HOT_GOAL_RATE = 300;
/** Connections an offered rate may open: enough that none waits for a free one below the goal. */
const AT_RATE_SOCKETS = 100;
/** GET /api/user/auth's goal is set at this many connections (measured there too). */
const AUTH_GOAL_CONNECTIONS = 50;
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 2000);
/** Terminals send on their own, not in step: this many requests in flight at once. */
const TERMINALS_AT_ONCE = Number(process.env.BENCH_TERMINALS_AT_ONCE ?? 100);
/** Children per user in the bench's referral tree: 46 + 46² + 46³ = 99,498 below its root. */
const TREE_BRANCHING = 46;
const TREE_USERS = 1_000_000;
/** The latency map's scale: broker trade servers, and ping points over the last 30 days. */
const BROKER_SERVERS = 1_000;
const PING_POINTS = 100_000;
/** The statistics sections' account trades these (gold has no pips). */
const SYMBOLS = ['EURUSD', 'GBPUSD', 'AUDUSD', 'NZDUSD', 'USDCHF', 'XAUUSD'];
/** The alerts section's rules of each account (BENCH_ALERT_RULES=equity_below,drawdown: no ping). */
const ALERT_RULES = process.env.BENCH_ALERT_RULES?.split(',') ?? [
  'equity_below',
  'drawdown',
  'ping_above',
];
/** BENCH_ONLY=ingestion,statistics: only those sections (idle, requests, layers, api, money, vps, latency, ingestion, alerts, statistics, partner, lighthouse, bundle). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wants = (section: string) => !ONLY || ONLY.includes(section);

interface Figure {
  rps: number;
  p99: number;
  errors: number;
  /** The server's CPU time per counted request (µs), where it was measured. */
  cpuMicros?: number;
}

/**
 * A figure at steady state: the same load for WARMUP seconds first, not counted (the route's
 * first calls compile its code, prepare its statements and fill the pool), then DURATION seconds.
 */
async function measure(options: autocannon.Options): Promise<Figure> {
  const connections = options.connections ?? CONNECTIONS;
  // autocannon 8 takes `warmup` (its runWithWarmup); @types/autocannon does not list it yet
  const warmup = { warmup: { connections, duration: WARMUP } } as Partial<autocannon.Options>;
  const result = await autocannon({
    connections,
    duration: DURATION,
    ...options,
    ...warmup,
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** `options`' load for `duration` seconds, and the CPU seconds the server `pid` spent meanwhile. */
async function loadWithCpu(options: autocannon.Options, pid: number, duration: number) {
  const before = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration });
  return { result, cpu: cpuSeconds(pid) - before };
}

/** A figure whose server's CPU was read. */
type Measured = Figure & { cpuMicros: number };

/** The rounds of inTurnsWithBare: BENCH_ROUNDS (3) of BENCH_ROUND_SECONDS (2) each. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);

/**
 * A product route (or another server's, `pid`) and the bare hello-world at as many connections,
 * taken in turns (both warmed up first, then ROUNDS rounds of ROUND_SECONDS each), so that the
 * ratio compares figures of the same minutes: a shared machine's speed drifts by a third within
 * one run, more than the goals' margins. Requests/s are over all rounds; the p99 is the worst
 * round's; the CPU per request is each server's own over its rounds.
 */
async function inTurnsWithBare(
  options: autocannon.Options,
  pid = product.pid,
): Promise<{ figure: Measured; bare: Measured }> {
  const bareOptions = { url: hello.url, connections: options.connections };
  await autocannon({ ...bareOptions, duration: WARMUP });
  await autocannon({ ...options, duration: WARMUP });
  const totals = [
    { options: bareOptions, pid: hello.pid, requests: 0, cpu: 0, p99: 0, errors: 0 },
    { options, pid, requests: 0, cpu: 0, p99: 0, errors: 0 },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const total of totals) {
      const { result, cpu } = await loadWithCpu(total.options, total.pid, ROUND_SECONDS);
      total.cpu += cpu;
      total.requests += result.requests.total;
      total.p99 = Math.max(total.p99, result.latency.p99);
      total.errors += result.errors + result.non2xx;
    }
  }
  const [bare, figure] = totals.map((total): Measured => ({
    rps: total.requests / (ROUNDS * ROUND_SECONDS),
    p99: total.p99,
    errors: total.errors,
    cpuMicros: (total.cpu / total.requests) * 1e6,
  }));
  return { figure: figure!, bare: bare! };
}

/** scripts/layers-server.ts with `layers`, listening: its route's URL, its process. */
async function layersServer(layers: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/front/permissions`;
  const child = spawn(process.execPath, ['scripts/layers-server.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), LAYERS: layers },
  });
  await waitFor(url, child);
  return { url, pid: child.pid!, stop: () => stop(child) };
}

async function startProduct(): Promise<{
  url: string;
  databaseUrl: string;
  /** The product's own configuration (its secrets, as it derived them): what the seeds seal with. */
  config: Config;
  /** The server's process id (its CPU time is read from /proc). */
  pid: number;
  stop: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tradehost-bench-'));
  // reachable by the postgres user the embedded cluster runs as under root
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const pgPort = await freePort();
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ?? embeddedUrl(join(dataDir, 'postgres'), pgPort, 'tradehost');
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    EMBEDDED_PG_PORT: String(pgPort),
    // as `npm start` runs it: every request logged at info, the job workers polling, the rate
    // limiter counting every request. Its limits are raised only so that the load is not
    // refused (a 429 is cheaper than the answer measured); the bench's sign-ins last the run.
    ...(process.env.BENCH_TUNED
      ? { LOG_LEVEL: 'warn', JOBS_ENABLED: 'false' }
      : { LOG_LEVEL: 'info', JOBS_ENABLED: 'true' }),
    ACCESS_TOKEN_TTL: '3600',
    RATE_LIMIT_AUTH_MAX: '100000000',
    RATE_LIMIT_USER_MAX: '100000000',
    PAYMENT_DRIVERS: 'sandbox',
    SANDBOX_GATEWAY_SECRET: SANDBOX_SECRET,
  };
  const child = spawn(process.execPath, [...profile, 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  await waitFor(`${url}/api/front/permissions`, child);
  return {
    url,
    databaseUrl,
    config: loadConfig(env, repoRoot),
    pid: child.pid!,
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
let users = 0;
/** The accounts signed up so far (benchUsers). */
const accounts: BenchUser[] = [];
async function benchUser(url: string): Promise<{ email: string; password: string; token: string }> {
  users += 1;
  const email = `bench.${Date.now()}.${users}@example.com`;
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
  const text = mails.find((mail) => [mail.to].flat().join(',') === email)?.text ?? '';
  const token = /verify=([\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no confirmation link in the development mailbox');
  const verified = await post(`${url}/api/user/auth/verify-email`, { token });
  if (!verified.ok) throw new Error(`verify: ${verified.status}`);
  const login = await post(`${url}/api/user/auth/login`, { email, password });
  const body = (await login.json()) as { token: string };
  return { email, password, token: body.token };
}

/** Tops a user up by card through the sandbox gateway: a payment, then its signed notification. */
async function topUp(url: string, token: string, dollars: number): Promise<void> {
  const res = await fetch(`${url}/api/user/balance/deposit`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ method: 'card', amount: dollars }),
  });
  const body = (await res.json()) as { checkout: { fields: Record<string, string> } };
  const { fields } = body.checkout;
  const note = {
    order_id: fields.order_id!,
    amount: fields.amount!,
    currency: fields.currency!,
    status: 'paid',
    operation_id: randomUUID(),
  };
  const notified = await fetch(`${url}/api/payments/webhook/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...note,
      signature: sandboxSignature(SANDBOX_SECRET, 'notification', note),
    }),
  });
  if (!notified.ok) throw new Error(`top-up notification: ${notified.status}`);
}

/** A transfer of $0.01 with a new Idempotency-Key; `pair` picks sender and recipient. */
function transferRequest(
  accounts: { email: string; token: string }[],
  pair: () => [number, number],
): PacedRequest {
  const [from, to] = pair();
  return {
    method: 'POST',
    path: '/api/user/balance/transfer',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${accounts[from]!.token}`,
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ email: accounts[to]!.email, amount: '0.01' }),
  };
}

/** Transfers back to back from CONNECTIONS clients (transferRequest). */
function transfers(
  url: string,
  accounts: { email: string; token: string }[],
  pair: () => [number, number],
): autocannon.Options {
  return {
    url: `${url}/api/user/balance/transfer`,
    method: 'POST',
    requests: [
      {
        setupRequest: (request) => {
          const { headers, body } = transferRequest(accounts, pair);
          return { ...request, headers, body };
        },
      },
    ],
  };
}

/** `count` verified users `bench.<kind>.<n>@example.com` (n from 1), made with SQL. */
async function seedUsers(client: pg.Client, kind: string, count: number): Promise<void> {
  await client.query(
    `insert into users (email, name, password_hash, referral_code, email_verified_at)
     select 'bench.' || $1 || '.' || n || '@example.com', 'Bench ' || n, 'x',
       upper($1) || lpad(n::text, 6, '0'), now()
     from generate_series(1, $2::int) as n`,
    [kind, count],
  );
}

/**
 * 100,000 servers: 1,000 for `email`, the rest spread over 99 other users, with an operation
 * history (one finished operation per server) as a real installation would have.
 */
async function seedServers(databaseUrl: string, email: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedUsers(client, 'others', 99);
    await client.query(
      `insert into vps_servers (user_id, rate_id, status, power, paid_until, created_at, comment)
       select case when n <= 1000 then (select id from users where email = $1)
                   else (select id from users where email = 'bench.others.' || (1 + n % 99) || '@example.com') end,
              (select min(id) from vps_rates) + n % 4,
              (array['active', 'active', 'active', 'blocked', 'revoked'])[1 + n % 5],
              'running', now() + (n % 90) * interval '1 day', now() - n * interval '1 minute',
              'terminal ' || n
       from generate_series(1, 100000) as n`,
      [email],
    );
    await client.query(
      `insert into vps_operations (server_id, kind, status, started_at, finished_at)
       select id, 'reboot', 'succeeded', now(), now() from vps_servers`,
    );
    // as autovacuum would have soon after 100,000 inserts (its insert threshold): statistics for
    // the planner, and the visibility map that lets a count read the (user_id, id) index alone
    await client.query('vacuum analyze vps_servers, vps_operations, users');
    // the load's WAL written out now, not by a checkpoint in the middle of the measurement
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

function row(name: string, figure: Figure, bare: Figure): string {
  const ratio = (figure.rps / bare.rps).toFixed(3);
  return (
    `${name.padEnd(28)} ${figure.rps.toFixed(0).padStart(8)} req/s  p99 ${String(figure.p99).padStart(5)} ms  ` +
    `${ratio} x bare req/s  ${(figure.p99 / Math.max(bare.p99, 1)).toFixed(1)} x bare p99  errors ${figure.errors}` +
    (figure.cpuMicros === undefined ? '' : `  server ${figure.cpuMicros.toFixed(0)} µs a request`)
  );
}

// `npm start` builds the console and serves it: so does the bench (once, for the sections after too)
const built = await run('npm', ['run', 'build', '-w', 'apps/web', '--silent']);
if (built !== 0) process.exit(built);
// the unit: a bare Fastify hello-world (scripts/layers-server.ts with no layers) in a process of
// its own, as the product runs in its own. Served from this process, it would share one thread
// with the load generator and measure half of itself, so every ratio to it would read twice
// what it is.
const hello = await layersServer('');
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
  if (wants('idle')) await idleSection();
  if (wants('requests')) await perRequestSection(user);
  if (wants('layers')) await layersSection();
  if (wants('api')) await apiSection(user, bare);
  if (wants('money')) await moneySection(user, bare);
  const owner = await benchUser(product.url);
  if (wants('vps')) await vpsSection(owner, bare);
  if (wants('latency')) await latencySection(owner, bare);
  if (wants('ingestion')) await ingestionSection(owner);
  if (wants('alerts')) await alertsSection(owner);
  if (wants('partner')) await partnerSection(bare);
  if (wants('statistics')) {
    console.log('\nMonitoring statistics job: an account with 100,000 deals in PostgreSQL');
    const jobMs = await timeStatisticsJob(product.databaseUrl, owner.email);
    console.log(
      `  storeStatistics (what the job runs: read the deals, compute, store figures and chart) ${jobMs.toFixed(0)} ms (goal under 1,000 ms)`,
    );
  }
} finally {
  await product.stop();
  await hello.stop();
}

type BenchUser = Awaited<ReturnType<typeof benchUser>>;

/** `user` and more accounts, `count` in all, signed up once for the sections that need many. */
async function benchUsers(user: BenchUser, count: number): Promise<BenchUser[]> {
  if (accounts.length === 0) accounts.push(user);
  while (accounts.length < count) accounts.push(await benchUser(product.url));
  return accounts.slice(0, count);
}

/**
 * Each connection signed in as an account of its own, as many people at once: one account on
 * every connection would measure one person's requests, which a server may share (its reads of
 * one user at one moment are one statement).
 */
function signedInEach(users: BenchUser[]): Partial<autocannon.Options> {
  let next = 0;
  return {
    setupClient: (client) => {
      const { token } = users[next++ % users.length]!;
      client.setHeaders({ authorization: `Bearer ${token}` });
    },
  };
}

/**
 * CPU seconds (user and system) the process `pid` and its descendants (the embedded PostgreSQL
 * the server started) have used, from /proc (Linux).
 */
function cpuSeconds(pid: number): number {
  const stats = new Map<number, { ppid: number; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let line: string;
    try {
      line = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // after the command's ')': state, ppid, ... utime and stime (the 14th and 15th fields)
    const fields = line.slice(line.lastIndexOf(') ') + 2).split(' ');
    stats.set(Number(entry), {
      ppid: Number(fields[1]),
      seconds: (Number(fields[11]) + Number(fields[12])) / 100,
    });
  }
  let total = 0;
  const within = (id: number): boolean =>
    id === pid || (id > 1 && stats.has(id) && within(stats.get(id)!.ppid));
  for (const [id, { seconds }] of stats) if (within(id)) total += seconds;
  return total;
}

/**
 * What the server costs with nothing to do: its job workers polling (as `npm start` runs them),
 * the CPU of its process and of the PostgreSQL it runs over BENCH_IDLE_SECONDS (30) with no
 * request, as a share of one core (goal under 2 %).
 */
async function idleSection() {
  const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
  const before = cpuSeconds(product.pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const used = cpuSeconds(product.pid) - before;
  console.log(
    `\nIdle, ${seconds} s without a request (job workers ${process.env.BENCH_TUNED ? 'off' : 'polling'}): the server and its PostgreSQL ${((used / seconds) * 100).toFixed(2)} % of one core (goal under 2 %)`,
  );
}

/** The first view's largest script of the console build (index.html's module and preloads). */
function largestFirstScript(): { path: string; bytes: number } {
  const dist = join(repoRoot, 'apps/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const sized = scripts.map((path) => ({ path, bytes: statSync(join(dist, `${path}.br`)).size }));
  return sized.sort((a, b) => b.bytes - a.bytes)[0]!;
}

/**
 * What every request passes through, at the goals' 50 connections next to the bare unit at as
 * many (issue 43): a trivial public route, the console's page and its largest script (brotli, as
 * a browser asks), and the signed-in user.
 */
async function perRequestSection(user: BenchUser) {
  const connections = AUTH_GOAL_CONNECTIONS;
  const how = process.env.BENCH_TUNED
    ? 'TUNED: LOG_LEVEL=warn, JOBS_ENABLED=false, not as it ships'
    : 'the server as `npm start` runs it';
  console.log(
    `\nPer request, ${connections} connections (${how}); each route and the bare Fastify hello-world taken in turns, ${ROUNDS} rounds of ${ROUND_SECONDS} s each`,
  );
  const br = { 'accept-encoding': 'br, gzip' };
  const rows: [string, autocannon.Options, string][] = [
    [
      'GET /api/front/permissions',
      { url: `${product.url}/api/front/permissions` },
      'at least 0.5 x bare',
    ],
    ['GET / (the console page)', { url: `${product.url}/`, headers: br }, 'at least 0.5 x bare'],
    [
      'GET /api/user/auth',
      {
        url: `${product.url}/api/user/auth`,
        ...signedInEach(await benchUsers(user, connections)),
      },
      'at least 0.3 x bare, p99 at most 15 ms',
    ],
  ];
  for (const [name, options, goal] of rows) {
    const { figure, bare } = await inTurnsWithBare({ ...options, connections });
    console.log(`${row('  bare, its turns', bare, bare)}`);
    console.log(`${row(name, figure, bare)}  (goal ${goal})`);
  }
  // the script offered at a rate above its goal, by Node's own HTTP client: autocannon reads a
  // large encoded body of this server at a few hundred a second whatever the server does (its
  // process waits, idle, meanwhile), so it would measure itself
  const script = largestFirstScript();
  const offered = 1_500;
  const figure = await pacedLoad(
    product.url,
    { rate: offered, seconds: DURATION, warmup: WARMUP, sockets: connections },
    () => ({ method: 'GET', path: script.path, headers: br }),
  );
  console.log(
    `${`GET largest script (${(script.bytes / 1024).toFixed(0)} KB br)`.padEnd(28)} ${figure.rps.toFixed(0).padStart(8)} req/s  p99 ${String(figure.p99).padStart(5)} ms  of ${offered.toLocaleString('en')} offered  errors ${figure.errors}  (goal at least 1,000 req/s)`,
  );
}

/**
 * What each part of every request costs the server: a hello-world route in a process of its own
 * (scripts/layers-server.ts) with each of the product's layers alone, and with all that every
 * request passes through (cookies are the auth routes' alone), at 50 connections, each taken in
 * turns with the bare one (inTurnsWithBare); for each, the server's CPU time per request (from
 * /proc) next to the bare server's over the same minutes.
 */
async function layersSection() {
  const connections = AUTH_GOAL_CONNECTIONS;
  console.log(
    `\nLayers of every request, the server's CPU per request, ${connections} connections, each in turns with the bare hello-world (${ROUNDS} rounds of ${ROUND_SECONDS} s)`,
  );
  const all = 'log,headers,ratelimit,compress';
  for (const layers of ['log', 'headers', 'cookie', 'ratelimit', 'compress', all]) {
    const { url, pid, stop: stopServer } = await layersServer(layers);
    try {
      const { figure, bare } = await inTurnsWithBare({ url, connections }, pid);
      const name = layers === all ? 'all of every request' : `+ ${layers}`;
      console.log(
        `${name.padEnd(28)} ${figure.cpuMicros.toFixed(0).padStart(5)} µs a request, bare ${bare.cpuMicros.toFixed(0)}: ${(figure.cpuMicros / bare.cpuMicros).toFixed(2)} x bare's CPU  (${figure.rps.toFixed(0)} req/s, bare ${bare.rps.toFixed(0)})`,
      );
    } finally {
      await stopServer();
    }
  }
}

async function apiSection(user: BenchUser, bare: Figure) {
  const me = await measure({
    url: `${product.url}/api/user/auth`,
    ...signedInEach(await benchUsers(user, CONNECTIONS)),
  });
  console.log(row('GET /api/user/auth', me, bare));
  if (CONNECTIONS !== AUTH_GOAL_CONNECTIONS) {
    // the goal's own figure (issue 14): at 50 connections, next to the bare unit at as many
    const bare50 = await measure({ url: hello.url, connections: AUTH_GOAL_CONNECTIONS });
    const me50 = await measure({
      url: `${product.url}/api/user/auth`,
      ...signedInEach(await benchUsers(user, AUTH_GOAL_CONNECTIONS)),
      connections: AUTH_GOAL_CONNECTIONS,
    });
    console.log(row(`GET /api/user/auth, ${AUTH_GOAL_CONNECTIONS} conn.`, me50, bare50));
  }
  console.log(
    `  (goal at ${AUTH_GOAL_CONNECTIONS} connections: at least 0.25 x bare req/s, p99 at most 15 ms)`,
  );
  // one account per connection, as many people signing in at once: sign-in is limited per
  // account (a try counts until it succeeds), so one account's concurrent tries would be throttled
  const signers = await benchUsers(user, CONNECTIONS);
  let next = 0;
  const login = await measure({
    url: `${product.url}/api/user/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupClient: (client) => {
      const signer = signers[next++ % signers.length]!;
      client.setBody(JSON.stringify({ email: signer.email, password: signer.password }));
    },
  });
  console.log(row('POST /api/user/auth/login', login, bare));
  console.log(
    '  (login hashes with argon2id, m=19 MiB t=2: its cost is the point, not the framework)',
  );
}

async function moneySection(user: BenchUser, bare: Figure) {
  const accounts = [user];
  for (let i = 1; i < 20; i += 1) accounts.push(await benchUser(product.url));
  for (const account of accounts) await topUp(product.url, account.token, 5_000);
  const other = (not: number) => {
    const n = Math.floor(Math.random() * (accounts.length - 1));
    return n >= not ? n + 1 : n;
  };
  const uniformPair = (): [number, number] => {
    const from = Math.floor(Math.random() * accounts.length);
    return [from, other(from)];
  };
  const hotPair = (): [number, number] => [other(0), 0];
  const uniform = await measure(transfers(product.url, accounts, uniformPair));
  console.log(row('transfers, 20 accounts', uniform, bare));
  const hot = await measure(transfers(product.url, accounts, hotPair));
  console.log(row('transfers into 1 hot account', hot, bare));
  console.log(
    `  (hot / uniform: ${(hot.rps / uniform.rps).toFixed(2)} x req/s; each transfer one statement: idempotency claim, ledger transaction with row locks, answer stored)`,
  );
  // the goals read as a load and its latency: the goal's rate offered at even intervals, and
  // the p99 at that load (the figures above are CONNECTIONS clients sending back to back, whose
  // p99 is mostly their own queue)
  const atRate = (rate: number, pair: () => [number, number]) =>
    pacedLoad(
      product.url,
      { rate, seconds: DURATION, warmup: WARMUP, sockets: AT_RATE_SOCKETS },
      () => transferRequest(accounts, pair),
    );
  const uniformAtGoal = await atRate(UNIFORM_GOAL_RATE, uniformPair);
  console.log(row(`transfers at ${UNIFORM_GOAL_RATE.toLocaleString('en')}/s`, uniformAtGoal, bare));
  const hotAtGoal = await atRate(HOT_GOAL_RATE, hotPair);
  console.log(row(`hot account at ${HOT_GOAL_RATE}/s`, hotAtGoal, bare));
  console.log(
    `  (goals: ${UNIFORM_GOAL_RATE.toLocaleString('en')}/s uniform and ${HOT_GOAL_RATE}/s into one account, p99 at most 60 ms, timed from when each transfer was due)`,
  );
}

async function vpsSection(owner: BenchUser, bare: Figure) {
  console.log('\nVPS servers list: 1,000 servers for one user, 100,000 in all');
  await seedServers(product.databaseUrl, owner.email);
  const auth = { authorization: `Bearer ${owner.token}` };
  const list = await measure({ url: `${product.url}/api/user/vps/servers?page=7`, headers: auth });
  console.log(row('GET servers, page 7 of 50', list, bare));
  const search = await measure({
    url: `${product.url}/api/user/vps/servers?search=12`,
    headers: auth,
  });
  console.log(row('GET servers, search by ID', search, bare));
  console.log('  (goal: p99 at most 30 ms)');
}

async function latencySection(owner: BenchUser, bare: Figure) {
  console.log(
    `\nLatency map: ${BROKER_SERVERS.toLocaleString('en')} broker trade servers, ${PING_POINTS.toLocaleString('en')} ping points of the last 30 days`,
  );
  const { brokers, pick } = await seedPings(product.databaseUrl);
  /** GETs signed in as `owner`, each to the path `next` gives. */
  const load = (next: () => string) =>
    measure({
      url: product.url,
      headers: { authorization: `Bearer ${owner.token}` },
      requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }],
    });
  // the order form asks for the brokers traders use: the popular ones the most, as they measured
  const map = await load(() => `/api/user/vps/latency?broker=${encodeURIComponent(pick())}`);
  console.log(row('GET latency, a broker', map, bare));
  const names = await load(
    () => `/api/user/vps/brokers?query=${encodeURIComponent(pick().slice(0, 3))}`,
  );
  console.log(row('GET brokers, 3 letters', names, bare));
  // the statement alone, one at a time, as the route runs it (no HTTP, no waiting for a turn)
  const pool = createPool(product.databaseUrl, 1);
  try {
    const db = createDb(pool);
    const since = new Date(Date.now() - LATENCY_WINDOW_DAYS * 86_400_000);
    /** The median and p99 (ms) of `count` queries of the brokers `next` gives, after 100 uncounted. */
    const timed = async (count: number, next: () => string) => {
      const times: number[] = [];
      for (let i = 0; i < count + 100; i += 1) {
        const started = performance.now();
        await latencyRepository.byLocation(db, next(), since);
        if (i >= 100) times.push(performance.now() - started);
      }
      times.sort((x, y) => x - y);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
      return `median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`;
    };
    console.log(`  the latency query alone, brokers as the load asks: ${await timed(1000, pick)}`);
    console.log(
      `  the latency query alone, the most measured broker: ${await timed(200, () => brokers[0]!)}`,
    );
  } finally {
    await pool.end();
  }
  console.log('  (goal: p99 under 20 ms)');
}

/**
 * 100,000 ping points over 1,000 broker trade servers, the n-th most used broker having 1/n of
 * the first's points (about 13,000 down to 13), of 3,000 terminals of 300 owners, one a minute
 * at most per terminal over the last 30 days, from the catalogue's locations (a fifth from none
 * of them), seeded with SQL: the brokers' names, and a pick of one as often as it has points.
 */
async function seedPings(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await seedUsers(client, 'latency', 300);
    await client.query(`
      with owner as (
        select id, row_number() over (order by id) as n from users
        where email like 'bench.latency.%'),
      subscription as (
        insert into monitoring_subscriptions (user_id, plan, accounts, ends_at, key_hash, key_sealed)
        select id, 'paid', 10, now() + interval '1 year', 'bench-latency-' || n, 'not sealed'
        from owner returning id, user_id)
      insert into monitoring_accounts (subscription_id, user_id, monitoring_id, login, platform,
        name, email)
      select s.id, s.user_id, substr(md5(s.id || '/' || k), 1, 16),
        70000000 + (row_number() over (order by s.id, k))::int, 'MT5', 'Latency', 'l@example.com'
      from subscription s, generate_series(1, 10) as k`);
    const { rows } = await client.query<{ server: string; points: number }>(
      `with broker as (
         select k, (array['Alpari', 'ICMarketsSC', 'Pepperstone', 'RoboForex', 'FxPro', 'Exness',
             'Tickmill', 'FBS', 'XM', 'OctaFX', 'Admirals', 'FXCM', 'Oanda', 'Axi', 'ThinkMarkets',
             'Vantage', 'FXTM', 'Eightcap', 'BlackBull', 'FP'])[1 + k % 20]
           || '-Live' || lpad(k::text, 4, '0') as server,
           greatest(1, round($2::float8 / k / (select sum(1.0 / j) from generate_series(1, $1) j)))::int as n
         from generate_series(1, $1) as k),
       terminal as (
         select array_agg(id order by login) as ids, array_agg(user_id order by login) as owners
         from monitoring_accounts where login between 70000001 and 70003000),
       point as (
         select b.k, b.server, row_number() over (order by b.k, i) as i
         from broker b, generate_series(1, b.n) as i),
       stored as (
         insert into monitoring_pings (account_id, at, ping_ms, server, location, user_id)
         select t.ids[1 + (p.k * 97 + p.i % 30) % 3000],
           date_trunc('minute', now() - p.i * interval '25 seconds'),
           3 + p.k % 40 + (p.i * 7919) % 23 + 30 * (p.i % 5),
           p.server,
           (array['London (LD4)', 'New York (NY4)', 'Frankfurt (FR2)', 'Amsterdam (AM3)', null])[1 + p.i % 5],
           t.owners[1 + (p.k * 97 + p.i % 30) % 3000]
         from point p, terminal t
         on conflict (account_id, at) do nothing
         returning server)
       select server, count(*)::int as points from stored group by server order by points desc`,
      [BROKER_SERVERS, PING_POINTS],
    );
    // as autovacuum would have soon after the inserts: statistics, and the visibility map
    await client.query('vacuum analyze monitoring_pings, monitoring_accounts');
    await client.query('checkpoint');
    const total = rows.reduce((sum, r) => sum + r.points, 0);
    console.log(
      `  seeded ${total.toLocaleString('en')} points; the most measured broker has ${rows[0]!.points.toLocaleString('en')}, the least ${rows.at(-1)!.points}`,
    );
    return {
      /** The brokers, the most measured first. */
      brokers: rows.map((r) => r.server),
      /** A broker, each as often as it has points. */
      pick: () => {
        let left = Math.random() * total;
        for (const r of rows) if ((left -= r.points) < 0) return r.server;
        return rows[0]!.server;
      },
    };
  } finally {
    await client.end();
  }
}

async function ingestionSection(owner: BenchUser) {
  console.log(
    `\nMonitoring ingestion: snapshots from ${TERMINALS.toLocaleString('en')} terminals, ${TERMINALS_AT_ONCE} sending at once`,
  );
  const terminals = await seedTerminals(product.databaseUrl, owner.email);
  // the unit again with as many connections: the ratio compares like with like
  const bare = await measure({ url: hello.url, connections: TERMINALS_AT_ONCE });
  console.log(
    `${`bare Fastify, ${TERMINALS_AT_ONCE} connections`.padEnd(28)} ${bare.rps.toFixed(0).padStart(8)} req/s  p99 ${String(bare.p99).padStart(5)} ms  (the unit here)`,
  );
  // each terminal's request made up front, so the client's work is sending, not building
  const requests = terminals.map((terminal, n) => ({
    headers: { 'content-type': 'application/json', authorization: `Bearer ${terminal.key}` },
    body: JSON.stringify(snapshotOf(terminal.login, n)),
  }));
  let next = 0;
  const snapshots = await measure({
    connections: TERMINALS_AT_ONCE,
    url: `${product.url}/api/ingest/v1/snapshot`,
    method: 'POST',
    requests: [
      {
        // each request from the next terminal: its own key and login
        setupRequest: (request) => ({ ...request, ...requests[next++ % requests.length]! }),
      },
    ],
  });
  console.log(row('POST snapshot, round robin', snapshots, bare));
  console.log(
    `  (goal 5,000 snapshots/s with p99 under 100 ms and no errors; the snapshots of the moment are written together: one statement finds their accounts and stores them and their minutes)`,
  );
}

/**
 * 2,000 terminals, each account with an equity-below line (5,000), a drawdown line (50 %) and a
 * ping line (1,000 ms: each snapshot reads its account's ping points of the last minutes) on,
 * publish round robin as in the ingestion section; meanwhile, every 100 ms one more of them
 * sends a snapshot under its line. The lag of each is from its sending to its event's `at` (the
 * server's clock when it wrote the event: the same machine's clock).
 */
async function alertsSection(owner: BenchUser) {
  console.log(
    `\nMonitoring alerts: the lag from a snapshot crossing a line to its alert, ${TERMINALS.toLocaleString('en')} terminals with rules publishing`,
  );
  const client = new pg.Client({ connectionString: product.databaseUrl });
  await client.connect();
  try {
    const terminals = Array.from({ length: TERMINALS }, (_, i) => ({
      key: `mk_alerts_${randomUUID()}`,
      login: 90_000_000 + i,
    }));
    const ids = await seedMonitoredAccounts(client, owner.email, terminals);
    await client.query(
      `insert into monitoring_alert_rules (account_id, kind, enabled, threshold)
       select id, kind, true, case kind when 'equity_below' then 5000 when 'ping_above' then 1000
         else 50 end
       from unnest($1::bigint[]) id, unnest($2::text[]) kind`,
      [ids, ALERT_RULES],
    );
    const requests = terminals.map((terminal, n) => ({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${terminal.key}` },
      body: JSON.stringify(snapshotOf(terminal.login, n)),
    }));
    let next = 0;
    const load = measure({
      connections: TERMINALS_AT_ONCE,
      url: `${product.url}/api/ingest/v1/snapshot`,
      method: 'POST',
      requests: [
        { setupRequest: (request) => ({ ...request, ...requests[next++ % requests.length]! }) },
      ],
    });
    // the crossing snapshots, from the last terminals (each crosses once), while the load runs
    const crossings: { accountId: number; sentAt: number }[] = [];
    const started = Date.now();
    for (let i = 0; Date.now() - started < DURATION * 1000 - 500; i += 1) {
      const terminal = terminals[TERMINALS - 1 - i]!;
      const sentAt = Date.now();
      const res = await fetch(`${product.url}/api/ingest/v1/snapshot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${terminal.key}` },
        body: JSON.stringify({ ...snapshotOf(terminal.login, 0), equity: 4000, equity_low: 4000 }),
      });
      if (!res.ok) throw new Error(`a crossing snapshot was refused: ${res.status}`);
      crossings.push({ accountId: ids[TERMINALS - 1 - i]!, sentAt });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const figure = await load;
    const { rows } = await client.query<{ account_id: string; at: Date }>(
      `select account_id, min(at) as at from monitoring_alert_events
       where kind = 'equity_below' and account_id = any($1) group by account_id`,
      [crossings.map((c) => c.accountId)],
    );
    const written = new Map(rows.map((r) => [Number(r.account_id), r.at.getTime()]));
    const lags = crossings.map((c) => (written.get(c.accountId) ?? Number.NaN) - c.sentAt);
    const missing = lags.filter(Number.isNaN).length;
    const sorted = lags.filter((lag) => !Number.isNaN(lag)).sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
    console.log(
      `  ${crossings.length} lines crossed: alert written after median ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms, ${missing} missing (goal within 30,000 ms)`,
    );
    console.log(
      `  snapshots with rules evaluated: ${figure.rps.toFixed(0)} req/s, p99 ${figure.p99} ms, errors ${figure.errors} (the ingestion section's figure is the same path without rules)`,
    );
    console.log(
      '  (rules are evaluated as each batch of snapshots is stored, before it is answered; no data is checked every 20 s, so its lag is at most 20 s by schedule)',
    );
  } finally {
    await client.end();
  }
}

async function partnerSection(bare: Figure) {
  console.log(
    `\nPartner programme: a referral tree of ${TREE_USERS.toLocaleString('en')} users, ${TREE_BRANCHING} referrals each`,
  );
  const partner = await benchUser(product.url);
  const tree = await seedReferralTree(product.databaseUrl, partner.email);
  const { grantMs, chargeMs } = await timeRewardFanOut(product.databaseUrl, tree.payers);
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
  console.log(
    `  reward fan-out (3 levels) in a paid order's transaction: median ${quantile(grantMs, 0.5).toFixed(2)} ms, ` +
      `p99 ${quantile(grantMs, 0.99).toFixed(2)} ms (goal under 2 ms) = ` +
      `${(quantile(grantMs, 0.5) / quantile(chargeMs, 0.5)).toFixed(2)} x the charge itself (median ${quantile(chargeMs, 0.5).toFixed(2)} ms)`,
  );
  const auth = { authorization: `Bearer ${partner.token}` };
  const levels = await measure({ url: `${product.url}/api/user/partner/levels`, headers: auth });
  console.log(row('GET partner/levels', levels, bare));
  const network = await measure({
    url: `${product.url}/api/user/partner_network/?page=1`,
    headers: auth,
  });
  console.log(row('GET partner_network, level 1', network, bare));
  const below = await measure({
    url: `${product.url}/api/user/partner_network/?parent_id=${tree.levelTwoNode}&page=2&per_page=20`,
    headers: auth,
  });
  console.log(row('GET partner_network, level 3', below, bare));
  console.log(
    `  (goal: p99 under 50 ms for a partner with ${tree.below.toLocaleString('en')} referrals on three levels)`,
  );
}

/**
 * 1,000,000 users below the partner as a tree of TREE_BRANCHING children each (user k's referrer
 * is user (k - 1) / TREE_BRANCHING, 0 being the partner), their three referrer columns and the
 * per-level counts written as sign-up writes them; 200 deep users funded to pay.
 */
async function seedReferralTree(databaseUrl: string, email: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; base: string }>(
      `select (select id from users where email = $1) as id,
         (select max(id) from users) + 1000 as base`,
      [email],
    );
    const root = Number(rows[0]!.id);
    const base = Number(rows[0]!.base);
    const b = TREE_BRANCHING;
    // the referrer `up` levels above tree node k's own (null above the partner)
    const referrer = (k: string, up: number) => {
      const node = Array.from({ length: up }).reduce<string>((n) => `((${n} - 1) / ${b})`, k);
      const parent = `((${node} - 1) / ${b})`;
      return `case when ${node} < 1 then null when ${parent} = 0 then ${root} else ${base} + ${parent} end`;
    };
    await client.query(
      `insert into users (id, email, name, password_hash, email_verified_at, referral_code,
         referrer_id, referrer2_id, referrer3_id)
       select ${base} + k, 'tree-' || k || '@bench.example', 'Tree ' || k, 'not-a-hash', now(),
         'Z' || lpad(upper(to_hex(k)), 7, '0'), ${referrer('k', 0)}, ${referrer('k', 1)},
         ${referrer('k', 2)}
       from generate_series(1, ${TREE_USERS}) as k`,
    );
    await client.query(`select setval(pg_get_serial_sequence('users', 'id'), max(id)) from users`);
    await client.query(
      `insert into partner_levels as p (partner_id, level, users)
       select referrer_id, 1, count(*) from users where referrer_id is not null group by 1
       union all select referrer2_id, 2, count(*) from users where referrer2_id is not null group by 1
       union all select referrer3_id, 3, count(*) from users where referrer3_id is not null group by 1
       on conflict (partner_id, level) do update set users = excluded.users`,
    );
    await client.query('analyze users');
    // payers deep in the tree (three referrers each), funded by an adjustment
    const payers = Array.from({ length: 200 }, (_, i) => base + 200_000 + i * 1_000);
    await client.query('begin');
    const { rows: tx } = await client.query<{ id: string }>(
      `insert into ledger_transactions (kind, memo) values ('adjustment', 'bench funding') returning id`,
    );
    await client.query(
      `insert into ledger_entries (transaction_id, user_id, account, amount_cents)
       select $1::bigint, id, 'balance', 1000000 from unnest($2::bigint[]) as id
       union all select $1::bigint, null, 'adjustments', -1000000 * cardinality($2::bigint[])`,
      [tx[0]!.id, payers],
    );
    await client.query('commit');
    const { rows: counted } = await client.query<{ n: string }>(
      `select sum(users) as n from partner_levels where partner_id = $1`,
      [root],
    );
    // node b + 1 is the first referral of the first referral: level 2, its own are level 3
    return { payers, below: Number(counted[0]!.n), levelTwoNode: base + b + 1 };
  } finally {
    await client.end();
  }
}

/**
 * For each payer, one transaction as an order's: the charge, then the reward fan-out; the time of
 * each part, in ms.
 */
async function timeRewardFanOut(databaseUrl: string, payers: number[]) {
  const pool = createPool(databaseUrl, 2);
  const db = createDb(pool);
  const grantMs: number[] = [];
  const chargeMs: number[] = [];
  try {
    for (const [i, userId] of payers.entries()) {
      await inTransaction(db, async (tx) => {
        const started = performance.now();
        const { chargeId } = await billing.charge(tx, {
          userId,
          amountCents: 2_200,
          descriptionEn: 'VPS bench order',
          descriptionRu: 'VPS bench order',
        });
        const charged = performance.now();
        const granted = await partnerRewards.grant(tx, chargeId, new Date());
        if (granted !== 3) throw new Error(`the fan-out wrote ${granted} rewards, not 3`);
        // the first few warm the statements up
        if (i >= 20) {
          chargeMs.push(charged - started);
          grantMs.push(performance.now() - charged);
        }
      });
    }
  } finally {
    await pool.end();
  }
  return { grantMs, chargeMs };
}

interface Terminal {
  key: string;
  login: number;
}

/**
 * For each login a paid subscription of the user with that one account, its key hashed as the
 * API hashes it, seeded with SQL: the accounts' ids, in the order of `logins`.
 */
async function seedMonitoredAccounts(
  db: pg.Pool | pg.Client,
  email: string,
  logins: { login: number; key: string }[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: string; login: string; subscription_id: string }>(
    `with owner as (select id from users where email = $1),
     terminal as (select * from json_to_recordset($2::json)
       as t(key_hash text, login bigint, monitoring_id text)),
     subscription as (
       insert into monitoring_subscriptions (user_id, plan, accounts, ends_at, key_hash, key_sealed)
       select owner.id, 'paid', 1, now() + interval '1 year', terminal.key_hash, 'sealed below'
       from owner, terminal returning id, key_hash, user_id)
     insert into monitoring_accounts (subscription_id, user_id, monitoring_id, login, platform, name, email, server)
     select subscription.id, subscription.user_id, terminal.monitoring_id, terminal.login, 'MT5',
       'Bench ' || terminal.login, $1, 'Bench-Demo'
     from subscription join terminal using (key_hash)
     returning id, login, subscription_id`,
    [
      email,
      JSON.stringify(
        logins.map((t) => ({
          key_hash: hashActivationKey(t.key),
          login: t.login,
          monitoring_id: newMonitoringId(),
        })),
      ),
    ],
  );
  // each key sealed as the product seals it (bound to its row), so a reseal finds none unopenable
  const keyOf = new Map(logins.map((t) => [t.login, t.key]));
  const sealed = rows.map((r) =>
    sealIn(
      product.config,
      SEALED.monitoringKey,
      Number(r.subscription_id),
      keyOf.get(Number(r.login))!,
    ),
  );
  await db.query(
    `update monitoring_subscriptions s set key_sealed = v.sealed
     from unnest($1::bigint[], $2::text[]) as v(id, sealed) where s.id = v.id`,
    [rows.map((r) => r.subscription_id), sealed],
  );
  const byLogin = new Map(rows.map((r) => [Number(r.login), Number(r.id)]));
  return logins.map((t) => byLogin.get(t.login)!);
}

/** A subscription with one account for each terminal. */
async function seedTerminals(databaseUrl: string, email: string): Promise<Terminal[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const terminals = Array.from({ length: TERMINALS }, (_, i) => ({
      key: `mk_bench_${randomUUID()}`,
      login: 80_000_000 + i,
    }));
    await seedMonitoredAccounts(client, email, terminals);
    return terminals;
  } finally {
    await client.end();
  }
}

/** A terminal's snapshot now, its figures moving a little with `n`. */
function snapshotOf(login: number, n: number) {
  const equity = 10_000 + (n % 200) - 100;
  return {
    login,
    time: new Date().toISOString(),
    balance: 10_000,
    equity,
    margin: 120,
    free_margin: equity - 120,
    credit: 0,
    equity_low: equity - 5,
    equity_high: equity + 5,
    terminal_connected: true,
    // what a publisher 1.3 tells of its terminal: its minute's ping point is stored too
    ping_ms: 24,
    trade_allowed: true,
    ea_trade_allowed: true,
    positions: [],
  };
}

/**
 * The statistics job's work for one account of 100,000 deals (the history of accountHistory,
 * inserted with SQL): storeStatistics, in this process, against the product's database.
 */
async function timeStatisticsJob(databaseUrl: string, email: string): Promise<number> {
  const pool = createPool(databaseUrl, 2);
  try {
    // seeded in a function of its own, so the job is timed without this process still holding
    // the history's 100,000 deals twice (a heap the job's garbage collections would go through)
    const accountId = await seedStatisticsAccount(pool, email);
    const db = createDb(pool);
    const now = new Date();
    await storeStatistics(db, accountId, now); // warm
    const started = performance.now();
    for (let i = 0; i < 3; i += 1) {
      if (!(await storeStatistics(db, accountId, now))) throw new Error('nothing was stored');
    }
    return (performance.now() - started) / 3;
  } finally {
    await pool.end();
  }
}

/** A monitored account with the 100,000 deals of accountHistory, inserted with SQL: its id. */
async function seedStatisticsAccount(pool: pg.Pool, email: string): Promise<number> {
  const deals = accountHistory(100_000);
  const positions = new Map<string, number>();
  const rows = deals.map((d, i) => ({
    ticket: i + 1,
    order: i + 1,
    position_id:
      positions.get(d.positionId) ?? positions.set(d.positionId, i + 1).get(d.positionId),
    time: new Date(d.time).toISOString(),
    type: d.type,
    entry: d.entry,
    symbol: d.symbol,
    digits: d.digits,
    volume: d.volume,
    price: d.price,
    profit: d.profit,
    swap: d.swap,
    commission: d.commission,
    fee: d.fee,
    magic: d.magic ?? '0',
  }));
  const [accountId = 0] = await seedMonitoredAccounts(pool, email, [
    { login: 79_999_999, key: randomUUID() },
  ]);
  for (let i = 0; i < rows.length; i += 10_000) {
    await pool.query(
      `insert into monitoring_deals (account_id, ticket, "order", position_id, time, type, entry,
         symbol, digits, volume, price, profit, swap, commission, fee, magic, comment)
       select $1, d.ticket, d."order", d.position_id, d.time, d.type, d.entry, d.symbol, d.digits,
         d.volume, d.price, d.profit, d.swap, d.commission, d.fee, d.magic, ''
       from json_to_recordset($2::json) as d(ticket bigint, "order" bigint, position_id bigint,
         time timestamptz, type text, entry text, symbol text, digits int, volume float8,
         price float8, profit float8, swap float8, commission float8, fee float8, magic bigint)`,
      [accountId, JSON.stringify(rows.slice(i, i + 10_000))],
    );
  }
  // as autovacuum would have by the time an account has 100,000 deals: the planner knows the table
  await pool.query('analyze monitoring_deals');
  return accountId;
}

/**
 * A year of an account's history: `count` deals, trades of one to four hours in six symbols by
 * five strategies (one of them by hand), a deposit now and then.
 */
function accountHistory(count: number): StatDeal[] {
  const start = Date.UTC(2025, 0, 1);
  const step = (365 * 86_400_000) / count;
  let seed = 1;
  const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
  const deals: StatDeal[] = [];
  const base = { symbol: 'EURUSD', digits: 5, swap: 0, fee: 0, commission: 0, volume: 0.1 };
  for (let i = 0; deals.length < count; i += 1) {
    const time = start + deals.length * step;
    if (i % 500 === 0) {
      deals.push({
        ...base,
        ticket: `d${i}`,
        positionId: `d${i}`,
        time,
        type: 'balance',
        entry: 'in',
        price: 0,
        profit: 1000,
      });
      continue;
    }
    const price = 1.1 + random() / 100;
    const move = (random() - 0.48) / 500;
    const type = random() < 0.5 ? 'buy' : 'sell';
    const trade = { symbol: SYMBOLS[i % SYMBOLS.length]!, magic: String((i % 5) * 101) };
    deals.push({
      ...base,
      ...trade,
      ticket: `${i}a`,
      positionId: String(i),
      time,
      type,
      entry: 'in',
      price,
      profit: 0,
      commission: -0.7,
    });
    deals.push({
      ...base,
      ...trade,
      ticket: `${i}b`,
      positionId: String(i),
      time: time + step / 2,
      type: type === 'buy' ? 'sell' : 'buy',
      entry: 'out',
      price: price + (type === 'buy' ? move : -move),
      profit: Math.round(move * 100_000) / 100,
    });
  }
  return deals;
}

if (wants('statistics')) {
  console.log('\nMonitoring statistics: an account with 100,000 deals');
  const deals = accountHistory(100_000);
  const now = Date.UTC(2026, 0, 1);
  const timed = (work: () => unknown) => {
    work(); // warm
    const started = performance.now();
    for (let i = 0; i < 3; i += 1) work();
    return (performance.now() - started) / 3;
  };
  const sortMs = timed(() => [...deals].sort((a, b) => a.time - b.time));
  const statsMs = timed(() => computeStatistics({ deals, snapshots: [], now }));
  console.log(
    `  computeStatistics ${statsMs.toFixed(0)} ms (goal under 1,000 ms) = ${(statsMs / sortMs).toFixed(1)} x sorting the deals (${sortMs.toFixed(0)} ms)`,
  );
  const { closedTrades, tradeReturns } = computeStatistics({ deals, snapshots: [], now });
  const analysisMs = timed(() => {
    breakdownsOf(closedTrades, 'Europe/Moscow');
    riskOfRuin(tradeReturns);
  });
  console.log(
    `  breakdowns and risk of ruin of its ${closedTrades.length} trades ${analysisMs.toFixed(1)} ms = ${(analysisMs / statsMs).toFixed(3)} x computeStatistics`,
  );
}

if (wants('lighthouse')) {
  console.log(
    '\nLighthouse (mobile), the median of three runs of each page (goal: performance at least 95)',
  );
  await run('npx', [
    'playwright',
    'test',
    '--config',
    'e2e/playwright.config.ts',
    '--project',
    'lighthouse',
    '--no-deps',
    '--reporter',
    'line',
  ]);
}

if (wants('bundle')) {
  console.log('\nConsole bundle');
  process.exit(await run(process.execPath, ['scripts/bundle-size.ts']));
}
