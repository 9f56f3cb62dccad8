import { createAction } from '@reduxjs/toolkit';
import type { TokenResponse } from '@tradehost/contracts';

/**
 * The session events. They live in shared/ because the base API raises them (a refreshed token,
 * a refused refresh); the auth slice keeps the session and re-exports them, and every slice and
 * the API cache answer `loggedOut` by clearing what they hold.
 */
export const tokenReceived = createAction<TokenResponse>('auth/tokenReceived');
export const loggedOut = createAction('auth/loggedOut');

/** The part of the state the base API reads. */
export interface SessionView {
  auth: { token: string | null; expires: string | null; authorized: boolean };
}
