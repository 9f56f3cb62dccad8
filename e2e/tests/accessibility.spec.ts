import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, signIn } from '../support/app.ts';

const signedOut = [
  '/login',
  '/signup',
  '/forgot-password',
  '/password-reset',
  '/public-offer',
  '/privacy-policy',
  '/online-monitoring/1',
];
const signedIn = [
  '/vps',
  '/online-monitoring',
  '/online-monitoring/accounts',
  '/online-monitoring/guide',
  '/online-monitoring/1',
  '/partner-program',
  '/balance-operations',
  '/support',
  '/support/1',
  '/profile',
  '/faq',
  '/public-offer',
  '/privacy-policy',
];

async function serious(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the signed-out pages (${scheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of signedOut) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      expect(await serious(page), `${path} (${scheme})`).toEqual([]);
    }
  });

  test(`axe finds no serious or critical violation on the signed-in pages (${scheme})`, async ({
    page,
    request,
  }) => {
    const user = await createVerifiedUser(request);
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, user.email);
    for (const path of signedIn) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await serious(page), `${path} (${scheme})`).toEqual([]);
    }
  });
}
