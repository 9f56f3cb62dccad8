import { expect, request as requests, type APIRequestContext } from '@playwright/test';
import { turnOnAuthenticator, type Authenticator } from './authenticator.ts';

/**
 * Operators in the journeys. The operator area refuses an operator without a second factor, so
 * every operator the journeys make turns on the authenticator app through the API, as Profile
 * does, and this worker keeps its secret: a sign-in of theirs, in the browser or through the
 * API, answers the second step with the app's code, computed here.
 */

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** The authenticator of each operator this worker made, by e-mail in lower case. */
const authenticators = new Map<string, Authenticator>();

/** A context of its own: a cookie jar with nobody else's refresh cookie in it. */
const ownContext = () => requests.newContext({ baseURL: process.env.E2E_BASE_URL });

/**
 * The next code of the operator's app that no sign-in has used yet, or undefined for a user this
 * worker did not make an operator (support/authenticator.ts).
 */
export async function nextOperatorCode(email: string): Promise<string | undefined> {
  return authenticators.get(email.toLowerCase())?.nextCode();
}

/** Signs in through the API with the password and, for an operator, the app's code. */
async function signInByApi(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<string> {
  const res = await request.post('/api/user/auth/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { token?: string; second_factor?: { token: string } };
  if (!body.second_factor) return body.token!;
  const code = await nextOperatorCode(email);
  expect(code, `${email} has a second factor this worker knows`).toBeDefined();
  const done = await request.post('/api/user/auth/second-factor', {
    data: { token: body.second_factor.token, code },
  });
  expect(done.status(), await done.text()).toBe(200);
  return ((await done.json()) as { token: string }).token;
}

/**
 * Turns on the authenticator app of a user just made an operator, through the API as Profile
 * does (its code computed from the secret the API shows), and keeps the secret for their
 * sign-ins.
 */
export async function turnOnOperatorFactor(email: string, password: string): Promise<void> {
  const context = await ownContext();
  try {
    const token = await signInByApi(context, email, password);
    authenticators.set(
      email.toLowerCase(),
      await turnOnAuthenticator(process.env.E2E_BASE_URL!, token),
    );
  } finally {
    await context.dispose();
  }
}

/** An operator's sign-in through the API, kept in a context of its own and refreshed in turn. */
interface OperatorSession {
  context: APIRequestContext;
  /** The calls to it, one at a time: a refresh token is used once. */
  queue: Promise<unknown>;
}
const sessions = new Map<string, OperatorSession>();

/**
 * A fresh access token of an operator this worker made (undefined for anyone else): the first
 * signs in with the app's code, the next ones refresh that sign-in, as the console does (a new
 * code every few seconds would wait for the app's next step).
 */
export async function operatorToken(email: string, password: string): Promise<string | undefined> {
  const key = email.toLowerCase();
  if (!authenticators.has(key)) return undefined;
  let session = sessions.get(key);
  if (!session) {
    session = { context: await ownContext(), queue: Promise.resolve() };
    sessions.set(key, session);
  }
  const { context } = session;
  const next = session.queue.then(async () => {
    const refreshed = await context.post('/api/user/auth/refresh-token', { headers: XHR });
    if (refreshed.ok()) return ((await refreshed.json()) as { token: string }).token;
    return signInByApi(context, email, password);
  });
  session.queue = next.catch(() => undefined);
  return next;
}
