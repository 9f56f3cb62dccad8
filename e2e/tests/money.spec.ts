import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';
import {
  ApiSession,
  backdate,
  headerBalance,
  historyRows,
  makeOperator,
  openBalancePage,
  submitCryptoPayment,
  topUpByCard,
  transferByApi,
  uniqueTxid,
} from '../support/money.ts';

/**
 * Picks a top-up method with Playwright's check(), which fails when the radio is not checked
 * right after the click (the card must not spring back while the address catches up).
 */
async function chooseMethod(page: Page, name: string) {
  await page.getByRole('radio', { name }).check();
}

/** The panel the gateway sends the reader back to: /balance-operations?payment=<id>. */
function paymentPanel(page: Page, title: RegExp) {
  return page.getByRole('region', { name: title });
}

test('a card top-up goes through the sandbox payment page: Processing, then Paid, and the header balance changes without a reload; a declined one is Not paid', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Carla Card' });
  await signIn(page, user.email);
  await expect(headerBalance(page)).toHaveText('$0');

  await page
    .getByRole('navigation', { name: /main/i })
    .getByRole('link', { name: 'Balance operations' })
    .click();
  await expect(page.getByRole('tab', { name: 'Top up' })).toHaveAttribute('aria-selected', 'true');
  await chooseMethod(page, 'Bank card');
  await page.getByLabel('Amount (USD)').fill('12.34');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // the sandbox gateway's page, a real HTTP page of the product, with the signed order
  await expect(page).toHaveURL(/\/api\/dev\/sandbox-gateway\/checkout$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sandbox payment' })).toBeVisible();
  await expect(page.getByText('12.34 USD').first()).toBeVisible();
  await expect(page.getByText('Bank card', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  // back on the console: the payment's real status, asked about until the notification lands
  await expect(page).toHaveURL(/\/balance-operations\?payment=\d+$/);
  const paid = paymentPanel(page, /^Payment #\d+: \$12\.34, Bank card$/);
  const status = paid.getByRole('status');
  await expect(status.getByText('Processing', { exact: true })).toBeVisible();
  await expect(status).toContainText(
    'Waiting for the payment system to confirm the payment. This updates by itself.',
  );
  await expect(headerBalance(page)).toHaveText('$0');
  await expect(status.getByText('Paid', { exact: true })).toBeVisible();
  await expect(status).toContainText('The payment is confirmed: $12.34 is on your balance.');
  await expect(headerBalance(page)).toHaveText('$12.3');
  await expect(page.getByTestId('summary-balance')).toHaveText('$12.34');
  await paid.getByRole('button', { name: 'Close the payment status' }).click();
  await expect(paid).toBeHidden();
  await expect(page).toHaveURL(/\/balance-operations$/);

  // a declined payment: Not paid, the balance unchanged, and a way to try again
  await page.getByLabel('Amount (USD)').fill('20');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('20.00 USD').first()).toBeVisible();
  await page.getByRole('button', { name: 'Decline' }).click();
  const declined = paymentPanel(page, /^Payment #\d+: \$20\.00, Bank card$/);
  await expect(declined.getByRole('status').getByText('Not paid', { exact: true })).toBeVisible();
  await expect(declined.getByRole('status')).toContainText(
    'The payment was not completed, and your balance has not changed.',
  );
  await expect(headerBalance(page)).toHaveText('$12.3');
  await declined.getByRole('button', { name: 'Try again' }).click();
  await expect(declined).toBeHidden();
  await expect(page.getByRole('radio', { name: 'Bank card' })).toBeChecked();
  await expect(page).toHaveURL(/tab=topup&method=card/);

  // the top-up history: newest first
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('tab', { name: 'Top-ups' })).toHaveAttribute('aria-selected', 'true');
  const rows = historyRows(page);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Bank card');
  await expect(rows.nth(0)).toContainText('$20.00');
  await expect(rows.nth(0)).toContainText('Not paid');
  await expect(rows.nth(1)).toContainText('$12.34');
  await expect(rows.nth(1)).toContainText('Paid');

  await page.reload();
  await expect(headerBalance(page)).toHaveText('$12.3');
});

// The crypto top-up in two journeys: the user's report, then the operator's decisions on two
// reports and what the user sees of them (each short enough for two busy cores).
test('a crypto payment is reported with its TXID and waits Under review; a TXID counts once', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Cody Crypto' });

  await signIn(page, user.email);
  await openBalancePage(page);
  await chooseMethod(page, 'Crypto wallet');
  await expect(page).toHaveURL(/method=crypto/);

  // a request first: the exact amount of its own to send, the provider's wallet, its QR code
  const network = page.getByLabel('Network');
  await expect(network).toHaveValue('USDT-TRC20');
  await expect(page.getByTestId('crypto-address')).toHaveCount(0);
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Get the payment details' }).click();
  await expect(page.getByRole('heading', { name: 'Send exactly this amount' })).toBeFocused();
  await expect(page.getByTestId('crypto-address')).toHaveText('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
  await expect(
    page.getByRole('img', { name: 'QR code of the USDT (TRC-20) address' }),
  ).toBeVisible();
  const payable = (await page.getByTestId('crypto-payable').textContent()) ?? '';
  // 25.01 to 25.99 USDT: the cents are this request's own
  expect(payable).toMatch(/^25\.\d\d USDT$/);
  expect(payable).not.toBe('25.00 USDT');
  const dollars = `$${payable.replace(' USDT', '')}`;

  const txid = uniqueTxid();
  await page.getByLabel('Your wallet address').fill('TCodyCryptoWallet000000000000001');
  await page.getByLabel('Transaction ID (TXID)').fill(txid);
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByRole('heading', { name: 'Payment sent for review' })).toBeFocused();
  await expect(page.getByText('Under review', { exact: true })).toBeVisible();
  await expect(
    page.getByText(`We will check the transaction and credit ${dollars} to your balance.`),
  ).toBeVisible();
  await expect(page.getByText(txid)).toBeVisible();

  await page.getByRole('link', { name: 'Open the top-up history' }).click();
  await expect(page).toHaveURL(/tab=history&history=payments/);
  await expect(historyRows(page)).toHaveCount(1);
  await expect(historyRows(page).first()).toContainText('Crypto wallet · USDT-TRC20');
  await expect(historyRows(page).first()).toContainText(dollars);
  await expect(historyRows(page).first()).toContainText('Under review');
  await expect(headerBalance(page)).toHaveText('$0');

  // a TXID counts once
  await page.getByRole('tab', { name: 'Top up' }).click();
  await chooseMethod(page, 'Crypto wallet');
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Get the payment details' }).click();
  await page.getByLabel('Your wallet address').fill('TCodyCryptoWallet000000000000001');
  await page.getByLabel('Transaction ID (TXID)').fill(txid);
  await page.getByRole('button', { name: 'Send for review' }).click();
  await expect(page.getByRole('alert')).toHaveText('The transaction id has already been taken');
  await expect(page.getByText('This txid is already in use.')).toBeVisible();
  await expect(page.getByLabel('Transaction ID (TXID)')).toBeFocused();
});

test('the operator confirms a crypto payment (Paid, balance credited) and rejects another (with the reason shown to the user); both are in the audit log', async ({
  page,
  request,
  browser,
}) => {
  const user = await createVerifiedUser(request, { name: 'Cora Crypto' });
  const operator = await createVerifiedUser(request, { name: 'Olga Operator' });
  await makeOperator(operator.email);
  const txid = uniqueTxid();
  // each with its own cents: $25.xx and $30.xx
  const first = (await submitCryptoPayment(request, user.email, { amount: '25', txid })).dollars;
  const second = (await submitCryptoPayment(request, user.email, { amount: '30' })).dollars;

  // the operator's review queue, in a browser of their own
  const operatorContext = await browser.newContext();
  const desk = await operatorContext.newPage();
  await signIn(desk, operator.email);
  await desk
    .getByRole('navigation', { name: /main/i })
    .getByRole('link', { name: 'Operator' })
    .click();
  await expect(desk).toHaveURL(/\/operator$/);
  await expect(desk.getByRole('heading', { level: 1, name: 'Operator' })).toBeVisible();
  await expect(desk.getByRole('heading', { level: 2, name: 'Review queue' })).toBeVisible();
  const queueRow = desk.getByRole('row').filter({ hasText: txid });
  await expect(queueRow).toContainText(user.email);
  await expect(queueRow).toContainText('USDT-TRC20');
  await expect(queueRow).toContainText(first);
  // the network is one word: not broken at its hyphen ('USDT-' over 'TRC20') beside a long e-mail
  for (const width of [1024, 1440]) {
    await desk.setViewportSize({ width, height: 900 });
    const network = queueRow.getByRole('cell', { name: 'USDT-TRC20', exact: true });
    const lines = await network.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
    });
    expect(lines, `the network's lines at ${width} px`).toBe(1);
  }
  // on a phone, a card's Confirm and Reject share its foot side by side, as wide as the card
  await desk.setViewportSize({ width: 375, height: 800 });
  const card = desk.getByRole('listitem').filter({ hasText: txid });
  const foot = await card.evaluate((item) => {
    const box = (element: Element) => element.getBoundingClientRect();
    const [confirm, reject] = Array.from(item.querySelectorAll('button')).filter((button) =>
      /^(Confirm|Reject)/.test(button.textContent ?? ''),
    );
    const data = item.querySelector('dl')!;
    return {
      sameLine: box(confirm!).top === box(reject!).top,
      left: box(confirm!).left - box(data).left,
      right: box(data).right - box(reject!).right,
    };
  });
  expect(foot.sameLine).toBe(true);
  expect(Math.abs(foot.left)).toBeLessThanOrEqual(1);
  expect(Math.abs(foot.right)).toBeLessThanOrEqual(1);
  await desk.setViewportSize({ width: 1440, height: 900 });

  await desk.getByRole('button', { name: `Confirm ${first} from ${user.email}` }).click();
  const confirm = desk.getByRole('dialog', { name: 'Confirm the payment' });
  await expect(confirm).toContainText(`Credit ${first} to ${user.email}?`);
  await expect(confirm).toContainText(txid);
  await confirm.getByRole('button', { name: `Credit ${first}` }).click();
  await expect(confirm).toBeHidden();
  await expect(desk.getByText(`${first} credited to ${user.email}`)).toBeVisible();
  await expect(queueRow).toHaveCount(0);

  await desk.getByRole('button', { name: `Reject ${second} from ${user.email}` }).click();
  const reject = desk.getByRole('dialog', { name: 'Reject the payment' });
  await expect(reject).toContainText(
    `Reject the payment of ${second} from ${user.email}? The user will see the reason.`,
  );
  const rejectButton = reject.getByRole('button', { name: 'Reject the payment', exact: true });
  await rejectButton.click();
  await expect(reject.getByText('Enter the reason')).toBeVisible();
  const reason = 'No such transaction on the TRC-20 network';
  await reject.getByLabel('Reason').fill(reason);
  await rejectButton.click();
  await expect(reject).toBeHidden();
  await expect(
    desk.getByText(`The payment of ${second} from ${user.email} has been rejected`),
  ).toBeVisible();
  await expect(desk.getByRole('button', { name: user.email })).toHaveCount(0);

  // every operator action is in the audit log: who, what, when
  await desk.getByRole('link', { name: 'Audit log' }).click();
  const audit = desk.getByRole('row').filter({ hasText: user.email });
  await expect(audit.filter({ hasText: 'Confirmed a crypto payment' })).toContainText(
    operator.email,
  );
  await expect(audit.filter({ hasText: 'Rejected a crypto payment' })).toContainText(reason);
  await operatorContext.close();

  // the user: Paid and the balance, Rejected with the operator's reason
  await signIn(page, user.email);
  await openBalancePage(page, 'history', 'payments');
  // $25.xx, in the header's one decimal
  await expect(headerBalance(page)).toHaveText(/^\$2[56](\.\d)?$/);
  const rows = historyRows(page);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(second);
  await expect(rows.nth(0)).toContainText('Rejected');
  await expect(rows.nth(0)).toContainText(`Reason: ${reason}`);
  await expect(rows.nth(1)).toContainText(first);
  await expect(rows.nth(1)).toContainText('Paid');
});

test('a transfer to another user names the recipient before the money moves, and both balances and histories show it', async ({
  page,
  request,
  browser,
}) => {
  const sender = await createVerifiedUser(request, { name: 'Sam Sender' });
  const recipient = await createVerifiedUser(request, { name: 'Rita Recipient' });
  await topUpByCard(request, sender.email, '50');

  await signIn(page, sender.email);
  await expect(headerBalance(page)).toHaveText('$50');
  // the page's live stream: open once its answer has begun
  const stream = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/user/events' && response.ok(),
  );
  await openBalancePage(page);
  await stream;
  await page.getByRole('tab', { name: 'Transfer', exact: true }).click();
  await expect(page).toHaveURL(/tab=transfer/);
  await expect(page.getByText('Available: $50.00')).toBeVisible();

  const amount = page.getByLabel('Amount (USD)');
  const email = page.getByLabel("Recipient's e-mail");
  const proceed = page.getByRole('button', { name: 'Continue', exact: true });
  // the refusals of SPEC 8, before anything moves
  await amount.fill('10');
  await email.fill(sender.email);
  await proceed.click();
  await expect(page.getByRole('alert')).toHaveText('You cannot transfer money to yourself');
  await email.fill(`nobody.${Date.now()}@example.com`);
  await proceed.click();
  await expect(page.getByRole('alert')).toHaveText('E-mail does not exist');
  await amount.fill('60');
  await email.fill(recipient.email);
  await proceed.click();
  await expect(page.getByRole('alert')).toHaveText('Insufficient funds for the transfer');

  // the confirmation step names the recipient; Back keeps the form as it was
  await amount.fill('12.50');
  await proceed.click();
  await expect(page.getByRole('heading', { name: 'Confirm the transfer' })).toBeFocused();
  await expect(page.getByText(`Send $12.50 to Rita Recipient (${recipient.email})?`)).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(amount).toHaveValue('12.50');
  await expect(email).toHaveValue(recipient.email);
  await proceed.click();
  await expect(page.getByText(`Send $12.50 to Rita Recipient (${recipient.email})?`)).toBeVisible();
  await expect(headerBalance(page)).toHaveText('$50');
  const userReads: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/user/auth') userReads.push(sent.url());
  });
  await page.getByRole('button', { name: 'Send $12.50' }).click();

  await expect(page.getByRole('heading', { name: 'Transfer complete' })).toBeFocused();
  await expect(page.getByText(`$12.50 sent to Rita Recipient (${recipient.email}).`)).toBeVisible();
  await expect(page.getByText('Your balance is now $37.50.')).toBeVisible();
  await expect(headerBalance(page)).toHaveText('$37.5');
  // the live update of the transfer brought the balance: the form reads no user of its own, not
  // even once its wait for the live update (3 s) is over
  await page.waitForTimeout(3_500);
  expect(userReads).toEqual([]);

  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('tab', { name: 'Transfers' }).click();
  await expect(page).toHaveURL(/history=transfers/);
  const sent = historyRows(page);
  await expect(sent).toHaveCount(1);
  await expect(sent.first()).toContainText('Rita Recipient');
  await expect(sent.first()).toContainText(recipient.email);
  await expect(sent.first()).toContainText('\u2212$12.50');
  await expect(sent.first()).toContainText('Sent');

  // the recipient, in a browser of their own
  const recipientContext = await browser.newContext();
  const other = await recipientContext.newPage();
  await signIn(other, recipient.email);
  await expect(headerBalance(other)).toHaveText('$12.5');
  await openBalancePage(other, 'history', 'transfers');
  const received = historyRows(other);
  await expect(received).toHaveCount(1);
  await expect(received.first()).toContainText('Sam Sender');
  await expect(received.first()).toContainText(sender.email);
  await expect(received.first()).toContainText('+$12.50');
  await expect(received.first()).toContainText('Received');
  await recipientContext.close();
});

test.describe('the histories', () => {
  // the custom days below are UTC calendar days, as the browser reads them
  test.use({ timezoneId: 'UTC' });

  const DAY = 24 * 3600 * 1000;
  /** `YYYY-MM-DD` (UTC) of `days` days ago. */
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

  test('filter by period: All, Week, Month, Quarter, Year and a custom range, the request carrying from and to', async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request, { name: 'Pat Period' });
    const friend = await createVerifiedUser(request, { name: 'Fred Friend' });
    const [, tenDaysAgo, hundredDaysAgo] = await Promise.all([
      topUpByCard(request, user.email, '11'),
      topUpByCard(request, user.email, '22'),
      topUpByCard(request, user.email, '33'),
    ]);
    await backdate('payments', tenDaysAgo, 10);
    await backdate('payments', hundredDaysAgo, 100);
    await transferByApi(request, user.email, friend.email, '1');
    await backdate('transfers', await transferByApi(request, user.email, friend.email, '2'), 40);

    await signIn(page, user.email);
    const history = /\/api\/user\/balance\/history\/\w+\?/;
    const first = page.waitForRequest(history);
    await openBalancePage(page, 'history', 'payments');
    const everything = new URL((await first).url()).searchParams;
    expect(everything.has('from') || everything.has('to')).toBe(false);
    const rows = historyRows(page);
    const period = page.getByRole('group', { name: 'Period' });
    const count = page.getByRole('status').filter({ hasText: /^Operations: / });

    /** Picks a preset; returns the period the history was asked for. */
    const choose = async (preset: string) => {
      const asked = page.waitForRequest(history);
      await period.getByRole('radio', { name: preset, exact: true }).check();
      return new URL((await asked).url()).searchParams;
    };
    /** The amounts of the rows shown, top to bottom. */
    const amounts = () =>
      expect.poll(async () =>
        (await rows.getByRole('cell').allInnerTexts())
          .map((text) => text.trim())
          .filter((text) => /^[+\u2212]?\$/.test(text)),
      );

    await expect(period.getByRole('radio', { name: 'All' })).toBeChecked();
    await expect(count).toHaveText('Operations: 3');
    await amounts().toEqual(['$11.00', '$22.00', '$33.00']);

    const week = await choose('Week');
    expect(week.has('to')).toBe(false);
    const weekStart = Date.parse(week.get('from') ?? '');
    expect(Math.abs(weekStart - (Date.now() - 7 * DAY))).toBeLessThan(60_000);
    await expect(count).toHaveText('Operations: 1');
    await amounts().toEqual(['$11.00']);

    const month = await choose('Month');
    expect(Date.parse(month.get('from') ?? '')).toBeLessThan(weekStart);
    await expect(count).toHaveText('Operations: 2');
    await amounts().toEqual(['$11.00', '$22.00']);

    await choose('Quarter');
    await expect(count).toHaveText('Operations: 2');
    await choose('Year');
    await expect(count).toHaveText('Operations: 3');
    await amounts().toEqual(['$11.00', '$22.00', '$33.00']);

    // All again: no bounds (the first answer is still in the console's cache: no new request)
    await period.getByRole('radio', { name: 'All' }).check();
    await expect(count).toHaveText('Operations: 3');

    // a custom range: from the start of its first day to the end of its last (UTC here)
    await period.getByRole('radio', { name: 'Custom' }).check();
    const apply = async (from: string, to: string) => {
      await page.getByLabel('From', { exact: true }).fill(from);
      await page.getByLabel('To', { exact: true }).fill(to);
      const asked = page.waitForRequest(history);
      await page.getByRole('button', { name: 'Apply' }).click();
      return new URL((await asked).url()).searchParams;
    };
    const custom = await apply(daysAgo(12), daysAgo(8));
    expect(custom.get('from')).toBe(`${daysAgo(12)}T00:00:00.000Z`);
    expect(custom.get('to')).toBe(`${daysAgo(7)}T00:00:00.000Z`);
    await expect(count).toHaveText('Operations: 1');
    await amounts().toEqual(['$22.00']);

    await apply(daysAgo(60), daysAgo(50));
    await expect(page.getByRole('heading', { name: 'No top-ups' })).toBeVisible();
    await expect(
      page.getByText('Nothing in this period. Choose a longer one or All.'),
    ).toBeVisible();
    await expect(rows).toHaveCount(0);

    await apply(daysAgo(1), daysAgo(0));
    await amounts().toEqual(['$11.00']);

    // the period is the histories' own: the transfers follow it
    const asked = page.waitForRequest(/\/history\/transfers\?/);
    await page.getByRole('tab', { name: 'Transfers' }).click();
    const transfers = new URL((await asked).url()).searchParams;
    expect(transfers.get('from')).toBe(`${daysAgo(1)}T00:00:00.000Z`);
    await expect(count).toHaveText('Operations: 1');
    await amounts().toEqual(['\u2212$1.00']);
    await choose('Month');
    await expect(count).toHaveText('Operations: 1');
    await choose('Quarter');
    await expect(count).toHaveText('Operations: 2');
    await amounts().toEqual(['\u2212$1.00', '\u2212$2.00']);
  });
});

test('money sent by another user shows at once in the open console’s header and on the balance page, without a reload (live updates)', async ({
  page,
  request,
}) => {
  const sender = await createVerifiedUser(request, { name: 'Lou Sender' });
  const recipient = await createVerifiedUser(request, { name: 'Liv Recipient' });
  await topUpByCard(request, sender.email, '30');

  // the tab's live stream: open once its answer has begun (the subscription is made before)
  const streamOpens = () =>
    page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/user/events' && response.ok(),
    );
  const signedInStream = streamOpens();
  await signIn(page, recipient.email);
  await signedInStream;
  // the balance page, whose summary shows the balance in full: a new load, a new stream
  const pageStream = streamOpens();
  await openBalancePage(page);
  await expect(headerBalance(page)).toHaveText('$0');
  await expect(page.getByTestId('summary-balance')).toHaveText('$0.00');
  await pageStream;
  // from now on the user fetches report the old balance: only the live update can show the new one
  await page.route('**/api/user/auth', async (route) => {
    try {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), balance: 0 } });
    } catch {
      // the page dropped this request meanwhile (its answer is disposed): it still gets no
      // balance from a user fetch
      await route.abort().catch(() => undefined);
    }
  });

  await transferByApi(request, sender.email, recipient.email, '12.5');
  await expect(headerBalance(page)).toHaveText('$12.5');
  await expect(page.getByTestId('summary-balance')).toHaveText('$12.50');
});

test('the operator’s balance correction: the Account select is as tall as the Amount field beside it, at 375, 1024 and 1440 px, in English and Russian', async ({
  page,
  request,
}) => {
  const operator = await createVerifiedUser(request, { name: 'Otto Operator' });
  await makeOperator(operator.email);
  // a customer's page: the operator's own offers no correction
  const customer = await createVerifiedUser(request, { name: 'Carl Customer' });
  await signIn(page, operator.email);
  await page.goto(`/operator/users?query=${encodeURIComponent(customer.email)}`);
  await page.getByRole('link', { name: customer.email }).click();
  await expect(page.getByRole('heading', { name: 'Carl Customer' })).toBeVisible();
  const userPage = page.url();
  const api = new ApiSession(request, operator.email);

  for (const [language, account, amount] of [
    ['EN', 'Account', 'Amount, $'],
    ['RU', 'Счёт', 'Сумма, $'],
  ] as const) {
    const changed = await api.call('POST', '/api/user/change_language', { data: { language } });
    expect(changed.ok(), await changed.text()).toBe(true);
    await page.goto(userPage);
    for (const width of [375, 1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const select = page.getByRole('combobox', { name: account });
      const input = page.getByRole('textbox', { name: amount });
      await expect(select).toBeVisible();
      const [selectBox, inputBox] = [(await select.boundingBox())!, (await input.boundingBox())!];
      expect(
        Math.abs(selectBox.height - inputBox.height),
        `${language} at ${width}px: the select ${selectBox.height}px, the input ${inputBox.height}px`,
      ).toBeLessThanOrEqual(1);
    }
  }
});
