import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUser, page, stubOperatorApi } from '../../features/operator/test-utils';
import { deferred } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { signedInRoutes } from '../router';
import { baseApi } from '../../shared/api/base-api';
import { languageRestored } from '../../features/settings/model/settings-slice';

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

  it('says so when the user cannot be fetched, stays on the page, and lets an admin in on "Try again"', async () => {
    let answer: { status?: number; body: unknown } = {
      status: 429,
      body: { message: 'Too many requests', code: 'RATE_LIMITED' },
    };
    const http = stubOperatorApi({
      'GET /user/auth': () => answer,
      'GET /admin/audit': { body: page([]) },
    });
    const { router, user } = await open('/operator/audit');
    expect(
      await screen.findByText(
        'Your access to the operator area could not be checked. Check your connection and try again.',
      ),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/operator/audit');
    expect(adminCalls(http)).toEqual([]);
    answer = { body: adminUser };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Audit log' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/operator/audit');
  });

  it('keeps an admin in the area when a later fetch of the user fails', async () => {
    let calls = 0;
    const http = stubOperatorApi({
      'GET /user/auth': () => {
        calls += 1;
        return calls === 1
          ? { body: adminUser }
          : { status: 503, body: { message: 'Unavailable', code: 'SERVICE_UNAVAILABLE' } };
      },
      'GET /admin/payments': { body: page([]) },
    });
    const { router, store } = await open('/operator');
    expect(await screen.findByRole('heading', { level: 1, name: 'Operator' })).toBeVisible();
    store.dispatch(baseApi.util.invalidateTags(['User']));
    await waitFor(() => expect(http.callsTo('GET', '/user/auth').length).toBeGreaterThan(1));
    // the failed answer rendered, and what would send the reader away (Navigate's effect) run
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(router.state.location.pathname).toBe('/operator');
    expect(screen.getByRole('heading', { level: 1, name: 'Operator' })).toBeVisible();
  });

  it('says it in Russian', async () => {
    stubOperatorApi({
      'GET /user/auth': { status: 500, body: { message: 'x', code: 'INTERNAL' } },
    });
    const { store } = await renderApp({
      routes: signedInRoutes,
      path: '/operator',
      signedIn: true,
      language: 'ru',
    });
    // the reader's language as the console keeps it (no user has loaded to say it)
    await act(() => store.dispatch(languageRestored('ru')));
    expect(
      await screen.findByText(
        'Не удалось проверить ваш доступ к разделу оператора. Проверьте подключение и повторите попытку.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeVisible();
  });
});
