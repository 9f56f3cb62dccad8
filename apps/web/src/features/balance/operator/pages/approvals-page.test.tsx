import { screen, waitFor, within } from '@testing-library/react';
import type { MoneyApproval } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminUserRecord,
  adminWithdrawal,
  bob,
  carol,
  ledgerEntry,
  moneyApproval,
  olga,
  openOperator,
  operatorUser,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

// the first test of the file also waits for the lazy pages to compile
const approvalsTable = () => screen.findByRole('table', { name: 'Approvals' }, { timeout: 5000 });

/** A list the stub keeps: a decided request leaves it, as it does on the server. */
function serverList(approvals: MoneyApproval[]) {
  let list = [...approvals];
  return {
    list: () => ({ body: page(list) }),
    take: (id: number) => {
      const approval = list.find((row) => row.id === id)!;
      list = list.filter((row) => row.id !== id);
      return approval;
    },
  };
}

const payout = moneyApproval({
  id: 32,
  kind: 'payout',
  user: bob,
  requested_by: carol,
  amount: 620,
  account: null,
  reason: null,
  withdrawal_id: 8,
  reference: 'PAYEER-778899',
});
/** Olga's own request: she may withdraw it, not approve it. */
const own = moneyApproval({ id: 33, requested_by: olga, amount: -900, reason: 'Chargeback' });

describe('approvals', () => {
  it('lists what waits for a second operator, with whose money, who asked and why', async () => {
    stubOperatorApi(
      { 'GET /admin/approvals': { body: page([moneyApproval(), payout, own]) } },
      operatorUser('billing'),
    );
    await openOperator('/operator/approvals');
    const table = await approvalsTable();
    const [header, first, second, third] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Asked', 'Request', 'Whose money', 'Amount', 'Asked by', 'Waiting', 'Actions']);
    expect(first).toHaveTextContent('Credit to the Balance');
    expect(first).toHaveTextContent('Compensation for the outage');
    expect(first).toHaveTextContent('+$750.00');
    expect(first).toHaveTextContent('2 hr. ago');
    expect(within(first!).getByRole('button', { name: /^Approve/ })).toBeEnabled();
    expect(second).toHaveTextContent('Payout of withdrawal #8');
    expect(second).toHaveTextContent('Reference: PAYEER-778899');
    // her own request: no Approve, only Withdraw, and it says why
    expect(third).toHaveTextContent('Debit from the Balance');
    expect(third).toHaveTextContent('−$900.00');
    expect(third).toHaveTextContent('Your request: another operator approves it');
    expect(within(third!).queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(within(third!).getByRole('button', { name: /^Withdraw/ })).toBeInTheDocument();
    expect(queriesTo('/admin/approvals')[0]).toMatchObject({ status: 'pending', page: '1' });
    // in the navigation of a billing operator
    expect(screen.getByRole('link', { name: 'Approvals' })).toHaveAttribute(
      'href',
      '/operator/approvals',
    );
  });

  it('approves an adjustment with an Idempotency-Key after a confirmation; the row leaves', async () => {
    const server = serverList([moneyApproval(), payout]);
    const http = stubOperatorApi({
      'GET /admin/approvals': server.list,
      'POST /admin/adjustments/31/approve': () => {
        const approval = server.take(31);
        return {
          body: {
            user: adminUserRecord({ id: carol.id, email: carol.email, balance: 750 }),
            entry: ledgerEntry({ amount: 750, balance_after: 750 }),
            approval: { ...approval, status: 'approved', decided_by: olga },
            message: 'ok',
            code: 'APPROVAL_APPROVED',
          },
        };
      },
    });
    const { user } = await openOperator('/operator/approvals');
    const table = await approvalsTable();
    await user.click(within(table).getAllByRole('button', { name: /^Approve/ })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Approve the request' });
    expect(dialog).toHaveAccessibleDescription(
      'Approve this adjustment of $750.00 for carol@example.com? It is recorded in the ledger at once, under your name.',
    );
    expect(within(dialog).getByText('Asked by').nextElementSibling).toHaveTextContent(bob.email);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(http.callsTo('POST', '/admin/adjustments/31/approve')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Approve $750.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = http.callsTo('POST', '/admin/adjustments/31/approve');
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);
    // the row has left; the payout stays
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('Payout of withdrawal #8')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Approved: Credit to the Balance, $750.00, carol@example.com',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Approvals' })).toHaveFocus();
  });

  it('approves a payout through the partner route', async () => {
    const server = serverList([payout]);
    const http = stubOperatorApi({
      'GET /admin/approvals': server.list,
      'POST /admin/partner/payouts/32/approve': () => {
        server.take(32);
        return {
          body: {
            withdrawal: adminWithdrawal({ status: 'paid_out', payout_reference: 'PAYEER-778899' }),
            message: 'ok',
            code: 'APPROVAL_APPROVED',
          },
        };
      },
    });
    const { user } = await openOperator('/operator/approvals');
    const table = await approvalsTable();
    await user.click(within(table).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the request' });
    expect(dialog).toHaveAccessibleDescription(/^Approve this payout of \$620\.00 to bob@/);
    expect(within(dialog).getByText('Payment reference').nextElementSibling).toHaveTextContent(
      'PAYEER-778899',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve $620.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/partner/payouts/32/approve')).toHaveLength(1);
    expect(await screen.findByText('Nothing is waiting for approval.')).toBeVisible();
  });

  it('declines with a reason, and lets the requester withdraw their own', async () => {
    const server = serverList([moneyApproval(), own]);
    const declined = (id: number, reason: string) => {
      const approval = server.take(id);
      return {
        body: {
          approval: { ...approval, status: 'declined', decided_by: olga, decline_reason: reason },
          message: 'ok',
          code: 'APPROVAL_DECLINED',
        },
      };
    };
    const http = stubOperatorApi({
      'GET /admin/approvals': server.list,
      'POST /admin/adjustments/31/decline': (call) =>
        declined(31, (call.body as { reason: string }).reason),
      'POST /admin/adjustments/33/decline': (call) =>
        declined(33, (call.body as { reason: string }).reason),
    });
    const { user } = await openOperator('/operator/approvals');
    const table = await approvalsTable();
    const [, first] = within(table).getAllByRole('row');
    await user.click(within(first!).getByRole('button', { name: /^Decline/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the request' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline the request' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeInTheDocument();
    expect(http.callsTo('POST', '/admin/adjustments/31/decline')).toHaveLength(0);
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Reason' }),
      'Already refunded by the bank',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Decline the request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/adjustments/31/decline')[0]?.body).toEqual({
      reason: 'Already refunded by the bank',
    });

    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    await user.click(within(table).getByRole('button', { name: /^Withdraw/ }));
    const withdraw = await screen.findByRole('dialog', { name: 'Withdraw your request' });
    await user.type(within(withdraw).getByRole('textbox', { name: 'Reason' }), 'Wrong user');
    await user.click(within(withdraw).getByRole('button', { name: 'Withdraw the request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/adjustments/33/decline')).toHaveLength(1);
    expect(await screen.findByText('Nothing is waiting for approval.')).toBeVisible();
  });

  it('says so and refreshes when someone else has decided first (409)', async () => {
    let listed = 0;
    stubOperatorApi({
      'GET /admin/approvals': () => ({ body: page(listed++ === 0 ? [moneyApproval()] : []) }),
      'POST /admin/adjustments/31/approve': {
        status: 409,
        body: {
          code: 'APPROVAL_DECIDED',
          message: 'This request has already been approved or declined',
        },
      },
    });
    const { user } = await openOperator('/operator/approvals');
    const table = await approvalsTable();
    await user.click(within(table).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the request' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve $750.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      await screen.findByText(
        'Someone else has already decided this request. The list has been refreshed.',
      ),
    ).toBeVisible();
    expect(await screen.findByText('Nothing is waiting for approval.')).toBeVisible();
  });

  it('shows a refusal in the dialog: an approval the purse no longer covers stays', async () => {
    stubOperatorApi({
      'GET /admin/approvals': { body: page([moneyApproval({ amount: -900 })]) },
      'POST /admin/adjustments/31/approve': {
        status: 422,
        body: {
          code: 'INSUFFICIENT_FUNDS',
          message: 'Insufficient funds',
          errors: { amount: ['Insufficient funds'] },
        },
      },
    });
    const { user } = await openOperator('/operator/approvals');
    const table = await approvalsTable();
    await user.click(within(table).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the request' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve $900.00' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The balance would become negative',
    );
    expect(within(table).getByText('carol@example.com')).toBeInTheDocument();
  });

  it('is not in a support operator’s navigation, and its address shows no access', async () => {
    stubOperatorApi({}, operatorUser('support'));
    await openOperator('/operator/approvals');
    expect(
      await screen.findByRole('heading', { name: /access/i }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Approvals' })).toBeNull();
  });
});
