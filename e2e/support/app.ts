import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { ReceivedMail } from '../../apps/api/test/smtp.ts';

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

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/vps$/);
}
