import { expect, test, type Route } from '@playwright/test';
import {
  PASSWORD,
  createVerifiedUser,
  expireAccessToken,
  resetCode,
  signIn,
  uniqueEmail,
  verificationLink,
  waitForMail,
} from '../support/app.ts';

test('a newcomer signs up, confirms the e-mail from the delivered mail, signs in, stays signed in and signs out', async ({
  page,
}) => {
  const email = uniqueEmail('newcomer');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page
    .getByRole('link', { name: /sign up|create an account|registration/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel('Name').fill('Nina Newcomer');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('heading', { name: /confirm your e-mail/i })).toBeVisible();

  const mail = await waitForMail(email);
  await page.goto(verificationLink(mail));
  await expect(page.getByText(/e-mail is confirmed/i)).toBeVisible();
  await expect(page).not.toHaveURL(/verify=/);

  await signIn(page, email);
  await expect(page.getByRole('heading', { level: 1, name: 'VPS' })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: /main/i })
      .getByRole('link', { name: 'Balance operations' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /profile/i })).toContainText('N');
  // the header's balance (the VPS page shows the balance too, as $0.00 by the order summary)
  await expect(page.getByRole('banner').getByTestId('header-balance')).toHaveText('$0');

  await page.reload();
  await expect(page).toHaveURL(/\/vps$/);
  await expect(page.getByRole('heading', { level: 1, name: 'VPS' })).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/vps');
  await expect(page).toHaveURL(/\/login$/);
});

test('an expired access token is refreshed before the next call and the user stays signed in', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  // the stored token expired a minute ago, as after the reader's break: the server refuses it
  await expireAccessToken(page);
  const refreshed = page.waitForResponse((res) =>
    res.url().endsWith('/api/user/auth/refresh-token'),
  );
  await page.reload();
  expect((await refreshed).status()).toBe(200);
  await expect(page).toHaveURL(/\/vps$/);
  await expect(page.getByRole('heading', { level: 1, name: 'VPS' })).toBeVisible();
});

test('a reload while the token is being refreshed keeps the user signed in', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  // the page's refresh reaches the server, which rotates the cookie, but the answer (with the
  // new cookie) is held back as on a slow network, and the reader reloads before it lands
  const spent = (await page.context().cookies()).filter((cookie) => cookie.name === 'th_rt');
  expect(spent).toHaveLength(1);
  let lost: Route | undefined;
  const rotated = new Promise<void>((resolve) => {
    void page.route('**/api/user/auth/refresh-token', async (route) => {
      if (lost) return route.continue();
      lost = route;
      expect((await route.fetch()).status()).toBe(200);
      // the fetch stored the new cookie in the browser: the answer never arrived, so it has not
      await page.context().addCookies(spent);
      resolve();
    });
  });
  // the reader comes back to the monitoring page with an expired token: the page refreshes it
  await expireAccessToken(page);
  await page.goto('/online-monitoring');
  await rotated;
  const refreshed = page.waitForResponse((res) =>
    res.url().endsWith('/api/user/auth/refresh-token'),
  );
  await page.reload();
  await lost?.abort().catch(() => undefined);
  // the reloaded page sends the spent cookie again with the same attempt: a retry, not a theft
  expect((await refreshed).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Online monitoring' })).toBeVisible();
  await expect(page).toHaveURL(/\/online-monitoring$/);
});

test('a revoked session sends the user back to the login page', async ({
  page,
  context,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await signIn(page, user.email);
  await context.clearCookies();
  await expireAccessToken(page);
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
});

test('sign-in refuses a wrong password and an unconfirmed e-mail with the server messages', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Login or password not found');

  const unconfirmed = uniqueEmail('unconfirmed');
  const created = await request.post('/api/user/auth/create', {
    data: {
      name: 'U',
      email: unconfirmed,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      consent: true,
    },
  });
  expect(created.status()).toBe(201);
  await page.getByLabel('E-mail').fill(unconfirmed);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(
    /e-mail is not confirmed|Email not verified/i,
  );
});

test('sign-up shows the server refusals: a used e-mail and an unknown partner code', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Second');
  await page.getByLabel('E-mail').fill(user.email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('E-mail is already used').first()).toBeVisible();

  await page.getByLabel('E-mail').fill(uniqueEmail('other'));
  await page.getByLabel(/partner code/i).fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Invalid partner code').first()).toBeVisible();
});

test('a forgotten password is reset with the 6-digit code from the mail', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request);
  await page.goto('/login');
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('button', { name: /send the code/i }).click();

  const code = resetCode(await waitForMail(user.email, (mail) => /\b\d{6}\b/.test(mail.text)));
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel(/code/i).fill(wrong);
  await page.getByRole('button', { name: /continue|check/i }).click();
  await expect(page.getByRole('alert')).toContainText('Code is invalid or expired');
  await page.getByLabel(/code/i).fill(code);
  await page.getByRole('button', { name: /continue|check/i }).click();

  await expect(page).toHaveURL(/\/password-reset$/);
  const newPassword = 'a-brand-new-secret-7';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel(/repeat/i).fill(newPassword);
  await page.getByRole('button', { name: /set the new password|save/i }).click();
  await expect(page.getByText(/password has been changed|password is changed/i)).toBeVisible();

  await signIn(page, user.email, newPassword);
});
