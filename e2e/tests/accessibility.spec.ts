import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';
import {
  monitoredAccount,
  publishingTerminal,
  uniqueLogin,
  type MonitoredAccount,
} from '../support/monitoring.ts';
import { randomUUID } from 'node:crypto';
import {
  ApiSession,
  historyRows,
  makeOperator,
  submitCryptoPayment,
  topUpByCard,
  transferByApi,
  uniqueTxid,
} from '../support/money.ts';
import { seriousViolations } from '../support/axe.ts';
import { measuredBroker } from '../support/latency.ts';
import { partnerWithBalance } from '../support/partner.ts';

// axe takes a few seconds a page: a test walks through a dozen screens
test.describe.configure({ timeout: 150_000 });

const signedOut = [
  '/login',
  '/signup',
  '/forgot-password',
  '/password-reset',
  '/public-offer',
  '/privacy-policy',
  '/online-monitoring/1',
  '/online-monitoring/portfolios/1',
];
const signedIn = [
  '/vps',
  // no server of this user's: the not-found state
  '/vps/servers/1',
  '/online-monitoring',
  '/online-monitoring/accounts',
  '/online-monitoring/guide',
  '/online-monitoring/1',
  '/online-monitoring/portfolios',
  '/online-monitoring/portfolios/1',
  '/partner-program',
  '/balance-operations',
  '/support',
  '/support/1',
  '/profile',
  '/faq',
  '/public-offer',
  '/privacy-policy',
];

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the signed-out pages (${scheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of signedOut) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
    }
  });

  test(`axe finds no serious or critical violation on the signed-in pages (${scheme})`, async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);
    for (const path of signedIn) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
    }
  });
}

/** Goes to `path`, waits for its heading and for `ready`, and expects no serious violation. */
async function expectClean(page: Page, path: string, ready: Locator, scheme: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
  await expect(ready).toBeVisible();
  expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
}

/** The same for a state reached on the page (a dialog, a step, a refused form). */
async function expectCleanState(page: Page, state: string, ready: Locator, scheme: string) {
  await expect(ready).toBeVisible();
  expect(await seriousViolations(page), `${state} (${scheme})`).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the balance operations screens (${scheme})`, async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, { name: 'Axel Balance' });
    const friend = await createVerifiedUser(request, { name: 'Fiona Friend' });
    const paymentId = await topUpByCard(request, user.email, '40');
    await transferByApi(request, user.email, friend.email, '5');
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);

    const base = '/balance-operations';
    // the tabs, the top-up methods with forms of their own, the four histories, the payment status
    await expectClean(
      page,
      `${base}?tab=topup&method=card`,
      page.getByRole('button', { name: 'Continue to payment' }),
      scheme,
    );
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expectCleanState(
      page,
      'the card form refused',
      page.getByText('Enter an amount'),
      scheme,
    );
    // the sandbox gateway's payment page (the product's own, in development and the journeys)
    await page.getByLabel('Amount (USD)').fill('12');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expectCleanState(
      page,
      'the sandbox payment page',
      page.getByRole('button', { name: 'Pay', exact: true }),
      scheme,
    );

    // the crypto top-up: a request first, then its exact amount, the wallet and the QR code
    await expectClean(
      page,
      `${base}?tab=topup&method=crypto`,
      page.getByRole('button', { name: 'Get the payment details' }),
      scheme,
    );
    await page.getByLabel('Amount (USD)').fill('25');
    await page.getByRole('button', { name: 'Get the payment details' }).click();
    await expectCleanState(
      page,
      'the crypto payment details',
      page.getByRole('img', { name: 'QR code of the USDT (TRC-20) address' }),
      scheme,
    );
    await page.getByLabel('Your wallet address').fill('TAxelBalanceWallet00000000000001');
    await page.getByLabel('Transaction ID (TXID)').fill(uniqueTxid());
    await page.getByRole('button', { name: 'Send for review' }).click();
    await expectCleanState(
      page,
      'the crypto payment sent for review',
      page.getByRole('heading', { name: 'Payment sent for review' }),
      scheme,
    );

    await expectClean(page, `${base}?tab=transfer`, page.getByLabel("Recipient's e-mail"), scheme);
    await page.getByLabel('Amount (USD)').fill('1');
    await page.getByLabel("Recipient's e-mail").fill(friend.email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectCleanState(
      page,
      'the transfer confirmation step',
      page.getByRole('heading', { name: 'Confirm the transfer' }),
      scheme,
    );

    await expectClean(
      page,
      `${base}?tab=history&history=payments`,
      historyRows(page).filter({ hasText: 'Under review' }),
      scheme,
    );
    await page.getByRole('radio', { name: 'Custom' }).check();
    await expectCleanState(
      page,
      'the custom period',
      page.getByRole('button', { name: 'Apply' }),
      scheme,
    );
    await expectClean(
      page,
      `${base}?tab=history&history=transfers`,
      historyRows(page).filter({ hasText: 'Fiona Friend' }),
      scheme,
    );
    await expectClean(
      page,
      `${base}?tab=history&history=charges`,
      page.getByRole('heading', { name: 'No charges' }),
      scheme,
    );
    await expectClean(
      page,
      `${base}?tab=history&history=withdrawals`,
      page.getByRole('heading', { name: 'No withdrawals' }),
      scheme,
    );
    await expectClean(
      page,
      `${base}?payment=${paymentId}`,
      page.getByRole('region', { name: /^Payment #\d+/ }).getByText('Paid', { exact: true }),
      scheme,
    );
  });

  test(`axe finds no serious or critical violation in the operator area (${scheme})`, async ({
    page,
    request,
  }) => {
    const operator = await createVerifiedUser(request, { name: 'Otto Operator' });
    await makeOperator(operator.email);
    const customer = await createVerifiedUser(request, { name: 'Cora Customer' });
    // $25 and the cents of its own request
    const { dollars } = await submitCryptoPayment(request, customer.email, { amount: '25' });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, operator.email);

    // the review queue, with its two dialogs (the reject one refusing an empty reason)
    await expectClean(
      page,
      '/operator',
      page.getByRole('button', { name: `Confirm ${dollars} from ${customer.email}` }),
      scheme,
    );
    await page.getByRole('button', { name: `Confirm ${dollars} from ${customer.email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm the payment' });
    await expectCleanState(page, 'the confirm dialog', confirm, scheme);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: `Reject ${dollars} from ${customer.email}` }).click();
    const reject = page.getByRole('dialog', { name: 'Reject the payment' });
    await reject.getByRole('button', { name: 'Reject the payment', exact: true }).click();
    await expectCleanState(page, 'the reject dialog', reject.getByText('Enter the reason'), scheme);
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await expect(reject).toBeHidden();

    // the users, one user with the adjustment and its confirmation, the ledger
    await expectClean(
      page,
      `/operator/users?query=${encodeURIComponent(customer.email)}`,
      page.getByRole('link', { name: customer.email }),
      scheme,
    );
    await page.getByRole('link', { name: customer.email }).click();
    await expectCleanState(
      page,
      'a user',
      page.getByRole('heading', { name: 'Cora Customer' }),
      scheme,
    );
    await page.getByLabel('Amount, $').fill('10');
    await page.getByLabel('Reason').fill('Goodwill credit');
    await page.getByRole('button', { name: 'Review the adjustment' }).click();
    const adjust = page.getByRole('dialog', { name: 'Confirm the adjustment' });
    await expectCleanState(page, 'the adjustment confirmation', adjust, scheme);
    await adjust.getByRole('button', { name: 'Adjust the balance' }).click();
    await expect(adjust).toBeHidden();
    await expectCleanState(
      page,
      'a user with a ledger',
      page.getByRole('row').filter({ hasText: 'Goodwill credit' }),
      scheme,
    );

    await expectClean(
      page,
      '/operator/audit',
      page.getByRole('row').filter({ hasText: customer.email }).first(),
      scheme,
    );
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the VPS screens and the operator's VPS screens (${scheme})`, async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, { name: 'Vera Vps' });
    await topUpByCard(request, user.email, '100');
    await makeOperator(user.email);
    const api = new ApiSession(request, user.email);
    const { rates } = await api.json<{ rates: { id: number }[] }>(
      'GET',
      '/api/user/vps/rates',
      200,
    );
    const { server } = await api.json<{ server: { id: number } }>(
      'POST',
      '/api/user/vps/order',
      201,
      { data: { rate_id: rates[0]!.id, months: 1, source: 'forum' }, idempotencyKey: randomUUID() },
    );
    await api.json('POST', '/api/user/vps/test-server', 201, { data: { source: 'search' } });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);

    // the rates with a price, the test-server card under review, the order confirmation
    await expectClean(
      page,
      '/vps?tab=rates',
      page.getByRole('region', { name: 'Your order' }),
      scheme,
    );
    await page
      .getByRole('region', { name: 'Rent a server' })
      .getByRole('combobox', { name: 'How did you hear about us?' })
      .selectOption({ label: 'Telegram' });
    await page.getByRole('region', { name: 'Your order' }).getByRole('button').click();
    const confirm = page.getByRole('dialog', { name: 'Confirm the payment' });
    await expectCleanState(page, 'the order confirmation', confirm, scheme);
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    // the servers list, the login details, renew and reboot dialogs
    const row = page.getByRole('row').filter({ hasText: `#${server.id}` });
    await expectClean(page, '/vps?tab=servers', row.getByText('Active', { exact: true }), scheme);
    await row
      .getByRole('button', { name: `Show the login details of server #${server.id}` })
      .click();
    const details = page.getByRole('dialog', { name: `Login details of server #${server.id}` });
    await details.getByRole('button', { name: 'Show password' }).click();
    await expectCleanState(
      page,
      'the login details',
      details.getByRole('button', { name: 'Hide password' }),
      scheme,
    );
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: `Renew server #${server.id}` }).click();
    const renew = page.getByRole('dialog', { name: `Renew server #${server.id}` });
    await expectCleanState(page, 'the renew dialog', renew, scheme);
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: `Upgrade server #${server.id}` }).click();
    const upgrade = page.getByRole('dialog', { name: `Upgrade server #${server.id}` });
    await expectCleanState(page, 'the upgrade dialog', upgrade, scheme);
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: `Reboot server #${server.id}` }).click();
    await expectCleanState(
      page,
      'the reboot confirmation',
      page.getByRole('dialog', { name: `Reboot server #${server.id}?` }),
      scheme,
    );
    await page.keyboard.press('Escape');

    // the server's page: its facts, its actions, its load, snapshots, repairs and guardian, and
    // its activity (the password shown above)
    await expectClean(
      page,
      `/vps/servers/${server.id}`,
      page
        .getByRole('table', { name: 'Activity' })
        .getByRole('row')
        .filter({ hasText: 'Login details shown' }),
      scheme,
    );
    const serverPage = {
      resources: page.getByRole('region', { name: 'Resources' }),
      snapshots: page.getByRole('region', { name: 'Snapshots' }),
      repair: page.getByRole('region', { name: 'Repair' }),
      guardian: page.getByRole('region', { name: 'Terminal guardian' }),
    };
    await expectCleanState(
      page,
      "the server's charts, snapshots, repairs and guardian",
      serverPage.resources
        .getByRole('img', { name: /^CPU over/ })
        .locator('canvas')
        .first(),
      scheme,
    );
    await serverPage.snapshots.getByRole('button', { name: 'Take snapshot' }).click();
    await expectCleanState(
      page,
      'the snapshot form refused',
      serverPage.snapshots.getByText('Enter the snapshot name'),
      scheme,
    );
    await serverPage.repair.getByRole('button', { name: 'Reinstall' }).click();
    await expectCleanState(
      page,
      'the reinstall confirmation',
      page.getByRole('dialog', { name: `Reinstall server #${server.id}?` }),
      scheme,
    );
    await page.keyboard.press('Escape');
    await serverPage.guardian.getByRole('radio', { name: 'Also reboot the server' }).check();
    await expectCleanState(
      page,
      "the guardian's reboot settings",
      serverPage.guardian.getByLabel('Reboot after, minutes'),
      scheme,
    );

    // the web console, connected: its state, its controls, the screen and the typing field
    await expectClean(
      page,
      `/vps/servers/${server.id}/console`,
      page.getByText('Connected. Click the screen to type on the server.'),
      scheme,
    );

    // the operator's VPS screens
    const ready = (text: string) => page.getByRole('row').filter({ hasText: text }).first();
    await expectClean(page, '/operator/vps/test-servers', ready(user.email), scheme);
    await expectClean(page, '/operator/vps/servers', ready(user.email), scheme);
    await expectClean(page, '/operator/vps/operations', ready(user.email), scheme);
    await expectClean(page, '/operator/vps/rates', ready('London (LD4)'), scheme);
    await expectClean(
      page,
      '/operator/vps/promocodes',
      page.getByRole('button', { name: /promocode/i }).first(),
      scheme,
    );
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the order form's ping figures and the operator's latency map (${scheme})`, async ({
    page,
    request,
    baseURL,
  }) => {
    const broker = `Axe-${scheme}-${Date.now().toString(36)}`;
    const [owner] = await measuredBroker(request, baseURL!, broker, [12, 18, 30]);
    await makeOperator(owner!.user.email, ['vps']);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, owner!.user.email);

    // the server's ping in the list; the broker's suggestions open, then each location's figures
    const ping = page
      .getByRole('row')
      .filter({ hasText: 'London (LD4)' })
      .getByText(/^12\sms$/);
    await expectClean(page, '/vps?tab=servers', ping, scheme);
    await page.getByRole('tab', { name: 'Order a server' }).click();
    const form = page.getByRole('region', { name: 'Rent a server' });
    const field = form.getByRole('combobox', { name: /Your broker’s server/ });
    await field.fill(broker.slice(0, 8));
    await expect(form.getByRole('option', { name: broker })).toBeVisible();
    await field.press('ArrowDown');
    await expectCleanState(
      page,
      "the broker's suggestions",
      form.getByRole('option', { name: broker, selected: true }),
      scheme,
    );
    await field.press('Enter');
    await expectCleanState(
      page,
      "the order form's ping figures",
      form.getByTestId('latency-figures').getByText('Lowest ping'),
      scheme,
    );

    await expectClean(
      page,
      '/operator/vps/latency',
      page.getByRole('row').filter({ hasText: broker }),
      scheme,
    );
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the partner screens (${scheme})`, async ({
    page,
    request,
  }) => {
    const { partner, promocode } = await partnerWithBalance(request);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, partner.email);

    await expectClean(page, '/partner-program', page.getByTestId('partner-link'), scheme);
    await expectClean(
      page,
      '/partner-program?tab=network',
      page.getByRole('listitem').filter({ hasText: 'r***@' }),
      scheme,
    );
    await expectClean(
      page,
      '/partner-program?tab=promocodes',
      page.getByRole('row').filter({ hasText: promocode }),
      scheme,
    );
    await page.getByRole('button', { name: `Delete the promocode ${promocode}` }).click();
    await expectCleanState(
      page,
      'the promocode delete confirmation',
      page.getByRole('dialog', { name: `Delete ${promocode}?` }),
      scheme,
    );
    await page.keyboard.press('Escape');

    await expectClean(page, '/partner-program?tab=withdrawal', page.getByLabel('Wallet'), scheme);
    await page.getByRole('button', { name: 'Request the withdrawal' }).click();
    await expectCleanState(
      page,
      'the refused withdrawal form',
      page.getByText('Enter your wallet address'),
      scheme,
    );
    await page.getByRole('radio', { name: /Payeer/ }).check();
    await page.getByLabel('Wallet').fill('P7654321');
    await page.getByLabel('Amount (USD)').fill('12');
    await page.getByRole('button', { name: 'Request the withdrawal' }).click();
    await expectCleanState(
      page,
      'the withdrawal confirmation',
      page.getByRole('dialog', { name: 'Confirm the withdrawal' }),
      scheme,
    );
    await page.getByRole('button', { name: 'Withdraw $12.00' }).click();
    await expectCleanState(
      page,
      'the open withdrawal request',
      page.getByRole('heading', { name: 'Request received' }),
      scheme,
    );
  });

  test(`axe finds no serious or critical violation on the operator's partner screens (${scheme})`, async ({
    page,
    request,
  }) => {
    const { partner, api, id, cashier } = await partnerWithBalance(request);
    await api.json('POST', '/api/user/partner/createwithdrawal', 201, {
      data: { method: 'PAYEER', wallet: 'P7654321', amount: '12' },
      idempotencyKey: randomUUID(),
    });
    await page.emulateMedia({ colorScheme: scheme });
    // another operator's screens: the partner's own request offers them no decision
    await signIn(page, cashier.email);

    const row = page.getByRole('row').filter({ hasText: partner.email });
    await expectClean(page, '/operator/partner/withdrawals', row, scheme);
    await row.getByRole('button', { name: `Pay out $12.00 to ${partner.email}` }).click();
    await expectCleanState(
      page,
      'the pay-out dialog',
      page.getByRole('dialog', { name: 'Pay out the withdrawal' }),
      scheme,
    );
    await page.keyboard.press('Escape');
    await expectClean(page, '/operator/partner/settings', page.getByLabel('Level 1, %'), scheme);
    await expectClean(
      page,
      `/operator/users/${id}`,
      page.getByRole('heading', { name: 'Partner programme' }),
      scheme,
    );
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation in a monitoring account's alerts (${scheme})`, async ({
    page,
    request,
    baseURL,
  }) => {
    // an account whose terminal crossed an equity line: the rules, the channels and a history;
    // then Algo Trading switched off: the notice, and the ping chart beside the equity's
    const monitored = await monitoredAccount(request, { accountName: 'Axe swing' });
    const terminal = await publishingTerminal(baseURL!, monitored);
    const line = Math.floor(terminal.balance / 2);
    await monitored.api.json(
      'PATCH',
      `/api/user/monitoring/accounts/${monitored.account.id}/alerts`,
      200,
      {
        data: {
          rules: {
            equity_below: { enabled: true, threshold: line },
            ping_above: { enabled: true, threshold: 150 },
          },
        },
      },
    );
    await terminal.equity(line - 100);
    await terminal.algoTradingOff();
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, monitored.user.email);

    const alerts = page.getByRole('region', { name: 'Alerts and reports' });
    await expectClean(
      page,
      `/online-monitoring/${monitored.account.monitoring_id}`,
      alerts.getByRole('listitem').filter({ hasText: /Equity .+ \(line .+\)/ }),
      scheme,
    );
    const ping = page.getByRole('region', { name: 'Ping to the trade server' });
    await ping.scrollIntoViewIfNeeded();
    await expectCleanState(
      page,
      'the ping chart and the Algo Trading notice',
      ping.getByRole('img', { name: /^Ping chart over the last day/ }),
      scheme,
    );
    await expect(page.getByText(/Algo Trading is switched off in the terminal/)).toBeVisible();
    await alerts.getByRole('checkbox', { name: 'Drawdown from the peak reaches the line' }).check();
    await alerts.getByRole('textbox', { name: 'Drawdown line, %' }).fill('120');
    await alerts.getByRole('button', { name: 'Save alerts and reports' }).click();
    await expectCleanState(
      page,
      'a refused alert line',
      alerts.getByText('Enter a percentage greater than 0 and less than 100'),
      scheme,
    );
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on a monitoring portfolio (${scheme})`, async ({
    browser,
    page,
    request,
    baseURL,
  }) => {
    // two published accounts (the free plan's and a paid plan's), combined and shared
    const monitored = await monitoredAccount(request, { accountName: 'Axe swing' });
    await publishingTerminal(baseURL!, monitored);
    await topUpByCard(request, monitored.user.email, '10');
    const { subscription } = await monitored.api.json<{ subscription: { id: number } }>(
      'POST',
      '/api/user/monitoring/subscriptions',
      201,
      { data: { accounts: 1, months: 1 }, idempotencyKey: randomUUID() },
    );
    const { key } = await monitored.api.json<{ key: string }>(
      'POST',
      `/api/user/monitoring/subscriptions/${subscription.id}/key`,
      200,
    );
    const login = uniqueLogin();
    const second = await monitored.api.json<{ account: MonitoredAccount['account'] }>(
      'POST',
      '/api/user/monitoring/accounts',
      201,
      {
        data: {
          subscription_id: subscription.id,
          login,
          platform: 'MT5',
          name: 'Axe scalper',
          email: monitored.user.email,
        },
      },
    );
    await publishingTerminal(baseURL!, { ...monitored, account: second.account, login, key });
    const { portfolio } = await monitored.api.json<{
      portfolio: { id: number; monitoring_id: string };
    }>('POST', '/api/user/monitoring/portfolios', 201, {
      data: { name: 'Axe book', account_ids: [monitored.account.id, second.account.id] },
    });
    await monitored.api.json('PATCH', `/api/user/monitoring/portfolios/${portfolio.id}`, 200, {
      data: { is_public: true },
    });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, monitored.user.email);

    await expectClean(
      page,
      '/online-monitoring/portfolios',
      page.getByRole('link', { name: 'Axe book' }),
      scheme,
    );
    await page.getByRole('button', { name: 'New portfolio' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await expectCleanState(
      page,
      'the new portfolio refused',
      page.getByText('Enter the portfolio name'),
      scheme,
    );
    await page.keyboard.press('Escape');
    await expectClean(
      page,
      `/online-monitoring/portfolios/${portfolio.monitoring_id}`,
      page.getByRole('table', { name: 'Accounts in the portfolio' }),
      scheme,
    );
    await page.getByRole('button', { name: 'Delete this portfolio' }).click();
    await expectCleanState(
      page,
      'the deletion asked to confirm',
      page.getByRole('dialog', { name: 'Delete the portfolio “Axe book”?' }),
      scheme,
    );

    // its public page, signed out
    const visitor = await browser.newPage();
    await visitor.emulateMedia({ colorScheme: scheme });
    await expectClean(
      visitor,
      `/online-monitoring/portfolios/${portfolio.monitoring_id}`,
      visitor.getByRole('table', { name: 'Accounts in the portfolio' }),
      scheme,
    );
    await visitor.close();
  });
}
