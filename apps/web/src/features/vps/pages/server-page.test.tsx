import { screen, waitFor, within } from '@testing-library/react';
import type { ServerActivity } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../shared/lib/format-date';
import { setLiveState } from '../../../shared/live/live-state';
import {
  activity,
  deferred,
  fixClock,
  liveOperationEnded,
  machineRoutes,
  operation,
  page,
  plain,
  renderVps,
  server,
  stubVpsApi,
  type Handler,
} from '../test-utils';

const SERVER = { body: { server: server({ comment: 'EURUSD scalper', auto_renew: true }) } };
const NOT_FOUND = {
  status: 404,
  body: { message: 'Server not found', code: 'SERVER_NOT_FOUND' },
};

/** Every kind of line, newest first, by each actor and in each outcome. */
const LINES: ServerActivity[] = [
  activity({ id: 'operation-506', at: '2026-11-10T11:59:00.000Z', kind: 'reboot' }),
  activity({
    id: 'operation-505',
    at: '2026-11-10T11:58:00.000Z',
    kind: 'upgrade',
    by: 'system',
    status: 'queued',
    finished_at: null,
  }),
  activity({
    id: 'action-9',
    at: '2026-11-09T18:30:00.000Z',
    kind: 'credentials_revealed',
    finished_at: null,
  }),
  activity({
    id: 'action-8',
    at: '2026-11-09T18:00:00.000Z',
    kind: 'auto_renew_on',
    finished_at: null,
  }),
  activity({
    id: 'operation-504',
    at: '2026-11-05T07:00:00.000Z',
    kind: 'shutdown',
    by: 'operator',
    status: 'failed',
  }),
  activity({
    id: 'operation-503',
    at: '2026-11-04T07:00:00.000Z',
    kind: 'start',
    status: 'running',
    finished_at: null,
  }),
  activity({
    id: 'action-7',
    at: '2026-11-01T10:00:00.000Z',
    kind: 'renew',
    by: 'system',
    finished_at: null,
  }),
  activity({ id: 'operation-501', at: '2026-10-01T10:00:00.000Z', kind: 'create' }),
];

function stubServer(routes: Record<string, Handler> = {}) {
  return stubVpsApi({
    'GET /user/vps/servers/12': SERVER,
    'GET /user/vps/servers/12/activity': { body: page(LINES) },
    ...machineRoutes(),
    ...routes,
  });
}

const activityTable = () => screen.findByRole('table', { name: 'Activity' });
/** The activity's lines as their cells' texts (the table's header row left out). */
const linesOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => plain(cell.textContent)),
    );
const when = (line: ServerActivity, language = 'en') => plain(formatDateTime(line.at, language));

describe("a server's page", () => {
  it('shows the server as the list does, its actions, and its activity in words', async () => {
    fixClock();
    const api = stubServer();
    const { router } = renderVps('/vps/servers/12');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Server #12' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Server #12 · VPS servers · TradeHost');
    expect(screen.getByRole('link', { name: 'My servers' })).toHaveAttribute(
      'href',
      '/vps?tab=servers',
    );
    const details = within(await screen.findByRole('region', { name: 'Server details' }));
    expect(details.getByText('Trader')).toBeInTheDocument();
    expect(details.getByText('London (LD4)')).toBeInTheDocument();
    expect(details.getByText('Active')).toBeInTheDocument();
    expect(details.getByText('Running')).toBeInTheDocument();
    expect(details.getByText('Oct 1, 2026')).toBeInTheDocument();
    expect(details.getByRole('switch', { name: 'Auto-renewal of server #12' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(
      details.getByRole('button', { name: 'Edit the comment of server #12: EURUSD scalper' }),
    ).toBeInTheDocument();
    expect(
      details.getByRole('button', { name: 'Show the login details of server #12' }),
    ).toBeInTheDocument();
    for (const action of ['Renew', 'Upgrade', 'Shut down', 'Reboot'])
      expect(screen.getByRole('button', { name: `${action} server #12` })).toBeInTheDocument();

    const table = await activityTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['When', 'What', 'By', 'Outcome']);
    expect(linesOf(table)).toEqual([
      [when(LINES[0]!), 'Rebooted', 'You', 'Done'],
      [when(LINES[1]!), 'Upgraded', 'TradeHost', 'Queued'],
      [when(LINES[2]!), 'Login details shown', 'You', 'Done'],
      [when(LINES[3]!), 'Auto-renewal switched on', 'You', 'Done'],
      [when(LINES[4]!), 'Shut down', 'Support', 'Failed'],
      [when(LINES[5]!), 'Started', 'You', 'In progress'],
      [when(LINES[6]!), 'Renewed', 'TradeHost', 'Done'],
      [when(LINES[7]!), 'Created', 'You', 'Done'],
    ]);
    // the moment in the reader's zone, the machine-readable one as the API gave it
    expect(within(table).getAllByRole('row')[1]!.querySelector('time')).toHaveAttribute(
      'datetime',
      LINES[0]!.at,
    );
    expect(api.queries('GET', '/user/vps/servers/12/activity')).toEqual([
      { page: '1', per_page: '20' },
    ]);
    expect(screen.getByText('1–8 of 8')).toBeInTheDocument();
    // everything fits on one page: no page buttons
    expect(screen.queryByRole('navigation', { name: 'Pages of the activity' })).toBeNull();

    await router.navigate('/vps?tab=servers');
    expect(await screen.findByRole('heading', { level: 1, name: 'VPS servers' })).toBeVisible();
  });

  it('has the sections of a server on the hypervisor (active or blocked) only, between its facts and its activity', async () => {
    const sections = () =>
      screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby'));
    const names = () =>
      sections().map((id) => document.getElementById(id ?? '')?.textContent ?? '');
    for (const status of ['active', 'blocked'] as const) {
      const api = stubServer({
        'GET /user/vps/servers/12': { body: { server: server({ status }) } },
      });
      const { unmount } = renderVps('/vps/servers/12');
      await activityTable();
      expect(names()).toEqual([
        'Server details',
        'Resources',
        'Snapshots',
        'Repair',
        'Web console',
        'Terminal guardian',
        'Activity',
      ]);
      expect(api.callsTo('GET', '/user/vps/servers/12/metrics')).toHaveLength(1);
      unmount();
    }
    for (const status of ['provisioning', 'revoked', 'failed'] as const) {
      const api = stubServer({
        'GET /user/vps/servers/12': { body: { server: server({ status, power: 'stopped' }) } },
      });
      const { unmount } = renderVps('/vps/servers/12');
      await activityTable();
      expect(names()).toEqual(['Server details', 'Activity']);
      for (const part of ['metrics', 'snapshots', 'guardian'])
        expect(api.callsTo('GET', `/user/vps/servers/12/${part}`)).toEqual([]);
      unmount();
    }
  });

  it('is opened from the list: the server number in a row is a link to it', async () => {
    stubServer({ 'GET /user/vps/servers': { body: page([server()]) } });
    const { user, router } = renderVps('/vps?tab=servers');
    const number = await screen.findByRole('rowheader', { name: '#12' });
    const link = within(number).getByRole('link', { name: '#12' });
    expect(link).toHaveAttribute('href', '/vps/servers/12');
    await user.click(link);
    expect(router.state.location.pathname).toBe('/vps/servers/12');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Server #12' }),
    ).toBeInTheDocument();
  });

  it('says a server that is not the reader’s is not found, and leads back to the list', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers/99': NOT_FOUND,
      'GET /user/vps/servers/99/activity': NOT_FOUND,
    });
    renderVps('/vps/servers/99');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Server not found' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Server not found · TradeHost');
    expect(
      screen.getByText(
        'None of your servers has this number. Check the address, or find the server in My servers.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open My servers' })).toHaveAttribute(
      'href',
      '/vps?tab=servers',
    );
    expect(screen.getByRole('link', { name: 'My servers' })).toHaveAttribute(
      'href',
      '/vps?tab=servers',
    );
    expect(screen.queryByRole('heading', { name: 'Activity' })).toBeNull();
    expect(api.callsTo('GET', '/user/vps/servers/99')).toHaveLength(1);
  });

  it('says an address that cannot be a server’s number is not found, without asking', async () => {
    const api = stubVpsApi();
    for (const path of ['/vps/servers/abc', '/vps/servers/0', '/vps/servers/12.5']) {
      const { unmount } = renderVps(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Server not found' }),
      ).toBeInTheDocument();
      unmount();
    }
    expect(api.calls.filter((call) => call.path.startsWith('/user/vps/servers/'))).toEqual([]);
  });

  it('says when the server could not be loaded, and tries again', async () => {
    let fail = true;
    stubServer({
      'GET /user/vps/servers/12': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : SERVER,
    });
    const { user } = renderVps('/vps/servers/12');
    expect(screen.getByText('Loading the server…')).toBeInTheDocument();
    expect(await screen.findByText('The server could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Server #12' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await activityTable()).toBeInTheDocument();
  });

  it('says when there is no activity yet', async () => {
    stubServer({ 'GET /user/vps/servers/12/activity': { body: page([]) } });
    renderVps('/vps/servers/12');
    expect(await screen.findByRole('heading', { name: 'No activity yet' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Operations on the server and your actions on it (renewals, auto-renewal, login details shown) will be listed here.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Activity' })).toBeNull();
  });

  it('shows the activity loading, and its failure with a way to try again', async () => {
    const held = deferred<void>();
    let fail = true;
    stubServer({
      'GET /user/vps/servers/12/activity': async () => {
        await held.promise;
        return fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page(LINES) };
      },
    });
    const { user } = renderVps('/vps/servers/12');
    expect(await screen.findByText('Loading the activity…')).toBeInTheDocument();
    held.resolve();
    expect(await screen.findByText('The activity could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(linesOf(await activityTable())).toHaveLength(LINES.length);
  });

  it('pages through more than 20 lines', async () => {
    const many = Array.from({ length: 45 }, (_, index) =>
      activity({ id: `operation-${1000 - index}`, kind: index % 2 ? 'start' : 'shutdown' }),
    );
    const api = stubServer({
      'GET /user/vps/servers/12/activity': (call) => {
        const number = Number(call.query.get('page'));
        return {
          body: page(many.slice((number - 1) * 20, number * 20), { page: number, total: 45 }),
        };
      },
    });
    const { user } = renderVps('/vps/servers/12');
    expect(linesOf(await activityTable())).toHaveLength(20);
    const pages = screen.getByRole('navigation', { name: 'Pages of the activity' });
    expect(within(pages).getByText('1–20 of 45')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('21–40 of 45')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('41–45 of 45')).toBeInTheDocument();
    expect(linesOf(await activityTable())).toHaveLength(5);
    expect(api.queries('GET', '/user/vps/servers/12/activity').map((q) => q.page)).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('reads the activity again after the owner’s own action and with the live update of its end', async () => {
    const rebooting = server({ operation: operation({ kind: 'reboot', status: 'queued' }) });
    const api = stubServer({
      'POST /user/vps/servers/12/actions/reboot': {
        status: 202,
        body: { server: rebooting, operation: rebooting.operation, message: 'Started' },
      },
    });
    setLiveState('open');
    try {
      const { user, store } = renderVps('/vps/servers/12');
      await activityTable();
      const reads = () => api.callsTo('GET', '/user/vps/servers/12/activity').length;
      expect(reads()).toBe(1);

      await user.click(screen.getByRole('button', { name: 'Reboot server #12' }));
      const dialog = await screen.findByRole('dialog', { name: 'Reboot server #12?' });
      await user.click(within(dialog).getByRole('button', { name: 'Reboot' }));
      expect(await screen.findByText('Rebooting…')).toBeInTheDocument();
      await waitFor(() => expect(reads()).toBe(2));

      liveOperationEnded(store, 'reboot');
      await waitFor(() => expect(screen.queryByText('Rebooting…')).toBeNull());
      // once: the live update's, not again for the server's answer that says it has ended
      expect(reads()).toBe(3);
    } finally {
      setLiveState('down');
    }
  });

  it('follows an operation under way while the live updates are down, and reads the activity again when it ends', async () => {
    const rebooting = server({ operation: operation({ kind: 'reboot', status: 'running' }) });
    let reads = 0;
    const api = stubServer({
      'GET /user/vps/servers/12': () => {
        reads += 1;
        return { body: { server: reads < 2 ? rebooting : server() } };
      },
    });
    renderVps('/vps/servers/12');
    expect(await screen.findByText('Rebooting…')).toBeInTheDocument();
    await activityTable();
    const activityReads = () => api.callsTo('GET', '/user/vps/servers/12/activity').length;
    expect(activityReads()).toBe(1);
    // polled every 2.5 s until the operation has ended
    await waitFor(() => expect(screen.queryByText('Rebooting…')).toBeNull(), { timeout: 6000 });
    await waitFor(() => expect(activityReads()).toBe(2));
  }, 15_000);

  it('shows the activity as cards on a phone', async () => {
    stubServer();
    renderVps('/vps/servers/12', { width: 375 });
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(screen.queryByRole('table')).toBeNull();
    const first = within(within(list).getAllByRole('listitem')[0]!);
    expect(first.getByText('Rebooted')).toBeInTheDocument();
    expect(first.getByText('Done')).toBeInTheDocument();
    expect(first.getByText('You')).toBeInTheDocument();
    expect(plain(list.querySelector('time')?.textContent)).toBe(when(LINES[0]!));
  });

  it('speaks Russian', async () => {
    stubServer();
    renderVps('/vps/servers/12', { language: 'ru' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Сервер №\u00a012' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Мои серверы' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'История' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Когда', 'Что', 'Кто', 'Результат']);
    expect(linesOf(table)[0]).toEqual([when(LINES[0]!, 'ru'), 'Перезагружен', 'Вы', 'Выполнено']);
    expect(linesOf(table)[4]).toEqual([
      when(LINES[4]!, 'ru'),
      'Выключен',
      'Поддержка',
      'Не выполнено',
    ]);
  });

  it('says a missing server is not found in Russian too', async () => {
    stubVpsApi({ 'GET /user/vps/servers/7': NOT_FOUND });
    renderVps('/vps/servers/7', { language: 'ru' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Сервер не найден' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Открыть «Мои серверы»' })).toBeInTheDocument();
  });
});
