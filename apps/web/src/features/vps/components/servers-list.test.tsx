import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  deferred,
  fixClock,
  operation,
  page,
  RATES,
  renderVps,
  searchOf,
  server,
  stubVpsApi,
} from '../test-utils';
import { authApi } from '../../auth/api/auth-api';

const SERVERS = [
  server({
    id: 12,
    comment: 'EURUSD scalper',
    auto_renew: true,
    renew_months: 3,
    paid_until: '2026-11-12T10:00:00.000Z',
  }),
  server({
    id: 11,
    rate: RATES[0]!,
    status: 'blocked',
    power: 'stopped',
    paid_until: '2026-11-01T10:00:00.000Z',
  }),
  server({ id: 10, status: 'revoked', power: 'stopped', has_credentials: false }),
  server({
    id: 9,
    status: 'failed',
    power: 'unknown',
    has_credentials: false,
    failure: 'No capacity in London (LD4)',
  }),
];

const table = () => screen.getByRole('table', { name: 'Your servers' });
const rows = () => within(table()).getAllByRole('row').slice(1);
const row = (id: number) => screen.getByRole('row', { name: new RegExp(`^#${id}\\b`) });

describe('My servers', () => {
  it('lists the servers with the columns of the spec', async () => {
    fixClock();
    stubVpsApi({ 'GET /user/vps/servers': { body: page(SERVERS) } });
    renderVps('/vps?tab=servers');

    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'ID',
      'Tariff',
      'Comment',
      'Login details',
      'Issued',
      'Paid until',
      'Auto-renewal',
      'Status',
      'Actions',
    ]);
    expect(screen.getByText('Servers: 4')).toBeInTheDocument();

    const active = within(row(12));
    expect(active.getByText('Trader')).toBeInTheDocument();
    expect(active.getByText(/vCPU/).textContent).toBe(
      '4\u00a0vCPU · 8\u00a0GB\u00a0RAM · 120\u00a0GB\u00a0SSD',
    );
    expect(active.getByText('London (LD4)')).toBeInTheDocument();
    expect(
      active.getByRole('button', { name: 'Edit the comment of server #12: EURUSD scalper' }),
    ).toHaveTextContent('EURUSD scalper');
    expect(
      active.getByRole('button', { name: 'Show the login details of server #12' }),
    ).toBeInTheDocument();
    expect(active.getByText('Oct 1, 2026')).toBeInTheDocument();
    expect(active.getByText('Nov 12, 2026')).toBeInTheDocument();
    // two days left: marked with a word, not only a colour
    expect(active.getByText('Expires soon')).toBeInTheDocument();
    const autoRenew = active.getByRole('switch', { name: 'Auto-renewal of server #12' });
    expect(autoRenew).toHaveAttribute('aria-checked', 'true');
    expect(autoRenew).toHaveAccessibleDescription('Renews for 3 months from the balance');
    expect(active.getByText('Active')).toBeInTheDocument();
    expect(active.getByText('Running')).toBeInTheDocument();
    expect(active.getByRole('button', { name: 'Renew server #12' })).toBeInTheDocument();
    expect(active.getByRole('button', { name: 'Upgrade server #12' })).toBeInTheDocument();
    expect(active.getByRole('button', { name: 'Shut down server #12' })).toBeInTheDocument();
    expect(active.getByRole('button', { name: 'Reboot server #12' })).toBeInTheDocument();
    expect(active.queryByRole('button', { name: 'Start server #12' })).toBeNull();

    const blocked = within(row(11));
    expect(blocked.getByText('Blocked')).toBeInTheDocument();
    expect(blocked.getByText('Expired')).toBeInTheDocument();
    expect(
      blocked.getByText('Shut down for non-payment; renew it to start it again.'),
    ).toBeInTheDocument();
    expect(blocked.getByRole('button', { name: 'Renew server #11' })).toBeInTheDocument();
    expect(blocked.queryByRole('button', { name: /Start|Upgrade|Reboot/ })).toBeNull();

    const revoked = within(row(10));
    expect(revoked.getByText('Revoked')).toBeInTheDocument();
    expect(revoked.queryByRole('button', { name: /login details|Renew/ })).toBeNull();
    expect(revoked.getByRole('switch')).toBeDisabled();

    const failed = within(row(9));
    expect(failed.getByText('Not created')).toBeInTheDocument();
    expect(
      failed.getByText('The server could not be created: No capacity in London (LD4)'),
    ).toBeInTheDocument();
    expect(failed.getByText('The payment was returned to your balance.')).toBeInTheDocument();
  });

  it('shows a server being created, a test server and a pending upgrade', async () => {
    fixClock();
    stubVpsApi({
      'GET /user/vps/servers': {
        body: page([
          server({
            id: 21,
            is_trial: true,
            upgrade: {
              id: 3,
              created_at: '2026-11-09T10:00:00.000Z',
              from_rate: 'Trader',
              to_rate: 'Pro',
              to_rate_id: 3,
              scheduled_for: '2026-11-20',
              price: 14.67,
              status: 'pending',
            },
          }),
          server({
            id: 22,
            status: 'provisioning',
            power: 'unknown',
            has_credentials: false,
            operation: operation({ kind: 'create' }),
          }),
        ]),
      },
      'GET /user/vps/servers/22': {
        body: {
          server: server({
            id: 22,
            status: 'provisioning',
            power: 'unknown',
            has_credentials: false,
            operation: operation({ kind: 'create' }),
          }),
        },
      },
    });
    renderVps('/vps?tab=servers');
    const trial = within(await screen.findByRole('row', { name: /^#21/ }));
    expect(trial.getByText('Test server')).toBeInTheDocument();
    expect(
      trial.getByText('Upgrade to Pro on Nov 20, 2026 is being processed'),
    ).toBeInTheDocument();

    const creating = within(screen.getByRole('row', { name: /^#22/ }));
    expect(creating.getByText('Being created')).toBeInTheDocument();
    expect(creating.getByText('Setting up Windows, a few minutes…')).toBeInTheDocument();
    expect(creating.getByText('Once created')).toBeInTheDocument();
    expect(creating.queryByRole('button', { name: /Renew|Upgrade/ })).toBeNull();
  });

  it('follows a server being created; a failed one says why and the balance is read again', async () => {
    const creating = server({
      id: 22,
      status: 'provisioning',
      power: 'unknown',
      has_credentials: false,
      operation: operation({ kind: 'create' }),
    });
    const failed = server({
      id: 22,
      status: 'failed',
      power: 'unknown',
      has_credentials: false,
      failure: 'The template could not be cloned',
      last_operation: operation({ kind: 'create', status: 'failed', error: 'clone failed' }),
    });
    const polled = deferred<{ body: unknown }>();
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([creating]) },
      'GET /user/vps/servers/22': () => polled.promise,
    });
    const { store } = renderVps('/vps?tab=servers');
    // the header's balance: a subscriber of GET /user/auth (tag User), as in the app
    store.dispatch(authApi.endpoints.getUser.initiate());
    const line = within(await screen.findByRole('row', { name: /^#22/ }));
    await waitFor(() => expect(api.callsTo('GET', '/user/auth')).toHaveLength(1));
    expect(line.getByText('Setting up Windows, a few minutes…')).toBeInTheDocument();
    polled.resolve({ body: { server: failed } });
    expect(
      await line.findByText('The server could not be created: The template could not be cloned'),
    ).toBeInTheDocument();
    expect(line.getByText('Not created')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/user/auth')).toHaveLength(2));
    expect(api.callsTo('GET', '/user/vps/servers/22')).toHaveLength(1);
  });

  it('searches by ID (digits only), filters by status and goes through the pages', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers': (call) => {
        void call;
        return { body: page([server({ id: 12 })], { total: 45 }) };
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    await screen.findByText('1–1 of 45');

    await user.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/vps/servers').at(-1)).toEqual({
        page: '2',
        per_page: '20',
      }),
    );
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Blocked' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/vps/servers').at(-1)).toEqual({
        status: 'blocked',
        page: '1',
        per_page: '20',
      }),
    );

    const search = screen.getByRole('searchbox', { name: 'Search by ID' });
    await user.type(search, '1a');
    expect(search).toHaveAttribute('aria-invalid', 'true');
    expect(search).toHaveAccessibleDescription('Search by the server number (digits)');
    await user.type(search, '{Backspace}2');
    expect(search).not.toHaveAttribute('aria-invalid');
    await waitFor(() =>
      expect(api.queries('GET', '/user/vps/servers').at(-1)).toEqual({
        search: '12',
        status: 'blocked',
        page: '1',
        per_page: '20',
      }),
    );
    // "1a" and "1" were never sent
    expect(
      api.queries('GET', '/user/vps/servers').filter((q) => q.search && q.search !== '12'),
    ).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'All' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/vps/servers').at(-1)).toEqual({
        search: '12',
        page: '1',
        per_page: '20',
      }),
    );
  });

  it('says when nothing matches, and clears the search and the filter', async () => {
    stubVpsApi({
      'GET /user/vps/servers': (call) => {
        void call;
        return { body: page([]) };
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    expect(
      await screen.findByRole('heading', { name: 'You have no servers yet' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Revoked' }));
    expect(await screen.findByRole('heading', { name: 'No servers found' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the search and the filter' }));
    expect(
      await screen.findByRole('heading', { name: 'You have no servers yet' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'All' })).toBeChecked();
  });

  it('leads a reader without servers to the rates', async () => {
    stubVpsApi();
    const { user, router } = renderVps('/vps?tab=servers');
    expect(
      await screen.findByRole('heading', { name: 'You have no servers yet' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Order your first server' }));
    expect(searchOf(router).get('tab')).toBe('rates');
    expect(await screen.findByRole('group', { name: 'Choose a rate' })).toBeInTheDocument();
  });

  it('shows a loading state, then an error with a retry', async () => {
    let fail = true;
    stubVpsApi({
      'GET /user/vps/servers': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page([server()]) },
    });
    const { user } = renderVps('/vps?tab=servers');
    expect(screen.getByText('Loading your servers…')).toBeInTheDocument();
    expect(await screen.findByText('Your servers could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('row', { name: /^#12/ })).toBeInTheDocument();
  });

  it('shows cards on a phone, with the same facts and actions', async () => {
    stubVpsApi({ 'GET /user/vps/servers': { body: page([SERVERS[0]!]) } });
    renderVps('/vps?tab=servers', { width: 375 });
    const list = await screen.findByRole('list', { name: 'Your servers' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getByRole('listitem'));
    expect(card.getByRole('heading', { name: '#12' })).toBeInTheDocument();
    expect(card.getByText('Trader')).toBeInTheDocument();
    expect(card.getByRole('switch', { name: 'Auto-renewal of server #12' })).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Reboot server #12' })).toBeInTheDocument();
  });

  it('speaks Russian', async () => {
    stubVpsApi({ 'GET /user/vps/servers': { body: page([SERVERS[1]!]) } });
    renderVps('/vps?tab=servers', { language: 'ru' });
    const line = within(await screen.findByRole('row', { name: /^№\u00a011/ }));
    expect(line.getByText('Заблокирован')).toBeInTheDocument();
    // a narrow column wraps the size at its dots, never between a number and its unit
    expect(line.getByText(/vCPU/).textContent).toBe(
      '2\u00a0vCPU · 4\u00a0ГБ\u00a0ОЗУ · 60\u00a0ГБ\u00a0SSD',
    );
    expect(line.getByRole('button', { name: 'Продлить сервер №\u00a011' })).toBeInTheDocument();
  });
});
