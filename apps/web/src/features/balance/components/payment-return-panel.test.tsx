import { act, screen, waitFor, within } from '@testing-library/react';
import type { PaymentStatus } from '@tradehost/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLiveEvent } from '../../../app/live-updates';
import { payment, renderBalance, searchOf, stubBalanceApi, user } from '../test-utils';

const PATH = '/user/balance/payments/41';

/** The answers of GET /user/balance/payments/41 in turn; the last one repeats. */
function statuses(...sequence: PaymentStatus[]) {
  let index = 0;
  return () => {
    const status = sequence[Math.min(index, sequence.length - 1)]!;
    index += 1;
    return { body: { payment: payment({ status }) } };
  };
}

const panel = () => screen.getByRole('region', { name: /^Payment #41/ });

describe('payment status after the gateway', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 2 s while Processing, then shows Paid, refreshes the balances and stops', async () => {
    let balance = 150.5;
    const answers = statuses('processing', 'processing', 'paid');
    const api = stubBalanceApi({
      'GET /user/auth': () => ({ body: user({ balance }) }),
      [`GET ${PATH}`]: () => {
        const answer = answers();
        if (answer.body.payment.status === 'paid') balance = 175.5;
        return answer;
      },
    });
    renderBalance('/balance-operations?payment=41');

    await waitFor(() => expect(within(panel()).getByText('Processing')).toBeInTheDocument());
    expect(panel()).toHaveAccessibleName('Payment #41: $25.00, Bank card');
    expect(
      within(panel()).getByText(
        'Waiting for the payment system to confirm the payment. This updates by itself.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('GET', PATH)).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('summary-balance')).toHaveTextContent('$150.50'));
    const userFetches = api.callsTo('GET', '/user/auth').length;

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(api.callsTo('GET', PATH)).toHaveLength(2));
    expect(within(panel()).getByText('Processing')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(within(panel()).getByText('Paid')).toBeInTheDocument());
    expect(
      within(panel()).getByText('The payment is confirmed: $25.00 is on your balance.'),
    ).toBeInTheDocument();
    // the status text is a live region
    expect(within(panel()).getByRole('status')).toHaveTextContent('Paid');

    // 'User' refetched: the header's and the summary's balance catch up
    await waitFor(() => expect(screen.getByTestId('summary-balance')).toHaveTextContent('$175.50'));
    expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThan(userFetches);

    const calls = api.callsTo('GET', PATH).length;
    expect(calls).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.callsTo('GET', PATH)).toHaveLength(calls);
  });

  it('reads the top-up history and the balance once when the live update of the credit came', async () => {
    let credited = false;
    const api = stubBalanceApi({
      'GET /user/auth': () => ({ body: user({ balance: credited ? 175.5 : 150.5 }) }),
      [`GET ${PATH}`]: () => ({
        body: { payment: payment({ status: credited ? 'paid' : 'processing' }) },
      }),
    });
    const { store } = renderBalance('/balance-operations?payment=41&tab=history');
    await waitFor(() => expect(within(panel()).getByText('Processing')).toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('summary-balance')).toHaveTextContent('$150.50'));
    const HISTORY = '/user/balance/history/payments';
    await waitFor(() => expect(api.callsTo('GET', HISTORY)).toHaveLength(1));
    const userFetches = api.callsTo('GET', '/user/auth').length;

    // the gateway's notification credits the payment; the server tells this tab at once
    credited = true;
    act(() => applyLiveEvent(store.dispatch, { event: 'balance', data: { balance: 175.5 } }));
    await waitFor(() => expect(within(panel()).getByText('Paid')).toBeInTheDocument());
    expect(screen.getByTestId('summary-balance')).toHaveTextContent('$175.50');
    await act(() => vi.advanceTimersByTimeAsync(5000));

    // the live update read the history again and patched the balance: the panel adds no reads
    expect(api.callsTo('GET', HISTORY)).toHaveLength(2);
    expect(api.callsTo('GET', '/user/auth')).toHaveLength(userFetches);
  });

  it('says Not paid and offers to try again with the same method', async () => {
    const api = stubBalanceApi({ [`GET ${PATH}`]: statuses('not_paid') });
    const { user: events, router } = renderBalance('/balance-operations?payment=41&tab=history');

    await waitFor(() => expect(within(panel()).getByText('Not paid')).toBeInTheDocument());
    expect(
      within(panel()).getByText('The payment was not completed, and your balance has not changed.'),
    ).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(api.callsTo('GET', PATH)).toHaveLength(1);

    await events.click(within(panel()).getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('region', { name: /^Payment #41/ })).toBeNull();
    const search = searchOf(router);
    expect(search.get('payment')).toBeNull();
    expect(search.get('tab')).toBe('topup');
    expect(await screen.findByRole('radio', { name: 'Bank card' })).toBeChecked();
  });

  it('removes the parameter when closed', async () => {
    stubBalanceApi({ [`GET ${PATH}`]: statuses('paid') });
    const { user: events, router } = renderBalance('/balance-operations?tab=transfer&payment=41');
    await waitFor(() => expect(within(panel()).getByText('Paid')).toBeInTheDocument());

    await events.click(screen.getByRole('button', { name: 'Close the payment status' }));
    expect(screen.queryByRole('region', { name: /^Payment #41/ })).toBeNull();
    expect(searchOf(router).get('payment')).toBeNull();
    expect(searchOf(router).get('tab')).toBe('transfer');
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });

  it('says so when the payment does not exist, without asking again', async () => {
    const api = stubBalanceApi();
    renderBalance('/balance-operations?payment=41');
    expect(await screen.findByText('This payment was not found.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(api.callsTo('GET', PATH)).toHaveLength(1);
  });

  it('shows a rejected crypto payment with its reason', async () => {
    stubBalanceApi({
      [`GET ${PATH}`]: {
        body: {
          payment: payment({
            method: 'crypto',
            status: 'rejected',
            reason: 'No such transaction in the network',
          }),
        },
      },
    });
    renderBalance('/balance-operations?payment=41');
    expect(
      await screen.findByText(
        'The payment was rejected. Reason: No such transaction in the network',
      ),
    ).toBeInTheDocument();
    expect(within(panel()).getByText('Rejected')).toBeInTheDocument();
  });
});
