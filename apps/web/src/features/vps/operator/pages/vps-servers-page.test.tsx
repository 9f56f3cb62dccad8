import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  adminOperation,
  adminServer,
  adminUser,
  carol,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const serversTable = () => screen.findByRole('table', { name: 'Servers' }, { timeout: 5000 });

const rebooting = adminServer({
  id: 13,
  user: carol,
  operation: {
    ...adminOperation({ id: 41, status: 'running', finished_at: null }),
  },
});
const failed = adminServer({
  id: 14,
  status: 'failed',
  power: 'unknown',
  machine_id: null,
  is_trial: true,
  failure: 'The hypervisor could not clone the template',
});

describe('servers', () => {
  it('lists every server with its owner, rate, state and the operation running on it', async () => {
    stubOperatorApi({
      'GET /admin/vps/servers': { body: page([adminServer(), rebooting, failed]) },
    });
    await openOperator('/operator/vps/servers');
    const table = await serversTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Server',
      'User',
      'Rate',
      'Status',
      'Power',
      'Paid until',
      'Operation in progress',
      'Actions',
    ]);
    expect(rows).toHaveLength(3);
    const first = rows[0]!;
    expect(first).toHaveTextContent('#12');
    expect(first).toHaveTextContent('VM vm-1012');
    expect(within(first).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(first).toHaveTextContent('Start');
    expect(first).toHaveTextContent('2 vCPU · 4 GB · London (LD4)');
    expect(first).toHaveTextContent('Active');
    expect(first).toHaveTextContent('Running');
    expect(first).toHaveTextContent('Feb 10, 2025');
    expect(first).toHaveTextContent('None');
    expect(
      within(first).getByRole('link', { name: 'Operations log of server #12' }),
    ).toHaveAttribute('href', '/operator/vps/operations?server_id=12');

    expect(rows[1]).toHaveTextContent('Reboot');
    expect(rows[1]).toHaveTextContent('Running');
    expect(rows[2]).toHaveTextContent('Test');
    expect(rows[2]).toHaveTextContent('Not created');
    expect(rows[2]).toHaveTextContent('The hypervisor could not clone the template');
    expect(rows[2]).toHaveTextContent('Unknown');
    expect(queriesTo('/admin/vps/servers')[0]).toEqual({ page: '1', per_page: '20' });
  });

  it('searches by number or e-mail and filters by status', async () => {
    stubOperatorApi({
      'GET /admin/vps/servers': () => {
        const query = queriesTo('/admin/vps/servers').at(-1) ?? {};
        return { body: page(query.status === 'blocked' ? [] : [adminServer()]) };
      },
    });
    const { user, router } = await openOperator('/operator/vps/servers');
    await serversTable();
    await user.type(screen.getByRole('searchbox', { name: 'Server number or e-mail' }), ' bob@ ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?search=bob%40'));
    await waitFor(() =>
      expect(queriesTo('/admin/vps/servers').at(-1)).toEqual({
        search: 'bob@',
        page: '1',
        per_page: '20',
      }),
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Blocked');
    expect(await screen.findByText('No servers match the search or the filter.')).toBeVisible();
    expect(queriesTo('/admin/vps/servers').at(-1)).toEqual({
      search: 'bob@',
      status: 'blocked',
      page: '1',
      per_page: '20',
    });
    expect(screen.getByRole('searchbox', { name: 'Server number or e-mail' })).toHaveValue('bob@');
  });

  it('pages through the servers, and says when there are none', async () => {
    let none = false;
    stubOperatorApi({
      'GET /admin/vps/servers': () => {
        if (none) return { body: page([]) };
        const current = Number(queriesTo('/admin/vps/servers').at(-1)?.page ?? 1);
        return {
          body: page([current === 1 ? adminServer() : rebooting], { page: current, total: 21 }),
        };
      },
    });
    const { user } = await openOperator('/operator/vps/servers');
    const pages = await screen.findByRole(
      'navigation',
      { name: 'Pages of the server list' },
      { timeout: 5000 },
    );
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'carol@example.com' })).toBeVisible();
    expect(queriesTo('/admin/vps/servers').at(-1)).toMatchObject({ page: '2' });

    none = true;
    await user.click(screen.getByRole('link', { name: 'Servers' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('There are no servers yet.')).toBeVisible();
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/servers': { body: page([adminServer()]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/servers', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Серверы' }, { timeout: 5000 });
    expect(table).toHaveTextContent('Активен');
    expect(table).toHaveTextContent('Работает');
    expect(
      within(table).getByRole('link', { name: 'Журнал операций сервера №\u00a012' }),
    ).toBeVisible();
  });
});
