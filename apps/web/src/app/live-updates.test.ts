import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../features/auth/api/auth-api';
import { balanceApi } from '../features/balance/api/balance-api';
import { partnerApi } from '../features/partners/api/partner-api';
import { supportApi } from '../features/support/api/support-api';
import { vpsApi } from '../features/vps/api/vps-api';
import { stubFetch } from '../test/fetch-stub';
import type { LiveEvent } from '@tradehost/contracts';
import { i18n } from '../shared/i18n';
import { notify } from '../shared/ui/toast/notify';
import { applyLiveEvent, resyncAfterDrop } from './live-updates';
import { makeStore } from './store';

vi.mock('../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

const USER = {
  id: 7,
  created_at: '2026-01-01T00:00:00.000Z',
  email: 'rita@example.com',
  name: 'Rita',
  language: 'en',
  role: 'user',
  email_verified_at: '2026-01-01T00:00:00.000Z',
  referral_code: 'ABCD1234',
  photo_path: null,
  telegram_link: null,
  telegram_mon_link: null,
  balance: 10,
  balance_partner: 2,
};
const EMPTY_PAGE = { data: [], meta: { page: 1, per_page: 20, total: 0 } };
const TRANSFERS = '/user/balance/history/transfers';
const WITHDRAWALS = '/user/balance/history/withdrawals';
const PARTNER_INFO = '/user/partner_info';
const PARTNER_PAYMENTS = '/user/partner/payments';

describe('what live updates change in the console', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function signedInStore() {
    const fetch = stubFetch({
      'GET /user/auth': { body: USER },
      'GET /user/support/unread': { body: { count: 0 } },
      'GET /user/vps/servers': { body: EMPTY_PAGE },
      [`GET ${TRANSFERS}`]: { body: EMPTY_PAGE },
      [`GET ${WITHDRAWALS}`]: { body: EMPTY_PAGE },
      [`GET ${PARTNER_INFO}`]: { body: {} },
      [`GET ${PARTNER_PAYMENTS}`]: { body: {} },
    });
    const store = makeStore();
    store.dispatch({
      type: 'auth/tokenReceived',
      payload: { token: 'jwt', expires: '2030-01-01T00:00:00.000Z' },
    });
    const subscriptions = [
      store.dispatch(authApi.endpoints.getUser.initiate()),
      store.dispatch(supportApi.endpoints.getSupportUnread.initiate()),
      store.dispatch(vpsApi.endpoints.getVpsServers.initiate({ page: 1, perPage: 20 })),
    ];
    await Promise.all(subscriptions);
    return { store, fetch };
  }

  const userOf = (store: ReturnType<typeof makeStore>) =>
    authApi.endpoints.getUser.select()(store.getState() as never).data;

  it('patches the header balance from a `balance` event, without a request', async () => {
    const { store, fetch } = await signedInStore();
    const before = fetch.calls.length;
    applyLiveEvent(store.dispatch, { event: 'balance', data: { balance: 35.5 } });
    expect(userOf(store)).toMatchObject({ balance: 35.5, balance_partner: 2 });
    applyLiveEvent(store.dispatch, { event: 'balance', data: { balance_partner: 4 } });
    expect(userOf(store)).toMatchObject({ balance: 35.5, balance_partner: 4 });
    expect(fetch.callsTo('GET', '/user/auth')).toHaveLength(1);
    expect(fetch.calls.length).toBe(before);
  });

  it('reads a history on screen again when money arrives from someone else (a `balance` event)', async () => {
    const { store, fetch } = await signedInStore();
    const shown = store.dispatch(
      balanceApi.endpoints.getHistory.initiate({ kind: 'transfers', page: 1, perPage: 20 }),
    );
    await shown;
    expect(fetch.callsTo('GET', TRANSFERS)).toHaveLength(1);
    applyLiveEvent(store.dispatch, { event: 'balance', data: { balance: 22 } });
    await vi.waitFor(() => expect(fetch.callsTo('GET', TRANSFERS)).toHaveLength(2));
    expect(userOf(store)).toMatchObject({ balance: 22 });
    expect(fetch.callsTo('GET', '/user/auth')).toHaveLength(1);
    shown.unsubscribe();
  });

  /** The partner page on screen: its figures and its payouts, read once. */
  async function partnerPageShown(store: ReturnType<typeof makeStore>) {
    const queries = [
      store.dispatch(partnerApi.endpoints.getPartnerInfo.initiate()),
      store.dispatch(partnerApi.endpoints.getPartnerPayments.initiate()),
    ];
    await Promise.all(queries);
    return { unsubscribe: () => queries.forEach((query) => query.unsubscribe()) };
  }

  const partnerPageReadTwice = (fetch: Awaited<ReturnType<typeof signedInStore>>['fetch']) =>
    vi.waitFor(() => {
      expect(fetch.callsTo('GET', PARTNER_INFO)).toHaveLength(2);
      expect(fetch.callsTo('GET', PARTNER_PAYMENTS)).toHaveLength(2);
    });

  it('reads the partner page’s figures and payouts again when the partner balance moves, not for the main one', async () => {
    const { store, fetch } = await signedInStore();
    const shown = await partnerPageShown(store);
    applyLiveEvent(store.dispatch, { event: 'balance', data: { balance: 22 } });
    // what a refetch would have sent by now
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch.callsTo('GET', PARTNER_INFO)).toHaveLength(1);
    // a reward credited to the partner balance (or a payout reserved from it)
    applyLiveEvent(store.dispatch, { event: 'balance', data: { balance_partner: 7.5 } });
    await partnerPageReadTwice(fetch);
    expect(userOf(store)).toMatchObject({ balance_partner: 7.5 });
    shown.unsubscribe();
  });

  it('reads the partner page again after a drop', async () => {
    const { store, fetch } = await signedInStore();
    const shown = await partnerPageShown(store);
    resyncAfterDrop(store.dispatch);
    await partnerPageReadTwice(fetch);
    shown.unsubscribe();
  });

  it('sets the unread count from a `ticket` event; a `server` event reads the list again', async () => {
    const { store, fetch } = await signedInStore();
    applyLiveEvent(store.dispatch, { event: 'ticket', data: { ticket_id: 3, unread: 2 } });
    expect(supportApi.endpoints.getSupportUnread.select()(store.getState() as never).data).toBe(2);
    applyLiveEvent(store.dispatch, {
      event: 'server',
      data: { id: 9, status: 'active', power: 'running' },
    });
    await vi.waitFor(() => expect(fetch.callsTo('GET', '/user/vps/servers')).toHaveLength(2));
  });

  it('says on any page when a start, shutdown or reboot has ended, well or badly', async () => {
    const { store } = await signedInStore();
    const ended = (kind: string, ok: boolean) =>
      applyLiveEvent(store.dispatch, {
        event: 'server',
        data: { id: 9, status: 'active', power: 'running', operation: { kind, ok } },
      } as LiveEvent);
    ended('reboot', true);
    expect(notify).toHaveBeenLastCalledWith('success', 'Server #9 has rebooted.', {
      toastId: 'server-9-reboot-ok',
    });
    ended('start', false);
    expect(notify).toHaveBeenLastCalledWith(
      'error',
      'Server #9 could not be started. Try again in a few minutes, or write to support.',
      { toastId: 'server-9-start-failed' },
    );
    await i18n.changeLanguage('ru');
    try {
      ended('shutdown', true);
      expect(notify).toHaveBeenLastCalledWith('success', 'Сервер №\u00a09 выключен.', {
        toastId: 'server-9-shutdown-ok',
      });
    } finally {
      await i18n.changeLanguage('en');
    }
    ended('reinstall', true);
    expect(notify).toHaveBeenLastCalledWith(
      'success',
      'Server #9 is reinstalled. Its new password is in Login details.',
      { toastId: 'server-9-reinstall-ok' },
    );
    // the end of an order or an upgrade has its own mail and page: no toast
    vi.mocked(notify).mockClear();
    ended('create', true);
    ended('upgrade', false);
    ended('terminal_restart', true); // the guardian's: it tells by mail and chat
    applyLiveEvent(store.dispatch, {
      event: 'server',
      data: { id: 9, status: 'active', power: 'running' },
    });
    expect(notify).not.toHaveBeenCalled();
  });

  it('reads everything shown again after a drop (updates may have been missed)', async () => {
    const { store, fetch } = await signedInStore();
    resyncAfterDrop(store.dispatch);
    await vi.waitFor(() => {
      expect(fetch.callsTo('GET', '/user/auth')).toHaveLength(2);
      expect(fetch.callsTo('GET', '/user/support/unread')).toHaveLength(2);
      expect(fetch.callsTo('GET', '/user/vps/servers')).toHaveLength(2);
    });
  });

  it('reads a withdrawals history on screen again after a drop (a withdrawal may wait on it)', async () => {
    const { store, fetch } = await signedInStore();
    const shown = store.dispatch(
      balanceApi.endpoints.getHistory.initiate({ kind: 'withdrawals', page: 1, perPage: 20 }),
    );
    await shown;
    expect(fetch.callsTo('GET', WITHDRAWALS)).toHaveLength(1);
    resyncAfterDrop(store.dispatch);
    await vi.waitFor(() => expect(fetch.callsTo('GET', WITHDRAWALS)).toHaveLength(2));
    shown.unsubscribe();
  });
});
