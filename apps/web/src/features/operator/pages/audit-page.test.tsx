import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { auditEntry, openOperator, page, queriesTo, stubOperatorApi } from '../test-utils';

const firstPage = [
  auditEntry(),
  auditEntry({
    id: 2,
    action: 'balance.adjust',
    subject_type: 'user',
    subject_id: '5',
    details: { account: 'balance_partner', amount: -10, reason: 'Duplicate reward' },
  }),
  auditEntry({
    id: 3,
    actor: null,
    action: 'payment.mismatch',
    target_user: null,
    details: {},
  }),
];
const secondPage = [auditEntry({ id: 4, action: 'payment.reject', subject_id: '9' })];

describe('audit log', () => {
  it('lists who did what in words, and pages through it', async () => {
    stubOperatorApi({
      'GET /admin/audit': () => {
        const current = Number(queriesTo('/admin/audit').at(-1)?.page ?? 1);
        return {
          body: page(current === 1 ? firstPage : secondPage, {
            page: current,
            per_page: 25,
            total: 26,
          }),
        };
      },
    });
    const { user } = await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    expect(queriesTo('/admin/audit')[0]).toEqual({ page: '1', per_page: '25' });
    const [confirm, adjust, mismatch] = within(table).getAllByRole('row').slice(1);

    expect(confirm).toHaveTextContent('Confirmed a crypto payment');
    expect(confirm).toHaveTextContent('Payment #7');
    expect(within(confirm!).getByRole('link', { name: 'olga@tradehost.test' })).toBeVisible();
    expect(within(confirm!).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(confirm).toHaveTextContent('Amount+$50.00');
    expect(confirm).toHaveTextContent('NetworkUSDT-TRC20');

    expect(adjust).toHaveTextContent('Adjusted a balance');
    expect(adjust).toHaveTextContent('User #5');
    expect(adjust).toHaveTextContent('AccountPartner balance');
    expect(adjust).toHaveTextContent('Amount-$10.00');
    expect(adjust).toHaveTextContent('ReasonDuplicate reward');

    expect(mismatch).toHaveTextContent('System');
    expect(mismatch).toHaveTextContent('Refused a payment notification');

    const pages = screen.getByRole('navigation', { name: 'Pages of the audit log' });
    expect(pages).toHaveTextContent('1–25 of 26');
    const previous = within(pages).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await user.click(previous);
    expect(queriesTo('/admin/audit')).toHaveLength(1);

    const next = within(pages).getByRole('button', { name: 'Next' });
    await user.click(next);
    // the page shown stays (busy) while the next one loads: the table and the focus stay
    await waitFor(() => expect(table).toHaveTextContent('Rejected a crypto payment'));
    expect(queriesTo('/admin/audit').at(-1)).toEqual({ page: '2', per_page: '25' });
    expect(table).not.toHaveTextContent('Adjusted a balance');
    expect(pages).toHaveTextContent('26–26 of 26');
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).toHaveFocus();
  });

  it('says when the log is empty', async () => {
    stubOperatorApi({ 'GET /admin/audit': { body: page([]) } });
    await openOperator('/operator/audit');
    expect(await screen.findByText('The audit log is empty.', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Pages of the audit log' })).toBeNull();
  });
});
