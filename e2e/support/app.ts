import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { loadConfig } from '../../apps/api/src/config.ts';
import { createAccessTokens } from '../../apps/api/src/modules/auth/access-token.ts';
import type { ReceivedMail } from '../../apps/api/test/smtp.ts';
import { nextOperatorCode } from './operators.ts';

type Mail = Pick<ReceivedMail, 'to' | 'subject' | 'text'>;

export const PASSWORD = 'correct-horse-42';

let counter = 0;
/** An address no other test uses, even across workers and runs. */
export function uniqueEmail(prefix = 'trader'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${counter}@example.com`;
}

export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${process.env.E2E_INBOX_URL}/?to=${encodeURIComponent(email)}`);
  return (await res.json()) as Mail[];
}

/** Waits for the newest mail to `email` that matches, as delivered over SMTP. */
export async function waitForMail(
  email: string,
  match: (mail: Mail) => boolean = () => true,
): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(email)).filter(match).at(-1);
        return found !== undefined;
      },
      { timeout: 15_000, message: `a mail to ${email}` },
    )
    .toBe(true);
  return found as Mail;
}

export function verificationLink(mail: Mail): string {
  const link = /https?:\/\/\S+\/login\?verify=[\w-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no confirmation link in:\n${mail.text}`);
  return link;
}

export function resetCode(mail: Mail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no 6-digit code in:\n${mail.text}`);
  return code;
}

/** A confirmed account made through the API, for journeys that are not about sign-up. */
export async function createVerifiedUser(
  request: APIRequestContext,
  fields: { name?: string; email?: string; password?: string; partner_code?: string } = {},
): Promise<{ name: string; email: string; password: string }> {
  const user = {
    name: fields.name ?? 'Alex Trader',
    email: fields.email ?? uniqueEmail(),
    password: fields.password ?? PASSWORD,
  };
  const created = await request.post('/api/user/auth/create', {
    data: {
      ...user,
      password_confirmation: user.password,
      consent: true,
      partner_code: fields.partner_code,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const token = new URL(verificationLink(await waitForMail(user.email))).searchParams.get('verify');
  const verified = await request.post('/api/user/auth/verify-email', { data: { token } });
  expect(verified.status(), await verified.text()).toBe(200);
  return user;
}

/** Signs in on the login page; an operator (support/operators.ts) with the app's code too. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = await nextOperatorCode(email);
  if (code !== undefined) {
    await page.getByLabel('Code from the app').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await expect(page).toHaveURL(/\/vps$/);
}

/** Where the console keeps the session (apps/web/src/app/store.ts): each slice as JSON text. */
const SESSION_KEY = 'persist:tradehost:auth';

/**
 * Gives the signed-in page's stored session an access token that expired a minute ago, for the
 * same user and sign-in, signed with the journeys' server's key (the one its data directory
 * holds): the next page load starts where a reader returning after the token's lifetime would,
 * without waiting it out. The server refuses that token, so the page must refresh it first.
 */
export async function expireAccessToken(page: Page): Promise<void> {
  const stored = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
  const session = JSON.parse(stored ?? '{}') as Record<string, string>;
  const auth = JSON.parse(session.auth ?? '{}') as { token?: string; authorized?: boolean };
  expect(auth.authorized, 'a signed-in session in the page').toBe(true);
  const claims = JSON.parse(
    Buffer.from(auth.token?.split('.')[1] ?? '', 'base64url').toString() || '{}',
  ) as { sub?: string; sid?: string };
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) {
    throw new Error('E2E_DATA_DIR is not set: run the journeys through playwright test');
  }
  const { jwtSecret } = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir });
  const minuteAgo = () => new Date(Date.now() - 60_000);
  const { token, expires } = await createAccessTokens(jwtSecret, 1, minuteAgo).sign(
    Number(claims.sub),
    claims.sid,
  );
  session.auth = JSON.stringify({ ...auth, token, expires: expires.toISOString() });
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    SESSION_KEY,
    JSON.stringify(session),
  ] as const);
}
