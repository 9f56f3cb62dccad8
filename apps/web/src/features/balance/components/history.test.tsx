import { screen, waitFor, within } from '@testing-library/react';
import type { Charge, Transfer, Withdrawal } from '@tradehost/contracts';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { localDay, presetRange } from '../../../shared/ui/period-picker/period';
import { page, payment, renderBalance, searchOf, stubBalanceApi, TOKEN } from '../test-utils';

const PAYMENTS = [
  payment({ id: 3, amount: 100, status: 'paid', created_at: '2026-11-20T09:15:00.000Z' }),
  payment({
    id: 2,
    method: 'crypto',
    amount: 50,
    status: 'rejected',
    network: 'USDT-TRC20',
    txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    reason: 'No such transaction in the network',
    created_at: '2026-11-19T08:00:00.000Z',
  }),
  payment({ id: 1, method: 'ewallet', amount: 10, status: 'not_paid' }),
];

const TRANSFERS: Transfer[] = [
  {
    id: 5,
    created_at: '2026-11-18T12:00:00.000Z',
    amount: 20,
    status: 'sent',
    counterparty: { name: 'Bob Trader', email: 'bob@example.com' },
  },
  {
    id: 4,
    created_at: '2026-11-17T12:00:00.000Z',
    amount: 7.5,
    status: 'received',
    counterparty: { name: 'Carol', email: 'carol@example.com' },
  },
];

const CHARGES: Charge[] = [
  {
    id: 8,
    created_at: '2026-11-16T12:00:00.000Z',
    amount: 12,
    description: 'VPS Standard, 1 month',
    status: 'paid',
  },
];

const WITHDRAWALS: Withdrawal[] = [
  {
    id: 6,
    created_at: '2026-11-15T12:00:00.000Z',
    amount: 300,
    method: 'USDT (TRC-20)',
    wallet: 'TXs9a8F3kLmNpQrStUvWxYz1234567890',
    status: 'under_review',
    due_at: '2026-11-20T12:00:00.000Z',
    processed_at: null,
    payout_reference: null,
    reason: null,
  },
];

const NOW = new Date('2026-11-21T10:00:00.000Z');

const table = () => screen.getByRole('table');
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('histories', () => {
  it('lists the top-ups with method, status and a rejected payment’s reason', async () => {
    stubBalanceApi({ 'GET /user/balance/history/payments': { body: page(PAYMENTS) } });
    renderBalance('/balance-operations?tab=history');

    expect(await screen.findByRole('tab', { name: 'Top-ups', selected: true })).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Method', 'Details', 'Amount', 'Status']);
    const [paid, rejected, notPaid] = bodyRows();
    expect(paid).toHaveTextContent('Bank card');
    expect(paid).toHaveTextContent('$100.00');
    expect(within(paid!).getByText('Paid')).toBeInTheDocument();
    expect(rejected).toHaveTextContent('Crypto wallet · USDT-TRC20');
    expect(rejected).toHaveTextContent('Reason: No such transaction in the network');
    expect(within(rejected!).getByText('Rejected')).toBeInTheDocument();
    expect(within(notPaid!).getByText('Not paid')).toBeInTheDocument();
    expect(screen.getByText('Operations: 3')).toBeInTheDocument();
    // one page only: no pagination
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('shows the explorer’s refusal in the reader’s language, an operator’s reason as written', async () => {
    stubBalanceApi({
      'GET /user/balance/history/payments': {
        body: page([
          payment({
            id: 2,
            method: 'crypto',
            status: 'rejected',
            // what the crypto check stores: the English text of CRYPTO_TX_WRONG_AMOUNT
            reason: 'This transaction does not send the exact amount of this top-up',
          }),
          payment({ id: 1, method: 'crypto', status: 'rejected', reason: 'Нет такой транзакции' }),
        ]),
      },
    });
    renderBalance('/balance-operations?tab=history', { language: 'ru' });
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const [system, operator] = bodyRows();
    expect(system).toHaveTextContent('Эта транзакция отправляет не ту сумму, что указана в заявке');
    expect(system).not.toHaveTextContent('exact amount');
    expect(operator).toHaveTextContent('Нет такой транзакции');
  });

  it('shows each history with its own columns, and keeps the choice in the address', async () => {
    stubBalanceApi({
      'GET /user/balance/history/transfers': { body: page(TRANSFERS) },
      'GET /user/balance/history/charges': { body: page(CHARGES) },
      'GET /user/balance/history/withdrawals': { body: page(WITHDRAWALS) },
    });
    const { user: events, router } = renderBalance('/balance-operations?tab=history');

    await events.click(await screen.findByRole('tab', { name: 'Transfers' }));
    expect(searchOf(router).get('history')).toBe('transfers');
    await waitFor(() => expect(bodyRows()).toHaveLength(2));
    const [sent, received] = bodyRows();
    expect(sent).toHaveTextContent('Bob Trader');
    expect(sent).toHaveTextContent('bob@example.com');
    expect(sent).toHaveTextContent('\u2212$20.00');
    expect(within(sent!).getByText('Sent')).toBeInTheDocument();
    expect(received).toHaveTextContent('+$7.50');
    expect(within(received!).getByText('Received')).toBeInTheDocument();

    await events.click(screen.getByRole('tab', { name: 'Charges' }));
    await waitFor(() => expect(table()).toHaveTextContent('VPS Standard, 1 month'));
    expect(within(table()).getByText('Paid')).toBeInTheDocument();

    await events.click(screen.getByRole('tab', { name: 'Withdrawals' }));
    await waitFor(() => expect(table()).toHaveTextContent('USDT (TRC-20)'));
    expect(within(table()).getByText('Under review')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toContain('Wallet');

    // Back returns to the previous history
    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Charges' })).toHaveAttribute('aria-selected', 'true'),
    );
  });

  it('pages through a long history', async () => {
    const api = stubBalanceApi({
      'GET /user/balance/history/payments': () => ({
        body: page(PAYMENTS, { total: 45 }),
      }),
    });
    const { user: events } = renderBalance('/balance-operations?tab=history');

    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1 of 3')).toBeInTheDocument();
    const previous = within(pages).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');

    await events.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pages).getByText('Page 2 of 3')).toBeInTheDocument());
    await events.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pages).getByText('Page 3 of 3')).toBeInTheDocument());
    const next = within(pages).getByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await events.click(next);

    await waitFor(() =>
      expect(
        api
          .queries('GET', '/user/balance/history/payments')
          .map((q) => [q.get('page'), q.get('per_page')]),
      ).toEqual([
        ['1', '20'],
        ['2', '20'],
        ['3', '20'],
      ]),
    );
  });

  describe('with a clock', () => {
    beforeEach(() => {
      // the clock only (the timers stay real): a fixed "now" for the presets and the file name
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(NOW);
    });
    afterEach(() => vi.useRealTimers());

    it('filters by period: the presets and a custom range go out as from and to', async () => {
      const api = stubBalanceApi({
        'GET /user/balance/history/payments': { body: page(PAYMENTS, { total: 45 }) },
      });
      const { user: events } = renderBalance('/balance-operations?tab=history');
      const pages = await screen.findByRole('navigation', { name: 'Pages' });
      await events.click(within(pages).getByRole('button', { name: 'Next' }));
      await waitFor(() => expect(within(pages).getByText('Page 2 of 3')).toBeInTheDocument());

      const lastQuery = () => api.queries('GET', '/user/balance/history/payments').at(-1)!;
      expect(lastQuery().has('from')).toBe(false);

      await events.click(screen.getByRole('radio', { name: 'Week' }));
      // the maths are period.test.ts's; here, that the choice reaches the query
      await waitFor(() => expect(lastQuery().get('from')).toBe(presetRange('week', NOW).from));
      const week = lastQuery();
      expect(week.has('to')).toBe(false);
      // a new period starts from its first page
      expect(week.get('page')).toBe('1');

      await events.click(screen.getByRole('radio', { name: 'Custom' }));
      const from = screen.getByLabelText('From');
      const to = screen.getByLabelText('To');
      expect(to).toHaveValue('2026-11-21');
      await events.clear(from);
      await events.type(from, '2026-11-01');
      await events.clear(to);
      await events.type(to, '2026-11-10');
      await events.click(screen.getByRole('button', { name: 'Apply' }));

      await waitFor(() =>
        expect(lastQuery().get('from')).toBe(new Date(2026, 10, 1).toISOString()),
      );
      expect(lastQuery().get('to')).toBe(new Date(2026, 10, 11).toISOString());

      // the same period goes with the other histories
      await events.click(screen.getByRole('tab', { name: 'Charges' }));
      await waitFor(() =>
        expect(api.queries('GET', '/user/balance/history/charges').at(-1)?.get('to')).toBe(
          new Date(2026, 10, 11).toISOString(),
        ),
      );
    });

    it('exports the period as CSV with the bearer token', async () => {
      const { created, downloads } = stubDownloads();
      const csv = 'date,amount,status\n2026-11-20,100.00,Paid\n';
      const api = stubBalanceApi(
        { 'GET /user/balance/history/payments': { body: page(PAYMENTS) } },
        {
          'GET /user/balance/history/payments.csv': () =>
            new Response(csv, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
        },
      );
      const { user: events } = renderBalance('/balance-operations?tab=history');
      await waitFor(() => expect(bodyRows()).toHaveLength(3));
      await events.click(screen.getByRole('radio', { name: 'Month' }));

      await events.click(screen.getByRole('button', { name: 'Export CSV' }));

      await waitFor(() => expect(downloads).toHaveLength(1));
      const request = api.requests.find((r) => r.url.pathname.endsWith('payments.csv'))!;
      expect(request.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
      expect(request.url.searchParams.get('from')).toBe(presetRange('month', NOW).from);
      expect(request.url.searchParams.has('to')).toBe(false);
      expect(downloads[0]).toEqual({
        href: 'blob:csv-1',
        download: `payments-${localDay(NOW)}.csv`,
      });
      expect(await textOf(created[0]!)).toBe(csv);
    });
  });

  it('names the file as the server does when it says', async () => {
    const { downloads } = stubDownloads();
    stubBalanceApi(
      {},
      {
        'GET /user/balance/history/transfers.csv': () =>
          new Response('x', {
            headers: {
              'Content-Type': 'text/csv',
              'Content-Disposition': 'attachment; filename="transfers-2026-11-20.csv"',
            },
          }),
      },
    );
    const { user: events } = renderBalance('/balance-operations?tab=history&history=transfers');
    await events.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(downloads.map((d) => d.download)).toEqual(['transfers-2026-11-20.csv']),
    );
  });

  it('shows an empty state, for all time and for a period', async () => {
    stubBalanceApi();
    const { user: events } = renderBalance('/balance-operations?tab=history&history=withdrawals');
    expect(await screen.findByRole('heading', { name: 'No withdrawals' })).toBeInTheDocument();
    expect(screen.getByText('Your operations will appear here.')).toBeInTheDocument();
    await events.click(screen.getByRole('radio', { name: 'Year' }));
    expect(
      await screen.findByText('Nothing in this period. Choose a longer one or All.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a loading state, then an error with a retry', async () => {
    let fail = true;
    stubBalanceApi({
      'GET /user/balance/history/payments': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page(PAYMENTS) },
    });
    const { user: events } = renderBalance('/balance-operations?tab=history');
    expect(screen.getByText('Loading the history…')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The history could not be loaded.');
    fail = false;
    await events.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
  });

  it('shows cards instead of a table on a phone', async () => {
    stubBalanceApi({ 'GET /user/balance/history/payments': { body: page(PAYMENTS) } });
    renderBalance('/balance-operations?tab=history', { width: 375 });
    const list = await screen.findByRole('list', { name: 'Top-ups' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards[1]).toHaveTextContent('Reason: No such transaction in the network');
    expect(within(cards[1]!).getByText('Rejected')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

/** A Blob's text (jsdom's Blob has no text()). */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** Object URLs (jsdom has none) and link clicks, recorded for the test. */
function stubDownloads() {
  const created: Blob[] = [];
  const downloads: { href: string; download: string }[] = [];
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    created.push(blob as Blob);
    return `blob:csv-${created.length}`;
  };
  URL.revokeObjectURL = () => undefined;
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    downloads.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  onTestFinished(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    click.mockRestore();
  });
  return { created, downloads };
}
