import { expect, test } from '@playwright/test';
import { signIn, waitForMail } from '../support/app.ts';
import { monitoredAccount, publishingTerminal } from '../support/monitoring.ts';
import { botMessages, sayToBot, telegramUser } from '../support/telegram.ts';

/**
 * An alert end to end against the real server: the trader links Telegram for monitoring (the
 * emulated Telegram presses START on the deep link), sets "equity below" on the account page, a
 * simulated terminal publishes a snapshot under the line over the real ingestion protocol, and
 * the alert reaches the console's history, the emulated chat and the mailbox.
 */
test('a trader sets an equity alert, the terminal crosses it, and it arrives in the console, Telegram and the mail', async ({
  page,
  request,
  baseURL,
}) => {
  const monitored = await monitoredAccount(request, {
    userName: 'Alina Alerts',
    accountName: 'Alert swing',
  });
  const { user, api, account, login } = monitored;
  const terminal = await publishingTerminal(baseURL!, monitored);
  // a line well under the equity the history left, and a crossing far enough below it
  const line = Math.floor(terminal.balance / 2);
  const crossing = line - 150;

  // Telegram for monitoring: the profile's deep link, opened in Telegram, START
  const { link } = await api.json<{ link: string }>('POST', '/api/user/telegram/link', 200, {
    data: { purpose: 'monitoring' },
  });
  const alina = telegramUser({ username: 'alina_alerts' });
  expect(await sayToBot(alina, `/start ${new URL(link).searchParams.get('start')}`)).toBe(200);
  const welcomed = (await botMessages(alina)).length;

  // the rule, set in the console: the page knows Telegram is linked
  await signIn(page, user.email);
  await page.goto(`/online-monitoring/${account.monitoring_id}`);
  // the account first (the list answers), then its alerts (their own call, made after it)
  await expect(page.getByRole('heading', { name: 'Alert swing', exact: true })).toBeVisible();
  const alerts = page.getByRole('region', { name: 'Alerts and reports' });
  await expect(alerts.getByRole('button', { name: 'Save alerts and reports' })).toBeVisible();
  await expect(alerts.getByText('Link Telegram in your profile')).toHaveCount(0);
  await expect(alerts.getByText('No alerts yet.')).toBeVisible();
  await alerts.getByRole('checkbox', { name: 'Equity falls below the line' }).check();
  await alerts.getByRole('textbox', { name: 'Equity line, USD' }).fill(String(line));
  await alerts.getByRole('button', { name: 'Save alerts and reports' }).click();
  await expect(alerts.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

  // the terminal publishes: first above the line, then under it
  await terminal.equity(line + 500);
  await terminal.equity(crossing);

  // the chat hears of it, and the account's e-mail
  const money = (amount: number) =>
    amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const subject = `«Alert swing» (${login}): equity ${money(crossing)} USD`;
  await expect
    .poll(
      async () =>
        (await botMessages(alina))
          .slice(welcomed)
          .map((m) => m.text)
          .join('\n---\n'),
      { timeout: 30_000, message: 'the alert in the emulated Telegram chat' },
    )
    .toContain(
      `${subject}\n\nThe equity of «Alert swing» (${login}) fell to ${money(crossing)} USD, below your line of ${money(line)} USD`,
    );
  // one alert: the snapshot above the line fired nothing
  expect((await botMessages(alina)).slice(welcomed)).toHaveLength(1);
  const mail = await waitForMail(user.email, (m) => m.subject.includes('equity'));
  expect(mail.subject).toBe(`TradeHost: ${subject}`);

  // the console's alert history, with both deliveries done (the page polls every 15 s: a reload
  // keeps the journey short)
  await page.reload();
  const event = alerts.getByRole('region', { name: 'Alert history' }).getByRole('listitem');
  await expect(event).toContainText(`Equity $${money(crossing)} (line $${money(line)})`);
  await expect(event).toContainText('E-mail: sent');
  await expect(event).toContainText('Telegram: sent');
  await expect(alerts.getByText('No alerts yet.')).toHaveCount(0);
  // the rule waits for the account to recover before it fires again
  await expect(alerts.getByText(/^Fired .+: waits for the account to recover$/)).toBeVisible();
});
