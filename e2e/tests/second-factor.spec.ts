import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { createVerifiedUser, PASSWORD, signIn } from '../support/app.ts';
import { seriousViolations } from '../support/axe.ts';

/**
 * The second factor in the browser against the real server: the authenticator app set up from
 * Profile (its code computed here from the key the page shows), then signing in with it and with
 * a recovery code; and a passkey made and used through Chromium's virtual authenticator (WebAuthn
 * over CDP), on http://localhost, the host of the server's PUBLIC_URL (the passkeys' relying party).
 */

const STEP_S = 30;

/** The authenticator app's code of `secret` for the 30-second step `step`. */
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * STEP_S });
const stepNow = () => Math.floor(Date.now() / 1000 / STEP_S);

const secondFactor = (page: Page) => page.getByRole('region', { name: 'Second factor' });
const part = (section: Locator, name: string) => section.getByRole('listitem', { name });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The password step of the sign-in: the second step is asked for next. */
async function passwordStep(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeFocused();
}

test('a trader turns on the authenticator app in Profile, then signs in with its code and with a recovery code', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const trader = await createVerifiedUser(request, { name: 'Tom Totp' });
  // in the dark theme (the passkey journey is in the light one): axe judges both
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, trader.email);
  await page.goto('/profile');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const section = secondFactor(page);
  await expect(part(section, 'Authenticator app')).toContainText('Off');
  expect(await seriousViolations(page), 'the second factor, off').toEqual([]);

  // the set-up: the QR code and the key; the code is the app's, computed here from the key
  await section.getByRole('button', { name: 'Set up the authenticator app' }).click();
  await expect(
    section.getByRole('heading', { name: 'Set up the authenticator app' }),
  ).toBeFocused();
  const qr = section.getByRole('img', {
    name: 'QR code that adds your TradeHost account to an authenticator app',
  });
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/);
  const secret = ((await section.locator('code').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  expect(await seriousViolations(page), 'the set-up').toEqual([]);

  const code = section.getByLabel('Code from the app');
  // a wrong code is refused on its field
  await code.fill('000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(code).toHaveAccessibleDescription('The code is wrong or was already used');
  let usedStep = stepNow();
  await code.fill(await codeAt(secret, usedStep));
  await section.getByRole('button', { name: 'Turn on' }).click();

  // the ten recovery codes, once: downloaded, then the view closes once they are saved
  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const listed = section.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const codes = await listed.allTextContents();
  expect(await seriousViolations(page), 'the recovery codes').toEqual([]);
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download (.txt)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('tradehost-recovery-codes.txt');
  const file = await readFile(await download.path(), 'utf8');
  expect(file).toContain(trader.email);
  expect(file).toContain(codes.join('\n'));
  await section.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByText('Your recovery codes are saved.')).toBeVisible();
  await expect(section.getByRole('list', { name: 'Your recovery codes' })).toHaveCount(0);
  await expect(part(section, 'Authenticator app')).toContainText('On since');
  await expect(part(section, 'Recovery codes')).toContainText('10 of 10 left');

  // the password alone no longer signs in: the app's code does. A code works once: this one is
  // of the step after the one just used (the server takes one step of drift either side)
  await signOut(page);
  await passwordStep(page, trader.email);
  expect(await seriousViolations(page), 'the sign-in’s second step').toEqual([]);
  usedStep = Math.max(stepNow(), usedStep + 1);
  await page.getByLabel('Code from the app').fill(await codeAt(secret, usedStep));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/vps$/);

  // a lost phone: a recovery code, once
  await signOut(page);
  await passwordStep(page, trader.email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  expect(await seriousViolations(page), 'the recovery code step').toEqual([]);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/vps$/);
  await page.goto('/profile');
  await expect(part(secondFactor(page), 'Recovery codes')).toContainText('9 of 10 left');
});

test('a trader adds a passkey in Profile, saves the recovery codes it brings, and signs in with it after the password', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // Chromium's virtual authenticator stands for the device: it holds the passkey, and says the
  // user is there and verified without a prompt
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const trader = await createVerifiedUser(request, { name: 'Pat Passkey' });
  await signIn(page, trader.email);
  await page.goto('/profile');
  const section = secondFactor(page);
  await expect(part(section, 'Passkeys')).toContainText('No passkeys yet.');

  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill('Test laptop');
  expect(await seriousViolations(page), 'the passkey’s name').toEqual([]);
  await dialog.getByRole('button', { name: 'Create the passkey' }).click();

  // the account's first factor brings its ten recovery codes, shown once as after the app's
  // set-up: the device lost, they still sign in
  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  await expect(section.getByText('The passkey “Test laptop” is added.')).toBeVisible();
  const listed = section.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(listed).toHaveCount(10);
  expect(new Set(await listed.allTextContents()).size).toBe(10);
  expect(await seriousViolations(page), 'the recovery codes of a first passkey').toEqual([]);
  await section.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await section.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByText('Your recovery codes are saved.')).toBeVisible();
  await expect(section.getByRole('list', { name: 'Your recovery codes' })).toHaveCount(0);
  await expect(part(section, 'Recovery codes')).toContainText('10 of 10 left');
  const keys = part(section, 'Passkeys').getByRole('list', { name: 'Your passkeys' });
  await expect(keys.getByRole('listitem')).toHaveCount(1);
  await expect(keys.getByRole('listitem')).toContainText(/Test laptop.*Last used:\s*not yet/);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(await seriousViolations(page), 'the passkeys').toEqual([]);

  await signOut(page);
  await passwordStep(page, trader.email);
  // with no authenticator app, the step asks for a recovery code, or the passkey
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/vps$/);
  await page.goto('/profile');
  await expect(
    part(secondFactor(page), 'Passkeys').getByRole('list', { name: 'Your passkeys' }),
  ).not.toContainText('not yet');
});
