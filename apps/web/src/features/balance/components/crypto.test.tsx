import { screen, waitFor, within } from '@testing-library/react';
import type { CryptoTopUp } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { payment, renderBalance, stubBalanceApi, type StubCall } from '../test-utils';

const QR = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';
const TRON = 'TXs9a8F3kLmNpQrStUvWxYz1234567890';
const BTC = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const WALLET = 'TWalletOfTheReader000000000001';
const TXID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const UNTIL = '2026-11-21T09:15:00.000Z';

/** An open request: $50.37 as 50.37 USDT unless told. */
function topUp(over: { id?: number; network?: string; amount?: number; pay?: string | null }) {
  const network = over.network ?? 'USDT-TRC20';
  const pay = over.pay === undefined ? '50.37' : over.pay;
  const btc = network === 'BTC';
  return {
    payment: payment({
      id: over.id ?? 90,
      method: 'crypto',
      status: 'processing',
      amount: over.amount ?? 50.37,
      network,
      pay_amount: pay,
      pay_asset: pay === null ? null : btc ? 'BTC' : 'USDT',
      expires_at: UNTIL,
    }),
    address: btc ? BTC : TRON,
    payment_uri: btc && pay ? `bitcoin:${BTC}?amount=${pay}` : null,
    wallet_qr_url: QR,
  } satisfies CryptoTopUp;
}

/** The API with POST /user/balance/crypto-request answering `answer` (a request's top-up). */
function requestApi(answer: (call: StubCall) => CryptoTopUp, extra = {}) {
  return stubBalanceApi({
    'POST /user/balance/crypto-request': (call) => ({
      status: 201,
      body: { ...answer(call), message: 'ok', code: 'CRYPTO_REQUESTED' },
    }),
    ...extra,
  });
}

async function openCrypto(path = '/balance-operations?method=crypto') {
  const view = renderBalance(path);
  await screen.findByRole('radio', { name: 'Crypto wallet', checked: true });
  return view;
}

async function ask(events: ReturnType<typeof renderBalance>['user'], amount = '50') {
  await events.type(screen.getByLabelText('Amount (USD)'), amount);
  await events.click(screen.getByRole('button', { name: 'Get the payment details' }));
}

async function report(events: ReturnType<typeof renderBalance>['user'], txid = TXID) {
  await events.clear(screen.getByLabelText('Your wallet address'));
  await events.type(screen.getByLabelText('Your wallet address'), WALLET);
  await events.clear(screen.getByLabelText('Transaction ID (TXID)'));
  await events.type(screen.getByLabelText('Transaction ID (TXID)'), txid);
  await events.click(screen.getByRole('button', { name: 'Send for review' }));
}

describe('crypto top-up', () => {
  it('asks for an amount, then shows the exact amount to send with its copy buttons and the QR code', async () => {
    const api = requestApi(() => topUp({}));
    const { user: events } = await openCrypto();
    // no address before a request: a payment without its own amount could not be told apart
    expect(screen.queryByTestId('crypto-address')).not.toBeInTheDocument();

    await ask(events);
    const heading = await screen.findByRole('heading', { name: /Send exactly this amount/ });
    expect(heading).toHaveFocus();
    expect(screen.getByTestId('crypto-payable')).toHaveTextContent('50.37 USDT');
    expect(
      screen.getByText(
        'Send exactly 50.37 USDT, to the last digit: the cents make this payment yours. $50.37 goes to your balance. A different amount cannot be matched to you.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('crypto-address')).toHaveTextContent(TRON);
    expect(screen.getByText('To this USDT (TRC-20) address')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'QR code of the USDT (TRC-20) address' }),
    ).toHaveAttribute('src', QR);
    expect(screen.getByText(/^Send and report the payment by /)).toHaveTextContent('2026');

    const [call] = api.callsTo('POST', '/user/balance/crypto-request');
    expect(call!.body).toEqual({ network: 'USDT-TRC20', amount: '50.00' });
    expect(call!.headers.get('Idempotency-Key')).toMatch(/.{8,}/);

    await events.click(screen.getByRole('button', { name: 'Copy the amount' }));
    expect(await navigator.clipboard.readText()).toBe('50.37');
    expect(await screen.findByText('Amount copied')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Copy the address' }));
    expect(await navigator.clipboard.readText()).toBe(TRON);
    expect(await screen.findByText('Address copied')).toBeInTheDocument();
  });

  it('shows a BTC request in BTC with the payment QR code, or in dollars when no price fixed it', async () => {
    let pay: string | null = '0.0005037';
    const api = requestApi(() => topUp({ network: 'BTC', pay }));
    const { user: events } = await openCrypto();
    await events.selectOptions(screen.getByLabelText('Network'), 'Bitcoin');
    await ask(events);

    expect(await screen.findByTestId('crypto-payable')).toHaveTextContent('0.0005037 BTC');
    expect(
      screen.getByRole('img', {
        name: 'QR code of the Bitcoin payment: the address and the amount',
      }),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/crypto-request')[0]!.body).toMatchObject({
      network: 'BTC',
    });

    pay = null;
    await events.click(screen.getByRole('button', { name: 'Start another top-up' }));
    await ask(events);
    await waitFor(() => expect(screen.getByTestId('crypto-payable')).toHaveTextContent('$50.37'));
    expect(
      screen.getByText(
        "Send Bitcoin worth exactly $50.37 at your exchange's rate: an operator checks the payment and credits $50.37.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of the Bitcoin address' })).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Copy the amount' }));
    expect(await navigator.clipboard.readText()).toBe('50.37');
  });

  it('says on the amount when its open top-ups are too many, and checks the amount before asking', async () => {
    const api = stubBalanceApi({
      'POST /user/balance/crypto-request': {
        status: 422,
        body: {
          message:
            'Too many top-ups of this amount are open on this network. Try a slightly different amount',
          code: 'CRYPTO_AMOUNTS_BUSY',
          errors: {
            amount: [
              'Too many top-ups of this amount are open on this network. Try a slightly different amount',
            ],
          },
        },
      },
    });
    const { user: events } = await openCrypto();
    await ask(events, '5');
    expect(await screen.findByText('The minimum for this method is $20.00')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/crypto-request')).toHaveLength(0);

    await events.clear(screen.getByLabelText('Amount (USD)'));
    await ask(events, '50');
    const amount = screen.getByLabelText('Amount (USD)');
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription(
      expect.stringContaining('Try a slightly different amount'),
    );
    expect(amount).toHaveFocus();
  });

  it('reports the payment: the server text under the TXID when it is taken or does not match, then under review', async () => {
    let refusal: 'taken' | 'amount' | null = 'taken';
    const api = requestApi(() => topUp({}), {
      'POST /user/balance/crypto': (call: StubCall) => {
        if (refusal === 'taken')
          return {
            status: 422,
            body: {
              message: 'The transaction id has already been taken',
              code: 'TXID_TAKEN',
              errors: { txid: ['This txid is already in use.'] },
            },
          };
        if (refusal === 'amount')
          return {
            status: 422,
            body: {
              message: 'This transaction does not send the exact amount of this top-up',
              code: 'CRYPTO_TX_WRONG_AMOUNT',
              errors: {
                txid: ['This transaction does not send the exact amount of this top-up'],
              },
            },
          };
        const body = call.body as { payment_id: number; txid: string };
        return {
          status: 201,
          body: {
            payment: payment({
              id: body.payment_id,
              method: 'crypto',
              status: 'under_review',
              amount: 50.37,
              network: 'USDT-TRC20',
              wallet: WALLET,
              txid: body.txid,
            }),
            message: 'The payment has been sent for review',
            code: 'CRYPTO_SUBMITTED',
          },
        };
      },
    });
    const { user: events } = await openCrypto();
    await ask(events);
    await screen.findByTestId('crypto-payable');

    await report(events);
    const txid = screen.getByLabelText('Transaction ID (TXID)');
    await waitFor(() => expect(txid).toHaveAttribute('aria-invalid', 'true'));
    expect(txid).toHaveAccessibleDescription(
      "This txid is already in use. The hash of the transaction, as the network's explorer shows it",
    );
    expect(txid).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The transaction id has already been taken',
    );
    // support is offered for an expired request only
    expect(screen.queryByRole('link', { name: 'Write to support' })).toBeNull();

    refusal = 'amount';
    await report(events, `0x${TXID.slice(0, -4).toUpperCase()}eeee`);
    await waitFor(() =>
      expect(txid).toHaveAccessibleDescription(
        "This transaction does not send the exact amount of this top-up The hash of the transaction, as the network's explorer shows it",
      ),
    );

    refusal = null;
    const other = `${TXID.slice(0, -4)}ffff`;
    await report(events, other);
    const heading = await screen.findByRole('heading', { name: 'Payment sent for review' });
    expect(heading).toHaveFocus();
    expect(screen.getByText('Under review')).toBeInTheDocument();
    expect(
      screen.getByText(/We will check the transaction and credit \$50\.37 to your balance/),
    ).toBeInTheDocument();
    const calls = api.callsTo('POST', '/user/balance/crypto');
    // the TXID goes as the server keeps it: lower case, without 0x
    expect(calls.map((c) => c.body)).toEqual([
      { payment_id: 90, wallet: WALLET, txid: TXID },
      { payment_id: 90, wallet: WALLET, txid: `${TXID.slice(0, -4)}eeee` },
      { payment_id: 90, wallet: WALLET, txid: other },
    ]);
    const keys = calls.map((c) => c.headers.get('Idempotency-Key'));
    // a refusal ends the intent: the corrected report is a new one
    expect(new Set(keys).size).toBe(3);

    await events.click(screen.getByRole('link', { name: 'Open the top-up history' }));
    expect(await screen.findByRole('tab', { name: 'Top-ups', selected: true })).toBeInTheDocument();
  });

  it('sends a report after the request’s 24 hours to support, with a link to write there', async () => {
    requestApi(() => topUp({}), {
      'POST /user/balance/crypto': {
        status: 422,
        body: {
          message:
            'This top-up request has expired. If you have already paid, contact support with the TXID',
          code: 'CRYPTO_REQUEST_EXPIRED',
          errors: {
            payment_id: [
              'This top-up request has expired. If you have already paid, contact support with the TXID',
            ],
          },
        },
      },
    });
    const { user: events } = await openCrypto();
    await ask(events);
    await screen.findByTestId('crypto-payable');
    await report(events);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'This top-up request has expired. If you have already paid, contact support with the TXID',
    );
    expect(within(alert).getByRole('link', { name: 'Write to support' })).toHaveAttribute(
      'href',
      '/support?new=billing',
    );
    // the request is what failed, not the TXID
    expect(screen.getByLabelText('Transaction ID (TXID)')).not.toHaveAttribute('aria-invalid');
  });

  it('says so when the explorer confirmed the payment at once', async () => {
    requestApi(() => topUp({}), {
      'POST /user/balance/crypto': {
        status: 201,
        body: {
          payment: payment({
            id: 90,
            method: 'crypto',
            status: 'paid',
            amount: 50.37,
            network: 'USDT-TRC20',
            wallet: WALLET,
            txid: TXID,
          }),
          message: 'The payment is confirmed and the balance credited',
          code: 'PAYMENT_CONFIRMED',
        },
      },
    });
    const { user: events } = await openCrypto();
    await ask(events);
    await screen.findByTestId('crypto-payable');
    await report(events);
    expect(await screen.findByRole('heading', { name: 'Payment confirmed' })).toHaveFocus();
    expect(
      screen.getByText('The transaction is confirmed on the network: $50.37 is on your balance.'),
    ).toBeInTheDocument();
  });

  it('checks the wallet and the TXID before sending', async () => {
    const api = requestApi(() => topUp({}));
    const { user: events } = await openCrypto();
    await ask(events);
    await screen.findByTestId('crypto-payable');
    await events.click(screen.getByRole('button', { name: 'Send for review' }));

    expect(await screen.findByText('Enter your wallet address')).toBeInTheDocument();
    expect(screen.getByText('Enter the transaction id (TXID)')).toBeInTheDocument();
    expect(screen.getByLabelText('Your wallet address')).toHaveFocus();

    await report(events, 'not a hash!');
    expect(await screen.findByText('The transaction id is invalid')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/crypto')).toHaveLength(0);
  });

  it('lists the open top-ups and takes one up again', async () => {
    stubBalanceApi({
      'GET /user/balance/crypto-requests': {
        body: { data: [topUp({ id: 91, amount: 120.05, pay: '120.05' })] },
      },
    });
    const { user: events } = await openCrypto();
    const open = await screen.findByRole('region', { name: 'Your open top-ups' });
    const item = within(open).getByRole('listitem');
    expect(item).toHaveTextContent('120.05 USDT in USDT (TRC-20), until');
    await events.click(within(item).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByTestId('crypto-payable')).toHaveTextContent('120.05 USDT');
  });
});
