import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequestSchema, type LoginRequest } from '@tradehost/contracts';
import { createFormControl } from 'react-hook-form';
import type { AppDispatch } from '../../../app/store';
import { authApi } from '../api/auth-api';

/**
 * What the login form loads when it is first used (login-form.tsx): react-hook-form with the
 * contract's schema, and the sign-in call.
 */

/** A react-hook-form control of the login fields; they register when they render with it. */
export function createLoginForm() {
  return createFormControl<LoginRequest>({ resolver: zodResolver(loginRequestSchema) });
}
export type LoginFormControl = ReturnType<typeof createLoginForm>;

/** POST /user/auth/login; on success the endpoint starts the session (auth-api.ts). */
export function logIn(dispatch: AppDispatch, data: LoginRequest): Promise<unknown> {
  return dispatch(authApi.endpoints.login.initiate(data, { track: false })).unwrap();
}
