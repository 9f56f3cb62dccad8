import { generate } from 'otplib';
import { decodeJwt } from 'jose';
import { stepUp } from '../src/db/step-up.ts';
import { secondFactorSettings } from '../src/db/second-factor.ts';
import type { ApiClient, TestApp } from './helpers.ts';
import { SoftAuthenticator, type SoftPasskey } from './soft-authenticator.ts';

/** The TOTP code of `secret` at `at` (the test clock's now by default). */
export const totpCode = (secret: string, at: Date) =>
  generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

/** The authenticator of the app's PUBLIC_URL (rpID localhost, origin http://localhost:5173). */
export const softAuthenticatorOf = (t: TestApp) =>
  new SoftAuthenticator(secondFactorSettings(t.config));

/** The sign-in (refresh-token family) an access token belongs to. */
export const sessionOf = (token: string): string => String(decodeJwt(token).sid);

/** The sign-in of `token` proved its owner just now (as POST /api/user/auth/step-up would). */
export async function freshProof(t: TestApp, token: string): Promise<void> {
  await stepUp.record(t.app.db, sessionOf(token), Number(decodeJwt(token).sub), t.clock.now());
}

/** Turns the authenticator on through the API: its secret and the ten recovery codes. */
export async function enrolTotp(t: TestApp, browser: ApiClient, token: string) {
  const started = await browser.post('/api/user/factors/totp', undefined, { token });
  if (started.status !== 200) throw new Error(`enrolment: ${started.status} ${started.text}`);
  const secret = started.body.secret as string;
  const confirmed = await browser.post(
    '/api/user/factors/totp/confirm',
    { code: await totpCode(secret, t.clock.now()) },
    { token },
  );
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  // the code just used is spent: the next one comes from the next step
  t.clock.advance(30_000);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[] };
}

/**
 * Adds a passkey through the API with a software authenticator; `recoveryCodes` are the ten the
 * answer brings when this passkey turned the second factor on (undefined otherwise).
 */
export async function addPasskey(
  t: TestApp,
  browser: ApiClient,
  token: string,
  name = 'Laptop',
): Promise<{
  soft: SoftAuthenticator;
  passkey: SoftPasskey;
  id: number;
  recoveryCodes: string[] | undefined;
}> {
  const soft = softAuthenticatorOf(t);
  const options = await browser.post('/api/user/factors/passkeys/options', undefined, { token });
  if (options.status !== 200) throw new Error(`options: ${options.status} ${options.text}`);
  const { response, passkey } = soft.register(options.body.challenge);
  const added = await browser.post('/api/user/factors/passkeys', { name, response }, { token });
  if (added.status !== 201) throw new Error(`passkey: ${added.status} ${added.text}`);
  return {
    soft,
    passkey,
    id: added.body.id as number,
    recoveryCodes: added.body.recovery_codes as string[] | undefined,
  };
}
