import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfile, session, SESSIONS, stubProfileApi } from '../test-utils';

const list = () => screen.getByRole('list', { name: 'Where you are signed in' });

describe('the sessions', () => {
  it('lists each sign-in with its device, times and this device marked', async () => {
    stubProfileApi();
    renderProfile();
    await screen.findByText('Safari on iOS');
    const rows = within(list()).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/on|browser/i).textContent)).toEqual([
      'Chrome on WindowsThis device',
      'Safari on iOS',
      'An unknown browser',
    ]);
    expect(
      within(rows[0]!).getByText('Nov 20, 2026', { exact: false }).closest('time'),
    ).toHaveAttribute('datetime', '2026-11-20T08:00:00.000Z');
    expect(rows[1]).toHaveTextContent(/Last used:\s*Nov 22, 2026/);
  });

  it('signs out everywhere else after a confirmation, and says how many', async () => {
    let sessions = SESSIONS;
    const api = stubProfileApi({
      'GET /user/sessions': () => ({ body: { data: sessions } }),
      'POST /user/sessions/sign_out_others': () => {
        sessions = [session()];
        return { body: { message: 'ok', code: 'SESSIONS_REVOKED', revoked: 2 } };
      },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveAccessibleDescription(/This one stays signed in/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/user/sessions/sign_out_others')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out the others' }),
    );
    expect(await screen.findByText('Signed out of 2 other sessions.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/sessions/sign_out_others')).toHaveLength(1);
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText('You are signed in on this device only.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('counts in Russian', async () => {
    stubProfileApi({
      'POST /user/sessions/sign_out_others': {
        body: { message: 'ok', code: 'SESSIONS_REVOKED', revoked: 5 },
      },
    });
    const { user } = renderProfile({ language: 'ru' });
    await user.click(
      await screen.findByRole('button', { name: 'Выйти на всех других устройствах' }),
    );
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Завершить другие сеансы' }),
    );
    expect(await screen.findByText('Завершено 5 других сеансов.')).toBeInTheDocument();
    expect(screen.getByText('Safari, iOS')).toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let fail = true;
    stubProfileApi({
      'GET /user/sessions': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: { data: SESSIONS } },
    });
    const { user } = renderProfile();
    expect(await screen.findByText('The sessions could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Safari on iOS')).toBeInTheDocument();
  });

  it('says so when no session is listed', async () => {
    stubProfileApi({ 'GET /user/sessions': { body: { data: [] } } });
    renderProfile();
    expect(
      await screen.findByText('No session of this account is active apart from this page.'),
    ).toBeInTheDocument();
  });
});
