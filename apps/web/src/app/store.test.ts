import { persistStore } from 'redux-persist';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { makeStore } from './store';

const token = { token: 'jwt', expires: '2030-01-01T00:00:00.000Z' };

function restoredStore() {
  const store = makeStore();
  return new Promise<ReturnType<typeof makeStore>>((resolve) => {
    persistStore(store, null, () => resolve(store));
  });
}

describe('persisted session', () => {
  it('saves the auth slice only, under persist:tradehost:auth', async () => {
    const store = await restoredStore();
    store.dispatch({ type: 'auth/tokenReceived', payload: token });
    store.dispatch({ type: 'auth/statusSet', payload: { kind: 'login', state: 'pending' } });
    await expect.poll(() => localStorage.getItem('persist:tradehost:auth')).toContain('jwt');
    const saved = JSON.parse(localStorage.getItem('persist:tradehost:auth')!) as Record<
      string,
      string
    >;
    expect(Object.keys(saved).sort()).toEqual(['_persist', 'auth']);
    expect(JSON.parse(saved.auth!)).toEqual({ ...token, authorized: true, referralCode: null });
    expect(JSON.parse(saved._persist!)).toMatchObject({ version: 1 });
  });

  it('restores the session on the next start', async () => {
    const first = await restoredStore();
    first.dispatch({ type: 'auth/tokenReceived', payload: token });
    await expect.poll(() => localStorage.getItem('persist:tradehost:auth')).toContain('jwt');

    const next = await restoredStore();
    expect(next.getState().auth).toMatchObject({ ...token, authorized: true });
    expect(next.getState().auth.statuses.login).toEqual({ state: 'idle' });
  });

  it('forgets the session after a logout', async () => {
    const first = await restoredStore();
    first.dispatch({ type: 'auth/tokenReceived', payload: token });
    first.dispatch({ type: 'auth/loggedOut' });
    await expect
      .poll(() => localStorage.getItem('persist:tradehost:auth'))
      .toContain('"authorized\\":false');
    const next = await restoredStore();
    expect(next.getState().auth.authorized).toBe(false);
  });
});

describe('the API', () => {
  // Nothing in this file imports it: the store comes first, as in the console's first view.
  it('joins a store made before it loaded, and serves it', async () => {
    const store = makeStore();
    expect(store.getState()).not.toHaveProperty('api');

    const { baseApi } = await import('../shared/api/base-api');
    expect(store.getState().api).toEqual(baseApi.reducer(undefined, { type: 'init' }));

    const http = stubFetch({ 'GET /probe': { body: { ok: true } } });
    const probeApi = baseApi.injectEndpoints({
      endpoints: (build) => ({ probe: build.query<unknown, void>({ query: () => '/probe' }) }),
    });
    const result = await store.dispatch(probeApi.endpoints.probe.initiate());
    expect(result.data).toEqual({ ok: true });
    expect(http.calls).toHaveLength(1);

    // and a store made afterwards has it from the start
    expect(makeStore().getState()).toHaveProperty('api');
  });
});
