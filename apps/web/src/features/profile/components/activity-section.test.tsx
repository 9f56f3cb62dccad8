import { screen, waitFor, within } from '@testing-library/react';
import { SECURITY_EVENTS_PER_PAGE } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { activityAnswer, renderProfile, securityEvent, stubProfileApi } from '../test-utils';

const list = () => screen.getByRole('list', { name: 'Account activity' });

describe('the account activity', () => {
  it('lists the events newest first with what, when, the device and the address', async () => {
    stubProfileApi();
    renderProfile();
    await screen.findByText('Failed sign-in: wrong password');
    const rows = within(list()).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    // a failed sign-in from elsewhere is marked for a second look
    expect(rows[0]).toHaveTextContent(/^Check\s*Failed sign-in: wrong password/);
    expect(rows[0]).toHaveTextContent('Device:A browser on Linux');
    expect(rows[0]).toHaveTextContent('Address:198.51.100.23');
    expect(within(rows[0]!).queryByText('This session')).toBeNull();
    expect(rows[1]).toHaveTextContent('Password changed');
    expect(within(rows[1]!).queryByText('Check')).toBeNull();
    expect(within(rows[2]!).getByText('This session')).toBeInTheDocument();
    expect(
      within(rows[2]!).getByText('Nov 23, 2026', { exact: false }).closest('time'),
    ).toHaveAttribute('datetime', '2026-11-23T10:30:00.000Z');
  });

  it('reads in Russian', async () => {
    stubProfileApi();
    renderProfile({ language: 'ru' });
    const rows = within(
      await screen.findByRole('list', { name: 'Действия в аккаунте' }),
    ).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Неудачный вход: неверный пароль');
    expect(rows[0]).toHaveTextContent('Адрес:198.51.100.23');
    expect(rows[2]).toHaveTextContent('Этот сеанс');
  });

  it('pages a long history', async () => {
    const many = Array.from({ length: SECURITY_EVENTS_PER_PAGE + 3 }, (_, i) =>
      securityEvent({ id: 100 - i, kind: i % 2 ? 'sign_in' : 'sign_out', current_session: false }),
    );
    const api = stubProfileApi({ 'GET /user/activity': activityAnswer(() => many) });
    const { user } = renderProfile();
    await waitFor(() =>
      expect(within(list()).getAllByRole('listitem')).toHaveLength(SECURITY_EVENTS_PER_PAGE),
    );
    const pages = screen.getByRole('navigation', { name: 'Pages of the account activity' });
    await user.click(within(pages).getByRole('button', { name: /next/i }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(3));
    expect(api.callsTo('GET', '/user/activity').at(-1)?.query.get('page')).toBe('2');
  });

  it('says when there is nothing yet, and offers to try again after a failure', async () => {
    let fail = true;
    stubProfileApi({
      'GET /user/activity': (call) =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : activityAnswer(() => [])(call),
    });
    const { user } = renderProfile();
    const section = (await screen.findByRole('heading', { name: 'Account activity' })).closest(
      'section',
    )!;
    await within(section as HTMLElement).findByText('The account activity could not be loaded');
    fail = false;
    await user.click(within(section as HTMLElement).getByRole('button', { name: 'Try again' }));
    expect(
      await within(section as HTMLElement).findByText('Nothing has happened in your account yet.'),
    ).toBeInTheDocument();
  });
});
