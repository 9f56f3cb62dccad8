import { fireEvent, screen, within } from '@testing-library/react';
import type { MonitoringAccount, Subscription } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../../test/fixtures';
import { openSignedIn, stubSignedInApi as stubSignedIn } from '../../../test/signed-in';
import { monitoringAccount } from '../test-utils';

const ENDED: Subscription = {
  id: 4,
  plan: 'paid',
  accounts: 2,
  used_accounts: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  ends_at: '2026-02-01T00:00:00.000Z',
  active: false,
};
const RUNNING: Subscription = {
  ...ENDED,
  id: 5,
  ends_at: '2099-01-01T00:00:00.000Z',
  active: true,
};

function account(overrides: Partial<MonitoringAccount>): MonitoringAccount {
  return monitoringAccount({
    id: 1,
    subscription_id: ENDED.id,
    name: 'Old',
    hide_login: true,
    last_data_at: '2026-01-31T00:00:00.000Z',
    balance: 1000,
    equity: 1000,
    ...overrides,
  });
}

const accounts = [
  account({}),
  account({ id: 2, monitoring_id: 'QrStUvWxYz012345', subscription_id: RUNNING.id, name: 'Live' }),
];

describe('an ended subscription', () => {
  it('is named on its accounts in the list, with the way to renew; running ones say nothing', async () => {
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': { body: { accounts } },
    });
    await openSignedIn('/online-monitoring/accounts');
    const old = (await screen.findByRole('link', { name: 'Old' }, { timeout: 5000 })).closest(
      'tr',
    )!;
    expect(old).toHaveTextContent('Subscription ended');
    expect(within(old).getByRole('link', { name: 'Renew' })).toHaveAttribute(
      'href',
      '/online-monitoring',
    );
    const live = screen.getByRole('link', { name: 'Live' }).closest('tr')!;
    expect(live).not.toHaveTextContent('Subscription ended');
  });

  it("is said on the account's own page, with the way to renew", async () => {
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': { body: { accounts } },
    });
    await openSignedIn('/online-monitoring/AbCdEfGhIjKlMnOp');
    expect(
      await screen.findByText(/The subscription of this account has ended/, {}, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Renew the subscription' })).toHaveAttribute(
      'href',
      '/online-monitoring',
    );
  });

  it('is not said on the page of an account whose subscription runs', async () => {
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': { body: { accounts } },
    });
    await openSignedIn('/online-monitoring/QrStUvWxYz012345');
    expect(await screen.findByRole('heading', { name: 'Live' }, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByText(/The subscription of this account has ended/)).toBeNull();
  });
});

describe("the account's own page", () => {
  /** The whole list's request never answers; the page's own request answers with `answer`. */
  const stubHeldList = (answer: MonitoringAccount[]) =>
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': (call) =>
        call.query.has('monitoring_id')
          ? { body: { accounts: answer } }
          : new Promise<never>(() => undefined),
      'GET /monitoring/QrStUvWxYz012345': {
        status: 404,
        body: {
          code: 'MONITORING_PUBLIC_NOT_FOUND',
          message: 'This monitoring page does not exist or is private',
        },
      },
    });

  it('shows the account without waiting for the list of all of them', async () => {
    const api = stubHeldList([accounts[1]!]);
    await openSignedIn('/online-monitoring/QrStUvWxYz012345');
    expect(await screen.findByRole('heading', { name: 'Live' }, { timeout: 5000 })).toBeVisible();
    expect(
      api.callsTo('GET', '/user/monitoring/accounts').map((c) => c.query.get('monitoring_id')),
    ).toEqual(['QrStUvWxYz012345']);
  });

  it('coming from the list, shows the account the list has before its own answer', async () => {
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': (call) =>
        call.query.has('monitoring_id')
          ? new Promise<never>(() => undefined)
          : { body: { accounts } },
    });
    const { user } = await openSignedIn('/online-monitoring/accounts');
    await user.click(await screen.findByRole('link', { name: 'Live' }, { timeout: 5000 }));
    expect(await screen.findByRole('heading', { name: 'Live' }, { timeout: 5000 })).toBeVisible();
  });

  it("is the public page when the account is not the reader's", async () => {
    stubHeldList([]);
    await openSignedIn('/online-monitoring/QrStUvWxYz012345');
    expect(
      await screen.findByText(
        'This monitoring page does not exist or is private',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Live' })).toBeNull();
  });
});

describe('the monitoring tables on a phone', () => {
  /** jsdom lays nothing out: a frame as narrow as a phone's card, its table wider. */
  const overflowing = (table: HTMLElement) => {
    const frame = table.parentElement!;
    Object.defineProperty(frame, 'scrollWidth', { configurable: true, value: 830 });
    Object.defineProperty(frame, 'clientWidth', { configurable: true, value: 341 });
    fireEvent(window, new Event('resize'));
    return frame;
  };

  it('the accounts scroll inside their frame with the hidden edge shaded; the open positions are cards, their profit in sight', async () => {
    stubSignedIn({
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [ENDED, RUNNING] } },
      'GET /user/monitoring/accounts': { body: { accounts } },
      'GET /user/monitoring/accounts/2/positions': {
        body: {
          at: '2026-03-02T10:00:00.000Z',
          positions: [
            {
              ticket: 11,
              symbol: 'EURUSD',
              type: 'buy',
              volume: 0.1,
              open_time: '2026-03-02T09:00:00.000Z',
              open_price: 1.085,
              current_price: 1.0862,
              sl: 0,
              tp: 0,
              profit: 12,
              swap: 0,
            },
          ],
        },
      },
    });
    const { user } = await openSignedIn('/online-monitoring/accounts', { width: 375 });
    const list = await screen.findByRole('table', { name: 'My accounts' }, { timeout: 5000 });
    const frame = overflowing(list);
    expect(frame.parentElement).toHaveAttribute('data-hidden', 'end');
    expect(screen.getByRole('group', { name: 'My accounts' })).toBe(frame);
    expect(frame).toHaveAttribute('tabindex', '0');

    await user.click(screen.getByRole('link', { name: 'Live' }));
    const positions = await screen.findByRole(
      'list',
      { name: 'Open positions' },
      { timeout: 5000 },
    );
    expect(within(positions).getByRole('listitem')).toHaveTextContent(
      /^EURUSDBuy 0\.10Profit\$12\.00/,
    );
    expect(screen.queryByRole('table', { name: 'Open positions' })).toBeNull();
  });
});

describe('the owner\'s "live" dot', () => {
  /** A moment `ms` ago. */
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  /** Both terminals connected at their last data: one reporting, one silent for an hour. */
  const stub = (language: 'en' | 'ru' = 'en') =>
    stubSignedIn(
      {
        'GET /user/monitoring/subscriptions': { body: { subscriptions: [RUNNING] } },
        'GET /user/monitoring/accounts': {
          body: {
            accounts: [
              account({ subscription_id: RUNNING.id, name: 'Fresh', last_data_at: ago(60_000) }),
              account({
                id: 2,
                monitoring_id: 'QrStUvWxYz012345',
                subscription_id: RUNNING.id,
                name: 'Quiet',
                last_data_at: ago(3_600_000),
              }),
            ].map((a) => ({ ...a, terminal_connected: true })),
          },
        },
      },
      { ...testUser, language },
    );
  const isOn = (place: HTMLElement) => place.querySelector('[class*="dotOn"]') !== null;

  it('is green on the accounts list only for fresh data; a silent publisher reads "No data since …"', async () => {
    stub();
    await openSignedIn('/online-monitoring/accounts');
    const fresh = (await screen.findByRole('link', { name: 'Fresh' }, { timeout: 5000 })).closest(
      'tr',
    )!;
    const quiet = screen.getByRole('link', { name: 'Quiet' }).closest('tr')!;
    expect(isOn(fresh)).toBe(true);
    expect(fresh).toHaveTextContent('terminal connected');
    expect(isOn(quiet)).toBe(false);
    expect(quiet).toHaveTextContent('No data since');
    expect(quiet).not.toHaveTextContent('connected');
  });

  it("is off on a silent account's page, which says since when in Russian too", async () => {
    stub('ru');
    await openSignedIn('/online-monitoring/QrStUvWxYz012345', { language: 'ru' });
    const title = await screen.findByRole('heading', { name: 'Quiet' }, { timeout: 5000 });
    const head = title.closest('article')!;
    expect(isOn(head)).toBe(false);
    expect(head).toHaveTextContent(/Нет данных с /);
    expect(head).not.toHaveTextContent('Терминал подключён');
  });

  it("is green on a reporting account's page", async () => {
    stub();
    await openSignedIn('/online-monitoring/AbCdEfGhIjKlMnOp');
    const title = await screen.findByRole('heading', { name: 'Fresh' }, { timeout: 5000 });
    const head = title.closest('article')!;
    expect(isOn(head)).toBe(true);
    expect(head).toHaveTextContent(/Terminal connected, last data /);
  });
});
