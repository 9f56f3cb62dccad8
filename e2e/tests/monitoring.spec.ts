import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { addMonths } from '../../packages/contracts/src/vps.ts';
import { createTerminal, snapshotAt } from '../../packages/simulator/src/index.ts';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { ApiSession, makeOperator, topUpByCard } from '../support/money.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * Online monitoring in the browser against the real server: a simulated MetaTrader terminal
 * (packages/simulator) publishes over the real ingestion protocol, the pg-boss statistics job
 * computes the figures, and the pages show them without a reload.
 */

const LOGIN = () => 60_000_000 + Math.floor(Math.random() * 9_000_000);

/** Signs in through the API and gives the user the free plan with one account; its key and ids. */
async function monitoredAccount(request: APIRequestContext, login: number) {
  const user = await createVerifiedUser(request, { name: 'Mona Monitor' });
  const signedIn = await request.post('/api/user/auth/login', {
    data: { email: user.email, password: user.password },
  });
  const { token } = (await signedIn.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const free = await request.post('/api/user/monitoring/subscriptions/free', { headers: auth });
  const subscription = ((await free.json()) as { subscription: { id: number } }).subscription;
  const added = await request.post('/api/user/monitoring/accounts', {
    headers: auth,
    data: {
      subscription_id: subscription.id,
      login,
      platform: 'MT5',
      name: 'Swing',
      email: user.email,
    },
  });
  const account = ((await added.json()) as { account: { id: number; monitoring_id: string } })
    .account;
  const key = await request.post(`/api/user/monitoring/subscriptions/${subscription.id}/key`, {
    headers: auth,
  });
  return { user, account, key: ((await key.json()) as { key: string }).key };
}

test('a trader takes the free plan, adds an account, copies the key; the terminal publishes and the pages fill in; the public page shows percentages only and counts a view', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const login = LOGIN();
  const user = await createVerifiedUser(request, { name: 'Paula Publisher' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, user.email);

  // no subscription: the accounts page leads to the plans
  await page.goto('/online-monitoring/accounts');
  await expect(page.getByText('No subscription yet')).toBeVisible();
  await page.getByRole('link', { name: 'Choose a plan' }).click();
  await page.getByRole('button', { name: 'Take the free plan' }).click();
  const card = page.getByRole('article', { name: /Free plan #\d+/ });
  await expect(card).toBeVisible();
  await expect(page.getByText('You have taken the free plan.')).toBeVisible();

  // the key, shown and copied
  await card.getByRole('button', { name: 'Show the activation key' }).click();
  const key = (await card.getByTestId('activation-key').textContent()) ?? '';
  expect(key).toMatch(/^mk_[\w-]{32}$/);
  await card.getByRole('button', { name: 'Copy the key' }).click();
  await expect(card.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // an account: a missing name is refused in place, then it is added and waits for data
  await page.getByRole('link', { name: 'Add an account' }).click();
  await page.getByRole('button', { name: 'Add an account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a trading account' });
  await dialog.getByLabel('Account number').fill(String(login));
  await dialog.getByRole('button', { name: 'Add the account' }).click();
  await expect(dialog.getByText('Enter the monitoring name')).toBeVisible();
  await dialog.getByLabel('Monitoring name').fill('Swing account');
  await dialog.getByRole('button', { name: 'Add the account' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'Swing account' });
  await expect(row.getByText('No data yet')).toBeVisible();
  await expect(page.getByText(/Waiting for the first data/)).toBeVisible();

  // the terminal publishes: the list updates by itself, no reload
  const terminal = createTerminal({ url: baseURL!, key, login, months: 3 });
  const published = await terminal.publishHistory();
  expect(published.accepted).toBeGreaterThan(50);
  await terminal.streamSnapshots(2, 10_000, 100);
  await expect(row.getByText('No data yet')).toBeHidden({ timeout: 20_000 });
  await expect(
    row
      .getByRole('cell')
      .filter({ hasText: /^[+\u2212]?\d+\.\d\d\s?%$/ })
      .first(),
  ).toBeVisible({
    timeout: 20_000,
  });

  // the account page: figures, charts, trades
  await row.getByRole('link', { name: 'Swing account' }).click();
  await expect(page.getByRole('heading', { name: 'Swing account' })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Gain' }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: /Growth chart of \d+ points/ })).toBeVisible();
  await expect(page.getByText(/\d+ trades$/)).toBeVisible();
  const monitoringId = new URL(page.url()).pathname.split('/').at(-1)!;

  // the terminal's ping (the simulator's 24 ms) now and over the day, beside the equity chart
  const ping = page.getByRole('region', { name: 'Ping to the trade server' });
  await expect(ping.getByText('Now 24 ms')).toBeVisible();
  await expect(
    ping.getByRole('img', { name: 'Ping chart over the last day: average 24 ms, longest 24 ms' }),
  ).toBeVisible();
  await ping.getByRole('radio', { name: 'Week' }).check();
  await expect(ping.getByRole('img', { name: /^Ping chart over the last week: / })).toBeVisible();
  await expect(page.getByText('Algo Trading off')).toBeHidden();

  // Algo Trading switched off in the terminal: its next snapshot says so, and the page warns
  // without a reload
  await terminal.publisher.snapshot({
    ...snapshotAt(terminal.history, login, new Date(), Math.random, false),
    ping_ms: 24,
    trade_allowed: false,
    ea_trade_allowed: true,
  });
  await expect(
    page.getByText('Algo Trading is switched off in the terminal: Expert Advisors cannot trade.'),
  ).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Algo Trading off')).toBeVisible();

  // the owner shares it with money hidden
  await page.getByLabel('Anyone with the link can see this account').check();
  await page.getByLabel('Hide money figures (percentages only)').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  // the link under the settings (the widgets' snippets below hold it too)
  await expect(
    page.getByRole('region', { name: 'Settings' }).getByText(`/online-monitoring/${monitoringId}`),
  ).toBeVisible();

  // signed out, the public page: percentages only, one view
  const visitor = await browser.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`/online-monitoring/${monitoringId}`);
  await expect(publicPage.getByRole('heading', { name: 'Swing account' })).toBeVisible();
  await expect(publicPage.getByText('The owner shows percentages only.')).toBeVisible();
  await expect(publicPage.getByText('1 view')).toBeVisible();
  await expect(
    publicPage.getByRole('term').filter({ has: publicPage.getByText('Balance', { exact: true }) }),
  ).toHaveCount(0);
  await expect(
    publicPage.getByRole('term').filter({ has: publicPage.getByText('Gain', { exact: true }) }),
  ).toBeVisible();
  await expect(
    publicPage
      .getByRole('link', { name: 'Login' })
      .or(publicPage.getByRole('link', { name: 'Sign in' }))
      .first(),
  ).toBeVisible();
  expect(await publicPage.locator('main').textContent()).not.toContain('$');
  // the ping is the owner's: the public page has none
  await expect(publicPage.getByRole('heading', { name: 'Ping to the trade server' })).toHaveCount(
    0,
  );
  await publicPage.reload();
  await expect(publicPage.getByText('1 view')).toBeVisible();
  // at a phone's, a tablet's and a desktop's width nothing on it (a figure's hidden explanation
  // by the right edge, a table) makes the page scroll sideways
  for (const width of [375, 1024, 1440]) {
    await publicPage.setViewportSize({ width, height: 900 });
    await expect(publicPage.getByRole('heading', { name: 'Trade history' })).toBeVisible();
    expect(
      await publicPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      `sideways overflow at ${width} px`,
    ).toBeLessThanOrEqual(0);
  }
  await visitor.close();

  // on a phone the owner's list, wider than the screen, scrolls inside its frame, which shades
  // the edge with columns beyond it; the page itself does not scroll sideways
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/online-monitoring/accounts');
  const list = page.getByRole('table', { name: 'My accounts' });
  await expect(list).toBeVisible();
  expect(
    await list.evaluate((table) => {
      const frame = table.parentElement!;
      return {
        scrolls: frame.scrollWidth > frame.clientWidth,
        hidden: frame.parentElement!.getAttribute('data-hidden'),
      };
    }),
  ).toEqual({ scrolls: true, hidden: 'end' });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

  // the account's page on a phone: each trade a card with its result in sight, not a column
  // scrolled out of it; the daily table by whole rows; the page does not scroll sideways
  await page.goto(`/online-monitoring/${monitoringId}`);
  const trades = page.getByRole('list', { name: 'Trade history' });
  const firstTrade = trades.getByRole('listitem').first();
  await expect(firstTrade).toBeVisible();
  const result = firstTrade.getByRole('definition').first();
  await expect(firstTrade.getByRole('term').first()).toHaveText('Result');
  await expect(result).toHaveText(/^[−-]?\$[\d,]+\.\d\d$/);
  const resultBox = (await result.boundingBox())!;
  expect(resultBox.x).toBeGreaterThanOrEqual(0);
  expect(resultBox.x + resultBox.width).toBeLessThanOrEqual(375);
  await expect(page.getByRole('table', { name: 'Daily' })).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    'sideways overflow of the account page at 375 px',
  ).toBeLessThanOrEqual(0);
});

/** A monitored account whose terminal published two months of history and one snapshot. */
async function publishedAccount(request: APIRequestContext, baseURL: string) {
  const login = LOGIN();
  const monitored = await monitoredAccount(request, login);
  const terminal = createTerminal({ url: baseURL, key: monitored.key, login, months: 2 });
  await terminal.publishHistory();
  await terminal.streamSnapshots(1);
  return monitored;
}

// Axe runs in two journeys per scheme (the four pages; the dialog and the public page), each
// short enough to keep its margin on two busy cores.
for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the four monitoring pages (${scheme})`, async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { user, account } = await publishedAccount(request, baseURL!);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);
    for (const [path, ready] of [
      ['/online-monitoring', page.getByRole('heading', { name: 'Plans' })],
      ['/online-monitoring/accounts', page.getByRole('row').filter({ hasText: 'Swing' })],
      [
        `/online-monitoring/${account.monitoring_id}`,
        page.getByRole('heading', { name: 'Trade history' }),
      ],
      ['/online-monitoring/guide', page.getByRole('heading', { name: 'What the figures mean' })],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(ready).toBeVisible();
      expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
    }
  });

  test(`axe finds no serious or critical violation in the key dialog and on the public page (${scheme})`, async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { user, account } = await publishedAccount(request, baseURL!);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);
    await page.goto('/online-monitoring');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.getByRole('button', { name: 'Regenerate the key' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), `regenerate dialog (${scheme})`).toEqual([]);

    // the public page, signed out
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`/online-monitoring/${account.monitoring_id}`);
    await page.getByLabel('Anyone with the link can see this account').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    const visitor = await browser.newContext({ colorScheme: scheme });
    const publicPage = await visitor.newPage();
    await publicPage.goto(`/online-monitoring/${account.monitoring_id}`);
    await expect(publicPage.getByRole('heading', { name: 'Swing' })).toBeVisible();
    expect(await seriousViolations(publicPage), `public page (${scheme})`).toEqual([]);
    await visitor.close();
  });
}

test("an operator finds a trader's account with its publisher's version, extends the paid subscription with a reason, and changes the price; axe on the three screens, light and dark", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const operator = await createVerifiedUser(request, { name: 'Otto Operator' });
  await makeOperator(operator.email);
  const trader = await createVerifiedUser(request, { name: 'Paula Paid' });
  await topUpByCard(request, trader.email, '50.00');
  const api = new ApiSession(request, trader.email);
  const bought = await api.json<{ subscription: { id: number; ends_at: string } }>(
    'POST',
    '/api/user/monitoring/subscriptions',
    201,
    { data: { accounts: 2, months: 1 }, idempotencyKey: randomUUID() },
  );
  const { id } = bought.subscription;
  const login = LOGIN();
  await api.json('POST', '/api/user/monitoring/accounts', 201, {
    data: { subscription_id: id, login, platform: 'MT5', name: 'Carry', email: trader.email },
  });
  const { key } = await api.json<{ key: string }>(
    'POST',
    `/api/user/monitoring/subscriptions/${id}/key`,
    200,
  );
  const terminal = createTerminal({ url: baseURL!, key, login, months: 1 });
  await terminal.publishHistory();
  await terminal.streamSnapshots(1);

  await signIn(page, operator.email);
  // the accounts: found by number, with the publisher's version and state
  await page.goto(`/operator/monitoring/accounts?search=${login}`);
  const row = page.getByRole('row').filter({ hasText: 'Carry' });
  await expect(row).toContainText(`MT5 · ${login}`);
  await expect(row).toContainText('simulator-1.0');
  await expect(row).toContainText('Reporting');
  await row.getByRole('link', { name: `#${id}` }).click();

  // the subscription: extended by 2 months with a reason, the new end in the row
  const subscription = page.getByRole('row').filter({ hasText: trader.email });
  await expect(subscription).toContainText('Paid');
  await expect(subscription).toContainText('1 of 2');
  await subscription.getByRole('button', { name: `Extend subscription #${id}` }).click();
  const dialog = page.getByRole('dialog', { name: `Extend subscription #${id}` });
  await dialog.getByRole('combobox', { name: 'Months to add' }).selectOption('2');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Broker outage on Friday');
  await dialog.getByRole('button', { name: 'Extend' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(new RegExp(`Subscription #${id} now runs until`))).toBeVisible();
  const mine = await api.json<{ subscriptions: { id: number; ends_at: string }[] }>(
    'GET',
    '/api/user/monitoring/subscriptions',
    200,
  );
  expect(mine.subscriptions.find((s) => s.id === id)?.ends_at).toBe(
    addMonths(new Date(bought.subscription.ends_at), 2).toISOString(),
  );

  // the prices: a bad one is refused on its field; the saved one is what traders are offered
  await page.goto('/operator/monitoring/prices');
  const price = page.getByRole('textbox', { name: /Price of an account-month/ });
  await expect(price).toHaveValue('3.00');
  await price.fill('abc');
  await page.getByRole('button', { name: 'Save the prices' }).click();
  await expect(page.getByText('Enter a price above 0 with at most two decimals')).toBeVisible();
  await price.fill('3.00');
  await page.getByRole('textbox', { name: '12 months, %' }).fill('15');
  await page.getByRole('button', { name: 'Save the prices' }).click();
  await expect(page.getByText('The monitoring prices have been saved')).toBeVisible();

  // the audit log names the extension
  await page.goto('/operator/audit');
  await expect(
    page.getByRole('row').filter({ hasText: 'Extended a monitoring subscription free of charge' }),
  ).toContainText('Broker outage on Friday');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, ready] of [
      [
        `/operator/monitoring/accounts?search=${login}`,
        page.getByRole('row').filter({ hasText: 'Carry' }),
      ],
      [
        `/operator/monitoring/subscriptions?search=${id}`,
        page.getByRole('row').filter({ hasText: trader.email }),
      ],
      ['/operator/monitoring/prices', page.getByRole('button', { name: 'Save the prices' })],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(ready).toBeVisible();
      expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
    }
    await page.getByRole('link', { name: 'Monitoring subscriptions' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: trader.email })
      .getByRole('button', { name: `Extend subscription #${id}` })
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page), `extend dialog (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
  }
});

test("the charts leave the page's scrolling alone: the wheel over a chart and a phone's vertical swipe on one scroll the page", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { user, account } = await publishedAccount(request, baseURL!);
  // the chart is drawn once it comes near the screen: its frame is brought there first
  const chartOf = async (on: typeof page) => {
    const frame = on.getByRole('img', { name: /Growth chart of \d+ points/ });
    await frame.scrollIntoViewIfNeeded();
    const canvas = frame.locator('canvas').first();
    await expect(canvas).toBeVisible();
    return canvas;
  };
  const scrolled = (on: typeof page) => on.evaluate(() => window.scrollY);

  // a desktop reader's wheel over the chart
  await signIn(page, user.email);
  await page.goto(`/online-monitoring/${account.monitoring_id}`);
  const chart = await chartOf(page);
  const box = (await chart.boundingBox())!;
  const before = await scrolled(page);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 300);
  await expect.poll(() => scrolled(page), 'the wheel over the chart').toBeGreaterThan(before);

  // a phone: a swipe up that starts on the chart
  const phone = await browser.newContext({
    viewport: { width: 375, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  const onPhone = await phone.newPage();
  await signIn(onPhone, user.email);
  await onPhone.goto(`/online-monitoring/${account.monitoring_id}`);
  const small = await chartOf(onPhone);
  const at = (await small.boundingBox())!;
  const start = await scrolled(onPhone);
  // a finger's swipe up from the chart's middle, as the browser's touch events
  const cdp = await phone.newCDPSession(onPhone);
  const x = Math.round(at.x + at.width / 2);
  const y = Math.round(at.y + at.height / 2);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 10; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x, y: y - step * 20 }],
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(() => scrolled(onPhone), 'a swipe on the chart').toBeGreaterThan(start);
  await phone.close();
});
