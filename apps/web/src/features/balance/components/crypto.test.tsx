import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { payment, renderBalance, stubBalanceApi } from '../test-utils';

const QR = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';
const ADDRESSES: Record<string, string> = {
  'USDT-TRC20': 'TXs9a8F3kLmNpQrStUvWxYz1234567890',
  BTC: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
};
const WALLET = 'TWalletOfTheReader000000000001';
const TXID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** GET /user/balance/crypto-wallet answers with the network asked for (its query string). */
function walletApi(extra: Parameters<typeof stubBalanceApi>[0] = {}) {
  return stubBalanceApi(extra, {
    'GET /user/balance/crypto-wallet': (request) => {
      const network = new URL(request.url).searchParams.get('network') ?? '';
      return Response.json({ network, address: ADDRESSES[network], wallet_qr_url: QR });
    },
  });
}

async function openCrypto(path = '/balance-operations?method=crypto') {
  const view = renderBalance(path);
  await screen.findByRole('radio', { name: 'Crypto wallet', checked: true });
  return view;
}

async function report(events: ReturnType<typeof renderBalance>['user'], txid = TXID) {
  await events.type(screen.getByLabelText('Amount (USD)'), '50');
  await events.type(screen.getByLabelText('Your wallet address'), WALLET);
  await events.clear(screen.getByLabelText('Transaction ID (TXID)'));
  await events.type(screen.getByLabelText('Transaction ID (TXID)'), txid);
  await events.click(screen.getByRole('button', { name: 'Send for review' }));
}

describe('crypto top-up', () => {
  it("shows the provider's address of the network with its QR code, and copies it", async () => {
    const api = walletApi();
    const { user: events } = await openCrypto();

    expect(await screen.findByTestId('crypto-address')).toHaveTextContent(ADDRESSES['USDT-TRC20']!);
    expect(screen.getByText('Send USDT (TRC-20) to this address')).toBeInTheDocument();
    const qr = screen.getByRole('img', { name: 'QR code of the USDT (TRC-20) address' });
    expect(qr).toHaveAttribute('src', QR);
    expect(api.queries('GET', '/user/balance/crypto-wallet').map((q) => q.get('network'))).toEqual(
      expect.arrayContaining(['USDT-TRC20']),
    );

    await events.click(screen.getByRole('button', { name: 'Copy the address' }));
    expect(await navigator.clipboard.readText()).toBe(ADDRESSES['USDT-TRC20']);
    expect(await screen.findByText('Address copied')).toBeInTheDocument();

    await events.selectOptions(screen.getByLabelText('Network'), 'Bitcoin');
    await waitFor(() =>
      expect(screen.getByTestId('crypto-address')).toHaveTextContent(ADDRESSES.BTC!),
    );
    expect(screen.getByRole('img', { name: 'QR code of the Bitcoin address' })).toBeInTheDocument();
  });

  it('shows the server text under the TXID field when the TXID is taken, then sends it for review', async () => {
    let taken = true;
    const api = walletApi({
      'POST /user/balance/crypto': (call) => {
        if (taken) {
          return {
            status: 422,
            body: {
              message: 'The transaction id has already been taken',
              code: 'TXID_TAKEN',
              errors: { txid: ['This txid is already in use.'] },
            },
          };
        }
        const body = call.body as { amount: string; txid: string };
        return {
          status: 201,
          body: {
            payment: payment({
              id: 77,
              method: 'crypto',
              status: 'under_review',
              amount: Number(body.amount),
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
    await screen.findByTestId('crypto-address');

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

    taken = false;
    const other = `${TXID.slice(0, -4)}ffff`;
    await events.clear(screen.getByLabelText('Amount (USD)'));
    await events.clear(screen.getByLabelText('Your wallet address'));
    await report(events, other);

    const heading = await screen.findByRole('heading', { name: 'Payment sent for review' });
    expect(heading).toHaveFocus();
    expect(screen.getByText('Under review')).toBeInTheDocument();
    expect(
      screen.getByText(/We will check the transaction and credit \$50\.00 to your balance/),
    ).toBeInTheDocument();
    const bodies = api.callsTo('POST', '/user/balance/crypto').map((c) => c.body);
    expect(bodies).toEqual([
      { network: 'USDT-TRC20', amount: '50.00', wallet: WALLET, txid: TXID },
      { network: 'USDT-TRC20', amount: '50.00', wallet: WALLET, txid: other },
    ]);
    const keys = api
      .callsTo('POST', '/user/balance/crypto')
      .map((c) => c.headers.get('Idempotency-Key'));
    // a refusal ends the intent: the corrected report is a new one
    expect(keys[1]).not.toBe(keys[0]);

    await events.click(screen.getByRole('link', { name: 'Open the top-up history' }));
    expect(await screen.findByRole('tab', { name: 'Top-ups', selected: true })).toBeInTheDocument();
  });

  it('checks the wallet and the TXID before sending', async () => {
    const api = walletApi();
    const { user: events } = await openCrypto();
    await screen.findByTestId('crypto-address');
    await events.click(screen.getByRole('button', { name: 'Send for review' }));

    expect(await screen.findByText('Enter your wallet address')).toBeInTheDocument();
    expect(screen.getByText('Enter the transaction id (TXID)')).toBeInTheDocument();
    expect(screen.getByLabelText('Amount (USD)')).toHaveFocus();

    await report(events, 'not a hash!');
    expect(await screen.findByText('The transaction id is invalid')).toBeInTheDocument();
    await events.clear(screen.getByLabelText('Amount (USD)'));
    await events.type(screen.getByLabelText('Amount (USD)'), '5');
    await events.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByText('The minimum for this method is $20.00')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/crypto')).toHaveLength(0);
  });

  it('offers a retry when the address cannot be loaded', async () => {
    let fail = true;
    stubBalanceApi(
      {},
      {
        'GET /user/balance/crypto-wallet': (request) =>
          fail
            ? Response.json({ message: 'Internal server error', code: 'INTERNAL' }, { status: 500 })
            : Response.json({
                network: new URL(request.url).searchParams.get('network'),
                address: ADDRESSES['USDT-TRC20'],
                wallet_qr_url: QR,
              }),
      },
    );
    const { user: events } = await openCrypto();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The address could not be loaded.');
    fail = false;
    await events.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('crypto-address')).toHaveTextContent(ADDRESSES['USDT-TRC20']!);
  });
});
