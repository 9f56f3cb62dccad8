import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { deferred, stubFetch, type Reply } from '../../test/fetch-stub';
import { tokenReceived } from '../model/session';
import { REFRESH_ATTEMPT_KEY, refreshSession, sessionNeedsRefresh } from './session-refresh';

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

function signedInStore(expires: string) {
  const store = makeStore();
  store.dispatch(tokenReceived({ token: 'old-token', expires }));
  return store;
}

describe('sessionNeedsRefresh', () => {
  it('is true for a signed-in session whose token has under 5 seconds left', () => {
    const now = Date.now();
    expect(sessionNeedsRefresh(signedInStore(inSeconds(4)).getState(), now)).toBe(true);
    expect(sessionNeedsRefresh(signedInStore(inSeconds(-60)).getState(), now)).toBe(true);
    expect(sessionNeedsRefresh(signedInStore(inSeconds(600)).getState(), now)).toBe(false);
    expect(sessionNeedsRefresh(makeStore().getState(), now)).toBe(false);
  });
});

describe('refreshSession', () => {
  it('stores the new token; callers meanwhile share the one request', async () => {
    const answer = deferred<Reply>();
    const http = stubFetch({ 'POST /user/auth/refresh-token': () => answer.promise });
    const store = signedInStore(inSeconds(-60));
    const first = refreshSession(store.dispatch);
    const second = refreshSession(store.dispatch);
    answer.resolve({ body: { token: 'new-token', expires: inSeconds(900) } });
    expect(await Promise.all([first, second])).toEqual(['refreshed', 'refreshed']);
    const [call, ...more] = http.callsTo('POST', '/user/auth/refresh-token');
    expect(more).toEqual([]);
    expect(call?.keepalive).toBe(true);
    expect(call?.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(store.getState().auth).toMatchObject({ token: 'new-token', authorized: true });
    // the next one is a request of its own
    await refreshSession(store.dispatch);
    expect(http.callsTo('POST', '/user/auth/refresh-token')).toHaveLength(2);
  });

  it('logs out when the refresh is refused', async () => {
    stubFetch({
      'POST /user/auth/refresh-token': { status: 401, body: { code: 'UNAUTHORIZED' } },
    });
    const store = signedInStore(inSeconds(-60));
    expect(await refreshSession(store.dispatch)).toBe('refused');
    expect(store.getState().auth).toMatchObject({ authorized: false, token: null });
  });

  it.each<[string, Reply]>([
    ['no answer', 'network-error'],
    ['a server error', { status: 503, body: { code: 'UNAVAILABLE' } }],
    ['an answer without a token', { body: { ok: true } }],
  ])('keeps the session as it is after %s', async (_case, reply) => {
    stubFetch({ 'POST /user/auth/refresh-token': reply });
    const store = signedInStore(inSeconds(-60));
    expect(await refreshSession(store.dispatch)).toBe('failed');
    expect(store.getState().auth).toMatchObject({ authorized: true, token: 'old-token' });
  });

  describe('X-Refresh-Attempt', () => {
    const stored = () => localStorage.getItem(REFRESH_ATTEMPT_KEY);
    const store = (id: string, agoMs: number) =>
      localStorage.setItem(REFRESH_ATTEMPT_KEY, JSON.stringify({ id, at: Date.now() - agoMs }));
    const sentAttempt = (http: ReturnType<typeof stubFetch>) =>
      http.callsTo('POST', '/user/auth/refresh-token').at(-1)?.headers.get('X-Refresh-Attempt');

    it('names a new attempt, kept in storage while the refresh is on its way and dropped with the answer', async () => {
      localStorage.removeItem(REFRESH_ATTEMPT_KEY);
      const answer = deferred<Reply>();
      const http = stubFetch({ 'POST /user/auth/refresh-token': () => answer.promise });
      const refreshing = refreshSession(signedInStore(inSeconds(-60)).dispatch);
      await Promise.resolve();
      const attempt = sentAttempt(http);
      expect(attempt).toMatch(/^[0-9a-f]{32}$/);
      expect(JSON.parse(stored()!)).toMatchObject({ id: attempt });
      answer.resolve({ body: { token: 'new-token', expires: inSeconds(900) } });
      expect(await refreshing).toBe('refreshed');
      expect(stored()).toBeNull();
      // the next refresh is an attempt of its own
      await refreshSession(signedInStore(inSeconds(-60)).dispatch);
      expect(sentAttempt(http)).not.toBe(attempt);
    });

    it('sends again the attempt a reloaded page or another tab left under way, within the minute', async () => {
      const http = stubFetch({
        'POST /user/auth/refresh-token': { body: { token: 'new-token', expires: inSeconds(900) } },
      });
      store('0123456789abcdef0123456789abcdef', 2_000);
      await refreshSession(signedInStore(inSeconds(-60)).dispatch);
      expect(sentAttempt(http)).toBe('0123456789abcdef0123456789abcdef');

      store('fedcba9876543210fedcba9876543210', 61_000);
      await refreshSession(signedInStore(inSeconds(-60)).dispatch);
      expect(sentAttempt(http)).toMatch(/^[0-9a-f]{32}$/);
      expect(sentAttempt(http)).not.toBe('fedcba9876543210fedcba9876543210');

      localStorage.setItem(REFRESH_ATTEMPT_KEY, '{"id":"not one","at":0}');
      await refreshSession(signedInStore(inSeconds(-60)).dispatch);
      expect(sentAttempt(http)).toMatch(/^[0-9a-f]{32}$/);
    });

    it('keeps the attempt when no answer came (it may have been rotated): the next try names it', async () => {
      localStorage.removeItem(REFRESH_ATTEMPT_KEY);
      const http = stubFetch({ 'POST /user/auth/refresh-token': 'network-error' });
      const store = signedInStore(inSeconds(-60));
      expect(await refreshSession(store.dispatch)).toBe('failed');
      const attempt = sentAttempt(http);
      expect(JSON.parse(stored()!)).toMatchObject({ id: attempt });
      expect(await refreshSession(store.dispatch)).toBe('failed');
      expect(sentAttempt(http)).toBe(attempt);
    });

    it('drops the attempt with a refusal', async () => {
      localStorage.removeItem(REFRESH_ATTEMPT_KEY);
      stubFetch({
        'POST /user/auth/refresh-token': { status: 401, body: { code: 'SESSION_EXPIRED' } },
      });
      expect(await refreshSession(signedInStore(inSeconds(-60)).dispatch)).toBe('refused');
      expect(stored()).toBeNull();
    });
  });
});
