import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { createVerifiedUser, PASSWORD, signIn } from '../support/app.ts';
import { seriousViolations } from '../support/axe.ts';
import {
  ageProofs,
  ApiSession,
  headerBalance,
  openBalancePage,
  topUpByCard,
} from '../support/money.ts';

/**
 * Step-up (issue 41): before money or a secret leaves, the sign-in must have proved its owner
 * in the last 5 minutes; else the console asks in one small dialog and then does what was asked.
 * A sign-in is itself a proof: the journeys age it by 6 minutes in the database.
 */

const stepUpDialog = (page: Page) => page.getByRole('dialog', { name: 'Confirm it is you' });

for (const scheme of ['light', 'dark'] as const) {
  test(`a transfer above $500 asks for the password in a dialog, then goes through (${scheme})`, async ({
    page,
    request,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const sender = await createVerifiedUser(request, { name: 'Stella Stepup' });
    const recipient = await createVerifiedUser(request, { name: 'Rex Recipient' });
    await topUpByCard(request, sender.email, '800');
    await signIn(page, sender.email);
    await expect(headerBalance(page)).toHaveText('$800');
    await ageProofs(sender.email);

    await openBalancePage(page);
    await page.getByRole('tab', { name: 'Transfer', exact: true }).click();
    await page.getByLabel('Amount (USD)').fill('550');
    await page.getByLabel("Recipient's e-mail").fill(recipient.email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Send $550.00' }).click();

    const dialog = stepUpDialog(page);
    await expect(dialog).toBeVisible();
    await expect(
      dialog.getByText('Enter your password to continue.', { exact: false }),
    ).toBeVisible();
    const password = dialog.getByLabel('Password', { exact: true });
    await expect(password).toBeFocused();
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    expect(await seriousViolations(page), `the step-up dialog (${scheme})`).toEqual([]);

    // a wrong password: said in the dialog, nothing moved
    await password.fill('not the password');
    await password.press('Enter');
    await expect(dialog.getByText('The password is wrong')).toBeVisible();
    expect(
      (
        await new ApiSession(request, sender.email).json<{ balance: number }>(
          'GET',
          '/api/user/auth',
          200,
        )
      ).balance,
    ).toBe(800);

    await password.fill(PASSWORD);
    await password.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Transfer complete' })).toBeVisible();
    await expect(
      page.getByText(`$550.00 sent to Rex Recipient (${recipient.email}).`),
    ).toBeVisible();
    await expect(headerBalance(page)).toHaveText('$250');
  });
}

test('cancelling the dialog leaves the money where it was; in Russian it asks in Russian', async ({
  page,
  request,
}) => {
  const sender = await createVerifiedUser(request, { name: 'Sergei Stepup' });
  const recipient = await createVerifiedUser(request, { name: 'Roman Recipient' });
  await topUpByCard(request, sender.email, '700');
  const api = new ApiSession(request, sender.email);
  await api.json('POST', '/api/user/change_language', 200, { data: { language: 'RU' } });
  await signIn(page, sender.email);
  await ageProofs(sender.email);
  await page.goto('/balance-operations?tab=transfer');
  await page.getByLabel('Сумма (USD)').fill('600');
  await page.getByLabel('E-mail получателя').fill(recipient.email);
  await page.getByRole('button', { name: 'Продолжить', exact: true }).click();
  await page.getByRole('button', { name: /Отправить/ }).click();

  const dialog = page.getByRole('dialog', { name: 'Подтвердите, что это вы' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Не выполнено: вы не подтвердили, что это вы').first()).toBeVisible();
  const me = await api.json<{ balance: number }>('GET', '/api/user/auth', 200);
  expect(me.balance).toBe(700);
});

test('revealing a server password asks for the password first', async ({ page, request }) => {
  test.setTimeout(150_000);
  const owner = await createVerifiedUser(request, { name: 'Vera Stepup' });
  await topUpByCard(request, owner.email, '100');
  const api = new ApiSession(request, owner.email);
  const rates = await api.json<{ rates: Array<{ id: number; name: string }> }>(
    'GET',
    '/api/user/vps/rates',
    200,
  );
  const ordered = await api.json<{ server: { id: number } }>('POST', '/api/user/vps/order', 201, {
    data: { rate_id: rates.rates[0]!.id, months: 1, source: 'forum' },
    idempotencyKey: randomUUID(),
  });
  const id = ordered.server.id;
  await expect
    .poll(
      async () =>
        (await api.json<{ server: { status: string } }>('GET', `/api/user/vps/servers/${id}`, 200))
          .server.status,
      { message: `server ${id} is active`, timeout: 90_000 },
    )
    .toBe('active');

  await signIn(page, owner.email);
  await ageProofs(owner.email);
  await page.goto('/vps?tab=servers');
  await page.getByRole('button', { name: `Show the login details of server #${id}` }).click();
  const details = page.getByRole('dialog', { name: `Login details of server #${id}` });
  await details.getByRole('button', { name: 'Show password' }).click();

  const dialog = stepUpDialog(page);
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page), 'the step-up dialog over the login details').toEqual([]);
  const password = dialog.getByLabel('Password', { exact: true });
  await expect(password).toBeFocused();
  await password.fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(details.getByRole('button', { name: 'Hide password' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Copy the password' })).toBeVisible();
});
