import { screen, waitFor, within } from '@testing-library/react';
import type { UserSession } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderProfile, session, SESSIONS, sessionsAnswer, stubProfileApi } from '../test-utils';

const list = () => screen.getByRole('list', { name: 'Where you are signed in' });

/** This device, then `count` others ("Browser 1" …), as the API lists them. */
const thisAndOthers = (count: number, overrides: Partial<UserSession> = {}) => [
  session(),
  ...Array.from({ length: count }, (_, i) =>
    session({
      id: `6f1c1a1e-0000-4000-8000-${String(100 + i).padStart(12, '0')}`,
      browser: `Browser ${i + 1}`,
      current: false,
      ...overrides,
    }),
  ),
];

describe('the sessions', () => {
  it('lists each sign-in with its device, times and this device marked', async () => {
    stubProfileApi();
    renderProfile();
    await screen.findByText('Safari on iOS');
    const rows = within(list()).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/ on |browser/i).textContent)).toEqual([
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
      'GET /user/sessions': sessionsAnswer(() => sessions),
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
      'GET /user/sessions': (call) =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : sessionsAnswer(() => SESSIONS)(call),
    });
    const { user } = renderProfile();
    expect(await screen.findByText('The sessions could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Safari on iOS')).toBeInTheDocument();
  });

  it('shows a long list a page at a time, this device first, and counts them all', async () => {
    const many = thisAndOthers(12, { os: 'Linux' });
    const api = stubProfileApi({ 'GET /user/sessions': sessionsAnswer(() => many) });
    const { user } = renderProfile();
    await screen.findByText('Browser 1 on Linux');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(10);
    expect(within(list()).getAllByRole('listitem')[0]).toHaveTextContent('This device');
    const pages = screen.getByRole('navigation', { name: 'Pages of your sessions' });
    expect(pages).toHaveTextContent('13 sessions');

    await user.click(within(pages).getByRole('button', { name: /next/i }));
    await screen.findByText('Browser 12 on Linux');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByText('This device')).toBeNull();
    expect(api.callsTo('GET', '/user/sessions').map((c) => c.query.get('page'))).toEqual([
      '1',
      '2',
    ]);
    // the others are counted on every page, not on the one shown
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect(screen.getByRole('dialog', { name: 'Sign out everywhere else?' })).toBeInTheDocument();
  });

  it('goes back to the first page once the others are signed out', async () => {
    let sessions = thisAndOthers(11);
    stubProfileApi({
      'GET /user/sessions': sessionsAnswer(() => sessions),
      'POST /user/sessions/sign_out_others': () => {
        sessions = [session()];
        return { body: { message: 'ok', code: 'SESSIONS_REVOKED', revoked: 11 } };
      },
    });
    const { user } = renderProfile();
    const pages = await screen.findByRole('navigation', { name: 'Pages of your sessions' });
    await user.click(within(pages).getByRole('button', { name: /next/i }));
    await screen.findByText('Browser 11 on Windows');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out the others' }),
    );
    expect(await screen.findByText('Signed out of 11 other sessions.')).toBeInTheDocument();
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list()).getByText('This device')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages of your sessions' })).toBeNull();
  });

  it('moves to the last page when the one shown has emptied', async () => {
    let sessions = thisAndOthers(10);
    const api = stubProfileApi({ 'GET /user/sessions': sessionsAnswer(() => sessions) });
    const { user } = renderProfile();
    const pages = await screen.findByRole('navigation', { name: 'Pages of your sessions' });
    // one signs out elsewhere before the second page is asked for: it comes back empty
    sessions = sessions.slice(0, 10);
    await user.click(within(pages).getByRole('button', { name: /next/i }));
    await waitFor(() =>
      expect(api.callsTo('GET', '/user/sessions').map((c) => c.query.get('page'))).toEqual([
        '1',
        '2',
        '1',
      ]),
    );
    expect(await screen.findByText('Browser 9 on Windows')).toBeInTheDocument();
    expect(within(list()).getAllByRole('listitem')).toHaveLength(10);
    expect(
      screen.queryByText('No session of this account is active apart from this page.'),
    ).toBeNull();
  });

  it('says so when no session is listed', async () => {
    stubProfileApi({ 'GET /user/sessions': sessionsAnswer(() => []) });
    renderProfile();
    expect(
      await screen.findByText('No session of this account is active apart from this page.'),
    ).toBeInTheDocument();
  });

  it('ends one other session after a confirmation; this device has no such button', async () => {
    let sessions = SESSIONS;
    const api = stubProfileApi({
      'GET /user/sessions': sessionsAnswer(() => sessions),
      'DELETE /user/sessions/6f1c1a1e-0000-4000-8000-000000000002': () => {
        sessions = sessions.filter((s) => s.id !== '6f1c1a1e-0000-4000-8000-000000000002');
        return { body: { message: 'The session has been ended', code: 'SESSION_ENDED' } };
      },
    });
    const { user } = renderProfile();
    await screen.findByText('Safari on iOS');
    const rows = within(list()).getAllByRole('listitem');
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    await user.click(within(rows[1]!).getByRole('button', { name: 'End session: Safari on iOS' }));
    const dialog = screen.getByRole('dialog', { name: 'End this session?' });
    expect(dialog).toHaveAccessibleDescription(/Safari on iOS will be signed out at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(within(rows[1]!).getByRole('button', { name: 'End session: Safari on iOS' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'End the session' }),
    );
    expect(
      await screen.findByText('The session on Safari on iOS has been ended.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.queryByText('Safari on iOS')).toBeNull();
  });

  it('says so in the reader’s language when the session could not be ended, and keeps it', async () => {
    stubProfileApi({
      'DELETE /user/sessions/6f1c1a1e-0000-4000-8000-000000000002': {
        status: 404,
        body: { message: 'Not found', code: 'NOT_FOUND' },
      },
    });
    const { user } = renderProfile({ language: 'ru' });
    await user.click(await screen.findByRole('button', { name: 'Завершить: Safari, iOS' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Завершить сеанс' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Не найдено');
    expect(screen.getByText('Safari, iOS')).toBeInTheDocument();
  });
});
