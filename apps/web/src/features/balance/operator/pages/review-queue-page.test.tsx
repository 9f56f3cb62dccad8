import { screen, waitFor, within } from '@testing-library/react';
import type { AdminPayment } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import type { StubCall } from '../../../../test/fetch-stub';
import {
  adminUser,
  carol,
  cryptoPayment,
  olga,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

// the first test of the file also waits for the lazy pages to compile
const queueTable = () => screen.findByRole('table', { name: 'Review queue' }, { timeout: 5000 });

/** A queue the stub keeps: a decided payment leaves it, as it does on the server. */
function serverQueue(payments: AdminPayment[]) {
  let queue = [...payments];
  return {
    list: () => ({ body: page(queue) }),
    decide: (id: number, status: 'paid' | 'rejected') => {
      const payment = queue.find((row) => row.id === id)!;
      queue = queue.filter((row) => row.id !== id);
      return {
        body: { payment: { ...payment, status }, message: 'ok', code: 'PAYMENT_CONFIRMED' },
      };
    },
  };
}

const second = cryptoPayment({
  id: 8,
  amount: 120.5,
  user: carol,
  network: 'BTC',
  txid: 'ffeeddccbbaa99887766554433221100',
  wallet: 'bc1qcarolwalletaddress000000',
});

describe('review queue', () => {
  it('lists the crypto payments under review with their details', async () => {
    stubOperatorApi({ 'GET /admin/payments': { body: page([cryptoPayment(), second]) } });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Date',
      'User',
      'Network',
      'Amount',
      "Payer's wallet",
      'TXID',
      'Waiting',
      'Actions',
    ]);
    expect(rows).toHaveLength(2);
    const first = rows[0]!;
    expect(within(first).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(first).toHaveTextContent('USDT-TRC20');
    expect(first).toHaveTextContent('$50.00');
    expect(first).toHaveTextContent('TXYZpayerWallet1234567890abcdef');
    expect(first).toHaveTextContent('3 hr. ago');
    expect(rows[1]).toHaveTextContent('$120.50');
    expect(queriesTo('/admin/payments')[0]).toMatchObject({
      status: 'under_review',
      method: 'crypto',
      page: '1',
    });

    await user.click(within(first).getByRole('button', { name: 'Copy TXID' }));
    expect(await navigator.clipboard.readText()).toBe(cryptoPayment().txid);
    expect(await within(first).findByText('Copied')).toBeInTheDocument();
  });

  it('shows each request’s exact amount and what the explorer saw of its TXID', async () => {
    const checked = (chain: Partial<NonNullable<AdminPayment['chain']>>) => ({
      checked_at: new Date().toISOString(),
      driver: 'trongrid',
      state: 'unconfirmed' as const,
      reason: null,
      to: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      amount: '50.37',
      token: null,
      confirmations: 3,
      required: 19,
      ...chain,
    });
    const waiting = cryptoPayment({
      amount: 50.37,
      pay_amount: '50.37',
      pay_asset: 'USDT',
      chain: checked({}),
    });
    const short = cryptoPayment({
      id: 9,
      amount: 70.12,
      pay_amount: '70.12',
      pay_asset: 'USDT',
      user: carol,
      txid: 'ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100',
      chain: checked({ state: 'mismatch', reason: 'amount', amount: '70' }),
    });
    const byHand = cryptoPayment({ id: 10, amount: 20.5, user: carol, txid: 'abcdef0123456789' });
    stubOperatorApi({ 'GET /admin/payments': { body: page([waiting, short, byHand]) } });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    const [, first, second, third] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('$50.37');
    expect(first).toHaveTextContent('50.37 USDT');
    expect(first).toHaveTextContent('Sends 50.37 USDT to our wallet; 3 of 19 confirmations');
    expect(second).toHaveTextContent('Does not match: sends 70 USDT');
    // a payment reported before requests had amounts of their own: dollars only
    expect(within(third!).getAllByRole('cell')[3]).toHaveTextContent(/^\$20\.50$/);

    await user.click(within(first!).getByRole('button', { name: /^Confirm/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    expect(within(dialog).getByText('Exact amount').nextElementSibling).toHaveTextContent(
      '50.37 USDT',
    );
    expect(within(dialog).getByText('On the network').nextElementSibling).toHaveTextContent(
      '3 of 19 confirmations',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(third!).getByRole('button', { name: /^Confirm/ }));
    const manual = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    expect(within(manual).getByText('On the network').nextElementSibling).toHaveTextContent(
      'No explorer reads this network: check the TXID by hand',
    );
  });

  it('confirms a payment with an Idempotency-Key, and the row leaves the queue', async () => {
    const server = serverQueue([cryptoPayment(), second]);
    const http = stubOperatorApi({
      'GET /admin/payments': server.list,
      'POST /admin/payments/7/confirm': () => server.decide(7, 'paid'),
    });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    const row = within(table).getAllByRole('row')[1]!;
    await user.click(within(row).getByRole('button', { name: /^Confirm/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    expect(dialog).toHaveAccessibleDescription('Credit $50.00 to bob@example.com?');
    // the focus starts on Cancel, not on the money-moving button
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(http.callsTo('POST', '/admin/payments/7/confirm')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Credit $50.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = http.callsTo('POST', '/admin/payments/7/confirm');
    expect(call?.body).toEqual({});
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(within(table).getByText('carol@example.com')).toBeInTheDocument();
    expect(
      await screen.findByText('$50.00 credited to bob@example.com', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    // the focus is not lost with the row: it is on the queue's heading
    expect(screen.getByRole('heading', { level: 2, name: 'Review queue' })).toHaveFocus();
  });

  it('keeps the key when the answer is lost, and sends the same one again', async () => {
    const server = serverQueue([cryptoPayment()]);
    let attempts = 0;
    const http = stubOperatorApi({
      'GET /admin/payments': server.list,
      'POST /admin/payments/7/confirm': () =>
        ++attempts === 1 ? 'network-error' : server.decide(7, 'paid'),
    });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    await user.click(within(table).getByRole('button', { name: /^Confirm/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Credit $50.00' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No connection');

    await user.click(within(dialog).getByRole('button', { name: 'Credit $50.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const keys = http
      .callsTo('POST', '/admin/payments/7/confirm')
      .map((call: StubCall) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    await waitFor(() =>
      expect(screen.getByText('No payments are waiting for review.')).toBeVisible(),
    );
  });

  it('asks for a reason before rejecting, and sends it', async () => {
    const server = serverQueue([cryptoPayment(), second]);
    const http = stubOperatorApi({
      'GET /admin/payments': server.list,
      'POST /admin/payments/7/reject': () => server.decide(7, 'rejected'),
    });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    const row = within(table).getAllByRole('row')[1]!;
    await user.click(within(row).getByRole('button', { name: /^Reject/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the payment' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Reject the payment' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(http.callsTo('POST', '/admin/payments/7/reject')).toHaveLength(0);

    await user.click(reason);
    await user.paste('x'.repeat(501));
    await user.click(within(dialog).getByRole('button', { name: 'Reject the payment' }));
    expect(
      await within(dialog).findByText('The reason must be at most 500 characters'),
    ).toBeInTheDocument();
    expect(http.callsTo('POST', '/admin/payments/7/reject')).toHaveLength(0);

    await user.clear(reason);
    await user.type(reason, '  No such transaction on the network  ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject the payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = http.callsTo('POST', '/admin/payments/7/reject');
    expect(call?.body).toEqual({ reason: 'No such transaction on the network' });
    expect(call?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(within(table).getByText('carol@example.com')).toBeInTheDocument();
  });

  it('says so and refreshes when someone else has already reviewed the payment (409)', async () => {
    let listed = 0;
    const http = stubOperatorApi({
      'GET /admin/payments': () => ({
        body: page(++listed === 1 ? [cryptoPayment(), second] : [second]),
      }),
      'POST /admin/payments/7/confirm': {
        status: 409,
        body: {
          message: 'This payment has already been reviewed',
          code: 'PAYMENT_ALREADY_REVIEWED',
        },
      },
    });
    const { user } = await openOperator('/operator');
    const table = await queueTable();
    await user.click(
      within(within(table).getAllByRole('row')[1]!).getByRole('button', { name: /^Confirm/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Credit $50.00' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Someone else has already reviewed this payment. The queue has been refreshed.',
    );
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(http.callsTo('GET', '/admin/payments').length).toBeGreaterThanOrEqual(2);
  });

  it('filters by status, and decided payments have no review buttons', async () => {
    stubOperatorApi({
      'GET /admin/payments': () => {
        const status = queriesTo('/admin/payments').at(-1)?.status;
        return {
          body: page(
            status === 'paid'
              ? [
                  cryptoPayment({
                    status: 'paid',
                    reviewed_by: olga,
                    reviewed_at: '2025-01-10T12:00:00.000Z',
                  }),
                ]
              : [cryptoPayment()],
          ),
        };
      },
    });
    const { user, router } = await openOperator('/operator');
    await queueTable();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Paid');
    await waitFor(() => expect(router.state.location.search).toBe('?status=paid'));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Review queue' })).toHaveTextContent(
        'by olga@tradehost.test',
      ),
    );
    expect(queriesTo('/admin/payments').at(-1)).toMatchObject({ status: 'paid', method: 'crypto' });
    expect(screen.queryByRole('button', { name: /^Confirm/ })).toBeNull();

    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Payment method' }),
      'All methods',
    );
    await waitFor(() => expect(queriesTo('/admin/payments').at(-1)).not.toHaveProperty('method'));
  });

  it('shows an empty queue, and a failed load with a way to try again', async () => {
    let fail = true;
    stubOperatorApi({
      'GET /admin/payments': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page([]) },
    });
    const { user } = await openOperator('/operator');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No payments are waiting for review.')).toBeInTheDocument();
  });

  it('shows cards instead of a table on a phone, with the same actions', async () => {
    stubOperatorApi({ 'GET /admin/payments': { body: page([cryptoPayment(), second]) } });
    await openOperator('/operator', { width: 375 });
    const list = await screen.findByRole('list', { name: 'Review queue' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Amount')).toBeInTheDocument();
    expect(cards[0]).toHaveTextContent('$50.00');
    expect(within(cards[0]!).getByRole('button', { name: /^Confirm/ })).toBeInTheDocument();
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { 'GET /admin/payments': { body: page([cryptoPayment()]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Очередь проверки' });
    expect(table).toHaveTextContent('50,00 $');
    expect(within(table).getByRole('button', { name: /^Подтвердить/ })).toBeInTheDocument();
  });
});
