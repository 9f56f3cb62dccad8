import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../features/auth/api/auth-api';
import { balanceApi } from '../features/balance/api/balance-api';
import { monitoringApi } from '../features/monitoring/api/monitoring-api';
import { partnerApi } from '../features/partners/api/partner-api';
import { FIRST_SERVERS_PAGE, vpsApi } from '../features/vps/api/vps-api';
import { LIVE_BALANCE_WAIT_MS } from '../shared/live/balance-refreshes';
import { setLiveState } from '../shared/live/live-state';
import { stubFetch, type Handler } from '../test/fetch-stub';
import { fundedUser, page } from '../test/fixtures';
import { applyLiveEvent } from './live-updates';
import { makeStore } from './store';

const USER = fundedUser({ balance: 100, balance_partner: 40 });
const EMPTY_PAGE = page([]);
const SERVER = { id: 5, status: 'active', power: 'running', operation: null, last_operation: null };
/** The answer of every action here: each reads only its own fields (the server, of the VPS ones). */
const ANSWER = { server: SERVER, charged: 10, balance: 90, available: 15, message: 'ok' };

type Store = ReturnType<typeof makeStore>;
type HistoryKind = 'payments' | 'transfers' | 'charges' | 'withdrawals';
type Purses = { balance?: number; balance_partner?: number };

/** An own money action: its route, the history it adds to, its live event and how it starts. */
interface MoneyAction {
  name: string;
  route: string;
  history: HistoryKind;
  moved: Purses;
  run: (store: Store) => Promise<unknown>;
}

/** A mutation of a money action started with `body` and its intent's key. */
function idempotent<B>(
  endpoint: { initiate: (arg: { body: B; idempotencyKey: string }) => unknown },
  body: B,
) {
  // the thunk's promise (the mutation's result), whatever the endpoint's types
  const started = (store: Store): unknown =>
    store.dispatch(endpoint.initiate({ body, idempotencyKey: 'intent-1' }) as never);
  return (store: Store) => started(store) as Promise<unknown>;
}

const money = (
  name: string,
  route: string,
  history: HistoryKind,
  moved: Purses,
  run: MoneyAction['run'],
): MoneyAction => ({ name, route: `POST /user/${route}`, history, moved, run });
const MAIN = { balance: 90 };
const { endpoints: balance } = balanceApi;
const { endpoints: vps } = vpsApi;
const { endpoints: monitoring } = monitoringApi;

const ACTIONS: MoneyAction[] = [
  money(
    'a transfer',
    'balance/transfer',
    'transfers',
    MAIN,
    idempotent(balance.transfer, { email: 'bo@example.com', amount: 25 }),
  ),
  money(
    'a top-up from the partner balance',
    'balance/deposit',
    'payments',
    { balance: 110, balance_partner: 30 },
    idempotent(balance.deposit, { method: 'balance', amount: 10 }),
  ),
  money(
    'a VPS order',
    'vps/order',
    'charges',
    MAIN,
    idempotent(vps.orderVpsServer, { rate_id: 1, months: 1, source: 'google' } as never),
  ),
  money(
    'a VPS renewal',
    'vps/servers/5/renew',
    'charges',
    MAIN,
    idempotent(vps.renewVpsServer, { id: 5, months: 1 }),
  ),
  money(
    'a VPS upgrade',
    'vps/servers/5/upgrade',
    'charges',
    MAIN,
    idempotent(vps.upgradeVpsServer, { id: 5, rate_id: 2, date: '2026-12-01' }),
  ),
  money(
    'a monitoring subscription',
    'monitoring/subscriptions',
    'charges',
    MAIN,
    idempotent(monitoring.subscribe, { accounts: 2, months: 1 } as never),
  ),
  money(
    'a monitoring extension',
    'monitoring/subscriptions/3/extend',
    'charges',
    MAIN,
    idempotent(monitoring.extendSubscription, { id: 3, months: 1 } as never),
  ),
  money(
    'more monitored accounts',
    'monitoring/subscriptions/3/enlarge',
    'charges',
    MAIN,
    idempotent(monitoring.enlargeSubscription, { id: 3, accounts: 4 }),
  ),
  money(
    'a partner withdrawal',
    'partner/createwithdrawal',
    'withdrawals',
    { balance_partner: 15 },
    idempotent(partnerApi.endpoints.createWithdrawal, {
      method: 'usdt',
      wallet: 'T123',
      amount: 25,
    } as never),
  ),
];

/** A signed-in store showing the header's user and a history (GET /user/auth and the history read once). */
async function signedIn(history: HistoryKind, routes: Record<string, Handler>) {
  const fetch = stubFetch({
    'GET /user/auth': { body: USER },
    [`GET /user/balance/history/${history}`]: { body: EMPTY_PAGE },
    ...routes,
  });
  const store = makeStore();
  store.dispatch({
    type: 'auth/tokenReceived',
    payload: { token: 'jwt', expires: '2030-01-01T00:00:00.000Z' },
  });
  const shown = [
    store.dispatch(authApi.endpoints.getUser.initiate()),
    store.dispatch(
      balanceApi.endpoints.getHistory.initiate({ kind: history, page: 1, perPage: 20 }),
    ),
  ];
  await Promise.all(shown);
  const reads = () => ({
    user: fetch.callsTo('GET', '/user/auth').length,
    history: fetch.callsTo('GET', `/user/balance/history/${history}`).length,
  });
  expect(reads()).toEqual({ user: 1, history: 1 });
  return { store, fetch, reads, done: () => shown.forEach((query) => query.unsubscribe()) };
}

const signedInFor = (action: MoneyAction) =>
  signedIn(action.history, { [action.route]: { body: ANSWER } });

const settle = () => vi.advanceTimersByTimeAsync(LIVE_BALANCE_WAIT_MS + 2000);

describe("the balance after the reader's own money action", () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    setLiveState('down');
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe.each(ACTIONS)('$name', (action) => {
    it('is left to the live update that brings it: no read of the user of its own', async () => {
      setLiveState('open');
      const { store, fetch, reads, done } = await signedInFor(action);
      await action.run(store);
      expect(fetch.callsTo(...(action.route.split(' ') as [string, string]))).toHaveLength(1);
      // the API tells the tab after the commit, here just after the answer
      applyLiveEvent(store.dispatch, { event: 'balance', data: action.moved });
      await settle();
      expect(reads()).toEqual({ user: 1, history: 2 });
      expect(authApi.endpoints.getUser.select()(store.getState() as never).data).toMatchObject(
        action.moved,
      );
      done();
    });

    it('with the live updates down, reads the user and the history once itself', async () => {
      const { store, reads, done } = await signedInFor(action);
      await action.run(store);
      await vi.waitFor(() => expect(reads()).toEqual({ user: 2, history: 2 }));
      await settle();
      expect(reads()).toEqual({ user: 2, history: 2 });
      done();
    });
  });

  it('reads them itself once when the stream is open but no live update came in time', async () => {
    setLiveState('open');
    const { store, reads, done } = await signedInFor(ACTIONS[0]!);
    await ACTIONS[0]!.run(store);
    await vi.advanceTimersByTimeAsync(LIVE_BALANCE_WAIT_MS - 500);
    expect(reads()).toEqual({ user: 1, history: 1 });
    await settle();
    expect(reads()).toEqual({ user: 2, history: 2 });
    done();
  });

  it('counts a live update that came before the answer', async () => {
    setLiveState('open');
    const [transfer] = ACTIONS as [MoneyAction];
    const tab: { store?: Store } = {};
    const signed = await signedIn(transfer.history, {
      [transfer.route]: () => {
        // told as the transaction committed, read before the answer
        applyLiveEvent(tab.store!.dispatch, { event: 'balance', data: transfer.moved });
        return { body: ANSWER };
      },
    });
    tab.store = signed.store;
    await transfer.run(signed.store);
    await settle();
    expect(signed.reads()).toEqual({ user: 1, history: 2 });
    signed.done();
  });

  describe('a refund of a failed VPS creation, found following the server', () => {
    const BUSY = { ...SERVER, status: 'creating', operation: { id: 8, kind: 'create' } };
    const FAILED = {
      ...SERVER,
      status: 'failed',
      last_operation: { id: 8, kind: 'create', status: 'failed' },
    };

    /** The list shows server 5 being created and the row follows it (GET /servers/5). */
    async function following() {
      let server: unknown = BUSY;
      const signed = await signedIn('charges', {
        'GET /user/vps/servers': () => ({ body: { ...EMPTY_PAGE, data: [server] } }),
        'GET /user/vps/servers/5': () => ({ body: { server } }),
      });
      const list = signed.store.dispatch(
        vpsApi.endpoints.getVpsServers.initiate(FIRST_SERVERS_PAGE),
      );
      await list;
      const followed = signed.store.dispatch(vpsApi.endpoints.getVpsServer.initiate(5));
      await followed;
      return {
        ...signed,
        followed,
        fail: () => (server = FAILED),
        stop: () => {
          followed.unsubscribe();
          list.unsubscribe();
          signed.done();
        },
      };
    }

    it('is left to the live update of the refund, which came before the one of the server', async () => {
      setLiveState('open');
      const { store, reads, fetch, fail, stop } = await following();
      fail();
      applyLiveEvent(store.dispatch, { event: 'balance', data: { balance: 120 } });
      applyLiveEvent(store.dispatch, {
        event: 'server',
        data: { id: 5, status: 'failed', power: 'stopped' },
      });
      await vi.waitFor(() => expect(fetch.callsTo('GET', '/user/vps/servers/5')).toHaveLength(2));
      await settle();
      expect(reads()).toEqual({ user: 1, history: 2 });
      stop();
    });

    it('with the live updates down, reads the user and the charges once itself', async () => {
      const { reads, followed, fail, stop } = await following();
      fail();
      await followed.refetch();
      await vi.waitFor(() => expect(reads()).toEqual({ user: 2, history: 2 }));
      await settle();
      expect(reads()).toEqual({ user: 2, history: 2 });
      stop();
    });
  });
});
