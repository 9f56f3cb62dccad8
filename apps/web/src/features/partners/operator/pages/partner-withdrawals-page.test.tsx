import { screen, waitFor, within } from '@testing-library/react';
import type { AdminWithdrawal } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminUser,
  adminWithdrawal,
  carol,
  moneyApproval,
  olga,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const PATH = '/operator/partner/withdrawals';
const LIST = '/admin/partner/withdrawals';
// the first test of the file also waits for the lazy pages to compile
const withdrawalsTable = () =>
  screen.findByRole('table', { name: 'Partner withdrawals' }, { timeout: 5000 });

const received = adminWithdrawal();
const reviewing = adminWithdrawal({
  id: 9,
  user: carol,
  amount: 120.5,
  method: 'PAYEER',
  wallet: 'P1000002',
  status: 'under_review',
  processed_by: olga,
  overdue: true,
  due_at: new Date(Date.now() - 86_400_000).toISOString(),
});

/** A queue the stub keeps as the server does: a request paid out or cancelled leaves the open list. */
function serverQueue(withdrawals: AdminWithdrawal[]) {
  let rows = [...withdrawals];
  return {
    list: () => ({ body: page(rows) }),
    decide: (id: number, changes: Partial<AdminWithdrawal>) => {
      const decided = { ...rows.find((row) => row.id === id)!, ...changes };
      const open = decided.status === 'received' || decided.status === 'under_review';
      rows = open
        ? rows.map((row) => (row.id === id ? decided : row))
        : rows.filter((row) => row.id !== id);
      return { body: { withdrawal: decided, message: 'ok' } };
    },
  };
}

describe('partner withdrawals', () => {
  it('lists the open requests with the partner, amount, method, wallet, due date and status', async () => {
    stubOperatorApi({ [`GET ${LIST}`]: { body: page([received, reviewing]) } });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Requested',
      'Partner',
      'Amount',
      'Method',
      'Wallet',
      'Due by',
      'Status',
      'Actions',
    ]);
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(first).toHaveTextContent('$25.00');
    expect(first).toHaveTextContent('USDT (TRC-20)');
    expect(first).toHaveTextContent('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    expect(first).toHaveTextContent('Received');
    expect(first).not.toHaveTextContent('Overdue');
    expect(second).toHaveTextContent('$120.50');
    expect(second).toHaveTextContent('Payeer');
    expect(second).toHaveTextContent('Under review');
    expect(second).toHaveTextContent('Taken by olga@tradehost.test');
    expect(second).toHaveTextContent('Overdue');
    expect(queriesTo(LIST)[0]).toEqual({ status: 'open', page: '1', per_page: '20' });

    // a Received request may be taken for review; both may be paid out or rejected
    expect(
      within(first).getByRole('button', {
        name: 'Mark under review the withdrawal of $25.00 by bob@example.com',
      }),
    ).toBeVisible();
    expect(
      within(first).getByRole('button', { name: 'Pay out $25.00 to bob@example.com' }),
    ).toBeVisible();
    expect(
      within(first).getByRole('button', {
        name: 'Reject the withdrawal of $25.00 by bob@example.com',
      }),
    ).toBeVisible();
    expect(within(second).queryByRole('button', { name: /^Mark under review/ })).toBeNull();
    expect(
      within(second).getByRole('button', { name: 'Pay out $120.50 to carol@example.com' }),
    ).toBeVisible();

    await user.click(within(first).getByRole('button', { name: 'Copy the wallet address' }));
    expect(await navigator.clipboard.readText()).toBe(received.wallet);
  });

  it('asks for the payout reference before paying out, and sends it', async () => {
    const server = serverQueue([received, reviewing]);
    const http = stubOperatorApi({
      [`GET ${LIST}`]: server.list,
      [`POST ${LIST}/8/pay`]: (call) =>
        server.decide(8, {
          status: 'paid_out',
          payout_reference: (call.body as { reference: string }).reference,
          processed_by: olga,
          processed_at: new Date().toISOString(),
        }),
    });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Pay out $25.00 to bob@example.com' }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Pay out the withdrawal' });
    expect(dialog).toHaveAccessibleDescription(
      "Pay $25.00 to bob@example.com by USDT (TRC-20)? Send the money to the wallet below first, then enter the payment's reference: the partner gets it by e-mail.",
    );
    expect(dialog).toHaveTextContent('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    const reference = within(dialog).getByRole('textbox', { name: 'Payment reference' });
    expect(reference).toHaveFocus();
    const submit = within(dialog).getByRole('button', { name: 'Mark $25.00 paid out' });

    await user.click(submit);
    expect(await within(dialog).findByText('Enter the payment reference')).toBeVisible();
    expect(reference).toHaveAttribute('aria-invalid', 'true');
    await user.type(reference, '   ');
    await user.click(submit);
    expect(within(dialog).getByText('Enter the payment reference')).toBeVisible();
    expect(http.callsTo('POST', `${LIST}/8/pay`)).toHaveLength(0);

    await user.clear(reference);
    await user.type(reference, ' TX-7f3a9c ');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const calls = http.callsTo('POST', `${LIST}/8/pay`);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ reference: 'TX-7f3a9c' });
    // paid out, it leaves the open requests
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(within(table).getByText('carol@example.com')).toBeInTheDocument();
    expect(
      await screen.findByText('$25.00 paid out to bob@example.com', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Partner withdrawals' })).toHaveFocus();
  });

  it('above the approval threshold the payout waits for a second operator: no Pay out until then', async () => {
    const big = adminWithdrawal({ amount: 620, status: 'under_review', processed_by: olga });
    let asked = false;
    const askedRow = () =>
      adminWithdrawal({
        ...big,
        approval: moneyApproval({
          id: 40,
          kind: 'payout',
          user: big.user,
          requested_by: olga,
          amount: 620,
          account: null,
          reason: null,
          withdrawal_id: big.id,
          reference: 'TX-BIG-1',
        }),
      });
    const http = stubOperatorApi({
      [`GET ${LIST}`]: () => ({ body: page([asked ? askedRow() : big]) }),
      [`POST ${LIST}/8/pay`]: () => {
        asked = true;
        return {
          status: 202,
          body: {
            withdrawal: askedRow(),
            message: 'Sent for approval: it takes effect when a second operator approves it',
            code: 'APPROVAL_REQUESTED',
          },
        };
      },
    });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Pay out $620.00 to bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Pay out the withdrawal' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Payment reference' }), 'TX-BIG-1');
    await user.click(within(dialog).getByRole('button', { name: 'Mark $620.00 paid out' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', `${LIST}/8/pay`)).toHaveLength(1);
    expect(
      await screen.findByText(
        "The payout of $620.00 to bob@example.com waits for a second operator's approval",
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    // still open, with who asked and the reference; Pay out gone, Approvals one click away
    const row = await within(table).findByText(/waiting for a second operator/);
    expect(row).toHaveTextContent(
      'Payout with reference TX-BIG-1 asked by olga@tradehost.test: waiting for a second operator',
    );
    expect(within(table).queryByRole('button', { name: /^Pay out/ })).toBeNull();
    expect(within(table).getByRole('button', { name: /^Reject/ })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Open Approvals' })).toHaveAttribute(
      'href',
      '/operator/approvals',
    );
  });

  it('offers no decision on the operator’s own request: another operator decides it', async () => {
    stubOperatorApi({
      [`GET ${LIST}`]: { body: page([adminWithdrawal({ user: olga }), reviewing]) },
    });
    await openOperator(PATH);
    const table = await withdrawalsTable();
    const [, own, other] = within(table).getAllByRole('row');
    expect(own).toHaveTextContent('Your own request: another operator decides it');
    for (const name of [/^Pay out/, /^Reject/, /^Mark under review/])
      expect(within(own!).queryByRole('button', { name })).toBeNull();
    expect(within(other!).getByRole('button', { name: /^Pay out/ })).toBeInTheDocument();
  });

  it('asks for a reason before rejecting, says the money returns, and sends it', async () => {
    const server = serverQueue([received, reviewing]);
    const http = stubOperatorApi({
      [`GET ${LIST}`]: server.list,
      [`POST ${LIST}/9/reject`]: (call) =>
        server.decide(9, {
          status: 'cancelled',
          reason: (call.body as { reason: string }).reason,
          processed_at: new Date().toISOString(),
        }),
    });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    await user.click(
      within(table).getByRole('button', {
        name: 'Reject the withdrawal of $120.50 by carol@example.com',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject the withdrawal' });
    expect(dialog).toHaveAccessibleDescription(
      'Reject the withdrawal of $120.50 by carol@example.com? The amount returns to the partner balance at once.',
    );
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    const submit = within(dialog).getByRole('button', { name: 'Reject the withdrawal' });

    await user.click(submit);
    expect(await within(dialog).findByText('Enter the reason')).toBeVisible();
    expect(http.callsTo('POST', `${LIST}/9/reject`)).toHaveLength(0);

    await user.type(reason, 'The wallet is not yours');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', `${LIST}/9/reject`)[0]?.body).toEqual({
      reason: 'The wallet is not yours',
    });
    await waitFor(() => expect(within(table).queryByText('carol@example.com')).toBeNull());
    expect(
      await screen.findByText(
        'The withdrawal of $120.50 by carol@example.com has been rejected and the amount returned to the partner balance',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it('marks a received request under review at once, and the row says so', async () => {
    const server = serverQueue([received]);
    const http = stubOperatorApi({
      [`GET ${LIST}`]: server.list,
      [`POST ${LIST}/8/review`]: () =>
        server.decide(8, { status: 'under_review', processed_by: olga }),
    });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    await user.click(within(table).getByRole('button', { name: /^Mark under review/ }));

    await waitFor(() => expect(http.callsTo('POST', `${LIST}/8/review`)).toHaveLength(1));
    expect(http.callsTo('POST', `${LIST}/8/review`)[0]?.body).toEqual({});
    const row = within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(row).toHaveTextContent('Under review'));
    expect(row).toHaveTextContent('Taken by olga@tradehost.test');
    expect(within(row).queryByRole('button', { name: /^Mark under review/ })).toBeNull();
    expect(within(row).getByRole('button', { name: /^Pay out/ })).toBeVisible();
    expect(
      await screen.findByText(
        'The withdrawal of $25.00 by bob@example.com is under review',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it('says so and refreshes when someone else has already processed the request (409)', async () => {
    let listed = 0;
    const http = stubOperatorApi({
      [`GET ${LIST}`]: () => ({ body: page(++listed === 1 ? [received, reviewing] : [reviewing]) }),
      [`POST ${LIST}/8/pay`]: {
        status: 409,
        body: {
          message: 'This withdrawal request has already been processed',
          code: 'WITHDRAWAL_PROCESSED',
        },
      },
    });
    const { user } = await openOperator(PATH);
    const table = await withdrawalsTable();
    await user.click(within(table).getByRole('button', { name: /^Pay out \$25\.00/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay out the withdrawal' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Payment reference' }), 'TX-1');
    await user.click(within(dialog).getByRole('button', { name: 'Mark $25.00 paid out' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Someone else has already processed this request. The list has been refreshed.',
    );
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(http.callsTo('GET', LIST).length).toBeGreaterThanOrEqual(2);
  });

  it('shows every request with how it was decided, and no actions on the decided ones', async () => {
    const paid = adminWithdrawal({
      status: 'paid_out',
      payout_reference: 'TX-7f3a9c',
      processed_by: olga,
      processed_at: '2025-03-05T14:02:00.000Z',
    });
    const cancelled = adminWithdrawal({
      id: 7,
      user: carol,
      status: 'cancelled',
      reason: 'The wallet is not yours',
      processed_by: olga,
      processed_at: '2025-03-04T10:00:00.000Z',
    });
    stubOperatorApi({
      [`GET ${LIST}`]: () =>
        queriesTo(LIST).at(-1)?.status === 'all'
          ? { body: page([paid, cancelled]) }
          : { body: page([]) },
    });
    const { user, router } = await openOperator(PATH);
    expect(
      await screen.findByText('No withdrawal requests are waiting.', {}, { timeout: 5000 }),
    ).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'All requests');
    await waitFor(() => expect(router.state.location.search).toBe('?status=all'));
    const table = await withdrawalsTable();
    const [first, second] = within(table).getAllByRole('row').slice(1) as [
      HTMLElement,
      HTMLElement,
    ];
    expect(first).toHaveTextContent('Paid out');
    expect(first).toHaveTextContent('Reference: TX-7f3a9c');
    expect(first).toHaveTextContent('by olga@tradehost.test, Mar 5, 2025');
    expect(second).toHaveTextContent('Cancelled');
    expect(second).toHaveTextContent('Reason: The wallet is not yours');
    expect(within(table).queryByRole('button', { name: /^(Pay out|Reject|Mark)/ })).toBeNull();
    expect(queriesTo(LIST).at(-1)).toMatchObject({ status: 'all', page: '1' });
  });

  it('shows a failed load with a way to try again, and an empty list', async () => {
    let fail = true;
    stubOperatorApi({
      [`GET ${LIST}`]: () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page([]) },
    });
    const { user } = await openOperator(`${PATH}?status=all`);
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The list could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('There are no withdrawal requests yet.')).toBeVisible();
  });

  it('pages through the requests', async () => {
    stubOperatorApi({
      [`GET ${LIST}`]: () => {
        const current = Number(queriesTo(LIST).at(-1)?.page ?? 1);
        return {
          body: page([current === 1 ? received : reviewing], { page: current, total: 21 }),
        };
      },
    });
    const { user } = await openOperator(PATH);
    const pages = await screen.findByRole(
      'navigation',
      { name: 'Pages of the partner withdrawals' },
      { timeout: 5000 },
    );
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'carol@example.com' })).toBeVisible();
    expect(queriesTo(LIST).at(-1)).toMatchObject({ status: 'open', page: '2' });
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { [`GET ${LIST}`]: { body: page([received]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator(PATH, { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Выводы партнёров' }, { timeout: 5000 });
    expect(table).toHaveTextContent('25,00 $');
    expect(table).toHaveTextContent('Получено');
    expect(
      within(table).getByRole('button', { name: /^Выплатить 25,00\s\$ партнёру bob@example.com$/ }),
    ).toBeVisible();
    expect(within(table).getByRole('button', { name: /^Взять на проверку/ })).toBeVisible();
  });
});
