import { screen, waitFor, within } from '@testing-library/react';
import type { OperatorRole } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { auditEntry, openOperator, operatorUser, page, stubOperatorApi } from '../test-utils';

const ALL_SECTIONS = [
  'Review queue',
  'Approvals',
  'Users',
  'Test servers',
  'Servers',
  'Operations',
  'VPS rates',
  'Latency map',
  'Promocodes',
  'Monitoring subscriptions',
  'Monitored accounts',
  'Monitoring prices',
  'Withdrawals',
  'Partner settings',
  'Support',
  'FAQ',
  'Operators',
  'Audit log',
];

const findSections = () =>
  screen.findByRole('navigation', { name: 'Operator sections' }, { timeout: 5000 });

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
      ['Approvals', '/operator/approvals'],
      ['Users', '/operator/users'],
      ['Test servers', '/operator/vps/test-servers'],
      ['Servers', '/operator/vps/servers'],
      ['Operations', '/operator/vps/operations'],
      ['VPS rates', '/operator/vps/rates'],
      ['Latency map', '/operator/vps/latency'],
      ['Promocodes', '/operator/vps/promocodes'],
      ['Monitoring subscriptions', '/operator/monitoring/subscriptions'],
      ['Monitored accounts', '/operator/monitoring/accounts'],
      ['Monitoring prices', '/operator/monitoring/prices'],
      ['Withdrawals', '/operator/partner/withdrawals'],
      ['Partner settings', '/operator/partner/settings'],
      ['Support', '/operator/support'],
      ['FAQ', '/operator/faq'],
      ['Operators', '/operator/operators'],
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

describe('the sections of an operator’s roles', () => {
  it.each<[OperatorRole[], string[]]>([
    [['support'], ['Users', 'Support', 'FAQ']],
    [
      ['billing'],
      [
        'Review queue',
        'Approvals',
        'Users',
        'Promocodes',
        'Monitoring prices',
        'Withdrawals',
        'Partner settings',
      ],
    ],
    [['vps'], ['Users', 'Test servers', 'Servers', 'Operations', 'VPS rates', 'Latency map']],
    [['monitoring'], ['Users', 'Monitoring subscriptions', 'Monitored accounts']],
    [
      ['vps', 'support'],
      [
        'Users',
        'Test servers',
        'Servers',
        'Operations',
        'VPS rates',
        'Latency map',
        'Support',
        'FAQ',
      ],
    ],
    [['admin'], ALL_SECTIONS],
  ])('%j: the navigation lists %j', async (roles, sections) => {
    stubOperatorApi({ 'GET /admin/users': { body: page([]) } }, operatorUser(...roles));
    await openOperator('/operator/users');
    const nav = await findSections();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(sections);
    expect(await screen.findByText('There are no users yet.')).toBeVisible();
  });

  it('shows a page of another role as no access, in place of the page and without its calls', async () => {
    const http = stubOperatorApi(
      { 'GET /admin/audit': { body: page([]) } },
      operatorUser('support'),
    );
    await openOperator('/operator/audit');
    expect(
      await screen.findByRole(
        'heading',
        { level: 2, name: 'No access to this section' },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(
      screen.getByText(
        'It is for operators with the Admin role, which your account does not hold. An admin can grant it.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Operator' })).toBeVisible();
    expect(within(await findSections()).queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Audit log' })).toBeNull();
    expect(document.title).toBe('No access to this section · TradeHost');
    expect(http.callsTo('GET', '/admin/audit')).toEqual([]);
  });

  it('says which role a page needs in Russian too', async () => {
    const http = stubOperatorApi({}, { ...operatorUser('vps'), language: 'ru' });
    await openOperator('/operator/partner/withdrawals', { language: 'ru' });
    expect(
      await screen.findByRole(
        'heading',
        { level: 2, name: 'Нет доступа к этому разделу' },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.getByText(/с ролью «Биллинг»/)).toBeVisible();
    expect(http.callsTo('GET', '/admin/partner/withdrawals')).toEqual([]);
  });

  it('opens a page of a role the operator holds, among others', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/servers': { body: page([]) } },
      operatorUser('support', 'vps'),
    );
    await openOperator('/operator/vps/servers');
    expect(
      await screen.findByText('There are no servers yet.', {}, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'No access to this section' })).toBeNull();
  });

  it('takes an operator without the billing role from the review queue to their first section', async () => {
    const http = stubOperatorApi({}, operatorUser('monitoring'));
    const { router } = await openOperator('/operator');
    await waitFor(
      () => expect(router.state.location.pathname).toBe('/operator/monitoring/subscriptions'),
      { timeout: 5000 },
    );
    const nav = await findSections();
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Monitoring subscriptions' })).toHaveAttribute(
        'aria-current',
        'page',
      ),
    );
    expect(http.callsTo('GET', '/admin/payments')).toEqual([]);
  });
});
