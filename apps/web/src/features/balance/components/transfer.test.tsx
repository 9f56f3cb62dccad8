import { screen, waitFor } from '@testing-library/react';
import type { TransferRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderBalance, stubBalanceApi, user, type Handler } from '../test-utils';

const BOB = { name: 'Bob Trader', email: 'bob@example.com' };

const preview: Handler = (call) => ({
  body: { recipient: BOB, amount: Number((call.body as TransferRequest).amount) },
});

function transferDone(amount: number, balance: number) {
  return {
    status: 201,
    body: {
      transfer: {
        id: 9,
        created_at: '2026-11-21T10:00:00.000Z',
        amount,
        status: 'sent',
        counterparty: BOB,
      },
      balance,
      message: 'The transfer is complete',
      code: 'TRANSFER_DONE',
    },
  };
}

async function openTransfer() {
  const view = renderBalance('/balance-operations?tab=transfer');
  await screen.findByRole('tab', { name: 'Transfer', selected: true });
  return view;
}

async function fill(
  events: ReturnType<typeof renderBalance>['user'],
  amount: string,
  email: string,
) {
  await events.clear(screen.getByLabelText('Amount (USD)'));
  await events.type(screen.getByLabelText('Amount (USD)'), amount);
  await events.clear(screen.getByLabelText("Recipient's e-mail"));
  await events.type(screen.getByLabelText("Recipient's e-mail"), email);
  await events.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('transfer', () => {
  it('asks to confirm with the recipient’s name, then sends the money and refreshes the balances', async () => {
    let balance = 150.5;
    const api = stubBalanceApi({
      'GET /user/auth': () => ({ body: user({ balance }) }),
      'POST /user/balance/transfer/preview': preview,
      'POST /user/balance/transfer': () => {
        balance = 100.5;
        return transferDone(50, 100.5);
      },
    });
    const { user: events } = await openTransfer();
    expect(await screen.findByText('Available: $150.50')).toBeInTheDocument();

    await fill(events, '50', 'bob@example.com');

    const confirm = await screen.findByRole('heading', { name: 'Confirm the transfer' });
    expect(confirm).toHaveFocus();
    expect(screen.getByText('Send $50.00 to Bob Trader (bob@example.com)?')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/transfer/preview').map((c) => c.body)).toEqual([
      { email: 'bob@example.com', amount: '50.00' },
    ]);
    // nothing has moved yet
    expect(api.callsTo('POST', '/user/balance/transfer')).toHaveLength(0);
    const userFetches = api.callsTo('GET', '/user/auth').length;

    await events.click(screen.getByRole('button', { name: 'Send $50.00' }));

    expect(await screen.findByRole('heading', { name: 'Transfer complete' })).toHaveFocus();
    expect(screen.getByText('$50.00 sent to Bob Trader (bob@example.com).')).toBeInTheDocument();
    expect(screen.getByText('Your balance is now $100.50.')).toBeInTheDocument();
    const transfers = api.callsTo('POST', '/user/balance/transfer');
    expect(transfers.map((c) => c.body)).toEqual([{ email: 'bob@example.com', amount: '50.00' }]);
    expect(transfers[0]?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('summary-balance')).toHaveTextContent('$100.50'));
    expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThan(userFetches);

    await events.click(screen.getByRole('button', { name: 'New transfer' }));
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('');
  });

  it('goes back to the form with what was typed', async () => {
    stubBalanceApi({ 'POST /user/balance/transfer/preview': preview });
    const { user: events } = await openTransfer();
    await fill(events, '12.5', 'bob@example.com');
    await screen.findByText('Send $12.50 to Bob Trader (bob@example.com)?');
    await events.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('12.5');
    expect(screen.getByLabelText("Recipient's e-mail")).toHaveValue('bob@example.com');
  });

  it('shows "E-mail does not exist" on the e-mail field', async () => {
    stubBalanceApi({
      'POST /user/balance/transfer/preview': {
        status: 422,
        body: {
          message: 'E-mail does not exist',
          code: 'RECIPIENT_NOT_FOUND',
          errors: { email: ['E-mail does not exist'] },
        },
      },
    });
    const { user: events } = await openTransfer();
    await fill(events, '50', 'nobody@example.com');

    const email = screen.getByLabelText("Recipient's e-mail");
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(
      'E-mail does not exist The e-mail the recipient signs in with',
    );
    expect(email).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('E-mail does not exist');
    expect(screen.queryByRole('heading', { name: 'Confirm the transfer' })).toBeNull();
  });

  it('translates the server’s field error for a Russian reader', async () => {
    stubBalanceApi({
      'POST /user/balance/transfer/preview': {
        status: 422,
        body: {
          message: 'E-mail does not exist',
          code: 'RECIPIENT_NOT_FOUND',
          errors: { email: ['E-mail does not exist'] },
        },
      },
    });
    const { user: events } = renderBalance('/balance-operations?tab=transfer', {
      language: 'ru',
    });
    await events.type(await screen.findByLabelText('Сумма (USD)'), '50');
    await events.type(screen.getByLabelText('E-mail получателя'), 'nobody@example.com');
    await events.click(screen.getByRole('button', { name: 'Продолжить' }));

    const email = screen.getByLabelText('E-mail получателя');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(
      'Такой e-mail не зарегистрирован E-mail, с которым получатель входит в аккаунт',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Такой e-mail не зарегистрирован');
  });

  it('shows "Insufficient funds for the transfer" on the amount field', async () => {
    stubBalanceApi({
      'POST /user/balance/transfer/preview': {
        status: 422,
        body: {
          message: 'Insufficient funds for the transfer',
          code: 'INSUFFICIENT_FUNDS_TRANSFER',
          errors: { amount: ['Insufficient funds for the transfer'] },
        },
      },
    });
    const { user: events } = await openTransfer();
    await fill(events, '5000', 'bob@example.com');

    const amount = screen.getByLabelText('Amount (USD)');
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription(
      'Insufficient funds for the transfer Available: $150.50',
    );
    expect(amount).toHaveFocus();
  });

  it('returns to the form with the field marked when the transfer itself is refused', async () => {
    stubBalanceApi({
      'POST /user/balance/transfer/preview': preview,
      'POST /user/balance/transfer': {
        status: 422,
        body: {
          message: 'Insufficient funds for the transfer',
          code: 'INSUFFICIENT_FUNDS_TRANSFER',
          errors: { amount: ['Insufficient funds for the transfer'] },
        },
      },
    });
    const { user: events } = await openTransfer();
    await fill(events, '140', 'bob@example.com');
    await events.click(await screen.findByRole('button', { name: 'Send $140.00' }));

    const amount = await screen.findByLabelText('Amount (USD)');
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveValue('140');
    expect(amount).toHaveAccessibleDescription(
      'Insufficient funds for the transfer Available: $150.50',
    );
  });

  it('resends the same Idempotency-Key after a failure the server may not have finished, a new one after success', async () => {
    const answers: Handler[] = [
      'network-error',
      {
        status: 503,
        body: {
          message: 'An error occurred during the transfer. Please try again later',
          code: 'TRANSFER_FAILED',
        },
      },
      transferDone(20, 130.5),
      transferDone(20, 110.5),
    ];
    const api = stubBalanceApi({
      'POST /user/balance/transfer/preview': preview,
      'POST /user/balance/transfer': (call) => {
        const next = answers.shift()!;
        return typeof next === 'function' ? next(call) : next;
      },
    });
    const { user: events } = await openTransfer();
    await fill(events, '20', 'bob@example.com');

    const send = () => events.click(screen.getByRole('button', { name: 'Send $20.00' }));
    await send();
    expect(await screen.findByRole('alert')).toHaveTextContent('No connection to the server');
    await send();
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'An error occurred during the transfer. Please try again later',
      ),
    );
    await send();
    await screen.findByRole('heading', { name: 'Transfer complete' });

    // the same transfer again: a new intent
    await events.click(screen.getByRole('button', { name: 'New transfer' }));
    await fill(events, '20', 'bob@example.com');
    await send();
    await waitFor(() => expect(api.callsTo('POST', '/user/balance/transfer')).toHaveLength(4));
    await screen.findByRole('heading', { name: 'Transfer complete' });

    const keys = api
      .callsTo('POST', '/user/balance/transfer')
      .map((call) => call.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[\w-]{16,}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('validates the amount and the e-mail before any call', async () => {
    const api = stubBalanceApi();
    const { user: events } = await openTransfer();
    await events.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter an amount')).toBeInTheDocument();
    expect(screen.getByText('E-mail is invalid')).toBeInTheDocument();
    expect(screen.getByLabelText('Amount (USD)')).toHaveFocus();
    expect(api.callsTo('POST', '/user/balance/transfer/preview')).toHaveLength(0);
  });
});
