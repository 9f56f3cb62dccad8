import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_MESSAGES, type ErrorCode, type OperatorRole } from '@tradehost/contracts';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance, onRouteHookHandler } from 'fastify';
import { generate } from 'otplib';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type AppDeps } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { databaseUrl, freePort } from './global-setup.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from './smtp.ts';

export const XHR = { 'x-requested-with': 'XMLHttpRequest' } as const;
export const PASSWORD = 'correct horse 1';

/** Wall-clock time plus an offset the test can move forward. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** A parsed response body; the tests' assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are arbitrary JSON, asserted field by field
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** A fetch client with its own cookie jar: one per simulated browser. */
export class ApiClient {
  readonly baseUrl: string;
  readonly cookies = new Map<string, { value: string; path: string }>();

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async request<T = Json>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const cookie = [...this.cookies]
      .filter(
        ([, c]) =>
          path === c.path ||
          path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          path.startsWith(`${c.path}?`),
      )
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    if (cookie) headers.cookie = cookie;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) this.store(line);
    const text = await response.text();
    let body: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json')) body = JSON.parse(text);
    return { status: response.status, body: body as T, text, headers: response.headers };
  }

  get<T = Json>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = Json>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) {
    return this.request<T>('POST', path, { ...options, body });
  }

  private store(line: string) {
    const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = new Map(
      attributes.map((a) => [a.split('=')[0]!.toLowerCase(), a.split('=').slice(1).join('=')]),
    );
    const expired =
      attr.get('max-age') === '0' ||
      (attr.has('expires') && new Date(attr.get('expires')!).getTime() <= Date.now());
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, { value, path: attr.get('path') || '/' });
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  url: string;
  /** A fresh browser. */
  client(): ApiClient;
  /** The default browser. */
  api: ApiClient;
  /** Direct SQL on this file's database (for arranging and checking state). */
  sql: pg.Pool;
  smtp: TestSmtp;
  clock: TestClock;
  /** The app's JSON log lines. */
  logs: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment on top of the test defaults (e.g. RATE_LIMIT_AUTH_MAX). `SMTP_URL: ''` means no SMTP. */
  env?: Record<string, string>;
  deps?: Omit<AppDeps, 'now' | 'logStream'>;
  /** Listen on a port picked before the config is read, and send gateway notifications there. */
  notifyItself?: boolean;
  /** Sees each route as it is added (Fastify's onRoute hook, added before any route). */
  onRoute?: onRouteHookHandler;
}

/**
 * A database of its own (copied from the migrated template), a real SMTP server,
 * and the app listening on 127.0.0.1:<free port>. Call `close()` in afterAll.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const adminUrl = inject('adminUrl');
  const database = `th_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database} template ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }

  const smtp = await startTestSmtp();
  // the files the app stores (avatars) go to a directory of this app's own, removed with it
  const dataDir = mkdtempSync(join(tmpdir(), 'th-test-data-'));
  const fixedPort = options.notifyItself ? await freePort() : 0;
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:5173',
    DATABASE_URL: databaseUrl(adminUrl, database),
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    RATE_LIMIT_AUTH_MAX: '10000',
    RATE_LIMIT_USER_MAX: '10000',
    WEB_DIST: '/nonexistent/tradehost-web-dist',
    LOG_LEVEL: 'info',
    SANDBOX_GATEWAY_DELAY_MS: '0',
    // VPS: the tests drive the runner and the lifecycle by hand (app.vpsJobs.runner.run,
    // app.vpsJobs.lifecycle.tick); the simulated hypervisor answers in milliseconds
    JOBS_ENABLED: 'false',
    HYPERVISOR_DRIVER: 'simulated',
    HYPERVISOR_SIM_DELAY_MS: '1-5',
    VPS_SECRET_KEY: 'test-vps-key-test-vps-key-test-vps-key-0123',
    ...(fixedPort ? { PAYMENT_NOTIFY_BASE_URL: `http://127.0.0.1:${fixedPort}` } : {}),
    ...options.env,
  });
  const clock = createTestClock();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  const app = buildApp(config, { ...options.deps, now: clock.now, logStream });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  await app.listen({ host: '127.0.0.1', port: fixedPort });
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const sql = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
  // pool.end() resolves before its connections have closed, so the database drop in close() can
  // terminate one of them: an error of an idle client, nothing a test did
  sql.on('error', () => {});

  return {
    app,
    config,
    url,
    client: () => new ApiClient(url),
    api: new ApiClient(url),
    sql,
    smtp,
    clock,
    logs,
    async close() {
      await app.close();
      await sql.end();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${database} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * Starts a test app (startTestApp) in beforeAll and closes it in afterAll of the calling file or
 * describe block. The returned object is filled in by beforeAll: use it inside tests and hooks.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const t = {} as TestApp;
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(options);
    Object.assign(t, started);
  });
  afterAll(async () => started?.close());
  return t;
}

/** The confirmation token in a verification mail's link. */
export function verifyTokenOf(mail: ReceivedMail): string {
  const match = /\/login\?verify=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no confirmation link in: ${mail.text}`);
  return match[1];
}

/** The 6-digit code in a password reset mail. */
export function resetCodeOf(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no code in: ${mail.text}`);
  return match[1];
}

let counter = 0;
/** A unique address per call. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export function signupBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Test Trader',
    email: uniqueEmail(),
    password: PASSWORD,
    password_confirmation: PASSWORD,
    consent: true,
    ...overrides,
  };
}

/** Signs up through the API and confirms the e-mail with the mailed link. */
export async function createVerifiedUser(t: TestApp, overrides: Record<string, unknown> = {}) {
  const body = signupBody(overrides);
  const email = String(body.email).toLowerCase();
  const before = t.smtp.to(email).length;
  const created = await t.api.post('/api/user/auth/create', body);
  if (created.status !== 201) throw new Error(`signup failed: ${created.status} ${created.text}`);
  const mail = await t.smtp.next(email, before);
  const verified = await t.api.post('/api/user/auth/verify-email', { token: verifyTokenOf(mail) });
  if (verified.status !== 200)
    throw new Error(`verification failed: ${verified.status} ${verified.text}`);
  return { email, password: String(body.password) };
}

/** A verified user signed in from a fresh browser: its client (holding the refresh cookie) and access token. */
export async function signIn(t: TestApp, overrides: Record<string, unknown> = {}) {
  const user = await createVerifiedUser(t, overrides);
  const browser = t.client();
  const login = await browser.post('/api/user/auth/login', {
    email: user.email,
    password: user.password,
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { ...user, browser, token: login.body.token as string };
}

/** A user of quickUser or operator: its bearer token, and an operator's authenticator secret. */
export interface QuickUser {
  id: number;
  email: string;
  name: string;
  token: string;
  sessionId: string;
  /** The TOTP secret of an operator's authenticator (null for a customer). */
  totpSecret: string | null;
}

/**
 * A verified account made with SQL (no sign-up mail, no password hashing) and a bearer token for
 * it, of a sign-in that has just proved its owner (step-up passes for 5 minutes of the test clock).
 * `roles` (or `role: 'admin'`, the same as roles ['admin']) make it an operator: the roles, and
 * the second factor the operator area requires (operator()).
 */
export async function quickUser(
  t: TestApp,
  fields: { name?: string; email?: string; role?: 'user' | 'admin'; roles?: OperatorRole[] } = {},
): Promise<QuickUser> {
  const email = fields.email ?? uniqueEmail('quick');
  const name = fields.name ?? 'Quick Trader';
  const { rows } = await t.sql.query<{ id: string }>(
    `insert into users (email, name, password_hash, email_verified_at, referral_code)
     values ($1, $2, 'not-a-hash', now(), upper(substr(md5(random()::text), 1, 8)))
     returning id`,
    [email, name],
  );
  const id = Number(rows[0]!.id);
  // a sign-in of its own, just made: as signing in does, it proved its owner now (step-up)
  const sessionId = randomUUID();
  await t.sql.query(
    'insert into session_proofs (session_id, user_id, proved_at) values ($1, $2, $3)',
    // (a product started by a test as a process has no test clock: its clock is the wall's)
    [sessionId, id, t.clock?.now() ?? new Date()],
  );
  const tokens = createAccessTokens(t.config.jwtSecret, 3600, () => new Date());
  const { token } = await tokens.sign(id, sessionId);
  const user = { id, email, name, token, sessionId, totpSecret: null };
  const roles = fields.roles ?? (fields.role === 'admin' ? ['admin'] : []);
  if (roles.length === 0) return user;
  await grantRoles(t, id, roles);
  // (a token of the app's clock: a test may have moved it days past the wall's)
  const now = createAccessTokens(t.config.jwtSecret, 3600, () => t.clock?.now() ?? new Date());
  return { ...user, totpSecret: await turnOnTotp(t, (await now.sign(id, sessionId)).token) };
}

/**
 * An operator holding `roles`, with the second factor the operator area requires (an
 * authenticator app, turned on through the API), signed in: a sign-in that has just proved its
 * owner, as quickUser's. `totpSecret` gives the app's codes (totpCode in factor-helpers.ts).
 */
export async function operator(
  t: TestApp,
  roles: OperatorRole[],
  fields: { name?: string; email?: string } = {},
): Promise<QuickUser & { totpSecret: string }> {
  const user = await quickUser(t, { ...fields, roles });
  return { ...user, totpSecret: user.totpSecret! };
}

/** Gives the user operator roles, as the command line or an admin does (granted by nobody here). */
export async function grantRoles(t: TestApp, userId: number, roles: OperatorRole[]): Promise<void> {
  await t.sql.query(
    `insert into operator_roles (user_id, role) select $1, unnest($2::text[]) on conflict do nothing`,
    [userId, roles],
  );
}

/**
 * Turns the authenticator app on through the API (the code of the test clock's step confirms
 * it; the clock is left where it is) and returns its secret.
 */
export async function turnOnTotp(t: TestApp, token: string): Promise<string> {
  const browser = new ApiClient(t.url);
  const started = await browser.post('/api/user/factors/totp', undefined, { token });
  if (started.status !== 200) throw new Error(`totp: ${started.status} ${started.text}`);
  const secret = String(started.body.secret);
  const at = t.clock?.now() ?? new Date();
  const code = await generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
  const confirmed = await browser.post('/api/user/factors/totp/confirm', { code }, { token });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  return secret;
}

/**
 * Money onto a user's purse the only way there is: a balanced ledger transaction (an adjustment
 * against the provider's `adjustments` account).
 */
export async function fund(
  t: TestApp,
  userId: number,
  cents: number,
  account: 'balance' | 'balance_partner' = 'balance',
): Promise<void> {
  const client = await t.sql.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `insert into ledger_transactions (kind, memo) values ('adjustment', 'test funding') returning id`,
    );
    await client.query(
      `insert into ledger_entries (transaction_id, user_id, account, amount_cents)
       values ($1, $2, $3, $4), ($1, null, 'adjustments', $5)`,
      [rows[0]!.id, userId, account, cents, -cents],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** Balances in cents as stored on the users row. */
export async function balancesOf(t: TestApp, userId: number) {
  const { rows } = await t.sql.query<{ b: string; p: string }>(
    'select balance_cents as b, balance_partner_cents as p from users where id = $1',
    [userId],
  );
  return { balance: Number(rows[0]!.b), partner: Number(rows[0]!.p) };
}

/** The ledger's invariants: every transaction balances, every purse equals its entries, none negative. */
export async function ledgerInvariants(t: TestApp) {
  const { rows: unbalanced } = await t.sql.query(
    `select transaction_id from ledger_entries group by transaction_id
     having sum(amount_cents) <> 0 or count(*) < 2`,
  );
  const { rows: total } = await t.sql.query<{ s: string }>(
    'select coalesce(sum(amount_cents), 0) as s from ledger_entries',
  );
  const { rows: drift } = await t.sql.query(
    `select u.id from users u
     left join (select user_id,
                  sum(amount_cents) filter (where account = 'balance') as b,
                  sum(amount_cents) filter (where account = 'balance_partner') as p
                from ledger_entries where user_id is not null group by user_id) e on e.user_id = u.id
     where u.balance_cents <> coalesce(e.b, 0) or u.balance_partner_cents <> coalesce(e.p, 0)`,
  );
  const { rows: negative } = await t.sql.query(
    'select id from users where balance_cents < 0 or balance_partner_cents < 0',
  );
  return {
    unbalanced: unbalanced.length,
    sum: Number(total[0]!.s),
    drift: drift.length,
    negative: negative.length,
  };
}

/**
 * A user's ledger transactions, newest first, with what each says: the system's code and params
 * (the operator's ledger puts them into words) and the stored memo (an operator's own text).
 */
export async function memosOf(t: TestApp, userId: number) {
  const { rows } = await t.sql.query<{
    kind: string;
    memo: string | null;
    memo_code: string | null;
    memo_params: Record<string, unknown> | null;
  }>(
    `select t.kind, t.memo, t.memo_code, t.memo_params from ledger_transactions t
     where exists (select 1 from ledger_entries e where e.transaction_id = t.id and e.user_id = $1)
     order by t.id desc`,
    [userId],
  );
  return rows;
}

/** The body of a refusal with `code`: its English text, and the field texts when given. */
export const refusal = (code: ErrorCode, errors?: Record<string, string[]>) => ({
  code,
  message: ERROR_MESSAGES[code],
  ...(errors ? { errors } : {}),
});

/** The body of a refusal of one field. */
export const fieldRefusal = (field: string, code: ErrorCode) =>
  refusal(code, { [field]: [ERROR_MESSAGES[code]] });

/** A POST with a fresh Idempotency-Key unless one is given (null: none). */
export function postKeyed(
  t: TestApp,
  path: string,
  body: unknown,
  who: { token: string },
  key: string | null = randomUUID(),
) {
  return t.api.post(path, body, {
    token: who.token,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/**
 * `METHOD /path/{param}` of every /api route (HEAD aside) in Fastify's printRoutes tree, whose
 * lines are `├── <segment> (METHODS)` indented four characters a level.
 */
export function routeTable(printed: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const level = match[1]!.length / 4;
    stack.length = level;
    stack.push(match[2]!);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]?.split(', ') ?? [])
      if (method !== 'HEAD' && path.startsWith('/api/')) routes.push(`${method} ${path}`);
  }
  return routes;
}
