import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  expect,
  type APIRequestContext,
  type APIResponse,
  type Locator,
  type Page,
} from '@playwright/test';
import { createPool } from '../../apps/api/src/db/client.ts';
import type { OperatorRole } from '../../packages/contracts/src/auth.ts';
import { SANDBOX_DECISION_PATH } from '../../apps/api/src/integrations/payments/sandbox.ts';
import { PASSWORD } from './app.ts';
import { operatorToken, turnOnOperatorFactor } from './operators.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The short form of the header ("$12.5"): shared/lib/format-balance.ts. */
export function headerBalance(page: Page): Locator {
  return page.getByRole('banner').getByTestId('header-balance');
}

/** The Balance operations page, on one of its tabs (and, for the history, one history). */
export async function openBalancePage(
  page: Page,
  tab: 'topup' | 'transfer' | 'history' = 'topup',
  history?: 'payments' | 'transfers' | 'charges' | 'withdrawals',
): Promise<void> {
  const query = new URLSearchParams({ tab, ...(history ? { history } : {}) });
  await page.goto(`/balance-operations?${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Balance operations' })).toBeVisible();
}

/** The rows of the history shown (the table from tablet width up), header row left out. */
export function historyRows(page: Page): Locator {
  return page
    .getByRole('table')
    .getByRole('row')
    .filter({
      hasNot: page.getByRole('columnheader'),
    });
}

/** A transaction hash no other payment has used (the TXID is unique across all users). */
export function uniqueTxid(): string {
  return randomBytes(32).toString('hex');
}

/**
 * One user's API calls with a bearer token, signing in again when the journeys' short-lived
 * token has run out (a 401), so a helper never depends on how long the previous step took.
 */
export class ApiSession {
  private token: string | undefined;
  private readonly request: APIRequestContext;
  readonly email: string;
  private readonly password: string;

  constructor(request: APIRequestContext, email: string, password = PASSWORD) {
    this.request = request;
    this.email = email;
    this.password = password;
  }

  private async signIn(): Promise<string> {
    // an operator's: the app's code, then refreshes of that sign-in (support/operators.ts)
    const operator = await operatorToken(this.email, this.password);
    if (operator !== undefined) return (this.token = operator);
    const res = await this.request.post('/api/user/auth/login', {
      data: { email: this.email, password: this.password },
    });
    expect(res.status(), await res.text()).toBe(200);
    this.token = ((await res.json()) as { token: string }).token;
    return this.token;
  }

  /** A bearer token of the user's, signed in when there is none yet. */
  async bearer(): Promise<string> {
    return this.token ?? (await this.signIn());
  }

  /** A call; a money-moving POST gets `idempotencyKey` (the same key on the retry after a 401). */
  async call(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    options: { data?: unknown; idempotencyKey?: string } = {},
  ): Promise<APIResponse> {
    const send = async (token: string) =>
      this.request.fetch(url, {
        method,
        data: options.data,
        headers: {
          authorization: `Bearer ${token}`,
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
      });
    const res = await send(this.token ?? (await this.signIn()));
    return res.status() === 401 ? send(await this.signIn()) : res;
  }

  /** The JSON of a call that must answer `status`. */
  async json<T>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    status: number,
    options: { data?: unknown; idempotencyKey?: string } = {},
  ): Promise<T> {
    const res = await this.call(method, url, options);
    expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  }
}

interface PaymentBody {
  payment: { id: number; status: string; amount: number };
}

/**
 * A card top-up made the way the console makes it, without the browser: the payment with its
 * checkout form, then Pay on the sandbox page (its form posted as the page posts it), then the
 * wait for the gateway's signed notification to credit the balance. Returns the payment's id.
 */
export async function topUpByCard(
  request: APIRequestContext,
  email: string,
  amount: string,
): Promise<number> {
  const api = new ApiSession(request, email);
  const created = await api.json<
    PaymentBody & { checkout: { fields: Record<string, string> } | null }
  >('POST', '/api/user/balance/deposit', 201, {
    data: { method: 'card', amount },
    idempotencyKey: randomUUID(),
  });
  expect(created.checkout, 'a card payment has a checkout form').not.toBeNull();
  const decided = await request.post(`/api${SANDBOX_DECISION_PATH}`, {
    form: { ...created.checkout!.fields, decision: 'approve' },
    maxRedirects: 0,
  });
  expect(decided.status(), await decided.text()).toBe(303);
  const id = created.payment.id;
  await expect
    .poll(
      async () =>
        (await api.json<PaymentBody>('GET', `/api/user/balance/payments/${id}`, 200)).payment
          .status,
      { message: `card payment ${id} is paid`, timeout: 20_000 },
    )
    .toBe('paid');
  return id;
}

/**
 * A crypto top-up made through the API as the console makes it: a request of `amount` dollars
 * (the exact amount to send: the dollars and a tag of cents of its own), then its payment
 * reported for review. Returns the payment's id and its amount as the console writes it.
 */
export async function submitCryptoPayment(
  request: APIRequestContext,
  email: string,
  fields: { amount: string; txid?: string; network?: string; wallet?: string },
): Promise<{ id: number; dollars: string }> {
  const api = new ApiSession(request, email);
  const opened = await api.json<PaymentBody>('POST', '/api/user/balance/crypto-request', 201, {
    data: { network: fields.network ?? 'USDT-TRC20', amount: fields.amount },
    idempotencyKey: randomUUID(),
  });
  const body = await api.json<PaymentBody>('POST', '/api/user/balance/crypto', 201, {
    data: {
      payment_id: opened.payment.id,
      wallet: fields.wallet ?? 'TPayerWallet0000000000000000000001',
      txid: fields.txid ?? uniqueTxid(),
    },
    idempotencyKey: randomUUID(),
  });
  expect(body.payment.status).toBe('under_review');
  return { id: body.payment.id, dollars: `$${body.payment.amount.toFixed(2)}` };
}

/** A transfer between two users through the API. */
export async function transferByApi(
  request: APIRequestContext,
  fromEmail: string,
  toEmail: string,
  amount: string,
): Promise<number> {
  const api = new ApiSession(request, fromEmail);
  const body = await api.json<{ transfer: { id: number } }>(
    'POST',
    '/api/user/balance/transfer',
    201,
    { data: { email: toEmail, amount }, idempotencyKey: randomUUID() },
  );
  return body.transfer.id;
}

const execFileAsync = promisify(execFile);

/**
 * Makes an existing user an operator with the documented commands (apps/api/src/cli/admin.ts on
 * the journeys' server database): `npm run admin -- create <email>` for an admin, else `grant
 * <email> <role>` for each role. Then turns their authenticator app on (the operator area wants
 * a second factor; support/operators.ts answers their sign-ins' second step).
 */
export async function makeOperator(
  email: string,
  roles: OperatorRole[] = ['admin'],
  password = PASSWORD,
): Promise<void> {
  if (roles.length === 1 && roles[0] === 'admin')
    expect(await apiCli('admin.ts', ['create', email])).toContain('is now an admin');
  else
    for (const role of roles)
      expect(await apiCli('admin.ts', ['grant', email, role])).toContain(' holds: ');
  await turnOnOperatorFactor(email, password);
}

/** Runs one of the API's command-line tools (apps/api/src/cli) on the journeys' server database. */
export async function apiCli(script: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [`apps/api/src/cli/${script}`, ...args],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl(),
        DATA_DIR: process.env.E2E_DATA_DIR ?? '',
        LOG_LEVEL: 'warn',
      },
      timeout: 60_000,
    },
  );
  return stdout;
}

function databaseUrl(): string {
  const url = process.env.E2E_DB_URL;
  if (!url) throw new Error('E2E_DB_URL is not set: run the journeys through playwright test');
  return url;
}

/** Runs one SQL statement on the journeys' server database; the rows it touched. */
export async function sql(text: string, values: unknown[]): Promise<number> {
  const pool = createPool(databaseUrl(), 1);
  try {
    return (await pool.query(text, values)).rowCount ?? 0;
  } finally {
    await pool.end();
  }
}

/**
 * The user's sign-ins proved their owner 6 minutes ago: past the 5 minutes of a proof, so the
 * next step-up action asks again (a sign-in is itself a proof).
 */
export async function ageProofs(email: string): Promise<void> {
  const moved = await sql(
    `update session_proofs set proved_at = proved_at - interval '6 minutes'
     where user_id = (select id from users where email = $1)`,
    [email],
  );
  expect(moved, `proofs of ${email} aged`).toBeGreaterThan(0);
}

/**
 * Moves an operation `days` days into the past, as if it had been made then: the histories
 * filter on the creation time. Only the operation's own row moves (the ledger is append-only
 * and keeps its own times; the histories do not read them).
 */
export async function backdate(
  table: 'payments' | 'transfers',
  id: number,
  days: number,
): Promise<void> {
  const moved = await sql(
    `update ${table} set created_at = created_at - make_interval(days => $2) where id = $1`,
    [id, days],
  );
  expect(moved, `${table} ${id} moved ${days} days back`).toBe(1);
}
