import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../shared/ui/toast/notify';
import {
  deferred,
  METHODS,
  payment,
  renderBalance,
  searchOf,
  stubBalanceApi,
  TOKEN,
  user,
} from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

const CHECKOUT = {
  url: 'https://pay.example.com/merchant/',
  http_method: 'POST' as const,
  fields: { m_shop: '1234', m_orderid: '41', m_amount: '25.00', m_curr: 'USD', m_sign: 'ABC123' },
  order_id: '41',
  order_sum: '25.00',
  currency: 'USD',
  signature: 'ABC123',
};

let submitted: HTMLFormElement[];
beforeEach(() => {
  submitted = [];
  // jsdom does not navigate: record the form the page submits instead
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (
    this: HTMLFormElement,
  ) {
    submitted.push(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(notify).mockClear();
  document.querySelectorAll('form[hidden]').forEach((form) => form.remove());
});

const amountField = () => screen.getByLabelText('Amount (USD)');

describe('top-up', () => {
  it('shows the methods as radio cards with their minimum; one that cannot be used says why', async () => {
    stubBalanceApi({
      'GET /user/balance/methods': {
        body: {
          ...METHODS,
          methods: METHODS.methods.map((m) =>
            m.id === 'ewallet' ? { ...m, available: false } : m,
          ),
        },
      },
    });
    renderBalance();

    const card = await screen.findByRole('radio', { name: 'Bank card' });
    expect(card).toBeChecked();
    expect(card).toHaveAccessibleDescription('From $10.00');
    expect(screen.getByRole('radio', { name: 'Crypto wallet' })).toHaveAccessibleDescription(
      'From $20.00',
    );
    const ewallet = screen.getByRole('radio', { name: 'E-wallet' });
    expect(ewallet).toBeDisabled();
    expect(ewallet).toHaveAccessibleDescription('Temporarily unavailable');
    // the partner balance is empty: nothing to move in
    const balance = screen.getByRole('radio', { name: 'Account balance' });
    expect(balance).toBeDisabled();
    expect(balance).toHaveAccessibleDescription('Not enough on the partner balance');
    expect(amountField()).toHaveAccessibleDescription('From $10.00 to $10,000.00');
  });

  it('moves between the methods with the arrow keys, skipping one that cannot be used', async () => {
    stubBalanceApi({
      'GET /user/balance/methods': {
        body: {
          ...METHODS,
          methods: METHODS.methods.map((m) =>
            m.id === 'ewallet' ? { ...m, available: false } : m,
          ),
        },
      },
    });
    const { user: events, router } = renderBalance();
    const card = await screen.findByRole('radio', { name: 'Bank card' });
    card.focus();
    await events.keyboard('{ArrowRight}');
    const crypto = screen.getByRole('radio', { name: 'Crypto wallet' });
    await waitFor(() => expect(crypto).toBeChecked());
    expect(crypto).toHaveFocus();
    expect(searchOf(router).get('method')).toBe('crypto');
    expect(await screen.findByLabelText('Network')).toBeInTheDocument();
  });

  it('sends the browser to the gateway with a form of the checkout fields', async () => {
    const api = stubBalanceApi({
      'POST /user/balance/deposit': {
        status: 201,
        body: { payment: payment(), checkout: CHECKOUT, message: 'ok', code: 'PAYMENT_CREATED' },
      },
    });
    const { user: events } = renderBalance();

    await events.type(await screen.findByLabelText('Amount (USD)'), '25');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));

    await waitFor(() => expect(submitted).toHaveLength(1));
    const deposits = api.callsTo('POST', '/user/balance/deposit');
    expect(deposits.map((c) => c.body)).toEqual([{ method: 'card', amount: '25.00' }]);
    expect(deposits[0]?.headers.get('Idempotency-Key')).toMatch(/^[\w-]{16,}$/);
    expect(deposits[0]?.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);

    const form = submitted[0]!;
    expect(form.getAttribute('action')).toBe('https://pay.example.com/merchant/');
    expect(form.method).toBe('post');
    expect(form.isConnected).toBe(true);
    const inputs = Array.from(form.querySelectorAll('input'));
    expect(inputs.every((input) => input.type === 'hidden')).toBe(true);
    expect(Object.fromEntries(inputs.map((input) => [input.name, input.value]))).toEqual(
      CHECKOUT.fields,
    );
    expect(
      await screen.findByRole('button', { name: 'Taking you to the payment page…' }),
    ).toBeDisabled();
  });

  it('submits a GET checkout with the GET method and the e-wallet chosen', async () => {
    const api = stubBalanceApi({
      'POST /user/balance/deposit': {
        status: 201,
        body: {
          payment: payment({ method: 'ewallet' }),
          checkout: { ...CHECKOUT, http_method: 'GET', url: 'https://wallet.example.com/pay' },
          message: 'ok',
        },
      },
    });
    const { user: events, router } = renderBalance();

    await events.click(await screen.findByRole('radio', { name: 'E-wallet' }));
    expect(searchOf(router).get('method')).toBe('ewallet');
    expect(amountField()).toHaveAccessibleDescription('From $5.00 to $5,000.00');
    await events.type(amountField(), '7.5');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));

    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(api.callsTo('POST', '/user/balance/deposit')[0]?.body).toEqual({
      method: 'ewallet',
      amount: '7.50',
    });
    expect(submitted[0]?.method).toBe('get');
    expect(submitted[0]?.getAttribute('action')).toBe('https://wallet.example.com/pay');
  });

  it('checks the amount against the method before calling the API', async () => {
    const api = stubBalanceApi();
    const { user: events } = renderBalance();

    await events.click(await screen.findByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Enter an amount')).toBeInTheDocument();
    expect(amountField()).toHaveFocus();

    await events.type(amountField(), '9.99');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('The minimum for this method is $10.00')).toBeInTheDocument();
    expect(amountField()).toHaveAttribute('aria-invalid', 'true');

    await events.clear(amountField());
    await events.type(amountField(), '10.555');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(
      await screen.findByText('Enter an amount in dollars with at most two decimals'),
    ).toBeInTheDocument();

    await events.clear(amountField());
    await events.type(amountField(), '10001');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(
      await screen.findByText('The maximum for this method is $10,000.00'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/deposit')).toHaveLength(0);
  });

  it("puts the server's refusal on the amount field", async () => {
    stubBalanceApi({
      'POST /user/balance/deposit': {
        status: 422,
        body: {
          message: 'The amount is below the minimum for this method',
          code: 'AMOUNT_BELOW_MINIMUM',
          errors: { amount: ['The amount is below the minimum for this method'] },
        },
      },
    });
    const { user: events } = renderBalance();
    await events.type(await screen.findByLabelText('Amount (USD)'), '15');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The amount is below the minimum for this method',
    );
    expect(amountField()).toHaveAccessibleDescription(
      'The minimum for this method is $10.00 From $10.00 to $10,000.00',
    );
    expect(amountField()).toHaveFocus();
    expect(submitted).toHaveLength(0);
  });

  it('moves the partner balance in, says so and refreshes the balances', async () => {
    let balances = user({ balance: 150.5, balance_partner: 250 });
    const api = stubBalanceApi({
      'GET /user/auth': () => ({ body: balances }),
      'POST /user/balance/deposit': () => {
        balances = user({ balance: 250.5, balance_partner: 150 });
        return {
          status: 201,
          body: {
            payment: payment({ method: 'balance', amount: 100, status: 'paid' }),
            checkout: null,
            message: 'The partner balance has been moved to the balance',
            code: 'BALANCE_MOVED',
          },
        };
      },
    });
    const { user: events } = renderBalance('/balance-operations?method=balance');

    await waitFor(() => expect(screen.getByTestId('summary-partner')).toHaveTextContent('$250.00'));
    const balanceMethod = await screen.findByRole('radio', { name: 'Account balance' });
    expect(balanceMethod).toBeChecked();
    expect(amountField()).toHaveAccessibleDescription(
      'From $1.00 to $100,000.00; on the partner balance: $250.00',
    );
    const userFetches = api.callsTo('GET', '/user/auth').length;

    await events.type(amountField(), '100');
    await events.click(screen.getByRole('button', { name: 'Move to the balance' }));

    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        '$100.00 moved from the partner balance to the balance',
      ),
    );
    expect(api.callsTo('POST', '/user/balance/deposit').map((c) => c.body)).toEqual([
      { method: 'balance', amount: '100.00' },
    ]);
    // 'User' invalidated: GET /user/auth again, and the summary shows the new balances
    await waitFor(() => expect(screen.getByTestId('summary-balance')).toHaveTextContent('$250.50'));
    expect(screen.getByTestId('summary-partner')).toHaveTextContent('$150.00');
    expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThan(userFetches);
    expect(amountField()).toHaveValue('');
    expect(submitted).toHaveLength(0);
  });

  it('resends the same Idempotency-Key after a lost answer and a new one after success', async () => {
    const answers: (() => 'network-error' | { status: number; body: unknown })[] = [
      () => 'network-error',
      () => ({
        status: 409,
        body: {
          message: 'A request with this Idempotency-Key is still in progress',
          code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
        },
      }),
      () => ({
        status: 201,
        body: { payment: payment({ method: 'balance' }), checkout: null, message: 'ok' },
      }),
      () => ({
        status: 201,
        body: { payment: payment({ method: 'balance' }), checkout: null, message: 'ok' },
      }),
    ];
    const api = stubBalanceApi({
      'GET /user/auth': { body: user({ balance_partner: 500 }) },
      'POST /user/balance/deposit': () => answers.shift()!(),
    });
    const { user: events } = renderBalance('/balance-operations?method=balance');
    const submit = async () => {
      await events.click(screen.getByRole('button', { name: 'Move to the balance' }));
    };

    await events.type(await screen.findByLabelText('Amount (USD)'), '20');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('No connection to the server');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A request with this Idempotency-Key is still in progress',
    );
    await submit();
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(1));
    await events.type(amountField(), '20');
    await submit();
    await waitFor(() => expect(notify).toHaveBeenCalledTimes(2));

    const keys = api
      .callsTo('POST', '/user/balance/deposit')
      .map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(4);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('takes a new key when the amount changes after a lost answer', async () => {
    const api = stubBalanceApi({
      'GET /user/auth': { body: user({ balance_partner: 500 }) },
      'POST /user/balance/deposit': 'network-error',
    });
    const { user: events } = renderBalance('/balance-operations?method=balance');
    await events.type(await screen.findByLabelText('Amount (USD)'), '20');
    await events.click(screen.getByRole('button', { name: 'Move to the balance' }));
    await screen.findByRole('alert');
    await events.type(amountField(), '0');
    await events.click(screen.getByRole('button', { name: 'Move to the balance' }));
    await waitFor(() => expect(api.callsTo('POST', '/user/balance/deposit')).toHaveLength(2));
    const [first, second] = api.callsTo('POST', '/user/balance/deposit');
    expect(second?.body).toEqual({ method: 'balance', amount: '200.00' });
    expect(second?.headers.get('Idempotency-Key')).not.toBe(first?.headers.get('Idempotency-Key'));
  });

  it('reads the methods again when the chosen one has gone away', async () => {
    let cardAvailable = true;
    stubBalanceApi({
      'GET /user/balance/methods': () => ({
        body: {
          ...METHODS,
          methods: METHODS.methods.map((m) =>
            m.id === 'card' ? { ...m, available: cardAvailable } : m,
          ),
        },
      }),
      'POST /user/balance/deposit': () => {
        cardAvailable = false;
        return {
          status: 422,
          body: {
            message: 'This payment method is not available',
            code: 'METHOD_UNAVAILABLE',
            errors: { method: ['This payment method is not available'] },
          },
        };
      },
    });
    const { user: events } = renderBalance();
    await events.type(await screen.findByLabelText('Amount (USD)'), '25');
    await events.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() =>
      expect(screen.getByRole('radio', { name: 'Bank card' })).toHaveAccessibleDescription(
        'Temporarily unavailable',
      ),
    );
    expect(screen.getByRole('radio', { name: 'Bank card' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'E-wallet' })).toBeChecked();
  });

  it('sends one request for a double click', async () => {
    const answer = deferred<{ status: number; body: unknown }>();
    const api = stubBalanceApi({
      'POST /user/balance/deposit': () => answer.promise,
    });
    const { user: events } = renderBalance();
    await events.type(await screen.findByLabelText('Amount (USD)'), '25');
    const button = screen.getByRole('button', { name: 'Continue to payment' });
    await events.dblClick(button);
    await waitFor(() => expect(button).toBeDisabled());
    await events.click(button);
    answer.resolve({
      status: 201,
      body: { payment: payment(), checkout: CHECKOUT, message: 'ok' },
    });
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(api.callsTo('POST', '/user/balance/deposit')).toHaveLength(1);
  });

  it('offers a retry when the methods cannot be loaded', async () => {
    let fail = true;
    stubBalanceApi({
      'GET /user/balance/methods': () =>
        fail ? { status: 503, body: { message: 'busy', code: 'SERVICE_BUSY' } } : { body: METHODS },
    });
    const { user: events } = renderBalance();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The payment methods could not be loaded.');
    fail = false;
    await events.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: 'Bank card' })).toBeChecked();
  });
});
