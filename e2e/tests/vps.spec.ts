import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { addMonths } from '../../packages/contracts/src/vps.ts';
import { createVerifiedUser, signIn, waitForMail } from '../support/app.ts';
import { ApiSession, headerBalance, makeOperator, topUpByCard } from '../support/money.ts';

/**
 * VPS rental in the browser against the real server, whose simulated hypervisor takes
 * E2E_SIM_DELAY_MS (2.5 s) per slow call and whose pg-boss workers run the operations.
 */

/** Creating a server is a clone and a boot on the hypervisor plus the workers' polling. */
const CREATION = { timeout: 45_000 };
const OPERATION = { timeout: 30_000 };

function tab(page: Page, name: string): Locator {
  return page.getByRole('tab', { name });
}

/** The server's row (a table row at desktop width): the one holding its Reboot/Start button. */
function serverRow(page: Page, id: number): Locator {
  return page.getByRole('row').filter({ hasText: `#${id}` });
}

/**
 * The lines of the activity on a server's page, newest first, as What, By and Outcome (When is
 * the reader's clock); none until the table shows (for expect.poll).
 */
function activityLines(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table', { name: 'Activity' }).getByRole('row');
  return rows.evaluateAll((elements) =>
    elements
      .slice(1)
      .map((row) =>
        Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '').slice(1),
      ),
  );
}

/**
 * A new user with $20 who has ordered a server through the API, on the cheapest rate for a month
 * (it is being created): their e-mail and the server's number.
 */
async function userWithServer(
  request: APIRequestContext,
  name: string,
): Promise<{ email: string; id: number }> {
  const { email } = await createVerifiedUser(request, { name });
  await topUpByCard(request, email, '20');
  const api = new ApiSession(request, email);
  const { rates } = await api.json<{ rates: { id: number }[] }>('GET', '/api/user/vps/rates', 200);
  const { server } = await api.json<{ server: { id: number } }>(
    'POST',
    '/api/user/vps/order',
    201,
    {
      data: { rate_id: rates[0]!.id, months: 1, source: 'forum' },
      idempotencyKey: randomUUID(),
    },
  );
  return { email, id: server.id };
}

async function orderServer(page: Page, rate: string, period: string): Promise<number> {
  await tab(page, 'Order a server').click();
  const form = page.getByRole('region', { name: 'Rent a server' });
  await form.getByRole('radio', { name: rate }).check();
  await form.getByRole('radio', { name: period }).check();
  await form
    .getByRole('combobox', { name: 'How did you hear about us?' })
    .selectOption({ label: 'A trading forum' });
  const summary = page.getByRole('region', { name: 'Your order' });
  await summary.getByRole('button', { name: /^Pay \$/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the payment' });
  await confirm.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(tab(page, 'My servers')).toHaveAttribute('aria-selected', 'true');
  const notice = page.getByText(/Server #\d+ is being created/);
  await expect(notice).toBeVisible();
  return Number(/Server #(\d+)/.exec((await notice.textContent()) ?? '')![1]);
}

test('a trader orders a server paid from the balance, sees it Active with its login details, reboots it, renews it and switches auto-renewal', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const user = await createVerifiedUser(request, { name: 'Victor Vps' });
  await topUpByCard(request, user.email, '400.00');
  await signIn(page, user.email);

  // no servers yet: the page opens on the rates, and the empty list leads back to them
  await expect(tab(page, 'Order a server')).toHaveAttribute('aria-selected', 'true');
  await tab(page, 'My servers').click();
  await expect(page.getByText('You have no servers yet')).toBeVisible();
  await page
    .getByRole('link', { name: 'Order your first server' })
    .or(page.getByRole('button', { name: 'Order your first server' }))
    .click();
  await expect(tab(page, 'Order a server')).toHaveAttribute('aria-selected', 'true');

  // the price before paying: Max, $74 a month, 3 months with 5 % off = $210.90
  const form = page.getByRole('region', { name: 'Rent a server' });
  await form.getByRole('radio', { name: 'Max' }).check();
  await form.getByRole('radio', { name: '3 months' }).check();
  const summary = page.getByRole('region', { name: 'Your order' });
  await expect(summary.getByRole('button', { name: 'Pay $210.90' })).toBeVisible();

  const id = await orderServer(page, 'Max', '3 months');
  const row = serverRow(page, id);
  await expect(row.getByText('Being created')).toBeVisible();
  await expect(headerBalance(page)).toHaveText('$189.1');

  // the console follows the creation by itself
  await expect(row.getByText('Active', { exact: true })).toBeVisible(CREATION);
  await expect(row.getByText('Running', { exact: true })).toBeVisible();
  await waitForMail(user.email, (mail) => /ready/i.test(mail.subject));

  // login details: host, port and user; the password only on request; an .rdp file
  await row.getByRole('button', { name: `Show the login details of server #${id}` }).click();
  const details = page.getByRole('dialog', { name: `Login details of server #${id}` });
  await expect(details.getByText('3389')).toBeVisible();
  await expect(details.getByText('Administrator')).toBeVisible();
  await details.getByRole('button', { name: 'Show password' }).click();
  await expect(details.getByRole('button', { name: 'Hide password' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy the password' })).toBeVisible();
  const download = page.waitForEvent('download');
  await details.getByRole('button', { name: 'Download .rdp' }).click();
  expect((await download).suggestedFilename()).toBe(`vps-${id}.rdp`);
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // reboot: asked to confirm, shows the operation, comes back Running
  await row.getByRole('button', { name: `Reboot server #${id}` }).click();
  const confirm = page.getByRole('dialog', { name: `Reboot server #${id}?` });
  await confirm.getByRole('button', { name: 'Reboot' }).click();
  await expect(row.getByText('Rebooting…')).toBeVisible();
  // one operation at a time: the API refuses a second one while the reboot runs
  const api = new ApiSession(request, user.email);
  const refused = await api.call('POST', `/api/user/vps/servers/${id}/actions/reboot`);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { code: string }).code).toBe('OPERATION_IN_PROGRESS');
  await expect(row.getByText('Rebooting…')).toBeHidden(OPERATION);
  await expect(row.getByText('Running', { exact: true })).toBeVisible();
  // the end is said in a toast too (the live update), wherever the owner is by then
  await expect(page.getByRole('status').getByText(`Server #${id} has rebooted.`)).toBeVisible();

  // the server's page, from its number in the list: the reboot in its activity, by the trader,
  // done, below the password shown and the creation
  await row.getByRole('link', { name: `#${id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/vps/servers/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Server #${id}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Reboot server #${id}` })).toBeEnabled();
  await expect
    .poll(() => activityLines(page))
    .toEqual([
      ['Rebooted', 'You', 'Done'],
      ['Login details shown', 'You', 'Done'],
      ['Created', 'You', 'Done'],
    ]);
  await page.getByRole('link', { name: 'My servers' }).click();
  await expect(tab(page, 'My servers')).toHaveAttribute('aria-selected', 'true');

  // renew for a month: $74 from the balance, paid-until a month later
  type ServerBody = { server: { paid_until: string } };
  const before = await api.json<ServerBody>('GET', `/api/user/vps/servers/${id}`, 200);
  await row.getByRole('button', { name: `Renew server #${id}` }).click();
  const renew = page.getByRole('dialog', { name: `Renew server #${id}` });
  await renew.getByRole('radio', { name: '1 month' }).check();
  await renew.getByRole('button', { name: 'Pay $74.00 for 1 month' }).click();
  await expect(page.getByText(new RegExp(`Server #${id} is renewed until`))).toBeVisible();
  await expect(headerBalance(page)).toHaveText('$115.1');
  const after = await api.json<ServerBody>('GET', `/api/user/vps/servers/${id}`, 200);
  expect(after.server.paid_until).toBe(
    addMonths(new Date(before.server.paid_until), 1).toISOString(),
  );

  // auto-renewal: a switch, kept after a reload
  const autoRenew = row.getByRole('switch', { name: `Auto-renewal of server #${id}` });
  await expect(autoRenew).toHaveAttribute('aria-checked', 'false');
  await autoRenew.click();
  await expect(autoRenew).toHaveAttribute('aria-checked', 'true');
  // it turns at once and stays busy until the server has it: a reload before that would cancel it
  await expect(autoRenew).not.toHaveAttribute('aria-busy', 'true');
  await page.reload();
  await expect(
    serverRow(page, id).getByRole('switch', { name: `Auto-renewal of server #${id}` }),
  ).toHaveAttribute('aria-checked', 'true');

  // the renewal and the switch are in the server's activity too
  await page.goto(`/vps/servers/${id}`);
  await expect
    .poll(async () => (await activityLines(page)).slice(0, 2))
    .toEqual([
      ['Auto-renewal switched on', 'You', 'Done'],
      ['Renewed', 'You', 'Done'],
    ]);

  // both payments are in the charges history
  await page.goto('/balance-operations?tab=history&history=charges');
  await expect(
    page.getByText(new RegExp(`VPS #${id} Max, London \\(LD4\\): 3 months`)),
  ).toBeVisible();
  await expect(
    page.getByText(new RegExp(`VPS #${id} Max, London \\(LD4\\): 1 month`)),
  ).toBeVisible();

  // the actions read in full at every width in both languages: from 1024 px the table fits its
  // frame; narrower, should it not, the frame scrolls with its far edge shaded; a phone has cards
  for (const language of ['EN', 'RU'] as const) {
    const switched = await api.call('POST', '/api/user/change_language', { data: { language } });
    expect(switched.ok(), await switched.text()).toBe(true);
    for (const width of [1440, 1024, 800, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/vps');
      const server = page.locator(`[data-server="${id}"]`);
      await expect(server.getByRole('button').last()).toBeVisible();
      const seen = await server.evaluate((element) => {
        const frame = element.closest('table')?.parentElement;
        return {
          clipped: Array.from(element.querySelectorAll('button'))
            .filter((button) => button.scrollWidth > button.clientWidth)
            .map((button) => button.textContent),
          scrolls: frame ? frame.scrollWidth > frame.clientWidth : false,
          shaded: frame?.parentElement?.getAttribute('data-hidden') ?? null,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      });
      const at = `${language} at ${width} px`;
      expect(seen.clipped, at).toEqual([]);
      expect(seen.page, at).toBeLessThanOrEqual(0);
      if (width >= 1024) expect(seen.scrolls, at).toBe(false);
      expect(seen.shaded, at).toBe(seen.scrolls ? 'end' : null);
    }
  }
});

test('an order the balance cannot pay is refused with "Insufficient funds for payment" and makes no server', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, { name: 'Petra Poor' });
  await topUpByCard(request, user.email, '10.00');
  await signIn(page, user.email);
  await tab(page, 'Order a server').click();
  const form = page.getByRole('region', { name: 'Rent a server' });
  await form.getByRole('radio', { name: 'Max' }).check();
  await form
    .getByRole('combobox', { name: 'How did you hear about us?' })
    .selectOption({ label: 'Telegram' });
  const summary = page.getByRole('region', { name: 'Your order' });
  await expect(summary.getByText('$64.00 more is needed on your balance.')).toBeVisible();
  await summary.getByRole('button', { name: 'Pay $74.00' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the payment' });
  await confirm.getByRole('button', { name: 'Pay $74.00' }).click();
  await expect(confirm.getByRole('alert')).toContainText('Insufficient funds for payment');
  await expect(confirm.getByRole('link', { name: 'Top up the balance' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(headerBalance(page)).toHaveText('$10');

  const api = new ApiSession(request, user.email);
  const list = await api.json<{ meta: { total: number } }>('GET', '/api/user/vps/servers', 200);
  expect(list.meta.total).toBe(0);
});

test('a trader orders a free test server, an operator approves it in the operator area, and the trader sees it come up', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const trader = await createVerifiedUser(request, { name: 'Tanya Trial' });
  const operator = await createVerifiedUser(request, { name: 'Oscar Operator' });
  await makeOperator(operator.email);

  await signIn(page, trader.email);
  await tab(page, 'Order a server').click();
  const card = page.getByRole('region', { name: /Free test server for 3 days/ });
  await card
    .getByRole('combobox', { name: 'How did you hear about us?' })
    .selectOption({ label: 'YouTube' });
  await card.getByRole('button', { name: 'Order a test server' }).click();
  await expect(card.getByText('Under review')).toBeVisible();
  await expect(
    card.getByText('We process test server requests within one business day.'),
  ).toBeVisible();
  // one per user
  await expect(card.getByRole('button', { name: 'Order a test server' })).toHaveCount(0);

  // the operator's queue, in a browser of their own
  const context = await browser.newContext();
  const desk = await context.newPage();
  await signIn(desk, operator.email);
  await desk.goto('/operator/vps/test-servers');
  const request_ = desk.getByRole('row').filter({ hasText: trader.email });
  await request_.getByRole('button', { name: /^Approve/ }).click();
  const approve = desk.getByRole('dialog', { name: 'Approve the test server' });
  await approve.getByRole('button', { name: 'Approve and create' }).click();
  const approved = desk.getByText(
    new RegExp(`The test server of ${trader.email} is being created: server #(\\d+)`),
  );
  await expect(approved).toBeVisible();
  const id = Number(/server #(\d+)/.exec((await approved.textContent()) ?? '')![1]);
  await context.close();

  await waitForMail(trader.email, (mail) => /test server/i.test(mail.subject));
  await page.reload();
  await tab(page, 'My servers').click();
  const row = serverRow(page, id);
  await expect(row.getByText('Test server')).toBeVisible();
  await expect(row.getByText('Active', { exact: true })).toBeVisible(CREATION);
  await expect(headerBalance(page)).toHaveText('$0');
});

test("a server's actions in the table are buttons of one height at tablet width, each on one line, in either language", async ({
  page,
  request,
}) => {
  const user = await userWithServer(request, 'Tanya Tablet');
  await page.setViewportSize({ width: 1024, height: 900 });
  await signIn(page, user.email);

  for (const [language, id] of [
    ['EN', `#${user.id}`],
    ['RU', `№\u00a0${user.id}`],
  ] as const) {
    if (language === 'RU')
      await page
        .getByRole('group', { name: 'Language' })
        .getByRole('button', { name: 'RU' })
        .click();
    const row = page.getByRole('row').filter({ hasText: id });
    const buttons = row.locator('td').last().getByRole('button');
    await expect(buttons).toHaveCount(4, OPERATION);
    const boxes = await buttons.evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element);
        const lineHeight = parseFloat(style.lineHeight);
        const words = element.querySelector('span')!.getBoundingClientRect();
        return { height: element.getBoundingClientRect().height, lines: words.height / lineHeight };
      }),
    );
    for (const { height, lines } of boxes) {
      expect(height, `${language}: as tall as the first`).toBeCloseTo(boxes[0]!.height, 0);
      expect(Math.round(lines), `${language}: one line`).toBe(1);
    }
    // the table still fits the page: no sideways scrolling of the frame
    const frame = page.getByRole('table').locator('xpath=..');
    expect(await frame.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
  }
});

test("a server's page is its owner's: another user's server, or an address that is no server's number, is not found", async ({
  page,
  request,
}) => {
  const { id } = await userWithServer(request, 'Olga Owner');
  const other = await createVerifiedUser(request, { name: 'Nick Nosy' });
  await signIn(page, other.email);

  for (const path of [`/vps/servers/${id}`, '/vps/servers/not-a-number']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Server not found' })).toBeVisible();
    await expect(page.getByText(`Server #${id}`)).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Activity' })).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Open My servers' }).click();
  await expect(page).toHaveURL(/\/vps\?tab=servers$/);
  await expect(page.getByText('You have no servers yet')).toBeVisible();
});

test('a trader looks after their server from its page: its load, a snapshot, a new password and the terminal guardian', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { email, id } = await userWithServer(request, 'Sasha Selfservice');
  await signIn(page, email);
  await page.goto(`/vps/servers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Server #${id}` })).toBeVisible();
  const details = page.getByRole('region', { name: 'Server details' });
  await expect(details.getByText('Active', { exact: true })).toBeVisible(CREATION);
  await expect(details.getByText('Running', { exact: true })).toBeVisible();

  // the load of the last hour, drawn by the charting library (its canvases) with its figures
  const resources = page.getByRole('region', { name: 'Resources' });
  await expect(resources.getByRole('radio', { name: 'Hour' })).toBeChecked();
  for (const chart of ['CPU', 'Memory', 'Network', 'Disk']) {
    const plot = resources.getByRole('img', { name: new RegExp(`^${chart} over the last hour`) });
    await expect(plot.locator('canvas').first()).toBeVisible();
  }
  await expect(resources.getByRole('listitem').filter({ hasText: 'Total' })).toHaveText(
    /Total\s\d+\sGB/,
  );

  // a snapshot by the name given: being taken, then ready
  const snapshots = page.getByRole('region', { name: 'Snapshots' });
  await expect(snapshots.getByText('No snapshots yet')).toBeVisible();
  await snapshots.getByLabel('Snapshot name').fill('Before EA update');
  await snapshots.getByRole('button', { name: 'Take snapshot' }).click();
  const row = snapshots.getByRole('row').filter({ hasText: 'Before EA update' });
  await expect(details.getByText('Taking a snapshot…')).toBeVisible();
  await expect(row.getByText('Ready')).toBeVisible(OPERATION);
  await expect(snapshots.getByText(/^1 of \d+ used$/)).toBeVisible();
  await expect(details.getByText('Taking a snapshot…')).toBeHidden();

  // a new Windows password, once confirmed; Login details give it afterwards
  const repair = page.getByRole('region', { name: 'Repair' });
  await repair.getByRole('button', { name: 'Set a new password' }).click();
  const confirm = page.getByRole('dialog', { name: `Set a new password on server #${id}?` });
  await expect(confirm).toContainText('The current password stops working');
  await confirm.getByRole('button', { name: 'Set a new password' }).click();
  await expect(confirm).toBeHidden();
  // the guest agent answers at once in the simulation: the busy label may come and go unseen
  await expect(details.getByText('Setting a new password…')).toBeHidden(OPERATION);
  await expect
    .poll(async () => (await activityLines(page)).slice(0, 2), OPERATION)
    .toEqual([
      ['New password set', 'You', 'Done'],
      ['Snapshot taken', 'You', 'Done'],
    ]);

  // the guardian may also reboot the server after 15 minutes: kept after a reload
  const guardian = page.getByRole('region', { name: 'Terminal guardian' });
  await expect(guardian.getByRole('radio', { name: 'Restart the terminal' })).toBeChecked();
  await expect(guardian.getByText('The guardian has not needed to act yet.')).toBeVisible();
  await guardian.getByRole('radio', { name: 'Also reboot the server' }).check();
  await guardian.getByLabel('Reboot after, minutes').fill('15');
  await guardian.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByRole('status').getByText("The guardian's settings are saved."),
  ).toBeVisible();
  await page.reload();
  await expect(guardian.getByRole('radio', { name: 'Also reboot the server' })).toBeChecked();
  await expect(guardian.getByLabel('Reboot after, minutes')).toHaveValue('15');
  await expect(
    guardian.getByRole('checkbox', { name: 'Reboot even with positions open' }),
  ).not.toBeChecked();
});
