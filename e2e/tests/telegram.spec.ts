import { expect, test } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';
import { botMessages, E2E_BOT, sayToBot, telegramUser } from '../support/telegram.ts';

/**
 * Linking Telegram from the profile against the real server and its real bot: the deep link the
 * page opens is followed in the emulated Telegram (START sends /start <token> to the product's
 * webhook), the page sees the chat linked, the bot answers, and the chat is unlinked again.
 */
test('a trader links Telegram from the profile, the bot answers, and the chat is unlinked', async ({
  page,
  context,
  request,
}) => {
  // the deep link opens Telegram's site in a new tab: nothing leaves this machine
  await context.route('https://t.me/**', (route) => route.abort());
  const user = await createVerifiedUser(request, { name: 'Erin Telegram' });
  await signIn(page, user.email);
  await page.goto('/profile');

  const account = page.getByRole('listitem', { name: 'Account notifications' });
  await expect(account.getByText('Not linked')).toBeVisible();
  const popup = page.waitForEvent('popup');
  await account.getByRole('button', { name: 'Link Telegram' }).click();
  await (await popup).close();
  const link = await account
    .getByRole('link', { name: 'Open the link again' })
    .getAttribute('href');
  expect(link).toMatch(new RegExp(`^https://t\\.me/${E2E_BOT.username}\\?start=`));

  // in Telegram, the user presses START
  const erin = telegramUser({ username: 'erin_fx' });
  expect(await sayToBot(erin, `/start ${new URL(link!).searchParams.get('start')}`)).toBe(200);
  await expect(account.getByText('Telegram is linked: @erin_fx.')).toBeVisible();
  await expect(account.getByText('Linked', { exact: true })).toBeVisible();
  expect((await botMessages(erin)).at(-1)!.text).toMatch(
    /^Done, Erin Telegram: this chat now receives account notifications/,
  );

  await sayToBot(erin, '/balance');
  expect((await botMessages(erin)).at(-1)!.text).toBe('Balance: $0.00\nPartner balance: $0.00');

  await account.getByRole('button', { name: 'Unlink' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlink Account notifications?' });
  await dialog.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('The chat is unlinked.')).toBeVisible();
  await expect(account.getByText('Not linked')).toBeVisible();
  await sayToBot(erin, '/balance');
  expect((await botMessages(erin)).at(-1)!.text).toMatch(/^This chat is not linked/);
});
