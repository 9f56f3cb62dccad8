import { describe, expect, it } from 'vitest';
import {
  authReducer,
  authPersistTransform,
  initialAuthState,
  loggedOut,
  referralCodeStored,
  statusSet,
  tokenReceived,
  type AuthState,
} from './auth-slice';

const token = { token: 'jwt', expires: '2030-01-01T00:00:00.000Z' };

describe('auth slice', () => {
  it('starts signed out with idle statuses', () => {
    expect(authReducer(undefined, { type: 'init' })).toEqual(initialAuthState);
    expect(initialAuthState.authorized).toBe(false);
    expect(Object.values(initialAuthState.statuses).every((s) => s.state === 'idle')).toBe(true);
  });

  it('signs in on tokenReceived', () => {
    const state = authReducer(undefined, tokenReceived(token));
    expect(state).toMatchObject({ token: 'jwt', expires: token.expires, authorized: true });
  });

  it('records a status with its message', () => {
    let state = authReducer(undefined, statusSet({ kind: 'login', state: 'pending' }));
    expect(state.statuses.login).toEqual({ state: 'pending' });
    state = authReducer(
      state,
      statusSet({ kind: 'login', state: 'failed', message: 'LOGIN_NOT_FOUND' }),
    );
    expect(state.statuses.login).toEqual({ state: 'failed', message: 'LOGIN_NOT_FOUND' });
    expect(state.statuses.signup).toEqual({ state: 'idle' });
  });

  it('clears the session and every status on loggedOut, keeping the referral code of the link', () => {
    let state = authReducer(undefined, tokenReceived(token));
    state = authReducer(state, referralCodeStored('PARTNER42'));
    state = authReducer(
      state,
      statusSet({ kind: 'reset', state: 'succeeded', message: 'PASSWORD_RESET' }),
    );
    state = authReducer(
      state,
      statusSet({ kind: 'verify', state: 'failed', message: 'VERIFY_LINK_INVALID' }),
    );
    expect(authReducer(state, loggedOut())).toEqual({
      ...initialAuthState,
      referralCode: 'PARTNER42',
    });
  });

  it('persists the session and the referral code but no request status', () => {
    const state: AuthState = {
      ...initialAuthState,
      ...token,
      authorized: true,
      referralCode: 'P',
      statuses: { ...initialAuthState.statuses, login: { state: 'pending' } },
    };
    const saved = authPersistTransform.in(state, 'auth', state);
    expect(saved).toEqual({
      token: 'jwt',
      expires: token.expires,
      authorized: true,
      referralCode: 'P',
    });
    const restored = authPersistTransform.out(saved, 'auth', saved) as AuthState;
    expect(restored.statuses.login).toEqual({ state: 'idle' });
    expect(restored.authorized).toBe(true);
  });
});
