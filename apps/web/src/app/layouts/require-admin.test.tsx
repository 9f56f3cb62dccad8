import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUser, page, stubOperatorApi } from '../../features/operator/test-utils';
import { deferred } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { signedInRoutes } from '../router';

const open = (path: string, width = 1440) =>
  renderApp({ routes: signedInRoutes, path, signedIn: true, width });

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const adminCalls = (http: ReturnType<typeof stubOperatorApi>) =>
  http.calls.filter((call) => call.path.startsWith('/admin'));

describe('the operator link', () => {
  it('is the last link of the navigation for an admin', async () => {
    stubOperatorApi({ 'GET /admin/payments': { body: page([]) } });
    await open('/vps');
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    const operator = await within(mainNav()).findByRole('link', { name: 'Operator' });
    expect(operator).toHaveAttribute('href', '/operator');
    expect(within(mainNav()).getAllByRole('link').at(-1)).toBe(operator);
  });

  it('is not there for a user', async () => {
    const http = stubOperatorApi({}, testUser);
    const { store } = await open('/vps');
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    // the user has loaded (the balance shows), and still no link
    await screen.findByRole('link', { name: 'Balance $12.3K' });
    expect(store.getState().auth.authorized).toBe(true);
    expect(within(mainNav()).queryByRole('link', { name: 'Operator' })).toBeNull();
    expect(adminCalls(http)).toEqual([]);
  });

  it('is in the slide-in menu for an admin on a phone', async () => {
    stubOperatorApi();
    const { user } = await open('/vps', 375);
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(await within(menu).findByRole('link', { name: 'Operator' })).toHaveAttribute(
      'href',
      '/operator',
    );
  });

  it('says "Оператор" in Russian', async () => {
    stubOperatorApi({}, { ...adminUser, language: 'ru' });
    await renderApp({
      routes: signedInRoutes,
      path: '/vps',
      signedIn: true,
      language: 'ru',
    });
    await screen.findByRole('heading', { level: 1, name: 'VPS-серверы' });
    const nav = screen.getByRole('navigation', { name: 'Основная навигация' });
    expect(await within(nav).findByRole('link', { name: 'Оператор' })).toBeInTheDocument();
  });
});

describe('the operator area guard', () => {
  it('sends a user back to the start without calling the operator API', async () => {
    const http = stubOperatorApi({}, testUser);
    const { router } = await open('/operator');
    await waitFor(() => expect(router.state.location.pathname).toBe('/vps'));
    await screen.findByRole('heading', { level: 1, name: 'VPS servers' });
    expect(screen.queryByRole('heading', { name: 'Operator' })).toBeNull();
    expect(adminCalls(http)).toEqual([]);
  });

  it('sends a user away from the nested pages too', async () => {
    stubOperatorApi({}, testUser);
    const { router } = await open('/operator/users/5');
    await waitFor(() => expect(router.state.location.pathname).toBe('/vps'));
  });

  it('waits for the user before deciding, then lets an admin in', async () => {
    const held = deferred<{ body: unknown }>();
    stubOperatorApi({
      'GET /user/auth': () => held.promise,
      'GET /admin/payments': { body: page([]) },
    });
    const { router } = await open('/operator');
    await screen.findByTestId('full-screen-spinner');
    expect(router.state.location.pathname).toBe('/operator');
    held.resolve({ body: adminUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Operator' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Review queue' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/operator');
  });

  it('sends the reader to the start when the user cannot be fetched', async () => {
    stubOperatorApi({
      'GET /user/auth': { status: 500, body: { message: 'x', code: 'INTERNAL' } },
    });
    const { router } = await open('/operator/audit');
    await waitFor(() => expect(router.state.location.pathname).toBe('/vps'));
  });
});
