import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch-stub';
import { testUser } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { signedInRoutes, signedOutRoutes } from '../../router';

function stubApi() {
  return stubFetch({
    'GET /user/auth': { body: testUser },
    'GET /front/permissions': { body: { partner: true, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    'POST /user/auth/logout': { body: { message: 'bye' } },
  });
}

async function openSignedIn(width: number) {
  stubApi();
  const view = await renderApp({ routes: signedInRoutes, path: '/vps', signedIn: true, width });
  await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
  return view;
}

describe('slide-in menu', () => {
  it('is not there on desktop, where the header holds the navigation', async () => {
    await openSignedIn(1280);
    expect(screen.queryByRole('button', { name: 'Menu' })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('opens from the menu button on a tablet, locks the scroll, and closes with Escape', async () => {
    const { user, store } = await openSignedIn(1024);
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'mobile-menu');

    await user.click(button);
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(menu).toHaveAttribute('id', 'mobile-menu');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(store.getState().ui.displayMenu).toBe(true);
    expect(document.body.style.overflow).toBe('hidden');
    const nav = within(menu).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'VPS' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    // tablet: theme and language stay in the header
    expect(within(menu).queryByRole('button', { name: 'Dark theme' })).not.toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.body.style.overflow).toBe('');
    expect(button).toHaveFocus();
  });

  it('closes with its close button and when a link is followed', async () => {
    const { user, router } = await openSignedIn(1024);
    const button = screen.getByRole('button', { name: 'Menu' });
    await user.click(button);
    await user.click(await screen.findByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();

    await user.click(button);
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(menu).getByRole('link', { name: 'Support' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(router.state.location.pathname).toBe('/support'));
    expect(document.body.style.overflow).toBe('');
  });

  it('keeps the focus inside while open', async () => {
    const { user } = await openSignedIn(1024);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      expect(menu).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('holds the theme and language toggles on mobile', async () => {
    const { user, store } = await openSignedIn(375);
    expect(screen.queryByRole('button', { name: 'Dark theme' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(menu).getByRole('button', { name: 'Dark theme' }));
    expect(store.getState().settings.theme).toBe('dark');
    expect(within(menu).getByRole('group', { name: 'Language' })).toBeInTheDocument();
  });

  it('logs out from the menu', async () => {
    const { user, store } = await openSignedIn(1024);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(menu).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(store.getState().auth.authorized).toBe(false));
    expect(store.getState().ui.displayMenu).toBe(false);
  });

  it('offers the toggles to signed-out readers on mobile', async () => {
    stubFetch();
    const { user } = await renderApp({
      routes: signedOutRoutes,
      path: '/online-monitoring/7',
      width: 375,
    });
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    const nav = within(menu).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Online monitoring', 'Login', 'Registration']);
    expect(within(menu).getByRole('button', { name: 'Dark theme' })).toBeInTheDocument();
  });
});
