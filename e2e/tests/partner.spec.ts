import { expect, test } from '@playwright/test';
import { addWorkingDays } from '../../packages/contracts/src/partner.ts';
import {
  createVerifiedUser,
  PASSWORD,
  signIn,
  uniqueEmail,
  verificationLink,
  waitForMail,
} from '../support/app.ts';
import { ApiSession, makeOperator } from '../support/money.ts';
import { holdPasses, partnerWithBalance, referralBuysServer } from '../support/partner.ts';

/**
 * The partner programme in the browser against the real server: the partner link, a referral
 * who signs up through it and pays, the reward pending through its hold and then available, the
 * withdrawal, and the operator who pays it out.
 */

test('a partner shares the link; a referral signs up through it and pays for a server; the partner sees the reward pending, then available after the hold', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const partner = await createVerifiedUser(request, { name: 'Petra Partner' });
  await signIn(page, partner.email);
  await page
    .getByRole('navigation', { name: /main/i })
    .getByRole('link', { name: 'Partners' })
    .click();
  await expect(page).toHaveURL(/\/partner-program$/);
  const link = await page.getByTestId('partner-link').textContent();
  const code = await page.getByTestId('partner-code').textContent();
  expect(link).toBe(`${new URL(page.url()).origin}/signup?ref=${code}`);
  await expect(page.getByRole('img', { name: 'QR code of your partner link' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy the link' })).toBeVisible();

  // the referral: the link, the sign-up with the code filled in, the confirmation mail
  const visitor = await browser.newContext();
  const signup = await visitor.newPage();
  const click = signup.waitForResponse((res) => res.url().endsWith('/api/clicks/create'));
  await signup.goto(link!);
  expect((await click).status()).toBe(201);
  await expect(signup.getByLabel(/partner code/i)).toHaveValue(code!);
  const email = uniqueEmail('referral');
  await signup.getByLabel('Name').fill('Rudi Referral');
  await signup.getByLabel('E-mail').fill(email);
  await signup.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await signup.getByLabel('Repeat the password').fill(PASSWORD);
  await signup.getByRole('checkbox').check();
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(signup.getByRole('heading', { name: /confirm your e-mail/i })).toBeVisible();
  await signup.goto(verificationLink(await waitForMail(email)));
  await expect(signup.getByText(/e-mail is confirmed/i)).toBeVisible();
  await visitor.close();
  await referralBuysServer(request, email);

  // the partner: a click, a registration, a paying client; $21.09 pending on level 1
  await page.reload();
  const tile = (name: string) =>
    page
      .locator('dl > div')
      .filter({ has: page.getByText(name, { exact: true }) })
      .locator('dd');
  await expect(tile('Clicks')).toHaveText('1');
  await expect(tile('Registrations')).toHaveText('1');
  await expect(tile('Paying clients')).toHaveText('1');
  await expect(tile('Conversion')).toHaveText('100%');
  await expect(tile("Referrals' turnover")).toHaveText('$210.90');
  await expect(tile('Rewards pending')).toHaveText('$21.09');
  await expect(tile('Rewards available')).toHaveText('$0.00');
  const levels = page.getByRole('table', { name: 'Levels' });
  await expect(levels.getByRole('row', { name: /Level 1/ })).toHaveText(
    /Level 110%11\$210\.90\$21\.09/,
  );

  await page.getByRole('tab', { name: 'Network' }).click();
  const node = page.getByRole('listitem').filter({ hasText: 'r***@' });
  await expect(node).toContainText('Active');
  await expect(node).toContainText('$210.90');
  await expect(node).toContainText('$21.09');

  await page.getByRole('tab', { name: 'Withdrawal' }).click();
  await expect(page.getByTestId('partner-available')).toHaveText('$0.00');

  // fourteen days later
  await holdPasses(partner.email);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('partner-available')).toHaveText('$21.09', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(tile('Rewards pending')).toHaveText('$0.00');
  await expect(tile('Rewards available')).toHaveText('$21.09');
});

test('a partner withdraws the available rewards (checked, confirmed, due in 5 working days) and an operator pays them out with a reference', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const partner = await createVerifiedUser(request, { name: 'Wanda Withdraw' });
  const api = new ApiSession(request, partner.email);
  const { referral_code } = await api.json<{ referral_code: string }>(
    'GET',
    '/api/user/partner_info',
    200,
  );
  const referral = await createVerifiedUser(request, {
    name: 'Rex Referral',
    partner_code: referral_code,
  });
  await referralBuysServer(request, referral.email);
  await holdPasses(partner.email);
  const operator = await createVerifiedUser(request, { name: 'Otto Operator' });
  await makeOperator(operator.email);

  await signIn(page, partner.email);
  await page.goto('/partner-program?tab=withdrawal');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('partner-available')).toHaveText('$21.09', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  // the method's wallet format and minimum, the balance as the maximum
  await page.getByRole('radio', { name: /USDT \(TRC-20\)/ }).check();
  await page.getByLabel('Wallet').fill('P1234567');
  await page.getByLabel('Amount (USD)').fill('15');
  await page.getByRole('button', { name: 'Request the withdrawal' }).click();
  await expect(page.getByText('The wallet address is invalid')).toBeVisible();
  await expect(page.getByText('The minimum for this method is $20.00')).toBeVisible();
  await page.getByRole('radio', { name: /Payeer/ }).check();
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Request the withdrawal' }).click();
  await expect(page.getByText('The maximum for this method is $21.09')).toBeVisible();
  await page.getByLabel('Amount (USD)').fill('21.09');
  await page.getByRole('button', { name: 'Request the withdrawal' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the withdrawal' });
  await expect(confirm).toContainText(
    '$21.09 will be reserved from your partner balance and sent by Payeer to P1234567',
  );
  await confirm.getByRole('button', { name: 'Withdraw $21.09' }).click();
  await expect(page.getByRole('heading', { name: 'Request received' })).toBeFocused();
  await expect(page.getByText('Received', { exact: true })).toBeVisible();
  await expect(page.getByTestId('partner-available')).toHaveText('$0.00');
  // due in 5 working days: the API's day, shown as the page's date
  const { open } = await api.json<{ open: { created_at: string; due_at: string } }>(
    'GET',
    '/api/user/partner/payments',
    200,
  );
  expect(open.due_at).toBe(addWorkingDays(new Date(open.created_at), 5).toISOString());
  await expect(page.getByTestId('withdrawal-due')).toHaveText(
    new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(open.due_at)),
  );
  const received = await waitForMail(partner.email, (mail) =>
    /withdrawal request received/i.test(mail.subject),
  );
  expect(received.text).toContain('$21.09');
  // one open request at a time: the form is gone until this one is processed
  await expect(page.getByRole('button', { name: 'Request the withdrawal' })).toHaveCount(0);

  // the operator's queue, in a browser of their own
  const desk = await (await browser.newContext()).newPage();
  await signIn(desk, operator.email);
  await desk.goto('/operator/partner/withdrawals');
  const row = desk.getByRole('row').filter({ hasText: partner.email });
  await expect(row).toContainText('$21.09');
  await expect(row).toContainText('Payeer');
  await expect(row).toContainText('P1234567');
  await row.getByRole('button', { name: `Pay out $21.09 to ${partner.email}` }).click();
  const pay = desk.getByRole('dialog', { name: 'Pay out the withdrawal' });
  await pay.getByRole('button', { name: 'Mark $21.09 paid out' }).click();
  await expect(pay.getByText(/Enter/)).toBeVisible();
  await pay.getByLabel('Payment reference').fill('PAYEER-77120045');
  await pay.getByRole('button', { name: 'Mark $21.09 paid out' }).click();
  await expect(pay).toBeHidden();
  await expect(desk.getByText(`$21.09 paid out to ${partner.email}`)).toBeVisible();
  await expect(desk.getByRole('row').filter({ hasText: partner.email })).toHaveCount(0);
  await desk.context().close();

  // the partner: an e-mail with the reference, the form back, the history says Paid out
  const paid = await waitForMail(partner.email, (mail) =>
    /withdrawal paid out/i.test(mail.subject),
  );
  expect(paid.text).toContain('PAYEER-77120045');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Request the withdrawal' })).toBeVisible();
  await page.getByRole('link', { name: 'Withdrawal history' }).click();
  await expect(page).toHaveURL(/tab=history&history=withdrawals/);
  const history = page.getByRole('row').filter({ hasText: '$21.09' });
  await expect(history).toContainText('Paid out');
});

test('on a phone in Russian the partner screens fit: the selected tab in view, the levels as cards with each reward in sight, the wide tables scrolling inside their frame with a shaded edge, the operator’s cards with each label clear of its value', async ({
  page,
  request,
}) => {
  const { partner, api, id, promocode } = await partnerWithBalance(request);
  const language = await api.call('POST', '/api/user/change_language', {
    data: { language: 'RU' },
  });
  expect(language.ok(), await language.text()).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, partner.email);
  /** How far the page scrolls sideways (nothing should). */
  const pageOverflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );

  // a link to the last tab: the row scrolled so that it shows in full
  await page.goto('/partner-program?tab=withdrawal');
  const selected = page.getByRole('tab', { name: 'Вывод', selected: true });
  await expect(selected).toBeVisible();
  const tabs = await page.getByRole('tablist').evaluate((row) => {
    const current = row.querySelector('[aria-selected="true"]')!.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return { scrolls: row.scrollWidth > row.clientWidth, current, box };
  });
  expect(tabs.scrolls).toBe(true);
  expect(tabs.current.left).toBeGreaterThanOrEqual(tabs.box.left - 0.5);
  expect(tabs.current.right).toBeLessThanOrEqual(tabs.box.right + 0.5);
  // the wallet's example, one long word, wraps inside the field's width rather than past it
  const wallet = page.getByLabel('Кошелёк');
  const example = page.getByText(/^Например, T/);
  await expect(example).toBeVisible();
  const exampleRight = await example.evaluate((hint) => {
    const range = document.createRange();
    range.selectNodeContents(hint);
    return range.getBoundingClientRect().right;
  });
  const walletBox = (await wallet.boundingBox())!;
  expect(exampleRight).toBeLessThanOrEqual(walletBox.x + walletBox.width + 0.5);

  /** A table's frame: whether it scrolls, and which of its edges are shaded (TableFrame). */
  const frameOf = (name: string) =>
    page.getByRole('table', { name }).evaluate((table) => {
      const frame = table.parentElement!;
      return {
        scrolls: frame.scrollWidth > frame.clientWidth,
        hidden: frame.parentElement!.getAttribute('data-hidden'),
        focusable: frame.tabIndex === 0,
      };
    });
  // the levels: a card a level, its reward in sight at the card's top (no table to scroll)
  await page.goto('/partner-program');
  const levels = page.getByRole('list', { name: 'Уровни' });
  await expect(levels.getByRole('listitem')).toHaveCount(3);
  for (const level of await levels.getByRole('listitem').all()) {
    await expect(level.getByRole('term').first()).toHaveText('Вознаграждение');
    const reward = level.getByRole('definition').first();
    await expect(reward).toHaveText(/^\d[\d\s]*,\d\d\s\$$/);
    const box = (await reward.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  await expect(page.getByRole('table', { name: 'Уровни' })).toHaveCount(0);
  expect(await pageOverflow()).toBeLessThanOrEqual(0);
  // the promocodes: wider than a phone, they scroll in their frame, not the page
  await page.goto('/partner-program?tab=promocodes');
  const remove = page.getByRole('button', { name: `Удалить промокод ${promocode}` });
  await expect(remove).toBeAttached();
  expect(await frameOf('Ваши промокоды')).toEqual({
    scrolls: true,
    hidden: 'end',
    focusable: true,
  });
  expect(await pageOverflow()).toBeLessThanOrEqual(0);
  // the discounts' lead stands as far under its heading as the form under its own (a bare <p>'s
  // margins doubled the gap)
  const under = (name: string) =>
    page.getByRole('heading', { level: 2, name }).evaluate((heading) => {
      const next = heading.nextElementSibling!.getBoundingClientRect().top;
      return Math.round(next - heading.getBoundingClientRect().bottom);
    });
  expect(await under('Ваши скидки')).toBe(await under('Новый промокод'));
  // the promocode's row reads on one line: each cell's text one line high, level with the code
  // (a cell's middle: its code's or button's box, else its text's)
  const row = await page.getByRole('row', { name: new RegExp(promocode) }).evaluate((tr) =>
    Array.from(tr.children).map((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const box = (cell.querySelector('code, button') ?? range).getBoundingClientRect();
      const lines = cell.querySelector('button')
        ? 1
        : new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
      return { text: cell.textContent, lines, middle: box.top + box.height / 2 };
    }),
  );
  for (const cell of row) {
    expect(cell.lines, `${cell.text}: its lines`).toBe(1);
    expect(
      Math.abs(cell.middle - row[0]!.middle),
      `${cell.text}: level with the code`,
    ).toBeLessThanOrEqual(2);
  }
  // scrolled to its end: the shade moves to the start
  await page
    .getByRole('table', { name: 'Ваши промокоды' })
    .evaluate((table) => table.parentElement!.scrollTo({ left: 10_000 }));
  await expect.poll(async () => (await frameOf('Ваши промокоды')).hidden).toBe('start');
  const reached = await remove.evaluate((button) => {
    const frame = button.closest('table')!.parentElement!.getBoundingClientRect();
    const box = button.getBoundingClientRect();
    return box.left >= frame.left && box.right <= frame.right;
  });
  expect(reached).toBe(true);

  // the operator's page of the user: each card's label ends before its value starts
  await page.goto(`/operator/users/${id}`);
  const section = page.getByRole('region', { name: 'Партнёрская программа' });
  await expect(section.getByText('Вознаграждения').first()).toBeVisible();
  const clashes = await section.locator('li dl > div').evaluateAll((fields) =>
    fields.flatMap((field) => {
      const label = field.querySelector('dt')!;
      const value = field.querySelector('dd')!;
      const clear =
        label.scrollWidth <= label.clientWidth &&
        label.getBoundingClientRect().right <= value.getBoundingClientRect().left;
      return clear ? [] : [`${label.textContent} | ${value.textContent}`];
    }),
  );
  expect(clashes).toEqual([]);
  expect(await section.locator('li dl > div').count()).toBeGreaterThan(0);
  expect(await pageOverflow()).toBeLessThanOrEqual(0);
});
