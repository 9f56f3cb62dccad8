import { expect, test, type Browser, type Page } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { ApiSession, makeOperator } from '../support/money.ts';

/*
 * Four eyes on money (issue 42), as two billing operators live it: an adjustment above
 * OPERATOR_APPROVAL_ABOVE ($500 by default, as `npm start` ships) is only asked for; the second
 * operator approves it on the Approvals page and the user's balance moves then, once.
 */

async function deskOf(browser: Browser, email: string): Promise<Page> {
  const desk = await (await browser.newContext()).newPage();
  await signIn(desk, email);
  return desk;
}

const balanceOf = async (api: ApiSession) =>
  (await api.json<{ balance: number }>('GET', '/api/user/auth', 200)).balance;

test('an adjustment above $500 waits for a second operator, who approves it; its requester cannot', async ({
  browser,
  request,
}) => {
  const customer = await createVerifiedUser(request, { name: 'Ada Approved' });
  const alice = await createVerifiedUser(request, { name: 'Alice Billing' });
  const bob = await createVerifiedUser(request, { name: 'Bob Billing' });
  await makeOperator(alice.email, ['billing']);
  await makeOperator(bob.email, ['billing']);
  const customerApi = new ApiSession(request, customer.email);
  const { id } = await customerApi.json<{ id: number }>('GET', '/api/user/auth', 200);

  // Alice asks for $600 on the customer's page: it is sent for approval, nothing moves
  const aliceDesk = await deskOf(browser, alice.email);
  await aliceDesk.goto(`/operator/users/${id}`);
  const form = aliceDesk.getByRole('region', { name: 'Adjust balance' });
  await form.getByRole('textbox', { name: 'Amount, $' }).fill('600');
  await form.getByRole('textbox', { name: 'Reason' }).fill('Compensation for the outage');
  await form.getByRole('button', { name: 'Review the adjustment' }).click();
  const confirm = aliceDesk.getByRole('dialog', { name: 'Confirm the adjustment' });
  await confirm.getByRole('button', { name: 'Adjust the balance' }).click();
  await expect(confirm).toBeHidden();
  await expect(
    aliceDesk.getByText(
      `The adjustment for ${customer.email} is above the approval threshold: it takes effect when a second operator approves it in Approvals`,
    ),
  ).toBeVisible();
  expect(await balanceOf(customerApi)).toBe(0);

  // on Approvals it is hers: Withdraw only, never Approve
  await aliceDesk.getByRole('link', { name: 'Approvals' }).click();
  const hers = aliceDesk.getByRole('row').filter({ hasText: customer.email });
  await expect(hers).toContainText('Your request: another operator approves it');
  await expect(hers.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  await expect(hers.getByRole('button', { name: /^Withdraw/ })).toBeVisible();

  // Bob approves it: the balance moves, once
  const bobDesk = await deskOf(browser, bob.email);
  await bobDesk.goto('/operator');
  await bobDesk.getByRole('link', { name: 'Approvals' }).click();
  const row = bobDesk.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toContainText('Compensation for the outage');
  await expect(row).toContainText(alice.email);
  await row.getByRole('button', { name: /^Approve/ }).click();
  const approve = bobDesk.getByRole('dialog', { name: 'Approve the request' });
  await expect(approve).toContainText(`Approve this adjustment of $600.00 for ${customer.email}?`);
  await approve.getByRole('button', { name: 'Approve $600.00' }).click();
  await expect(approve).toBeHidden();
  await expect(
    bobDesk.getByText(`Approved: Credit to the Balance, $600.00, ${customer.email}`),
  ).toBeVisible();
  await expect(bobDesk.getByText('Nothing is waiting for approval.')).toBeVisible();
  expect(await balanceOf(customerApi)).toBe(600);

  // Alice's list has moved on; the audit names both
  await aliceDesk.reload();
  await expect(aliceDesk.getByText('Nothing is waiting for approval.')).toBeVisible();
  await aliceDesk.getByRole('combobox', { name: 'Show' }).selectOption('all');
  const decided = aliceDesk.getByRole('row').filter({ hasText: customer.email });
  await expect(decided).toContainText('Approved');
  await expect(decided).toContainText(bob.email);
  expect(await balanceOf(customerApi)).toBe(600);
});
