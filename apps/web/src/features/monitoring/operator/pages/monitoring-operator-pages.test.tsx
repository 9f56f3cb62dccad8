import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminMonitoringAccount, AdminSubscription } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  bob,
  carol,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const FUTURE = new Date(Date.now() + 20 * 86_400_000).toISOString();

function subscription(overrides: Partial<AdminSubscription> = {}): AdminSubscription {
  return {
    id: 12,
    plan: 'paid',
    accounts: 5,
    used_accounts: 2,
    created_at: '2026-02-10T09:00:00.000Z',
    ends_at: FUTURE,
    active: true,
    user: bob,
    ...overrides,
  };
}

function account(overrides: Partial<AdminMonitoringAccount> = {}): AdminMonitoringAccount {
  return {
    id: 3,
    monitoring_id: 'AbCdEfGhIjKlMnOp',
    subscription_id: 12,
    subscription_active: true,
    user: carol,
    login: 5012345,
    platform: 'MT5',
    name: 'Main',
    server: 'Broker-Live',
    company: 'Broker Ltd',
    is_public: true,
    views: 7,
    ea_version: '1.2.3',
    hello_at: '2026-02-10T09:00:00.000Z',
    last_data_at: new Date(Date.now() - 60_000).toISOString(),
    terminal_connected: true,
    publisher: 'reporting',
    ...overrides,
  };
}

describe('monitoring prices', () => {
  const prices = {
    account_month_price: 3,
    discounts: [
      { months: 1, discount_percent: 0 },
      { months: 3, discount_percent: 5 },
      { months: 6, discount_percent: 10 },
      { months: 12, discount_percent: 15 },
    ],
  };

  it('shows the saved prices, refuses a bad one on its field without a call, and saves the rest together', async () => {
    const http = stubOperatorApi({
      'GET /admin/monitoring/prices': { body: prices },
      'PUT /admin/monitoring/prices': (call) => ({ body: call.body }),
    });
    const user = userEvent.setup();
    await openOperator('/operator/monitoring/prices');
    const price = await screen.findByRole(
      'textbox',
      { name: /Price of an account-month/ },
      { timeout: 5000 },
    );
    expect(price).toHaveValue('3.00');
    expect(screen.getByRole('textbox', { name: '12 months, %' })).toHaveValue('15');
    // 12 x $3 less 15 % = $30.60
    expect(screen.getByText('Example: 1 account for 12 months costs $30.60.')).toBeVisible();

    await user.clear(price);
    await user.type(price, '0');
    const twelve = screen.getByRole('textbox', { name: '12 months, %' });
    await user.clear(twelve);
    await user.type(twelve, '95');
    await user.click(screen.getByRole('button', { name: 'Save the prices' }));
    expect(
      await screen.findByText('Enter a price above 0 with at most two decimals'),
    ).toBeVisible();
    expect(screen.getByText('Enter a whole number from 0 to 90')).toBeVisible();
    expect(http.callsTo('PUT', '/admin/monitoring/prices')).toHaveLength(0);

    await user.clear(price);
    await user.type(price, '4,5');
    await user.clear(twelve);
    await user.type(twelve, '20');
    await user.click(screen.getByRole('button', { name: 'Save the prices' }));
    await waitFor(() => expect(http.callsTo('PUT', '/admin/monitoring/prices')).toHaveLength(1));
    expect(http.callsTo('PUT', '/admin/monitoring/prices')[0]!.body).toEqual({
      account_month_price: '4.50',
      discounts: [
        { months: 1, discount_percent: 0 },
        { months: 3, discount_percent: 5 },
        { months: 6, discount_percent: 10 },
        { months: 12, discount_percent: 20 },
      ],
    });
  });
});

describe('monitoring subscriptions', () => {
  it('lists subscriptions with owner, plan, use and state, filters by state, and extends a paid one with months and a reason', async () => {
    const free = subscription({
      id: 11,
      plan: 'free',
      accounts: 1,
      used_accounts: 1,
      ends_at: null,
    });
    const ended = subscription({ id: 10, active: false, ends_at: '2026-01-01T00:00:00.000Z' });
    const http = stubOperatorApi({
      'GET /admin/monitoring/subscriptions': { body: page([subscription(), free, ended]) },
      'POST /admin/monitoring/subscriptions/12/extend': {
        body: {
          subscription: subscription({ ends_at: '2027-01-01T10:00:00.000Z' }),
          message: 'ok',
        },
      },
    });
    const user = userEvent.setup();
    await openOperator('/operator/monitoring/subscriptions');
    const table = await screen.findByRole(
      'table',
      { name: 'Monitoring subscriptions' },
      { timeout: 5000 },
    );
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Subscription', 'User', 'Plan', 'Accounts', 'Started', 'Ends', 'State', 'Actions']);
    expect(rows[0]).toHaveTextContent('#12');
    expect(rows[0]).toHaveTextContent('Paid');
    expect(rows[0]).toHaveTextContent('2 of 5');
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[1]).toHaveTextContent('Free');
    expect(rows[1]).toHaveTextContent('No end');
    expect(within(rows[1]!).queryByRole('button', { name: /Extend/ })).toBeNull();
    expect(rows[2]).toHaveTextContent('Ended');

    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'ended');
    await waitFor(() =>
      expect(queriesTo('/admin/monitoring/subscriptions').at(-1)).toEqual({
        state: 'ended',
        page: '1',
        per_page: '20',
      }),
    );

    await user.click(
      within(rows[0]!).getByRole('button', { name: 'Extend subscription #12 of bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Extend subscription #12' });
    // the reason is required: nothing is sent without it
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeVisible();
    expect(http.callsTo('POST', '/admin/monitoring/subscriptions/12/extend')).toHaveLength(0);

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Months to add' }), '3');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Downtime on 3 May');
    await user.click(within(dialog).getByRole('button', { name: 'Extend' }));
    await waitFor(() =>
      expect(http.callsTo('POST', '/admin/monitoring/subscriptions/12/extend')).toHaveLength(1),
    );
    const sent = http.callsTo('POST', '/admin/monitoring/subscriptions/12/extend')[0]!;
    expect(sent.body).toEqual({ months: 3, reason: 'Downtime on 3 May' });
    expect(sent.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('monitored accounts', () => {
  /** The accounts page opened: the rows of its table, the header row first. */
  const accountRows = async () => {
    await openOperator('/operator/monitoring/accounts');
    const table = await screen.findByRole(
      'table',
      { name: 'Monitored accounts' },
      { timeout: 5000 },
    );
    return within(table).getAllByRole('row');
  };

  it("shows each account's owner, broker, publisher version, last data and state, and filters by state", async () => {
    stubOperatorApi({
      'GET /admin/monitoring/accounts': {
        body: page([
          account(),
          account({
            id: 4,
            name: 'Quiet',
            publisher: 'never',
            ea_version: null,
            last_data_at: null,
            hello_at: null,
            server: null,
            company: null,
            is_public: false,
            views: 1,
            subscription_active: false,
          }),
        ]),
      },
    });
    const user = userEvent.setup();
    const [, first, second] = await accountRows();
    expect(first).toHaveTextContent('MT5 · 5012345');
    expect(first).toHaveTextContent('Broker Ltd');
    expect(first).toHaveTextContent('1.2.3');
    expect(first).toHaveTextContent('Reporting');
    expect(first).toHaveTextContent('Terminal connected');
    expect(first).toHaveTextContent('7 views');
    expect(within(first!).getByRole('link', { name: /^Public page/ })).toHaveAttribute(
      'href',
      '/online-monitoring/AbCdEfGhIjKlMnOp',
    );
    expect(within(first!).getByRole('link', { name: '#12' })).toHaveAttribute(
      'href',
      '/operator/monitoring/subscriptions?search=12',
    );
    expect(second).toHaveTextContent('No data yet');
    expect(second).toHaveTextContent('Never');
    expect(second).toHaveTextContent('Private');
    expect(second).toHaveTextContent('1 view');
    expect(second).toHaveTextContent('Subscription ended');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Publisher' }), 'silent');
    await waitFor(() =>
      expect(queriesTo('/admin/monitoring/accounts').at(-1)).toEqual({
        publisher: 'silent',
        page: '1',
        per_page: '20',
      }),
    );
  });

  it("says a silent publisher's terminal state is that of its last data, not of now", async () => {
    stubOperatorApi({
      'GET /admin/monitoring/accounts': {
        body: page([
          account({
            publisher: 'silent',
            last_data_at: new Date(Date.now() - 3_600_000).toISOString(),
            terminal_connected: true,
          }),
          account({ id: 5, name: 'Cut off', terminal_connected: false }),
        ]),
      },
    });
    const [, silent, reporting] = await accountRows();
    expect(silent).toHaveTextContent('Silent');
    expect(silent).toHaveTextContent('At its last data: terminal connected');
    expect(reporting).toHaveTextContent('Reporting');
    expect(reporting).toHaveTextContent('Terminal disconnected');
    expect(reporting).not.toHaveTextContent('last data');
  });

  it('says so when no account is monitored yet', async () => {
    stubOperatorApi({ 'GET /admin/monitoring/accounts': { body: page([]) } });
    await openOperator('/operator/monitoring/accounts');
    expect(
      await screen.findByText('No accounts are monitored yet.', {}, { timeout: 5000 }),
    ).toBeVisible();
  });
});
