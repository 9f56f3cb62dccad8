import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page, renderVps, searchOf, server, stubVpsApi } from '../test-utils';

describe('VPS page', () => {
  it('has its heading and two sections; a reader without servers starts on the rates', async () => {
    const api = stubVpsApi();
    const { router } = renderVps();

    expect(screen.getByRole('heading', { level: 1, name: 'VPS servers' })).toBeInTheDocument();
    expect(document.title).toBe('VPS servers · TradeHost');
    expect(await screen.findByRole('tab', { name: 'Order a server' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(
      within(screen.getByRole('tablist', { name: 'VPS servers' }))
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['My servers', 'Order a server']);
    expect(await screen.findByRole('radio', { name: 'Trader' })).toBeInTheDocument();
    // the address stays /vps until the reader chooses
    expect(router.state.location.search).toBe('');
    // one call of the first page decided it
    expect(api.queries('GET', '/user/vps/servers')).toEqual([{ page: '1', per_page: '20' }]);
  });

  it('starts on My servers for a reader who has servers', async () => {
    const api = stubVpsApi({ 'GET /user/vps/servers': { body: page([server()]) } });
    renderVps();
    expect(await screen.findByRole('tab', { name: 'My servers' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('rowheader', { name: '#12' })).toBeInTheDocument();
    // the tab's decision and the list share the first page
    expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(1);
  });

  it('keeps the chosen section in the address, so that reload and Back show the same', async () => {
    stubVpsApi({ 'GET /user/vps/servers': { body: page([server()]) } });
    const { user, router } = renderVps();
    await user.click(await screen.findByRole('tab', { name: 'Order a server' }));
    expect(searchOf(router).get('tab')).toBe('rates');
    expect(await screen.findByRole('group', { name: 'Choose a rate' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'My servers' }));
    expect(searchOf(router).get('tab')).toBe('servers');
    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Order a server' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
  });

  it('opens the section of the address, without asking for the servers first', async () => {
    const api = stubVpsApi({ 'GET /user/vps/servers': { body: page([server()]) } });
    renderVps('/vps?tab=rates');
    expect(screen.getByRole('tab', { name: 'Order a server' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await screen.findByRole('radio', { name: 'Trader' });
    expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(0);
  });

  it('falls back to the default for an unknown section', async () => {
    stubVpsApi();
    renderVps('/vps?tab=nonsense');
    expect(await screen.findByRole('tab', { name: 'Order a server' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('shows My servers (with its error and retry) when the first page cannot be loaded', async () => {
    let failing = true;
    const api = stubVpsApi({
      'GET /user/vps/servers': () =>
        failing
          ? { status: 500, body: { message: 'x', code: 'INTERNAL' } }
          : { body: page([server()]) },
    });
    const { user } = renderVps();
    expect(await screen.findByRole('tab', { name: 'My servers' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByText('Your servers could not be loaded.')).toBeInTheDocument();
    // the list shows the failure the tab's decision met, without asking again
    expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(1);

    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('rowheader', { name: '#12' })).toBeInTheDocument();
    expect(api.queries('GET', '/user/vps/servers')).toEqual([
      { page: '1', per_page: '20' },
      { page: '1', per_page: '20' },
    ]);
    expect(screen.queryByText('Your servers could not be loaded.')).not.toBeInTheDocument();
  });

  it('asks again each time the reader retries a list that keeps failing', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers': { status: 500, body: { message: 'x', code: 'INTERNAL' } },
    });
    const { user } = renderVps();
    expect(await screen.findByText('Your servers could not be loaded.')).toBeInTheDocument();
    expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(1);
    for (const calls of [2, 3]) {
      await user.click(screen.getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(calls));
      expect(await screen.findByText('Your servers could not be loaded.')).toBeInTheDocument();
    }
    expect(api.callsTo('GET', '/user/vps/servers')).toHaveLength(3);
  });

  it('speaks Russian', async () => {
    stubVpsApi();
    renderVps('/vps', { language: 'ru' });
    expect(screen.getByRole('heading', { level: 1, name: 'VPS-серверы' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Заказать сервер' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('group', { name: 'Срок аренды' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /3 месяца/ })).toBeInTheDocument();
  });
});
