import type { Dispatch } from '@reduxjs/toolkit';
import { REFRESH_ATTEMPT_PATTERN, REFRESH_RETRY_MS } from '@tradehost/contracts';
import { i18n } from '../i18n';
import { errorText, type ApiRequestError } from '../lib/api-error';
import { englishErrorText } from '../lib/error-codes';
import { randomHex } from '../lib/idempotency';
import { readStorage, removeStorage, writeStorage } from '../lib/preferences';
import { needsRefresh } from '../lib/token';
import { loggedOut, tokenReceived, type SessionView } from '../model/session';
import { notify } from '../ui/toast/notify';

/**
 * The access token's refresh, without RTK Query: the base query (base-api.ts) calls it before a
 * call when the token is about to expire, and the console's start (main.tsx) calls it as soon as
 * the stored session is back, so a returning reader's refresh runs beside the page's code
 * download rather than after it. Both share the one refresh under way.
 */

// An absolute base so that Request accepts it outside a browser too (tests); the same origin.
export const API_BASE = new URL('/api', globalThis.location?.href ?? 'http://localhost').href;

export const SESSION_EXPIRED: ApiRequestError = {
  status: 401,
  code: 'SESSION_EXPIRED',
  message: englishErrorText('SESSION_EXPIRED'),
};

export type RefreshOutcome = 'refreshed' | 'refused' | 'failed';
let refreshing: Promise<RefreshOutcome> | null = null;

/** The refresh under way, kept where the next page and the other tabs read it: `{id, at}`. */
export const REFRESH_ATTEMPT_KEY = 'tradehost:refresh-attempt';

function storedAttempt(): { id: string; at: number } | null {
  try {
    const stored: unknown = JSON.parse(readStorage(REFRESH_ATTEMPT_KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return null;
    const { id, at } = stored as Record<string, unknown>;
    return typeof id === 'string' && REFRESH_ATTEMPT_PATTERN.test(id) && typeof at === 'number'
      ? { id, at }
      : null;
  } catch {
    return null;
  }
}

/**
 * The attempt this refresh names: the one under way (another tab's, or this page's before a
 * reload lost its answer) while the server still takes it for a retry, else a new one, stored.
 */
function attemptFor(nowMs: number): string {
  const stored = storedAttempt();
  if (stored && nowMs - stored.at >= 0 && nowMs - stored.at < REFRESH_RETRY_MS) return stored.id;
  const id = randomHex();
  writeStorage(REFRESH_ATTEMPT_KEY, JSON.stringify({ id, at: nowMs }));
  return id;
}

/** The attempt was answered: the next refresh is a new one. */
function settle(id: string) {
  if (storedAttempt()?.id === id) removeStorage(REFRESH_ATTEMPT_KEY);
}

async function refreshToken(dispatch: Dispatch): Promise<RefreshOutcome> {
  const attempt = attemptFor(Date.now());
  let response: Response;
  try {
    // The server rotates the refresh cookie as it answers. A reload or a closed tab would cancel
    // the request after the rotation and lose the new cookie, and the page that follows would
    // present the old one, which counts as reuse and ends the session: keepalive lets the
    // request finish, and the browser store the cookie, whatever happens to the page. The page
    // that follows may still send the old cookie before that answer lands: it names the same
    // attempt, which the server takes for the retry it is.
    response = await fetch(`${API_BASE}/user/auth/refresh-token`, {
      method: 'POST',
      credentials: 'include',
      keepalive: true,
      // the API's CSRF guard for cookie-authenticated POSTs asks for it
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Refresh-Attempt': attempt },
    });
  } catch {
    return 'failed'; // offline: let the call go and fail on its own (the attempt stays under way)
  }
  settle(attempt);
  if (response.status === 401) {
    dispatch(loggedOut());
    notify('warning', errorText(i18n.t, SESSION_EXPIRED));
    return 'refused';
  }
  const data = response.ok
    ? ((await response.json().catch(() => undefined)) as { token?: unknown; expires?: unknown })
    : undefined;
  if (typeof data?.token === 'string' && typeof data.expires === 'string') {
    dispatch(tokenReceived({ token: data.token, expires: data.expires }));
    return 'refreshed';
  }
  return 'failed'; // a server error: let the call go and fail on its own
}

/**
 * Refreshes the session's token. A refused refresh (401) logs out with a notice. One refresh at a
 * time: a caller that finds one under way waits for it.
 */
export function refreshSession(dispatch: Dispatch): Promise<RefreshOutcome> {
  refreshing ??= refreshToken(dispatch).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Whether the session is signed in with a token that expires within the threshold (or has). */
export function sessionNeedsRefresh({ auth }: SessionView, nowMs: number): boolean {
  return auth.authorized && needsRefresh(auth.expires, nowMs);
}
