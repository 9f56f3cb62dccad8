import { expect, test } from '@playwright/test';
import { signIn } from '../support/app.ts';
import { measuredBroker } from '../support/latency.ts';

/**
 * The latency map in the browser against the real server: three traders' terminals publish
 * through the simulator from their VPS servers in London, and the order form shows, for the
 * broker server a trader types, the ping measured from each location.
 */

test('a trader types their broker’s server on the order form and sees the ping from each location; a server shows its terminal’s ping', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const broker = `Latency-${Date.now().toString(36)}-Live`;
  // 12, 18 and 30 ms: the median 18; the 90th percentile 18 + 0.8 x (30 - 18) = 27.6, so 28
  const [owner] = await measuredBroker(request, baseURL!, broker, [12, 18, 30]);
  await signIn(page, owner!.user.email, owner!.user.password);
  await page.goto('/vps?tab=servers');

  // the owner's server, with their terminal publishing from it
  const row = page.getByRole('row').filter({ hasText: 'London (LD4)' });
  await expect(row.getByText(/^12\sms$/)).toBeVisible();

  await page.getByRole('tab', { name: 'Order a server' }).click();
  const form = page.getByRole('region', { name: 'Rent a server' });
  const field = form.getByRole('combobox', { name: /Your broker’s server/ });
  await field.fill(broker.slice(0, 12).toLowerCase());
  const suggestions = form.getByRole('listbox', {
    name: 'Broker servers we have measurements for',
  });
  await expect(suggestions.getByRole('option', { name: broker })).toBeVisible();
  await field.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-activedescendant', /option-0$/);
  await field.press('Enter');
  await expect(field).toHaveValue(broker);
  await expect(suggestions).toBeHidden();

  const figures = form.getByTestId('latency-figures');
  await expect(form.getByRole('heading', { name: `Ping to ${broker} by location` })).toBeVisible();
  const line = (location: string) => figures.getByRole('listitem').filter({ hasText: location });
  await expect(line('London (LD4)')).toHaveText(
    /London \(LD4\)\s*Lowest ping\s*18\sms median · 28\sms p90 · 3\sterminals/,
  );
  await expect(line('New York (NY4)')).toHaveText(/New York \(NY4\)\s*no measurements yet/);
  await expect(line('Frankfurt (FR2)')).toHaveText(/Frankfurt \(FR2\)\s*no measurements yet/);

  // a server nobody measured: no figure anywhere, none marked
  await field.fill(`Nobody-${Date.now().toString(36)}`);
  await expect(line('London (LD4)')).toHaveText(/London \(LD4\)\s*no measurements yet/);
  await expect(figures.getByText('Lowest ping')).toHaveCount(0);
});
