import { expect, test } from '@playwright/test';
import {
  createVerifiedUser,
  PASSWORD,
  signIn,
  uniqueEmail,
  verificationLink,
  waitForMail,
} from '../support/app.ts';
import { holdPasses, referralBuysServer } from '../support/partner.ts';

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
  test.setTimeout(120_000);
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
