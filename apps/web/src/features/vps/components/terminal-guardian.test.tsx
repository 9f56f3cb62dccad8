import { screen, waitFor, within } from '@testing-library/react';
import type { GuardianSettings } from '@tradehost/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../shared/lib/format-date';
import { notify } from '../../../shared/ui/toast/notify';
import { guardian, incident, plain, renderVps, stubServerPage } from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

const INCIDENTS = [
  incident(),
  incident({
    id: 6,
    opened_at: '2026-11-05T20:00:00.000Z',
    cause: 'broker_disconnected',
    action: 'reboot',
    status: 'escalated',
    positions: 2,
  }),
  incident({ id: 5, cause: 'server_stopped', action: 'none', status: 'notified' }),
];

const section = async (name = 'Terminal guardian') =>
  within(await screen.findByRole('region', { name }));

describe("a server's terminal guardian", () => {
  beforeEach(() => vi.mocked(notify).mockClear());

  it('shows the policy as three cards, the minutes and the positions with the third only, and saves', async () => {
    let saved: GuardianSettings | undefined;
    const api = stubServerPage(
      {},
      {
        'PUT /user/vps/servers/12/guardian': (call) => {
          saved = call.body as GuardianSettings;
          return { body: guardian({ settings: saved }) };
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const guardianSection = await section();
    const policy = within(
      await guardianSection.findByRole('group', { name: 'What the guardian may do' }),
    );
    const restart = policy.getByRole('radio', { name: 'Restart the terminal' });
    expect(restart).toBeChecked();
    expect(restart).toHaveAccessibleDescription(
      'Starts the terminal again, or the server if it is shut down.',
    );
    expect(policy.getByRole('radio', { name: 'Tell me only' })).not.toBeChecked();
    expect(guardianSection.queryByLabelText('Reboot after, minutes')).toBeNull();
    expect(
      guardianSection.getByText('The guardian has not needed to act yet.'),
    ).toBeInTheDocument();

    await user.click(policy.getByRole('radio', { name: 'Also reboot the server' }));
    const minutes = guardianSection.getByLabelText('Reboot after, minutes');
    expect(minutes).toHaveValue('10');
    const positions = guardianSection.getByRole('checkbox', {
      name: 'Reboot even with positions open',
    });
    expect(positions).not.toBeChecked();
    await user.clear(minutes);
    await user.type(minutes, '15');
    await user.click(positions);
    await user.click(guardianSection.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(saved).toBeDefined());
    expect(saved).toEqual({
      policy: 'restart_then_reboot',
      reboot_after_minutes: 15,
      reboot_with_positions: true,
    });
    expect(notify).toHaveBeenCalledWith('success', "The guardian's settings are saved.");
    expect(api.callsTo('PUT', '/user/vps/servers/12/guardian')).toHaveLength(1);

    // another policy keeps the minutes as saved
    await user.click(policy.getByRole('radio', { name: 'Tell me only' }));
    expect(guardianSection.queryByLabelText('Reboot after, minutes')).toBeNull();
    await user.click(guardianSection.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved?.policy).toBe('notify'));
    expect(saved).toEqual({
      policy: 'notify',
      reboot_after_minutes: 15,
      reboot_with_positions: true,
    });
  });

  it('checks the minutes before sending, and shows the API’s field errors on their fields', async () => {
    const api = stubServerPage(
      {},
      {
        'PUT /user/vps/servers/12/guardian': {
          status: 422,
          body: {
            message: 'Validation failed',
            code: 'VALIDATION',
            errors: { reboot_after_minutes: ['Enter whole minutes from 5 to 120'] },
          },
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const guardianSection = await section();
    await user.click(await guardianSection.findByRole('radio', { name: 'Also reboot the server' }));
    const minutes = guardianSection.getByLabelText('Reboot after, minutes');
    await user.clear(minutes);
    await user.type(minutes, '500');
    await user.click(guardianSection.getByRole('button', { name: 'Save' }));
    expect(await guardianSection.findByText('Enter whole minutes from 5 to 120')).toBeVisible();
    expect(minutes).toHaveAttribute('aria-invalid', 'true');
    expect(minutes).toHaveFocus();
    expect(api.callsTo('PUT', '/user/vps/servers/12/guardian')).toHaveLength(0);

    // within the range here, refused there: the API's text on the same field
    await user.clear(minutes);
    await user.type(minutes, '60');
    await user.click(guardianSection.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PUT', '/user/vps/servers/12/guardian')).toHaveLength(1),
    );
    expect(await guardianSection.findByText('Enter whole minutes from 5 to 120')).toBeVisible();
    expect(minutes).toHaveAccessibleDescription(/Enter whole minutes from 5 to 120/);
    expect(notify).not.toHaveBeenCalled();
  });

  it('lists the last incidents: when, the cause and what was done in words, and the outcome', async () => {
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/guardian': { body: guardian({ incidents: INCIDENTS }) },
      },
    );
    renderVps('/vps/servers/12');
    const guardianSection = await section();
    const table = await guardianSection.findByRole('table', { name: 'Last incidents' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => Array.from(row.querySelectorAll('td'), (cell) => plain(cell.textContent)));
    expect(rows).toEqual([
      [
        plain(formatDateTime(INCIDENTS[0]!.opened_at, 'en')),
        'The terminal had closed',
        'Restarted the terminal',
        'Terminal back',
      ],
      [
        plain(formatDateTime(INCIDENTS[1]!.opened_at, 'en')),
        'No connection to the broker',
        'Rebooted the serverPositions open: 2',
        'Needs you',
      ],
      [
        plain(formatDateTime(INCIDENTS[2]!.opened_at, 'en')),
        'The server was shut down',
        'Nothing',
        'You were told',
      ],
    ]);
  });

  it('says when it could not be loaded, and tries again', async () => {
    let fail = true;
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/guardian': () =>
          fail
            ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
            : { body: guardian() },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const guardianSection = await section();
    expect(
      await guardianSection.findByText("The guardian's settings could not be loaded."),
    ).toBeInTheDocument();
    fail = false;
    await user.click(guardianSection.getByRole('button', { name: 'Try again' }));
    expect(
      await guardianSection.findByRole('radio', { name: 'Restart the terminal' }),
    ).toBeChecked();
  });

  it('speaks Russian, and lists the incidents as cards on a phone', async () => {
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/guardian': {
          body: guardian({
            settings: {
              policy: 'restart_then_reboot',
              reboot_after_minutes: 15,
              reboot_with_positions: false,
            },
            incidents: INCIDENTS.slice(0, 1),
          }),
        },
      },
    );
    renderVps('/vps/servers/12', { language: 'ru', width: 375 });
    const guardianSection = await section('Страж терминалов');
    expect(
      await guardianSection.findByRole('radio', { name: 'И перезагружать сервер' }),
    ).toBeChecked();
    expect(guardianSection.getByLabelText('Перезагружать через, минут')).toHaveValue('15');
    const list = guardianSection.getByRole('list', { name: 'Последние случаи' });
    const card = within(within(list).getAllByRole('listitem')[0]!);
    expect(card.getByText('Терминал был закрыт')).toBeInTheDocument();
    expect(card.getByText('Перезапущен терминал')).toBeInTheDocument();
    expect(card.getByText('Терминал снова работает')).toBeInTheDocument();
  });
});
