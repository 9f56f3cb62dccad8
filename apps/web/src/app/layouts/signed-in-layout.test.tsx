import { screen, within, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch, type Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { signedInRoutes } from '../router';

function stubApi(overrides: Record<string, Handler> = {}) {
  return stubFetch({
    'GET /user/auth': { body: testUser },
    'GET /front/permissions': { body: { partner: true, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    ...overrides,
  });
}

const openVps = (options: { width?: number; language?: 'en' | 'ru' } = {}) =>
  renderApp({ routes: signedInRoutes, path: '/vps', signedIn: true, ...options });

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('signed-in header', () => {
  it('shows the navigation of the spec with the current page marked', async () => {
    stubApi();
    await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    const links = within(mainNav()).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'VPS',
      'Online monitoring',
      'Partners',
      'Balance operations',
      'Support',
      'FAQ',
    ]);
    expect(within(mainNav()).getByRole('link', { name: 'VPS' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(mainNav()).getByRole('link', { name: 'Support' })).not.toHaveAttribute(
      'aria-current',
    );
    await waitFor(() => expect(document.title).toBe('VPS servers · TradeHost'));
  });

  it('counts the support tickets with new replies beside Support', async () => {
    stubApi({ 'GET /user/support/unread': { body: { count: 2 } } });
    await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    expect(
      await within(mainNav()).findByRole('link', {
        name: 'Support, 2 tickets with new replies',
      }),
    ).toHaveAttribute('href', '/support');
  });

  it('hides Partners when the partner flag is off', async () => {
    stubApi({ 'GET /front/permissions': { body: { partner: false, monitoring: true } } });
    await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    await within(mainNav()).findByRole('link', { name: 'Online monitoring' });
    await expect.poll(() => within(mainNav()).queryByRole('link', { name: 'Partners' })).toBeNull();
  });

  it('hides Online monitoring when the monitoring flag is off', async () => {
    stubApi({ 'GET /front/permissions': { body: { partner: true, monitoring: false } } });
    await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    await expect
      .poll(() => within(mainNav()).queryByRole('link', { name: 'Online monitoring' }))
      .toBeNull();
    expect(within(mainNav()).getByRole('link', { name: 'Partners' })).toBeInTheDocument();
  });

  it('shows both sections when the permissions call fails', async () => {
    stubApi({
      'GET /front/permissions': { status: 500, body: { message: 'x', code: 'INTERNAL' } },
    });
    await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    expect(within(mainNav()).getByRole('link', { name: 'Online monitoring' })).toBeInTheDocument();
    expect(within(mainNav()).getByRole('link', { name: 'Partners' })).toBeInTheDocument();
  });

  it('shows the balance in short form and the first letter of the name', async () => {
    stubApi();
    await openVps();
    expect(await screen.findByRole('link', { name: 'Balance $12.3K' })).toHaveAttribute(
      'href',
      '/balance-operations',
    );
    const profile = screen.getByRole('link', { name: 'Profile of alice' });
    expect(profile).toHaveAttribute('href', '/profile');
    expect(within(profile).getByTestId('avatar-letter')).toHaveTextContent('A');
  });

  it('shows the avatar image when the user has one', async () => {
    stubApi({ 'GET /user/auth': { body: { ...testUser, photo_path: '/api/files/avatar.png' } } });
    await openVps();
    const profile = await screen.findByRole('link', { name: 'Profile of alice' });
    await expect
      .poll(() => profile.querySelector('img')?.getAttribute('src'))
      .toBe('/api/files/avatar.png');
  });

  it('has the theme, language and logout controls on desktop', async () => {
    stubApi();
    const { user, store } = await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    const dark = screen.getByRole('button', { name: 'Dark theme' });
    await user.click(dark);
    expect(store.getState().settings.theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByRole('group', { name: 'Language' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('sends the language to the account when it changes', async () => {
    const http = stubApi({ 'POST /user/change_language': { body: { message: 'ok' } } });
    const { user } = await openVps();
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    await user.click(screen.getByRole('button', { name: 'RU' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'VPS-серверы' }),
    ).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('ru');
    await expect
      .poll(() => http.callsTo('POST', '/user/change_language').map((c) => c.body))
      .toEqual([{ language: 'RU' }]);
  });

  it('shows the alert in the current language until dismissed', async () => {
    stubApi({
      'GET /user/alert': {
        body: {
          alert: {
            id: 5,
            level: 'warning',
            text_en: 'Maintenance tonight',
            text_ru: 'Сегодня ночью работы',
          },
        },
      },
    });
    const { user } = await openVps();
    const banner = await screen.findByRole('region', { name: 'Notice' });
    expect(banner).toHaveTextContent('Maintenance tonight');
    await user.click(within(banner).getByRole('button', { name: 'Dismiss the notice' }));
    expect(screen.queryByRole('region', { name: 'Notice' })).not.toBeInTheDocument();
  });

  it('logs out on 401 from the user fetch', async () => {
    stubApi({
      'GET /user/auth': { status: 401, body: { message: 'Unauthorized', code: 'UNAUTHORIZED' } },
    });
    const { store } = await openVps();
    await expect.poll(() => store.getState().auth.authorized).toBe(false);
  });

  it('says "too many requests" and drops the user on 429 from the user fetch', async () => {
    stubApi({
      'GET /user/auth': {
        status: 429,
        body: { message: 'Too much requests - try later ...', code: 'TOO_MANY_REQUESTS' },
      },
    });
    const { store } = await openVps();
    expect(await screen.findByText('Too much requests - try later ...')).toBeInTheDocument();
    // the balance is not known any more: a dash, not a false $0
    expect(screen.getByRole('link', { name: 'Balance —' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile' })).toBeInTheDocument();
    expect(store.getState().auth.authorized).toBe(true);
  });
});
