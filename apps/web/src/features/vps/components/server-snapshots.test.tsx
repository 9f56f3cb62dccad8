import { screen, waitFor, within } from '@testing-library/react';
import type { Server } from '@tradehost/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../shared/lib/format-date';
import { setLiveState } from '../../../shared/live/live-state';
import { notify } from '../../../shared/ui/toast/notify';
import {
  accepted,
  expectUnderWay,
  type Handler,
  liveOperationEnded,
  operation,
  plain,
  pressToClose,
  renderVps,
  server,
  snapshot,
  snapshots,
  stubServerPage,
} from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

const MINE = snapshot();
const AUTOMATIC = snapshot({
  id: 32,
  name: 'Before reinstall',
  automatic: true,
  created_at: '2026-11-10T09:00:00.000Z',
  taken_at: '2026-11-10T09:01:00.000Z',
});
const CREATING = snapshot({
  id: 33,
  name: 'Friday',
  status: 'creating',
  created_at: '2026-11-10T11:00:00.000Z',
  taken_at: null,
});

/** Server 12's page with three snapshots of five (one being taken); `routes` add or replace. */
const stubServer = (changes: Partial<Server> = {}, routes: Record<string, Handler> = {}) =>
  stubServerPage(changes, {
    'GET /user/vps/servers/12/snapshots': { body: snapshots([MINE, AUTOMATIC, CREATING], 5) },
    ...routes,
  });

const section = async (name = 'Snapshots') => within(await screen.findByRole('region', { name }));
/** The list's rows as their cells' texts (the header row left out). */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => plain(cell.textContent)));

describe("a server's snapshots", () => {
  beforeEach(() => vi.mocked(notify).mockClear());

  it('lists them newest first, with the automatic one in words, and how many are used', async () => {
    stubServer();
    renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    const table = await snapshotsSection.findByRole('table', { name: 'Snapshots' });
    expect(snapshotsSection.getByText('3 of 5 used')).toBeInTheDocument();
    expect(rowsOf(table)).toEqual([
      ['Friday', 'Not yet', 'Being taken', 'Roll backDelete'],
      [
        'Before reinstall (automatic)',
        plain(formatDateTime(AUTOMATIC.taken_at!, 'en')),
        'Ready',
        'Roll backDelete',
      ],
      ['Before EA update', plain(formatDateTime(MINE.taken_at!, 'en')), 'Ready', 'Roll backDelete'],
    ]);
    // one being taken cannot be rolled back to nor deleted yet
    expect(
      snapshotsSection.getByRole('button', { name: 'Roll back to snapshot “Friday”' }),
    ).toBeDisabled();
    expect(
      snapshotsSection.getByRole('button', { name: 'Delete snapshot “Friday”' }),
    ).toBeDisabled();
    expect(
      snapshotsSection.getByRole('button', {
        name: 'Roll back to snapshot “Before reinstall (automatic)”',
      }),
    ).toBeEnabled();
  });

  it('takes one by the name given: the server shows it busy at once and the list is read again', async () => {
    let reads = 0;
    const api = stubServer(
      {},
      {
        'GET /user/vps/servers/12/snapshots': () => {
          reads += 1;
          return { body: snapshots(reads > 1 ? [MINE, CREATING] : [MINE], 5) };
        },
        'POST /user/vps/servers/12/snapshots': { status: 202, body: accepted('snapshot') },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    await snapshotsSection.findByRole('table', { name: 'Snapshots' });
    await user.type(snapshotsSection.getByLabelText('Snapshot name'), '  Friday  ');
    await user.click(snapshotsSection.getByRole('button', { name: 'Take snapshot' }));

    await waitFor(() =>
      expect(api.callsTo('POST', '/user/vps/servers/12/snapshots')).toHaveLength(1),
    );
    expect(api.callsTo('POST', '/user/vps/servers/12/snapshots')[0]!.body).toEqual({
      name: 'Friday',
    });
    expect(await screen.findByText('Taking a snapshot…')).toBeInTheDocument();
    expect(await snapshotsSection.findByText('Being taken')).toBeInTheDocument();
    expect(snapshotsSection.getByLabelText('Snapshot name')).toHaveValue('');
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Snapshot “Friday” is being taken. It takes a minute or two.',
    );
    // one operation at a time: nothing more until it ends, and why
    expect(snapshotsSection.getByRole('button', { name: 'Take snapshot' })).toBeDisabled();
    expect(
      snapshotsSection.getAllByText('Wait until the current operation has finished (Snapshot)'),
    ).toHaveLength(1);
    expect(
      snapshotsSection.getByRole('button', { name: 'Roll back to snapshot “Before EA update”' }),
    ).toHaveAccessibleDescription('Wait until the current operation has finished (Snapshot)');
  });

  it('is read again when the operation ends: by the live update, or by the poll while it is down', async () => {
    const taking = server({ operation: operation({ kind: 'snapshot', status: 'running' }) });
    let ended = false;
    const api = stubServer(
      {},
      {
        'GET /user/vps/servers/12': () => ({ body: { server: ended ? server() : taking } }),
        'GET /user/vps/servers/12/snapshots': () => ({
          body: snapshots(
            [ended ? { ...CREATING, status: 'ready', taken_at: CREATING.created_at } : CREATING],
            5,
          ),
        }),
      },
    );
    setLiveState('open');
    try {
      const { store, unmount } = renderVps('/vps/servers/12');
      const snapshotsSection = await section();
      expect(await snapshotsSection.findByText('Being taken')).toBeInTheDocument();
      const reads = api.callsTo('GET', '/user/vps/servers/12/snapshots').length;
      ended = true;
      liveOperationEnded(store, 'snapshot');
      expect(await snapshotsSection.findByText('Ready')).toBeInTheDocument();
      expect(api.callsTo('GET', '/user/vps/servers/12/snapshots')).toHaveLength(reads + 1);
      unmount();
    } finally {
      setLiveState('down');
    }

    // the live updates down: the server is polled until its operation ends, and the list follows
    ended = false;
    renderVps('/vps/servers/12');
    const again = await section();
    expect(await again.findByText('Being taken')).toBeInTheDocument();
    ended = true;
    expect(await again.findByText('Ready', {}, { timeout: 6000 })).toBeInTheDocument();
  }, 15_000);

  it('shows the API’s refusal of the name on the field, another refusal above it, and asks for a name before sending', async () => {
    let posts = 0;
    const api = stubServer(
      {},
      {
        'POST /user/vps/servers/12/snapshots': () => {
          posts += 1;
          return posts === 1
            ? {
                status: 422,
                body: {
                  message: 'Validation failed',
                  code: 'VALIDATION',
                  errors: { name: ['The snapshot name is too long (40 characters at most)'] },
                },
              }
            : {
                status: 409,
                body: {
                  message: 'This server keeps no more snapshots: delete one first',
                  code: 'SNAPSHOTS_FULL',
                },
              };
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    await snapshotsSection.findByRole('table', { name: 'Snapshots' });
    const name = snapshotsSection.getByLabelText('Snapshot name');
    await user.click(snapshotsSection.getByRole('button', { name: 'Take snapshot' }));
    expect(await snapshotsSection.findByText('Enter the snapshot name')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/user/vps/servers/12/snapshots')).toHaveLength(0);

    await user.type(name, 'Weekly');
    await user.click(snapshotsSection.getByRole('button', { name: 'Take snapshot' }));
    expect(
      await snapshotsSection.findByText('The snapshot name is too long (40 characters at most)'),
    ).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription(
      /The snapshot name is too long \(40 characters at most\)/,
    );
    expect(name).toHaveFocus();
    expect(snapshotsSection.queryByRole('alert')).toBeNull();

    // full meanwhile (another tab): said above the form, the list read again
    const reads = api.callsTo('GET', '/user/vps/servers/12/snapshots').length;
    await user.click(snapshotsSection.getByRole('button', { name: 'Take snapshot' }));
    expect(await snapshotsSection.findByRole('alert')).toHaveTextContent(
      'This server keeps no more snapshots: delete one first',
    );
    await waitFor(() =>
      expect(api.callsTo('GET', '/user/vps/servers/12/snapshots').length).toBe(reads + 1),
    );
  });

  it('says when every place is used', async () => {
    stubServer(
      {},
      {
        'GET /user/vps/servers/12/snapshots': { body: snapshots([MINE, AUTOMATIC], 2) },
      },
    );
    renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    expect(await snapshotsSection.findByText('2 of 2 used')).toBeInTheDocument();
    const take = snapshotsSection.getByRole('button', { name: 'Take snapshot' });
    expect(take).toBeDisabled();
    expect(take).toHaveAccessibleDescription(
      'All 2 snapshots are used: delete one to take another',
    );
    // rolling back and deleting still can be done
    expect(
      snapshotsSection.getByRole('button', { name: 'Delete snapshot “Before EA update”' }),
    ).toBeEnabled();
  });

  it('rolls back once confirmed, saying what is lost', async () => {
    const api = stubServer(
      {},
      {
        'POST /user/vps/servers/12/snapshots/31/rollback': {
          status: 202,
          body: accepted('rollback'),
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    await user.click(
      await snapshotsSection.findByRole('button', {
        name: 'Roll back to snapshot “Before EA update”',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Roll back server #12 to “Before EA update”?',
    });
    expect(dialog).toHaveAccessibleDescription(
      `The disk returns to how it was on ${formatDateTime(MINE.taken_at!, 'en')}: everything written to it since (programs installed, files, terminal settings and logs) is lost. The server restarts; it takes a few minutes.`,
    );
    expect(api.callsTo('POST', '/user/vps/servers/12/snapshots/31/rollback')).toHaveLength(0);
    await pressToClose(user, dialog, 'Roll back');
    expect(api.callsTo('POST', '/user/vps/servers/12/snapshots/31/rollback')).toHaveLength(1);
    await expectUnderWay(
      'Rolling back…',
      'Server #12 is going back to snapshot “Before EA update”. It takes a few minutes.',
    );
  });

  it('deletes once confirmed; a refusal stays in the dialog and the list is read again', async () => {
    let reads = 0;
    const api = stubServer(
      {},
      {
        'GET /user/vps/servers/12/snapshots': () => {
          reads += 1;
          return { body: snapshots([MINE, AUTOMATIC], 5) };
        },
        'DELETE /user/vps/servers/12/snapshots/32': {
          status: 409,
          body: {
            message: 'The snapshot is still being taken or deleted',
            code: 'SNAPSHOT_NOT_READY',
          },
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    await user.click(
      await snapshotsSection.findByRole('button', {
        name: 'Delete snapshot “Before reinstall (automatic)”',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete snapshot “Before reinstall (automatic)”?',
    });
    expect(dialog).toHaveAccessibleDescription(
      'The snapshot is deleted for good; the server itself does not change.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('The snapshot is still being taken or deleted'),
    ).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/user/vps/servers/12/snapshots/32')).toHaveLength(1);
    await waitFor(() => expect(reads).toBe(2));
    await pressToClose(user, dialog, 'Cancel');
  });

  it('asks for nothing on a blocked server, and says why', async () => {
    stubServer({ status: 'blocked', power: 'stopped' });
    renderVps('/vps/servers/12');
    const snapshotsSection = await section();
    const rollback = await snapshotsSection.findByRole('button', {
      name: 'Roll back to snapshot “Before EA update”',
    });
    expect(rollback).toBeDisabled();
    expect(rollback).toHaveAccessibleDescription(
      'The server is blocked for non-payment: renew it first',
    );
    expect(snapshotsSection.getByRole('button', { name: 'Take snapshot' })).toBeDisabled();
  });

  it('says when there is none yet, and lists them as cards on a phone', async () => {
    stubServer({}, { 'GET /user/vps/servers/12/snapshots': { body: snapshots([], 3) } });
    const { unmount } = renderVps('/vps/servers/12');
    const empty = await section();
    expect(await empty.findByRole('heading', { name: 'No snapshots yet' })).toBeInTheDocument();
    expect(empty.getByText('0 of 3 used')).toBeInTheDocument();
    unmount();

    stubServer();
    renderVps('/vps/servers/12', { width: 375 });
    const list = await (await section()).findByRole('list', { name: 'Snapshots' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const first = within(cards[0]!);
    expect(first.getByText('Friday')).toBeInTheDocument();
    expect(first.getByText('Being taken')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Roll back to snapshot “Friday”' })).toBeDisabled();
  });

  it('speaks Russian', async () => {
    stubServer();
    const { user } = renderVps('/vps/servers/12', { language: 'ru' });
    const snapshotsSection = await section('Снимки');
    const table = await snapshotsSection.findByRole('table', { name: 'Снимки' });
    expect(snapshotsSection.getByText('Использовано 3 из 5')).toBeInTheDocument();
    expect(rowsOf(table)[1]!.slice(0, 1)).toEqual(['Перед переустановкой (автоматический)']);
    expect(rowsOf(table)[0]!.slice(1, 3)).toEqual(['Ещё нет', 'Создаётся']);
    await user.click(
      snapshotsSection.getByRole('button', {
        name: 'Вернуть сервер к снимку «Before EA update»',
      }),
    );
    expect(
      await screen.findByRole('dialog', {
        name: 'Вернуть сервер №\u00a012 к снимку «Before EA update»?',
      }),
    ).toBeInTheDocument();
  });
});
