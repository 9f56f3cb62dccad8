/**
 * `npm run screenshots [-- [--top] /path-prefix ...]`: starts the product on an embedded
 * PostgreSQL, signs a user up through the development mailbox, and saves a PNG
 * of every page at 375, 1024 and 1440 px, light and dark, English and Russian
 * into ./screenshots — for people to look at, not for assertions (a monitored account's public
 * page, signed out, as public-online-monitoring_…). `--top`: the first screen only, not the
 * whole page.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Request } from '@playwright/test';
import { chromiumLaunch } from '../e2e/support/browser.ts';
import { turnOnAuthenticator } from '../e2e/support/authenticator.ts';
import { randomUUID } from 'node:crypto';
import { sandboxSignature } from '../apps/api/src/integrations/payments/sandbox.ts';
import { freePort, repoRoot, run, stop, waitFor } from './lib.ts';
import { createTerminal } from '../packages/simulator/src/index.ts';
import sharp from 'sharp';

const SANDBOX_SECRET = 'screenshots-sandbox-secret-screenshots-sandbox';

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
  '/vps?tab=rates',
  '/online-monitoring',
  '/online-monitoring/accounts',
  '/online-monitoring/guide',
  '/partner-program',
  '/partner-program?tab=network',
  '/partner-program?tab=promocodes',
  '/partner-program?tab=withdrawal',
  '/balance-operations',
  '/balance-operations?tab=topup&method=ewallet',
  '/balance-operations?tab=topup&method=crypto',
  '/balance-operations?tab=topup&method=balance',
  '/balance-operations?tab=transfer',
  '/balance-operations?tab=history&history=payments',
  '/balance-operations?tab=history&history=transfers',
  '/balance-operations?tab=history&history=charges',
  '/balance-operations?tab=history&history=withdrawals',
  '/support',
  '/profile',
  '/faq',
  '/operator',
  '/operator/users',
  '/operator/audit',
  '/operator/operators',
  '/operator/approvals',
  '/operator/vps/test-servers',
  '/operator/vps/servers',
  '/operator/vps/operations',
  '/operator/vps/rates',
  '/operator/vps/promocodes',
  '/operator/monitoring/subscriptions',
  '/operator/monitoring/accounts',
  '/operator/monitoring/prices',
  '/operator/partner/withdrawals',
  '/operator/partner/settings',
];
/** Pages shown to the signed-out reader at an address a signed-in one sees another page at. */
const publicPages: string[] = [];
const only = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
const fullPage = !process.argv.includes('--top');
const widths = [375, 1024, 1440];
const out = join(repoRoot, 'screenshots');
mkdirSync(out, { recursive: true });

const dataDir = mkdtempSync(join(tmpdir(), 'tradehost-shots-'));
// reachable by the postgres user the embedded cluster runs as under root
chmodSync(dataDir, 0o755);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const serverEnv = {
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
  // one user takes every page at a few seconds each, far above a reader's 120 calls a minute
  RATE_LIMIT_USER_MAX: '100000',
  SANDBOX_GATEWAY_SECRET: SANDBOX_SECRET,
  // servers come up within seconds, so the list shows them running
  HYPERVISOR_SIM_DELAY_MS: '300',
};
const server = spawn(process.execPath, ['apps/api/src/server.ts'], {
  cwd: repoRoot,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: serverEnv,
});
const browser = await chromium.launch({
  ...chromiumLaunch(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  await waitFor(`${url}/api/front/permissions`, server);
  const password = 'screenshot-pass-1';
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  /** Signs up, confirms through the development mailbox, signs in: a bearer token. */
  const account = async (name: string, email: string, partnerCode?: string) => {
    await post('/api/user/auth/create', {
      name,
      email,
      password,
      password_confirmation: password,
      consent: true,
      ...(partnerCode ? { partner_code: partnerCode } : {}),
    });
    const { mails } = (await (await fetch(`${url}/api/dev/mailbox.json`)).json()) as {
      mails: Array<{ to: string; text: string }>;
    };
    const link = mails.find((mail) => mail.to === email)?.text ?? '';
    await post('/api/user/auth/verify-email', { token: /verify=([\w-]+)/.exec(link)?.[1] });
    const login = await post('/api/user/auth/login', { email, password });
    return ((await login.json()) as { token: string }).token;
  };
  const email = `shots.${Date.now()}@example.com`;
  const friend = `friend.${Date.now()}@example.com`;
  const token = await account('Maxim Trader', email);
  const bearer = (userToken: string) => ({ authorization: `Bearer ${userToken}` });
  const as = bearer(token);
  const key = () => ({ ...as, 'idempotency-key': randomUUID() });
  // signed in on more devices than the profile's sessions list shows at once: its pages
  for (const device of [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  ])
    for (let i = 0; i < 4; i += 1)
      await post('/api/user/auth/login', { email, password }, { 'user-agent': device });
  // the partner programme: Olga signs up with Maxim's code, and two people with hers
  const { referral_code: code } = (await (
    await fetch(`${url}/api/user/partner_info`, { headers: as })
  ).json()) as { referral_code: string };
  const friendToken = await account('Olga Broker', friend, code);
  const friendCode = (
    (await (
      await fetch(`${url}/api/user/partner_info`, {
        headers: { authorization: `Bearer ${friendToken}` },
      })
    ).json()) as { referral_code: string }
  ).referral_code;
  const referralTokens: string[] = [];
  for (const [index, name] of ['Ivan Scalper', 'Anna Swing'].entries())
    referralTokens.push(
      await account(name, `referral${index}.${Date.now()}@example.com`, friendCode),
    );
  await post('/api/user/balance/promocode', { name: 'MAXIM5', discount: 5 }, as);

  // something in every history: a card top-up paid through the sandbox, a crypto payment under
  // review, a transfer, a declined card payment
  for (const [amount, status] of [
    ['1250.00', 'paid'],
    ['40.00', 'failed'],
  ] as const) {
    const deposit = await post('/api/user/balance/deposit', { method: 'card', amount }, key());
    const { checkout } = (await deposit.json()) as { checkout: { fields: Record<string, string> } };
    const note = {
      order_id: checkout.fields.order_id!,
      amount: checkout.fields.amount!,
      currency: checkout.fields.currency!,
      status,
      operation_id: randomUUID(),
    };
    await fetch(`${url}/api/payments/webhook/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...note,
        signature: sandboxSignature(SANDBOX_SECRET, 'notification', note),
      }),
    });
  }
  // a crypto top-up: the request (its exact amount), then its payment reported
  const opened = await post(
    '/api/user/balance/crypto-request',
    { network: 'USDT-TRC20', amount: '300' },
    key(),
  );
  const { payment: requested } = (await opened.json()) as { payment: { id: number } };
  await post(
    '/api/user/balance/crypto',
    {
      payment_id: requested.id,
      wallet: 'TXk1pYQf3n8Zs9vLrJc2uD5wHbGmA7eQoP',
      txid: 'a3f1c9e27b4d8f60a1b2c3d4e5f60718293a4b5c6d7e8f901a2b3c4d5e6f7081',
    },
    key(),
  );
  await post('/api/user/balance/transfer', { email: friend, amount: '75.50' }, key());
  // servers: three orders on different rates and periods, a test server asked for
  const { rates } = (await (await fetch(`${url}/api/user/vps/rates`, { headers: as })).json()) as {
    rates: { id: number }[];
  };
  for (const [rate, months, comment] of [
    [rates[1]!.id, 1, 'EURUSD scalper, MT5'],
    [rates[2]!.id, 3, 'Prop firm challenge'],
    [rates[5]!.id, 12, ''],
  ] as const) {
    const order = await post(
      '/api/user/vps/order',
      { rate_id: rate, months, source: 'forum' },
      key(),
    );
    const { server } = (await order.json()) as { server: { id: number } };
    if (comment)
      await fetch(`${url}/api/user/vps/servers/${server.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...as },
        body: JSON.stringify({ comment }),
      });
  }
  await post('/api/user/vps/test-server', { source: 'search' }, as);
  // Olga pays for a server: Maxim's first-level reward, pending for the hold
  await post(
    '/api/user/vps/order',
    { rate_id: rates[0]!.id, months: 1, source: 'forum' },
    { authorization: `Bearer ${friendToken}`, 'idempotency-key': randomUUID() },
  );
  // monitoring: a paid subscription, an account with three months of simulated history, public
  const bought = await post(
    '/api/user/monitoring/subscriptions',
    { accounts: 2, months: 3 },
    key(),
  );
  const { subscription } = (await bought.json()) as { subscription: { id: number } };
  const added = await post(
    '/api/user/monitoring/accounts',
    {
      subscription_id: subscription.id,
      login: 5012345,
      platform: 'MT5',
      name: 'Swing EURUSD',
      email,
    },
    as,
  );
  const monitored = ((await added.json()) as { account: { id: number; monitoring_id: string } })
    .account;
  const activation = await post(
    `/api/user/monitoring/subscriptions/${subscription.id}/key`,
    {},
    as,
  );
  const terminal = createTerminal({
    url,
    key: ((await activation.json()) as { key: string }).key,
    login: 5012345,
    months: 3,
  });
  await terminal.publishHistory();
  await terminal.streamSnapshots(2);
  await fetch(`${url}/api/user/monitoring/accounts/${monitored.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...as },
    body: JSON.stringify({ is_public: true }),
  });
  signedIn.push(`/online-monitoring/${monitored.monitoring_id}`);
  // a second account whose terminal has sent nothing yet: its page waits for the first data
  const waiting = await post(
    '/api/user/monitoring/accounts',
    {
      subscription_id: subscription.id,
      login: 5067890,
      platform: 'MT4',
      name: 'New scalper',
      email,
    },
    as,
  );
  signedIn.push(
    `/online-monitoring/${((await waiting.json()) as { account: { monitoring_id: string } }).account.monitoring_id}`,
  );
  // the same address signed out is the account's public page
  publicPages.push(`/online-monitoring/${monitored.monitoring_id}`);
  // the operator pages: this user is an admin, with the authenticator app the operator area
  // wants (its codes answer the browser's sign-ins below); Petr, a second billing operator with
  // his app on, and Sergei of support, whose second factor is off (the Operators page's warning)
  await run(process.execPath, ['apps/api/src/cli/admin.ts', 'create', email], serverEnv);
  const app = await turnOnAuthenticator(url, token);
  const cashierEmail = 'petr.cashier@example.com';
  const cashierToken = await account('Petr Cashier', cashierEmail);
  await run(
    process.execPath,
    ['apps/api/src/cli/admin.ts', 'grant', cashierEmail, 'billing'],
    serverEnv,
  );
  await turnOnAuthenticator(url, cashierToken);
  const supportEmail = 'sergei.support@example.com';
  await account('Sergei Support', supportEmail);
  await run(
    process.execPath,
    ['apps/api/src/cli/admin.ts', 'grant', supportEmail, 'support'],
    serverEnv,
  );
  const cashier = () => ({ ...bearer(cashierToken), 'idempotency-key': randomUUID() });
  const idOf = async (userToken: string) =>
    (
      (await (await fetch(`${url}/api/user/auth`, { headers: bearer(userToken) })).json()) as {
        id: number;
      }
    ).id;
  /** An operator's call that must answer `status`: the pages below show what it made. */
  const expectStatus = async (made: Promise<Response>, status: number, what: string) => {
    const res = await made;
    if (res.status !== status)
      throw new Error(`${what}: ${res.status} ${await res.text()} (expected ${status})`);
  };
  // a partner balance to withdraw (rewards become available only after the hold), credited by
  // Petr: an operator may not adjust their own account
  const userId = await idOf(token);
  await expectStatus(
    post(
      `/api/admin/users/${userId}/adjustments`,
      { account: 'balance_partner', amount: '180', reason: 'Rewards of the previous programme' },
      cashier(),
    ),
    201,
    "Maxim's partner balance",
  );
  // a user page with the adjustment form (Olga's, further down) and his own, which has none
  signedIn.push(`/operator/users/${userId}`);
  // and a withdrawal of part of it, for the operator's queue
  await expectStatus(
    post(
      '/api/user/partner/createwithdrawal',
      { method: 'USDT-TRC20', wallet: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '50' },
      key(),
    ),
    201,
    "Maxim's withdrawal",
  );
  // four eyes on money above $500: Olga withdraws $600 of her partner balance (credited in two
  // steps under the threshold) and Petr's payout of it waits for a second operator; Petr asks a
  // credit of Olga's balance (Maxim may approve or decline it), Maxim one of Ivan's (he may only
  // withdraw his own request)
  const friendId = await idOf(friendToken);
  signedIn.push(`/operator/users/${friendId}`);
  for (const reason of ['Rewards of the previous programme', 'Rewards of the spring contest'])
    await expectStatus(
      post(
        `/api/admin/users/${friendId}/adjustments`,
        { account: 'balance_partner', amount: '300', reason },
        key(),
      ),
      201,
      "Olga's partner balance",
    );
  const withdrawal = await post(
    '/api/user/partner/createwithdrawal',
    { method: 'USDT-TRC20', wallet: 'TGzq4m7Vb2sJ8xKc5nRtY3pLwE9hUa6DfQ', amount: '600' },
    { ...bearer(friendToken), 'idempotency-key': randomUUID() },
  );
  if (withdrawal.status !== 201)
    throw new Error(`Olga's withdrawal: ${withdrawal.status} ${await withdrawal.text()}`);
  const { withdrawal: asked } = (await withdrawal.json()) as { withdrawal: { id: number } };
  await expectStatus(
    post(
      `/api/admin/partner/withdrawals/${asked.id}/pay`,
      { reference: 'TRX 7f3a9c1e5b2d4086a1c3e5f7b9d2e4f6a8c0b1d3e5f7a9c2' },
      bearer(cashierToken),
    ),
    202,
    "Petr's payout of Olga's withdrawal",
  );
  await expectStatus(
    post(
      `/api/admin/users/${friendId}/adjustments`,
      { amount: '750', reason: 'Goodwill credit after the March outage of the Frankfurt servers' },
      cashier(),
    ),
    202,
    "Petr's credit of Olga's balance",
  );
  await expectStatus(
    post(
      `/api/admin/users/${await idOf(referralTokens[0]!)}/adjustments`,
      { amount: '1200', reason: 'Wire transfer received to the company account' },
      key(),
    ),
    202,
    "Maxim's credit of Ivan's balance",
  );
  // support: Maxim's billing ticket with a screenshot, answered; Olga's technical one, with an
  // internal note in the help desk; a canned reply
  const { data: departments } = (await (
    await fetch(`${url}/api/user/support/departments`, { headers: as })
  ).json()) as { data: { id: number; code: string | null }[] };
  const departmentOf = (code: string) => departments.find((d) => d.code === code)!.id;
  const openTicket = async (
    headers: Record<string, string>,
    code: string,
    title: string,
    text: string,
    file?: Buffer,
  ) => {
    const form = new FormData();
    form.set('department_id', String(departmentOf(code)));
    form.set('title', title);
    form.set('text', text);
    if (file)
      form.append('files', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'chart.png');
    const res = await fetch(`${url}/api/user/support/tickets`, {
      method: 'POST',
      headers,
      body: form,
    });
    return ((await res.json()) as { ticket: { id: number } }).ticket.id;
  };
  const staffMessage = async (ticketId: number, text: string, internal = false) => {
    const form = new FormData();
    form.set('text', text);
    form.set('internal', String(internal));
    await fetch(`${url}/api/admin/support/tickets/${ticketId}/messages`, {
      method: 'POST',
      headers: as,
      body: form,
    });
  };
  const chart = await sharp({
    create: { width: 960, height: 540, channels: 3, background: '#1f3b5c' },
  })
    .png()
    .toBuffer();
  const billing = await openTicket(
    as,
    'billing',
    'Charged twice for a renewal',
    'My server was renewed twice this morning, please refund the second charge. Screenshot attached.',
    chart,
  );
  await staffMessage(billing, 'Thank you, we have refunded the second charge to your balance.');
  const technical = await openTicket(
    { authorization: `Bearer ${friendToken}` },
    'technical',
    'MetaTrader disconnects every hour',
    'The terminal on my VPS loses the connection to the broker about once an hour.',
  );
  await staffMessage(technical, 'Check the broker server list and the VPS ping first.', true);
  await post(
    '/api/admin/support/canned',
    {
      title: 'Refund done',
      body_en: 'We have refunded the charge to your balance.',
      body_ru: 'Мы вернули списание на ваш баланс.',
    },
    as,
  );
  signedIn.push(
    `/support/${billing}`,
    '/faq?q=withdrawal',
    '/operator/support',
    `/operator/support/${technical}`,
    '/operator/support/canned',
    '/operator/support/departments',
    '/operator/faq',
  );

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
        // the API calls under way, but the live-updates stream, which stays open
        const calling = new Set<Request>();
        const isCall = (request: Request) => {
          const { pathname } = new URL(request.url());
          return pathname.startsWith('/api/') && pathname !== '/api/user/events';
        };
        page.on('request', (request) => isCall(request) && calling.add(request));
        page.on('requestfinished', (request) => calling.delete(request));
        page.on('requestfailed', (request) => calling.delete(request));
        /** Until the page's calls have answered and what they bring has rendered (at most 10 s). */
        const settled = async () => {
          const deadline = Date.now() + 10_000;
          let quietSince = Date.now();
          while (Date.now() < deadline) {
            const loading = await page.locator('[role="status"]:has([aria-hidden="true"])').count();
            if (calling.size > 0 || loading > 0) quietSince = Date.now();
            else if (Date.now() - quietSince >= 300) return;
            await page.waitForTimeout(50);
          }
        };
        /**
         * A whole-page capture does not scroll, and what draws only as the reader nears it (the
         * monitoring charts) stayed blank: the page is scrolled through a screen at a time, each
         * chart (an element of role img with nothing in it yet) waited for (at most 5 s), and
         * scrolled back to the top.
         */
        const drawBelowTheFold = async () => {
          // (expressions as text: this script knows no DOM types)
          const height = await page.evaluate<number>('document.documentElement.scrollHeight');
          for (let y = 0; y < height; y += 600) {
            await page.evaluate(`window.scrollTo(0, ${y})`);
            await page.waitForTimeout(50);
          }
          await page
            .waitForFunction(
              'document.querySelectorAll(\'[role="img"]:empty:not(span)\').length === 0',
              undefined,
              { timeout: 5000 },
            )
            .catch(() => console.warn(`${page.url()}: a chart did not draw`));
          await page.evaluate('window.scrollTo(0, 0)');
          await settled();
        };
        const shoot = async (path: string, prefix = '') => {
          if (only.length && !only.some((prefix) => path.startsWith(prefix))) return;
          await page.goto(`${url}${path}`);
          // not 'networkidle': a signed-in tab keeps its live-updates stream open
          await page.waitForLoadState('load');
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await settled();
          if (fullPage) await drawBelowTheFold();
          await page.waitForFunction('document.fonts.status === "loaded"');
          const slug = path.slice(1).replace(/[/?&=]+/g, '_') || 'root';
          const name = `${prefix}${slug}-${width}-${theme}-${language}.png`;
          await page.screenshot({ path: join(out, name), fullPage });
        };
        for (const path of signedOut) await shoot(path);
        for (const path of publicPages) await shoot(path, 'public-');
        // signed in, the account's language applies: make it this run's
        await post('/api/user/change_language', { language: language.toUpperCase() }, as);
        await page.goto(`${url}/login`);
        await page.locator('input[type=email]').fill(email);
        await page.locator('input[autocomplete=current-password]').fill(password);
        await page.locator('form button[type=submit]').click();
        // the second step: the app's code
        await page.locator('input[autocomplete=one-time-code]').fill(await app.nextCode());
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
