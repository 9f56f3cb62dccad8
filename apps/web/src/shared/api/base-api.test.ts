import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { deferred, stubFetch, type Reply } from '../../test/fetch-stub';
import { baseApi } from './base-api';

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, string>({
      query: (name) => `/probe/${name}`,
      extraOptions: { silent: true },
    }),
  }),
});

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

function signedInStore(expires: string) {
  const store = makeStore();
  store.dispatch({ type: 'auth/tokenReceived', payload: { token: 'old-token', expires } });
  return store;
}

describe('baseQuery', () => {
  it('sends the bearer token and credentials', async () => {
    const http = stubFetch({ 'GET /probe/a': { body: { ok: true } } });
    const store = signedInStore(inSeconds(600));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('a'));
    expect(result.data).toEqual({ ok: true });
    expect(http.calls[0]?.headers.get('Authorization')).toBe('Bearer old-token');
  });

  it('refreshes a token with under 5 seconds left before the call, once for concurrent calls', async () => {
    const refresh = deferred<Reply>();
    const http = stubFetch({
      'POST /user/auth/refresh-token': () => refresh.promise,
      'GET /probe/a': { body: 'a' },
      'GET /probe/b': { body: 'b' },
    });
    const store = signedInStore(inSeconds(4));
    const a = store.dispatch(probeApi.endpoints.probe.initiate('a'));
    const b = store.dispatch(probeApi.endpoints.probe.initiate('b'));
    await Promise.resolve();
    refresh.resolve({ body: { token: 'new-token', expires: inSeconds(900) } });
    await Promise.all([a, b]);
    expect(http.callsTo('POST', '/user/auth/refresh-token')).toHaveLength(1);
    expect(
      http.calls
        .find((c) => c.path === '/user/auth/refresh-token')
        ?.headers.get('X-Requested-With'),
    ).toBe('XMLHttpRequest');
    // it outlives a reload: the rotated cookie is not lost with the page
    expect(http.callsTo('POST', '/user/auth/refresh-token')[0]?.keepalive).toBe(true);
    expect(http.callsTo('GET', '/probe/a')[0]?.keepalive).toBe(false);
    expect(http.callsTo('GET', '/probe/a')[0]?.headers.get('Authorization')).toBe(
      'Bearer new-token',
    );
    expect(http.callsTo('GET', '/probe/b')[0]?.headers.get('Authorization')).toBe(
      'Bearer new-token',
    );
    expect(store.getState().auth.token).toBe('new-token');
  });

  it('logs out and skips the call when the refresh answers 401', async () => {
    const http = stubFetch({
      'POST /user/auth/refresh-token': {
        status: 401,
        body: { message: 'Unauthorized', code: 'UNAUTHORIZED' },
      },
    });
    const store = signedInStore(inSeconds(1));
    const result = await store.dispatch(probeApi.endpoints.probe.initiate('a'));
    expect(result.data).toBeUndefined(); // the cache itself was reset by the logout
    expect(http.callsTo('GET', '/probe/a')).toHaveLength(0);
    expect(store.getState().auth).toMatchObject({ authorized: false, token: null, expires: null });
  });

  it('makes no refresh when signed out', async () => {
    const http = stubFetch({ 'GET /probe/a': { body: 1 } });
    const store = makeStore();
    await store.dispatch(probeApi.endpoints.probe.initiate('a'));
    expect(http.calls.map((c) => c.path)).toEqual(['/probe/a']);
    expect(http.calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('normalises an API error body', async () => {
    stubFetch({
      'GET /probe/a': {
        status: 422,
        body: {
          message: 'E-mail is invalid',
          code: 'EMAIL_INVALID',
          errors: { email: ['EMAIL_INVALID'] },
        },
      },
    });
    const result = await makeStore().dispatch(probeApi.endpoints.probe.initiate('a'));
    expect(result.error).toEqual({
      status: 422,
      code: 'EMAIL_INVALID',
      message: 'E-mail is invalid',
      errors: { email: ['EMAIL_INVALID'] },
    });
  });

  it('gives a failed connection the code NETWORK', async () => {
    stubFetch({ 'GET /probe/a': 'network-error' });
    const result = await makeStore().dispatch(probeApi.endpoints.probe.initiate('a'));
    expect(result.error).toMatchObject({ status: 0, code: 'NETWORK' });
  });
});
