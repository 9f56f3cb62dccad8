import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { auditEntry, openOperator, page, stubOperatorApi } from '../test-utils';

describe('operator sections', () => {
  it('lists every section, the VPS, monitoring, partner, support and FAQ ones included, and marks the current one', async () => {
    stubOperatorApi({ 'GET /admin/vps/servers': { body: page([]) } });
    await openOperator('/operator/vps/servers', { width: 375 });
    const nav = await screen.findByRole(
      'navigation',
      { name: 'Operator sections' },
      { timeout: 5000 },
    );
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Review queue', '/operator'],
      ['Users', '/operator/users'],
      ['Test servers', '/operator/vps/test-servers'],
      ['Servers', '/operator/vps/servers'],
      ['Operations', '/operator/vps/operations'],
      ['VPS rates', '/operator/vps/rates'],
      ['Promocodes', '/operator/vps/promocodes'],
      ['Monitoring subscriptions', '/operator/monitoring/subscriptions'],
      ['Monitored accounts', '/operator/monitoring/accounts'],
      ['Monitoring prices', '/operator/monitoring/prices'],
      ['Withdrawals', '/operator/partner/withdrawals'],
      ['Partner settings', '/operator/partner/settings'],
      ['Support', '/operator/support'],
      ['FAQ', '/operator/faq'],
      ['Audit log', '/operator/audit'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Servers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(await screen.findByText('There are no servers yet.')).toBeVisible();
  });

  it('names the VPS actions in the audit log', async () => {
    stubOperatorApi({
      'GET /admin/audit': {
        body: page([
          auditEntry({
            action: 'vps.test_approve',
            subject_type: 'vps_test_request',
            subject_id: '3',
            details: { server_id: 41 },
          }),
          auditEntry({
            id: 2,
            action: 'vps.operation_fail',
            subject_type: 'vps_operation',
            subject_id: '42',
            details: { reason: 'Hung' },
          }),
        ]),
      },
    });
    await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    expect(table).toHaveTextContent('Approved a test server');
    expect(table).toHaveTextContent('Test server request #3');
    expect(table).toHaveTextContent('Marked an operation failed');
    expect(table).toHaveTextContent('Operation #42');
  });

  it('names the partner programme actions in the audit log', async () => {
    stubOperatorApi({
      'GET /admin/audit': {
        body: page([
          auditEntry({
            action: 'partner.withdrawal_paid',
            subject_type: 'withdrawal',
            subject_id: '8',
            details: { amount: 25, method: 'PAYEER', reference: 'PAYEER-778899' },
          }),
          auditEntry({
            id: 2,
            action: 'partner.settings',
            subject_type: 'partner_settings',
            subject_id: null,
            target_user: null,
            details: {},
          }),
        ]),
      },
    });
    await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    const [paid, settings] = within(table).getAllByRole('row').slice(1);
    expect(paid).toHaveTextContent('Paid out a partner withdrawal');
    expect(paid).toHaveTextContent('Withdrawal #8');
    expect(paid).toHaveTextContent('ReferencePAYEER-778899');
    expect(settings).toHaveTextContent('Changed the partner settings');
    expect(settings).toHaveTextContent('Partner settings');
  });

  it('names the help desk and FAQ actions in the audit log', async () => {
    stubOperatorApi({
      'GET /admin/audit': {
        body: page([
          auditEntry({
            action: 'support.note',
            subject_type: 'support_ticket',
            subject_id: '12',
            details: { title: 'No connection', files: 0 },
          }),
          auditEntry({
            id: 2,
            action: 'faq.delete',
            subject_type: 'faq_item',
            subject_id: '3',
            target_user: null,
            details: { slug: 'ticket-files' },
          }),
        ]),
      },
    });
    await openOperator('/operator/audit');
    const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 5000 });
    const [note, faq] = within(table).getAllByRole('row').slice(1);
    expect(note).toHaveTextContent('Added an internal note to a ticket');
    expect(note).toHaveTextContent('Ticket #12');
    expect(note).toHaveTextContent('TitleNo connection');
    expect(faq).toHaveTextContent('Deleted a FAQ question');
    expect(faq).toHaveTextContent('FAQ question #3');
    expect(faq).toHaveTextContent('Link nameticket-files');
  });
});
