import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { ageProofs, apiCli, makeOperator } from '../support/money.ts';
import { nextOperatorCode } from '../support/operators.ts';

/**
 * Operator roles in the browser against the real server (issue 42): an operator of one role sees
 * that role's sections only, and a section of another role as no access; an admin grants them
 * billing on the Operators page (confirming it is them: a step-up), the operator's area then
 * opens the billing sections, and the admin revokes it again. An operator without a second
 * factor is told the area needs one and led to Profile's second factor.
 */

const sections = (page: Page) =>
  page.getByRole('navigation', { name: 'Operator sections' }).getByRole('link');

const SUPPORT_SECTIONS = ['Users', 'Support', 'FAQ'];
/** Among the sections of support and billing, in order (billing's own list may grow). */
const SUPPORT_AND_BILLING_SECTIONS = [
  'Review queue',
  'Users',
  'Promocodes',
  'Monitoring prices',
  'Withdrawals',
  'Partner settings',
  'Support',
  'FAQ',
];

/** The Operators page's row of the operator with this e-mail. */
const operatorRow = (page: Page, email: string): Locator =>
  page
    .getByRole('table', { name: 'Operators' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: email, exact: true }) });

const rolesOf = (row: Locator, email: string) =>
  row.getByRole('list', { name: `Roles of ${email}` }).getByRole('listitem');

test('a support operator sees the support sections; an admin grants billing under step-up, then revokes it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await createVerifiedUser(request, { name: 'Ada Admin' });
  await makeOperator(admin.email);
  const agent = await createVerifiedUser(request, { name: 'Sam Support' });
  await makeOperator(agent.email, ['support']);

  // the support operator: their sections only, and a billing address is no access
  await signIn(page, agent.email);
  await page.goto('/operator/users');
  await expect(sections(page)).toHaveText(SUPPORT_SECTIONS);
  await page.goto('/operator/partner/withdrawals');
  await expect(
    page.getByRole('heading', { level: 2, name: 'No access to this section' }),
  ).toBeVisible();
  await expect(page.getByText(/for operators with the Billing role/)).toBeVisible();
  await expect(sections(page)).toHaveText(SUPPORT_SECTIONS);

  // the admin, whose sign-in proved them more than 5 minutes ago: granting asks again
  const adminContext = await browser.newContext();
  const desk = await adminContext.newPage();
  try {
    await signIn(desk, admin.email);
    await ageProofs(admin.email);
    await desk.goto('/operator/users');
    await desk
      .getByRole('navigation', { name: 'Operator sections' })
      .getByRole('link', { name: 'Operators' })
      .click();
    await expect(desk).toHaveURL(/\/operator\/operators$/);
    const row = operatorRow(desk, agent.email);
    await expect(rolesOf(row, agent.email)).toHaveCount(1);
    await expect(rolesOf(row, agent.email)).toContainText(['Support']);
    await expect(rolesOf(row, agent.email).first()).toContainText('Granted from the command line');
    await expect(row.getByRole('cell', { name: 'On', exact: true })).toBeVisible();

    await row
      .getByRole('combobox', { name: `Role ${agent.email}` })
      .selectOption({ label: 'Billing' });
    await row.getByRole('button', { name: `Grant ${agent.email}` }).click();
    const stepUp = desk.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(stepUp).toBeVisible();
    // an account with a second factor proves it with the app's code
    await stepUp.getByLabel('Code from the app').fill((await nextOperatorCode(admin.email))!);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await expect(stepUp).toBeHidden();
    await expect(desk.getByText(`Billing granted to ${agent.email}`)).toBeVisible();
    await expect(rolesOf(row, agent.email)).toHaveCount(2);
    await expect(rolesOf(row, agent.email).nth(1)).toContainText('Billing');
    await expect(rolesOf(row, agent.email).nth(1)).toContainText('Granted by Ada Admin');

    // the operator's area opens the billing sections on its next look at their roles
    await page.reload();
    await expect(sections(page)).toContainText(SUPPORT_AND_BILLING_SECTIONS);
    await expect(sections(page).filter({ hasText: 'Audit log' })).toHaveCount(0);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Partner withdrawals' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No access to this section' })).toBeHidden();

    // revoked after its confirmation (the proof given a moment ago still holds)
    await row.getByRole('button', { name: `Revoke Billing, ${agent.email}` }).click();
    const confirm = desk.getByRole('dialog', { name: 'Revoke the Billing role?' });
    await expect(confirm).toContainText(
      `${agent.email} loses the Billing sections of the operator area at once.`,
    );
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(confirm).toBeHidden();
    await expect(desk.getByText(`Billing revoked from ${agent.email}`)).toBeVisible();
    await expect(rolesOf(row, agent.email)).toHaveCount(1);

    await page.reload();
    await expect(
      page.getByRole('heading', { level: 2, name: 'No access to this section' }),
    ).toBeVisible();
    await expect(sections(page)).toHaveText(SUPPORT_SECTIONS);
  } finally {
    await adminContext.close();
  }
});

test('an operator without a second factor is told the area needs one, and its link opens Profile’s second factor', async ({
  page,
  request,
}) => {
  const operator = await createVerifiedUser(request, { name: 'Nina Nofactor' });
  // a role from the command line, and no authenticator: as a new operator starts
  expect(await apiCli('admin.ts', ['grant', operator.email, 'support'])).toContain(' holds: ');
  await signIn(page, operator.email);

  await page.goto('/operator/users');
  await expect(
    page.getByRole('heading', { level: 2, name: 'The operator area needs a second factor' }),
  ).toBeVisible();
  await expect(page.getByText('The list could not be loaded')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Operator sections' })).toBeHidden();

  await page.getByRole('link', { name: 'Turn on a second factor' }).click();
  await expect(page).toHaveURL(/\/profile#second-factor$/);
  const factor = page.getByRole('region', { name: 'Second factor' });
  await expect(factor).toBeVisible();
  await expect(factor).toBeInViewport();
});
