import { expect, test } from '@playwright/test';
import { signIn } from '../support/app.ts';
import { monitoredAccount, publishingTerminal } from '../support/monitoring.ts';

/**
 * What produced the result, as a trader reads it: the Analysis section's splits of the simulated
 * terminal's month of trades, a strategy named from the keyboard and shown wherever its trades
 * are, the risk of ruin, and the same analysis on the public page without the money.
 */

test('a trader splits the trades five ways, names the EA by its magic number, and the public page shows the analysis without money', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const monitored = await monitoredAccount(request, { accountName: 'Analysed' });
  await publishingTerminal(baseURL!, monitored);
  await signIn(page, monitored.user.email);
  await page.goto(`/online-monitoring/${monitored.account.monitoring_id}`);

  const analysis = page.getByRole('region', { name: 'Analysis' });
  await expect(analysis.getByRole('tab', { name: 'By symbol' })).toBeVisible({ timeout: 20_000 });
  // the simulator trades these symbols: each has a row, with its count of trades
  const symbols = analysis.getByRole('table', { name: 'Trades by symbol' });
  await expect(symbols.getByRole('row')).not.toHaveCount(1);
  await expect(symbols.getByRole('rowheader', { name: 'EURUSD' })).toBeVisible();

  // the tabs from the keyboard: the hours are all 24, the weekdays Monday to Sunday
  await analysis.getByRole('tab', { name: 'By symbol' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(analysis.getByRole('tab', { name: 'By hour' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(
    analysis.getByRole('table', { name: 'Trades by the hour they were opened' }).getByRole('row'),
  ).toHaveCount(25);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const weekdays = analysis.getByRole('table', { name: 'Trades by the weekday they were opened' });
  await expect(weekdays.getByRole('row')).toHaveCount(8);
  await expect(weekdays.getByRole('row').nth(1)).toContainText('Monday');

  // the EA's trades are its magic number's until it is named
  await analysis.getByRole('tab', { name: 'By strategy' }).click();
  const strategies = analysis.getByRole('table', { name: 'Trades by strategy' });
  await expect(strategies.getByText('Magic 20260101')).toBeVisible();
  await strategies.getByRole('button', { name: 'Rename Magic 20260101' }).click();
  const dialog = page.getByRole('dialog', { name: 'Strategy name' });
  // the field takes at most 40 characters; a blank name is refused in place and changes nothing
  await dialog.getByLabel('Name').fill('x'.repeat(41));
  await expect(dialog.getByLabel('Name')).toHaveValue('x'.repeat(40));
  await dialog.getByLabel('Name').fill('   ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter the strategy name')).toBeVisible();
  await dialog.getByLabel('Name').fill('Trend EA');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(strategies.getByText('Trend EA')).toBeVisible();
  await expect(strategies.getByText('Magic 20260101')).toBeHidden();
  // ... and under each of its trades in the history
  const trades = page.getByRole('region', { name: 'Trade history' });
  await expect(trades.getByText('Trend EA').first()).toBeVisible();

  // the risk of ruin from the month's trades, with its method
  const ruin = page.getByRole('region', { name: 'Risk of ruin' });
  await expect(ruin.getByRole('table')).toBeVisible();
  await expect(ruin.getByRole('row')).toHaveCount(11);
  await expect(ruin.getByText(/Cramér–Lundberg/)).toBeVisible();

  // the public page, money hidden: the analysis stays, its profit does not
  await monitored.api.json('PATCH', `/api/user/monitoring/accounts/${monitored.account.id}`, 200, {
    data: { is_public: true, hide_money: true },
  });
  const visitor = await browser.newPage();
  await visitor.goto(`/online-monitoring/${monitored.account.monitoring_id}`);
  const shown = visitor.getByRole('region', { name: 'Analysis' });
  await expect(shown.getByRole('table', { name: 'Trades by symbol' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(shown.getByRole('columnheader', { name: 'Profit', exact: true })).toHaveCount(0);
  await shown.getByRole('tab', { name: 'By strategy' }).click();
  await expect(
    shown.getByRole('table', { name: 'Trades by strategy' }).getByText('Trend EA'),
  ).toBeVisible();
  await expect(shown.getByRole('button', { name: /^Rename/ })).toHaveCount(0);
  await visitor.close();
});
