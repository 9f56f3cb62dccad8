import { screen, waitFor, within } from '@testing-library/react';
import type { AdminOperation } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminOperation,
  adminUser,
  carol,
  olga,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const logTable = (name = 'Operations') => screen.findByRole('table', { name }, { timeout: 5000 });

const stuckCreate = adminOperation({
  id: 42,
  kind: 'create',
  status: 'running',
  server_id: 14,
  user: carol,
  actor: carol,
  finished_at: null,
  attempts: 2,
  stuck: true,
});
const failedStart = adminOperation({
  id: 41,
  kind: 'start',
  status: 'failed',
  actor: olga,
  error: 'The machine did not answer',
});
const lifecycleBlock = adminOperation({ id: 39, kind: 'block', actor: null });

/** The log as the server keeps it: a retried operation is queued, a failed one failed. */
function serverLog(operations: AdminOperation[]) {
  let log = [...operations];
  return {
    list: () => ({ body: page(log, { per_page: 50 }) }),
    settle: (id: number, changes: Partial<AdminOperation>) => {
      log = log.map((row) => (row.id === id ? { ...row, ...changes, stuck: false } : row));
      return { body: { operation: log.find((row) => row.id === id), message: 'ok' } };
    },
  };
}

describe('operations log', () => {
  it('lists the operations with their server, kind, state, requester and error', async () => {
    stubOperatorApi({
      'GET /admin/vps/operations': { body: page([stuckCreate, failedStart, lifecycleBlock]) },
    });
    await openOperator('/operator/vps/operations');
    const table = await logTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Operation', 'Server', 'Kind', 'Status', 'Requested by', 'Run', 'Error', 'Actions']);
    const [stuck, failed, block] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(stuck).toHaveTextContent('#42');
    expect(within(stuck).getByRole('link', { name: '#14' })).toHaveAttribute(
      'href',
      '/operator/vps/operations?server_id=14',
    );
    expect(stuck).toHaveTextContent('Create');
    expect(stuck).toHaveTextContent('Running');
    expect(stuck).toHaveTextContent('Stuck');
    expect(stuck).toHaveTextContent('Attempts: 2');
    expect(within(stuck).getByRole('button', { name: 'Retry operation #42' })).toBeVisible();
    expect(within(stuck).getByRole('button', { name: 'Mark failed operation #42' })).toBeVisible();

    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('The machine did not answer');
    expect(within(failed).getByRole('link', { name: 'olga@tradehost.test' })).toBeVisible();
    expect(within(failed).queryByRole('button')).toBeNull();
    expect(block).toHaveTextContent('Block');
    expect(block).toHaveTextContent('Lifecycle');
    expect(queriesTo('/admin/vps/operations')[0]).toEqual({ page: '1', per_page: '50' });
  });

  it('filters by status, stuck included, and by server', async () => {
    stubOperatorApi({
      'GET /admin/vps/operations': () => {
        const query = queriesTo('/admin/vps/operations').at(-1) ?? {};
        return { body: page(query.status === 'stuck' ? [] : [failedStart]) };
      },
    });
    const { user, router } = await openOperator('/operator/vps/operations?server_id=12');
    const table = await logTable('Operations of server #12');
    expect(table).toHaveTextContent('#41');
    expect(queriesTo('/admin/vps/operations')[0]).toEqual({
      server_id: '12',
      page: '1',
      per_page: '50',
    });
    const server = screen.getByRole('searchbox', { name: 'Server number' });
    expect(server).toHaveValue('12');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Stuck');
    expect(await screen.findByText('No operations of server #12 match.')).toBeVisible();
    expect(queriesTo('/admin/vps/operations').at(-1)).toEqual({
      status: 'stuck',
      server_id: '12',
      page: '1',
      per_page: '50',
    });

    await user.clear(server);
    await user.type(server, '12a');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('Enter the server number (digits)')).toBeVisible();
    expect(router.state.location.search).toBe('?server_id=12&status=stuck');

    await user.clear(screen.getByRole('searchbox', { name: 'Server number' }));
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=stuck'));
    expect(await screen.findByText('No operations are stuck.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Operations' })).toBeVisible();
  });

  it('retries a stuck operation after a confirmation, and the log is refreshed', async () => {
    const log = serverLog([stuckCreate, failedStart]);
    const http = stubOperatorApi({
      'GET /admin/vps/operations': log.list,
      'POST /admin/vps/operations/42/retry': () =>
        log.settle(42, { status: 'queued', started_at: null, attempts: 3 }),
    });
    const { user } = await openOperator('/operator/vps/operations');
    const table = await logTable();
    await user.click(within(table).getByRole('button', { name: 'Retry operation #42' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry the operation' });
    expect(dialog).toHaveAccessibleDescription(
      'Run operation #42 (Create, server #14) again on the hypervisor?',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const [call] = http.callsTo('POST', '/admin/vps/operations/42/retry');
    expect(call?.body).toEqual({});
    expect(call?.headers.get('Idempotency-Key')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByRole('button', { name: /^Retry/ })).toBeNull());
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Queued');
    expect(http.callsTo('GET', '/admin/vps/operations')).toHaveLength(2);
    expect(
      await screen.findByText(
        'Operation #42 (Create, server #14) is queued again',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it('fails a stuck operation with a reason, and says a creation is refunded', async () => {
    const log = serverLog([stuckCreate]);
    const http = stubOperatorApi({
      'GET /admin/vps/operations': log.list,
      'POST /admin/vps/operations/42/fail': (call) =>
        log.settle(42, { status: 'failed', error: (call.body as { reason: string }).reason }),
    });
    const { user } = await openOperator('/operator/vps/operations');
    const table = await logTable();
    await user.click(within(table).getByRole('button', { name: 'Mark failed operation #42' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the operation failed' });
    expect(dialog).toHaveAccessibleDescription(
      "End operation #42 (Create, server #14) as failed? The server is marked not created and its order is refunded to the user's balance.",
    );
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeVisible();
    expect(http.callsTo('POST', '/admin/vps/operations/42/fail')).toHaveLength(0);

    await user.type(reason, 'The node is down for maintenance');
    await user.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/vps/operations/42/fail')[0]?.body).toEqual({
      reason: 'The node is down for maintenance',
    });
    expect(await within(table).findByText('The node is down for maintenance')).toBeVisible();
    expect(within(table).queryByRole('button')).toBeNull();
  });

  it('says so and refreshes when the operation has moved on (409)', async () => {
    let listed = 0;
    const http = stubOperatorApi({
      'GET /admin/vps/operations': () => ({
        body: page(
          ++listed === 1 ? [stuckCreate] : [{ ...stuckCreate, status: 'succeeded', stuck: false }],
        ),
      }),
      'POST /admin/vps/operations/42/fail': {
        status: 409,
        body: { message: 'This operation has already finished', code: 'OPERATION_FINISHED' },
      },
    });
    const { user } = await openOperator('/operator/vps/operations?status=stuck');
    const table = await logTable();
    await user.click(within(table).getByRole('button', { name: 'Mark failed operation #42' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the operation failed' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Hung');
    await user.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This operation has already finished. The log has been refreshed.',
    );
    await waitFor(() => expect(within(table).queryByRole('button')).toBeNull());
    expect(http.callsTo('GET', '/admin/vps/operations')).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 2, name: 'Operations' })).toHaveFocus();
  });

  it('tells a retry refused because the operation is not stuck', async () => {
    stubOperatorApi({
      'GET /admin/vps/operations': { body: page([stuckCreate]) },
      'POST /admin/vps/operations/42/retry': {
        status: 409,
        body: { message: 'This operation is not stuck', code: 'OPERATION_NOT_STUCK' },
      },
    });
    const { user } = await openOperator('/operator/vps/operations');
    const table = await logTable();
    await user.click(within(table).getByRole('button', { name: 'Retry operation #42' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry the operation' });
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This operation is not stuck: it is running normally. The log has been refreshed.',
    );
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/operations': { body: page([stuckCreate]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/operations', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Операции' }, { timeout: 5000 });
    expect(table).toHaveTextContent('Создание');
    expect(table).toHaveTextContent('Зависла');
    expect(
      within(table).getByRole('button', { name: 'Повторить операцию №\u00a042' }),
    ).toBeVisible();
  });
});
