import { afterEach, describe, expect, it } from 'vitest';
import { makeStore } from '../../../app/store';
import { stubFetch } from '../../../test/fetch-stub';
import { recordReferral, takeReferralCode } from './referral';

// the click goes once the API has loaded (it is not part of the first view)
const settle = async () => {
  await import('../api/auth-api');
  await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('referral capture', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('takes the code out of the address and keeps the rest of it', () => {
    window.history.replaceState(null, '', '/signup?ref=PARTNER42&utm=x#top');
    expect(takeReferralCode()).toBe('PARTNER42');
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/signup?utm=x#top',
    );
  });

  it('finds nothing without a ref parameter and leaves the address alone', () => {
    window.history.replaceState(null, '', '/login?utm=x');
    expect(takeReferralCode()).toBeNull();
    expect(window.location.search).toBe('?utm=x');
  });

  it('drops an empty or over-long code but still cleans the address', () => {
    window.history.replaceState(null, '', '/?ref=');
    expect(takeReferralCode()).toBeNull();
    window.history.replaceState(null, '', `/?ref=${'x'.repeat(33)}`);
    expect(takeReferralCode()).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('stores the code and reports the click once per session', async () => {
    const http = stubFetch({ 'POST /clicks/create': { body: { message: 'ok' } } });
    const store = makeStore();
    store.dispatch(recordReferral('PARTNER42'));
    store.dispatch(recordReferral('PARTNER42')); // a reload with the same link
    await settle();
    expect(store.getState().auth.referralCode).toBe('PARTNER42');
    const clicks = http.callsTo('POST', '/clicks/create');
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.body).toEqual({ referral_code: 'PARTNER42' });
  });

  it('keeps the latest code when another link is followed', async () => {
    const http = stubFetch({ 'POST /clicks/create': { body: {} } });
    const store = makeStore();
    store.dispatch(recordReferral('FIRST'));
    store.dispatch(recordReferral('SECOND'));
    await settle();
    expect(store.getState().auth.referralCode).toBe('SECOND');
    expect(http.callsTo('POST', '/clicks/create').map((c) => c.body)).toEqual([
      { referral_code: 'FIRST' },
      { referral_code: 'SECOND' },
    ]);
  });
});
