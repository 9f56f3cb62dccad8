import { describe, expect, it } from 'vitest';
import { makeStore } from '../../../app/store';
import { stubFetch } from '../../../test/fetch-stub';
import { testUser } from '../../../test/fixtures';
import { authApi } from './auth-api';

const token = { token: 'jwt', expires: new Date(Date.now() + 3_600_000).toISOString() };

function stubSignIn(overrides: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'POST /user/auth/login': { body: token },
    'GET /user/auth': { body: { ...testUser, language: 'ru' } },
    'GET /front/permissions': { body: { partner: false, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    ...overrides,
  });
}

describe('login', () => {
  it('starts the session, then fetches the user, the permissions and the alert', async () => {
    const http = stubSignIn();
    const store = makeStore();
    await store.dispatch(
      authApi.endpoints.login.initiate({ email: 'a@example.com', password: 'secret123' }),
    );
    expect(store.getState().auth).toMatchObject({
      token: 'jwt',
      expires: token.expires,
      authorized: true,
    });
    expect(store.getState().auth.statuses.login).toEqual({ state: 'succeeded' });
    await expect
      .poll(() => http.calls.map((c) => `${c.method} ${c.path}`).sort())
      .toEqual([
        'GET /front/permissions',
        'GET /user/alert',
        'GET /user/auth',
        'POST /user/auth/login',
      ]);
    expect(http.callsTo('GET', '/user/auth')[0]?.headers.get('Authorization')).toBe('Bearer jwt');
  });

  it("applies the account's language after sign-in, without sending it back", async () => {
    const http = stubSignIn();
    const store = makeStore();
    expect(store.getState().settings.language).toBe('en');
    await store.dispatch(
      authApi.endpoints.login.initiate({ email: 'a@example.com', password: 'secret123' }),
    );
    await expect.poll(() => store.getState().settings.language).toBe('ru');
    expect(localStorage.getItem('tradehost:language')).toBe('ru');
    expect(http.callsTo('POST', '/user/change_language')).toHaveLength(0);
  });

  it('keeps the error code in the status and stays signed out on 401', async () => {
    stubSignIn({
      'POST /user/auth/login': {
        status: 401,
        body: { message: 'Login or password not found', code: 'LOGIN_NOT_FOUND' },
      },
    });
    const store = makeStore();
    const result = await store.dispatch(
      authApi.endpoints.login.initiate({ email: 'a@example.com', password: 'wrong-pass' }),
    );
    expect(result.error).toMatchObject({ status: 401, code: 'LOGIN_NOT_FOUND' });
    expect(store.getState().auth.authorized).toBe(false);
    expect(store.getState().auth.statuses.login).toEqual({
      state: 'failed',
      message: 'LOGIN_NOT_FOUND',
    });
  });
});

describe('account calls', () => {
  it('sets the verify status from the answer', async () => {
    stubFetch({
      'POST /user/auth/verify-email': {
        status: 422,
        body: { message: 'The confirmation link has expired', code: 'VERIFY_LINK_EXPIRED' },
      },
    });
    const store = makeStore();
    await store.dispatch(authApi.endpoints.verifyEmail.initiate({ token: 'abc' }));
    expect(store.getState().auth.statuses.verify).toEqual({
      state: 'failed',
      message: 'VERIFY_LINK_EXPIRED',
    });
  });

  it('sends the signup and keeps the success code', async () => {
    const http = stubFetch({
      'POST /user/auth/create': {
        status: 201,
        body: { message: 'Registration complete.', code: 'SIGNUP_DONE' },
      },
    });
    const store = makeStore();
    const body = {
      name: 'Alice',
      email: 'a@example.com',
      password: 'secret123',
      password_confirmation: 'secret123',
      consent: true as const,
      partner_code: 'P42',
      language: 'en' as const,
    };
    await store.dispatch(authApi.endpoints.signup.initiate(body));
    expect(http.callsTo('POST', '/user/auth/create')[0]?.body).toEqual(body);
    expect(store.getState().auth.statuses.signup).toEqual({
      state: 'succeeded',
      message: 'SIGNUP_DONE',
    });
  });

  it('logs out even when the logout call fails', async () => {
    stubFetch({ 'POST /user/auth/logout': 'network-error' });
    const store = makeStore();
    store.dispatch({ type: 'auth/tokenReceived', payload: token });
    await store.dispatch(authApi.endpoints.logout.initiate());
    expect(store.getState().auth).toMatchObject({ authorized: false, token: null });
  });

  it('reads the alert out of its envelope', async () => {
    const alert = { id: 3, level: 'info', text_en: 'Hi', text_ru: 'Привет' };
    stubFetch({ 'GET /user/alert': { body: { alert } } });
    const result = await makeStore().dispatch(authApi.endpoints.getAlert.initiate());
    expect(result.data).toEqual(alert);
  });

  it('changes the language only through the API while signed in', async () => {
    const http = stubFetch({ 'POST /user/change_language': { body: { message: 'ok' } } });
    const store = makeStore();
    store.dispatch({ type: 'settings/languageChanged', payload: 'ru' });
    store.dispatch({ type: 'auth/tokenReceived', payload: token });
    store.dispatch({ type: 'settings/languageChanged', payload: 'en' });
    await expect
      .poll(() => http.callsTo('POST', '/user/change_language').map((c) => c.body))
      .toEqual([{ language: 'EN' }]);
    expect(localStorage.getItem('tradehost:language')).toBe('en');
  });
});
