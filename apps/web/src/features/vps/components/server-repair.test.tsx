import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../shared/ui/toast/notify';
import {
  accepted,
  expectUnderWay,
  pressToClose,
  renderVps,
  snapshot,
  snapshots,
  stubServerPage,
} from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

const repair = async (name = 'Repair') => within(await screen.findByRole('region', { name }));

describe("a server's repairs", () => {
  beforeEach(() => vi.mocked(notify).mockClear());

  it('reinstalls once confirmed, saying what is lost, what stays and that a snapshot comes first', async () => {
    const api = stubServerPage(
      {},
      { 'POST /user/vps/servers/12/reinstall': { status: 202, body: accepted('reinstall') } },
    );
    const { user } = renderVps('/vps/servers/12');
    const section = await repair();
    const card = within(section.getByRole('group', { name: 'Reinstall Windows' }));
    expect(
      card.getByText(
        'A clean Windows from our template. Programs, terminals and files on the disk are lost; the number, address and paid period stay.',
      ),
    ).toBeInTheDocument();
    // the snapshots are known: the dialog says there is room for one
    await screen.findByRole('table', { name: 'Snapshots' });
    await user.click(card.getByRole('button', { name: 'Reinstall' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reinstall server #12?' });
    expect(dialog).toHaveAccessibleDescription(
      "Windows is installed again from scratch: the programs, MetaTrader terminals and files on the server's disk are lost.",
    );
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'The server keeps its number, address and paid period.',
      'A snapshot “Before reinstall” is taken first (1 of 3 used).',
      'It takes up to 15 minutes. A new password is set: find it in Login details.',
    ]);
    expect(api.callsTo('POST', '/user/vps/servers/12/reinstall')).toHaveLength(0);
    await pressToClose(user, dialog, 'Reinstall Windows');
    expect(api.callsTo('POST', '/user/vps/servers/12/reinstall')).toHaveLength(1);
    await expectUnderWay(
      'Reinstalling Windows, up to 15 minutes…',
      'Server #12 is being reinstalled. It takes up to 15 minutes.',
    );
    // one operation at a time: both wait, and say why
    const reason = 'Wait until the current operation has finished (Reinstall)';
    expect(card.getByRole('button', { name: 'Reinstall' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'Reinstall' })).toHaveAccessibleDescription(reason);
    expect(section.getByRole('button', { name: 'Set a new password' })).toBeDisabled();
  });

  it('says when there is no room for a snapshot first', async () => {
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/snapshots': {
          body: snapshots([snapshot({ id: 1 }), snapshot({ id: 2 }), snapshot({ id: 3 })], 3),
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const section = await repair();
    await screen.findByRole('table', { name: 'Snapshots' });
    await user.click(section.getByRole('button', { name: 'Reinstall' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reinstall server #12?' });
    expect(
      within(dialog).getByText(
        'There is no room for a snapshot first (3 of 3 used): delete one to keep the disk as it is now.',
      ),
    ).toBeInTheDocument();
  });

  it('sets a new password once confirmed; a refusal stays in the dialog', async () => {
    let refuse = true;
    const api = stubServerPage(
      {},
      {
        'POST /user/vps/servers/12/password-reset': () =>
          refuse
            ? {
                status: 409,
                body: {
                  message: 'Another operation is running on this server.',
                  code: 'OPERATION_IN_PROGRESS',
                },
              }
            : { status: 202, body: accepted('password_reset') },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const section = await repair();
    await user.click(section.getByRole('button', { name: 'Set a new password' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Set a new password on server #12?',
    });
    expect(dialog).toHaveAccessibleDescription(
      'The current password stops working, and Remote Desktop asks for the new one. It takes about a minute; the new password is then in Login details.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Set a new password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Another operation is running on this server. Try again when it has finished (1-2 minutes)',
    );
    refuse = false;
    await pressToClose(user, dialog, 'Set a new password');
    expect(api.callsTo('POST', '/user/vps/servers/12/password-reset')).toHaveLength(2);
    await expectUnderWay(
      'Setting a new password…',
      'A new password is being set on server #12. In a minute, find it in Login details.',
    );
  });

  it('offers no new password on a shut-down server, and none of either on a blocked one, saying why', async () => {
    stubServerPage({ power: 'stopped' });
    const { unmount } = renderVps('/vps/servers/12');
    let section = await repair();
    const password = section.getByRole('button', { name: 'Set a new password' });
    expect(password).toBeDisabled();
    expect(password).toHaveAccessibleDescription(
      'Start the server first: Windows sets the new password',
    );
    expect(section.getByRole('button', { name: 'Reinstall' })).toBeEnabled();
    unmount();

    stubServerPage({ status: 'blocked', power: 'stopped' });
    renderVps('/vps/servers/12');
    section = await repair();
    for (const name of ['Reinstall', 'Set a new password']) {
      expect(section.getByRole('button', { name })).toBeDisabled();
      expect(section.getByRole('button', { name })).toHaveAccessibleDescription(
        'The server is blocked for non-payment: renew it first',
      );
    }
  });

  it('speaks Russian', async () => {
    stubServerPage();
    const { user } = renderVps('/vps/servers/12', { language: 'ru' });
    const section = await repair('Восстановление');
    await user.click(section.getByRole('button', { name: 'Переустановить' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Переустановить сервер №\u00a012?',
    });
    expect(
      within(dialog).getByText('Номер сервера, адрес и оплаченный срок сохранятся.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Переустановить Windows' }),
    ).toBeInTheDocument();
  });
});
