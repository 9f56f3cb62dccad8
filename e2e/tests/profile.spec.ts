import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedUser, PASSWORD, signIn, waitForMail } from '../support/app.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * The profile page in the browser against the real server: a new photo that the header shows at
 * once, the password changed (another browser signed out, the mail, a sign-in with the new one),
 * and axe on the page in both themes.
 */

const NEW_PASSWORD = 'staple-battery-77';

const profileLink = (page: Page) =>
  page.getByRole('banner').getByRole('link', { name: /^Profile/ });

/** Whether an <img> has loaded a picture (not a broken image). */
const loaded = (image: Locator) =>
  image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('a trader changes the photo (the header shows it) and the password (another browser is signed out, the new one signs in)', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const trader = await createVerifiedUser(request, { name: 'Paula Profile' });
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  // no live-updates stream there: its open connection would keep 'networkidle' from coming
  await other.route('**/api/user/events', (route) => route.abort());
  await signIn(other, trader.email);

  await signIn(page, trader.email);
  await expect(profileLink(page)).toContainText('P');
  await profileLink(page).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  // the photo: chosen, previewed, saved; the header swaps the letter for it
  const photo = await sharp({
    create: { width: 320, height: 200, channels: 3, background: '#d04a2a' },
  })
    .jpeg()
    .toBuffer();
  await page
    .getByLabel('Choose a photo')
    .setInputFiles({ name: 'paula.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('img', { name: 'Preview of the new photo' })).toBeVisible();
  await page.getByRole('button', { name: 'Save the photo' }).click();
  await expect(page.getByText('The photo is saved.')).toBeVisible();
  const headerImage = profileLink(page).locator('img');
  await expect(headerImage).toHaveAttribute('src', /^\/api\/user\/avatar\/[\w-]{22}\.webp$/);
  await expect.poll(() => loaded(headerImage)).toBe(true);
  const served = await page.request.get((await headerImage.getAttribute('src'))!);
  expect(served.headers()['content-type']).toBe('image/webp');
  // after a reload too: it is the account's photo now
  await page.reload();
  await expect(profileLink(page).locator('img')).toHaveAttribute('src', /\.webp$/);

  // two sessions: this one marked
  const sessions = page.getByRole('list', { name: 'Where you are signed in' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);

  // the password
  const form = page.getByRole('region', { name: 'Password' });
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change the password' }).click();
  await expect(
    page.getByText('The password is changed. Your other sessions are signed out.'),
  ).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  const mail = await waitForMail(trader.email, (m) => /password was changed/.test(m.subject));
  expect(mail.text).toContain('Every other session has been signed out');

  // the other browser is out at once: its session ended with the change, its access token too
  // (its refused refresh is sent with keepalive, which 'networkidle' would wait on for ever)
  await other.goto('/profile');
  await expect(other).toHaveURL(/\/login$/);
  await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await elsewhere.close();

  // this one is still signed in; out, then in again with the new password (the old one fails)
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-mail').fill(trader.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Login or password not found');
  await signIn(page, trader.email, NEW_PASSWORD);
  await expect(profileLink(page).locator('img')).toHaveAttribute('src', /\.webp$/);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on the profile page (${scheme})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const trader = await createVerifiedUser(request, { name: 'Axel Profile' });
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, trader.email);
    await page.goto('/profile');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(
      page.getByRole('list', { name: 'Where you are signed in' }).getByRole('listitem'),
    ).toHaveCount(1);
    expect(await seriousViolations(page), `the profile (${scheme})`).toEqual([]);

    // the password form refused field by field
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect(page.getByText('Enter your current password')).toBeVisible();
    expect(await seriousViolations(page), `the refused password form (${scheme})`).toEqual([]);

    // a photo chosen (the preview), then saved, then the removal's confirmation
    const photo = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#2a6fd6' },
    })
      .png()
      .toBuffer();
    await page
      .getByLabel('Choose a photo')
      .setInputFiles({ name: 'axel.png', mimeType: 'image/png', buffer: photo });
    await expect(page.getByRole('img', { name: 'Preview of the new photo' })).toBeVisible();
    expect(await seriousViolations(page), `the photo preview (${scheme})`).toEqual([]);
    await page.getByRole('button', { name: 'Save the photo' }).click();
    await page.getByRole('button', { name: 'Remove the photo' }).click();
    await expect(page.getByRole('dialog', { name: 'Remove your photo?' })).toBeVisible();
    expect(await seriousViolations(page), `the removal's confirmation (${scheme})`).toEqual([]);
  });
}
