import { screen, waitFor, within } from '@testing-library/react';
import type { AdminTestRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminServer,
  adminUser,
  carol,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
  testRequest,
} from '../../../operator/test-utils';

const queueTable = () => screen.findByRole('table', { name: 'Test servers' }, { timeout: 5000 });

const older = testRequest({
  id: 2,
  created_at: new Date(Date.now() - 30 * 3_600_000).toISOString(),
  user: carol,
  source: 'telegram',
});

/** The queue as the server keeps it: a decided request leaves it. */
function serverQueue(requests: AdminTestRequest[]) {
  let queue = [...requests];
  return {
    list: () => ({ body: page(queue) }),
    take: (id: number) => {
      const request = queue.find((row) => row.id === id)!;
      queue = queue.filter((row) => row.id !== id);
      return request;
    },
  };
}

describe('test servers', () => {
  it('lists the requests under review, oldest first as the server sends them', async () => {
    stubOperatorApi({ 'GET /admin/vps/test-requests': { body: page([older, testRequest()]) } });
    await openOperator('/operator/vps/test-servers');
    const table = await queueTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Requested', 'User', 'Heard about us from', 'Waiting', 'Actions']);
    expect(within(rows[0]!).getByRole('link', { name: 'carol@example.com' })).toBeVisible();
    expect(rows[0]).toHaveTextContent('Telegram');
    expect(rows[0]).toHaveTextContent('1 day ago');
    expect(rows[1]).toHaveTextContent('Forum');
    expect(rows[1]).toHaveTextContent('2 hr. ago');
    expect(
      within(rows[1]!).getByRole('button', { name: 'Approve the request of bob@example.com' }),
    ).toBeVisible();
    expect(queriesTo('/admin/vps/test-requests')[0]).toEqual({
      status: 'under_review',
      page: '1',
      per_page: '20',
    });
    expect(screen.getByRole('tab', { name: 'Under review' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('approves a request after a confirmation, and shows the server made for it', async () => {
    const queue = serverQueue([testRequest(), older]);
    const http = stubOperatorApi({
      'GET /admin/vps/test-requests': queue.list,
      'POST /admin/vps/test-requests/3/approve': () => {
        const request = queue.take(3);
        return {
          body: {
            test_request: { ...request, status: 'approved', server_id: 41 },
            server: adminServer({ id: 41, status: 'provisioning', is_trial: true }),
          },
        };
      },
    });
    const { user } = await openOperator('/operator/vps/test-servers');
    const table = await queueTable();
    await user.click(
      within(table).getByRole('button', { name: 'Approve the request of bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve the test server' });
    expect(dialog).toHaveAccessibleDescription(
      'Create a free test server for bob@example.com? It runs for the trial period, without a charge.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(dialog).toHaveTextContent('Forum');

    await user.click(within(dialog).getByRole('button', { name: 'Approve and create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = http.callsTo('POST', '/admin/vps/test-requests/3/approve');
    expect(call?.body).toEqual({});
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[A-Za-z0-9_.:-]{8,128}$/);

    const text = await screen.findByText(/is being created: server #41/);
    const notice = text.closest<HTMLElement>('[role="status"]');
    expect(notice).toHaveTextContent(
      'The test server of bob@example.com is being created: server #41.',
    );
    expect(within(notice!).getByRole('link', { name: 'Follow its creation' })).toHaveAttribute(
      'href',
      '/operator/vps/operations?server_id=41',
    );
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(within(table).getByText('carol@example.com')).toBeVisible();
    expect(
      await screen.findByText(
        'Approved: test server #41 for bob@example.com',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Test servers' })).toHaveFocus();
  });

  it('asks for a reason before rejecting, and sends it', async () => {
    const queue = serverQueue([testRequest(), older]);
    const http = stubOperatorApi({
      'GET /admin/vps/test-requests': queue.list,
      'POST /admin/vps/test-requests/3/reject': (call) => ({
        body: {
          test_request: {
            ...queue.take(3),
            status: 'rejected',
            reason: (call.body as { reason: string }).reason,
          },
        },
      }),
    });
    const { user } = await openOperator('/operator/vps/test-servers');
    const table = await queueTable();
    await user.click(
      within(table).getByRole('button', { name: 'Reject the request of bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject the request' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Reject the request' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeVisible();
    expect(http.callsTo('POST', '/admin/vps/test-requests/3/reject')).toHaveLength(0);

    await user.type(reason, '  One test server per person  ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject the request' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = http.callsTo('POST', '/admin/vps/test-requests/3/reject');
    expect(call?.body).toEqual({ reason: 'One test server per person' });
    expect(call?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(
      await screen.findByText(
        'The request of bob@example.com has been rejected',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it('says so and refreshes when another operator has decided first (409)', async () => {
    let listed = 0;
    const http = stubOperatorApi({
      'GET /admin/vps/test-requests': () => ({
        body: page(++listed === 1 ? [testRequest(), older] : [older]),
      }),
      'POST /admin/vps/test-requests/3/approve': {
        status: 409,
        body: {
          message: 'This request has already been processed',
          code: 'TEST_REQUEST_ALREADY_DECIDED',
        },
      },
    });
    const { user } = await openOperator('/operator/vps/test-servers');
    const table = await queueTable();
    await user.click(
      within(table).getByRole('button', { name: 'Approve the request of bob@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Approve the test server' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve and create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Someone else has already processed this request. The list has been refreshed.',
    );
    await waitFor(() => expect(within(table).queryByText('bob@example.com')).toBeNull());
    expect(http.callsTo('GET', '/admin/vps/test-requests')).toHaveLength(2);
  });

  it('keeps the dialog with the failure when the call fails otherwise', async () => {
    stubOperatorApi({
      'GET /admin/vps/test-requests': { body: page([testRequest()]) },
      'POST /admin/vps/test-requests/3/approve': {
        status: 503,
        body: {
          message: 'The servers are unavailable right now. Please try again later',
          code: 'HYPERVISOR_UNAVAILABLE',
        },
      },
    });
    const { user } = await openOperator('/operator/vps/test-servers');
    const table = await queueTable();
    await user.click(within(table).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the test server' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve and create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The servers are unavailable right now. Please try again later',
    );
    expect(within(table).getByText('bob@example.com')).toBeVisible();
  });

  it('shows the decided requests under their tabs, without buttons', async () => {
    stubOperatorApi({
      'GET /admin/vps/test-requests': () => {
        const status = queriesTo('/admin/vps/test-requests').at(-1)?.status;
        if (status === 'approved') {
          return {
            body: page([
              testRequest({
                status: 'approved',
                server_id: 41,
                decided_at: '2025-01-11T09:00:00.000Z',
              }),
            ]),
          };
        }
        return { body: page([]) };
      },
    });
    const { user, router } = await openOperator('/operator/vps/test-servers');
    expect(
      await screen.findByText('No test server requests are waiting.', {}, { timeout: 5000 }),
    ).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Approved' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=approved'));
    const table = await queueTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toContain('Decision');
    expect(within(table).getByRole('link', { name: 'Server #41' })).toHaveAttribute(
      'href',
      '/operator/vps/servers?search=41',
    );
    expect(within(table).queryByRole('button', { name: /^Approve/ })).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Rejected' }));
    expect(await screen.findByText('No rejected requests.')).toBeVisible();
    expect(queriesTo('/admin/vps/test-requests').at(-1)).toMatchObject({ status: 'rejected' });
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/test-requests': { body: page([testRequest()]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/test-servers', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Тестовые серверы' }, { timeout: 5000 });
    expect(table).toHaveTextContent('Форум');
    expect(
      within(table).getByRole('button', { name: 'Одобрить заявку bob@example.com' }),
    ).toBeVisible();
  });
});
