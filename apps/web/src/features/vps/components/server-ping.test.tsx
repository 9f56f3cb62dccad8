import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { page, plain, renderVps, server, stubVpsApi } from '../test-utils';

/** The ping of the terminals publishing from a server: in its row, on its card, on its page. */

const PUBLISHING = server({ id: 12, ping_ms: 24, ping_terminals: 1 });
const SEVERAL = server({ id: 11, ping_ms: 90, ping_terminals: 3 });
const QUIET = server({ id: 10 });
const NONE = 'No monitored terminal is publishing from this server now';

const pingOf = (id: number) => screen.getByTestId(`ping-${id}`);

describe('a server’s ping', () => {
  it('is the last line of the list’s status: the ping, the highest of several, or a dash that says why', async () => {
    stubVpsApi({ 'GET /user/vps/servers': { body: page([PUBLISHING, SEVERAL, QUIET]) } });
    renderVps('/vps?tab=servers');
    const row = await screen.findByRole('row', { name: /^#12\b/ });
    const table = screen.getByRole('table', { name: 'Your servers' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    const status = within(row).getAllByRole('cell')[headers.indexOf('Status') - 1]!;
    expect(plain(status.lastElementChild?.textContent)).toBe('Ping 24 ms');
    expect(within(status).getByTestId('ping-12')).toBeVisible();
    expect(plain(pingOf(11).textContent)).toBe('90 ms the highest of 3 terminals');
    expect(within(pingOf(11)).getByText('the highest of 3 terminals')).toBeVisible();
    // no terminal: a dash for the eye, the reason for a screen reader and as the pointer's hint
    const quiet = pingOf(10);
    expect(within(quiet).getByText('—')).toHaveAttribute('aria-hidden', 'true');
    expect(within(quiet).getByText(NONE)).toHaveClass('visually-hidden');
    expect(quiet).toHaveAttribute('title', NONE);
  });

  it('is a fact of a phone’s card', async () => {
    stubVpsApi({ 'GET /user/vps/servers': { body: page([SEVERAL]) } });
    renderVps('/vps?tab=servers', { width: 375 });
    const card = within(await screen.findByRole('listitem'));
    expect(plain(card.getByText('Ping').nextElementSibling?.textContent)).toBe(
      '90 ms the highest of 3 terminals',
    );
  });

  it('is in the summary of the server’s page, in Russian too', async () => {
    stubVpsApi({ 'GET /user/vps/servers/12': { body: { server: PUBLISHING } } });
    const { unmount } = renderVps('/vps/servers/12');
    const summary = await screen.findByRole('region', { name: 'Server details' });
    expect(plain(within(summary).getByText('Ping').nextElementSibling?.textContent)).toBe('24 ms');
    unmount();

    stubVpsApi({ 'GET /user/vps/servers/11': { body: { server: SEVERAL } } });
    renderVps('/vps/servers/11', { language: 'ru' });
    await screen.findByText('Пинг');
    expect(plain(pingOf(11).textContent)).toBe('90 мс самый высокий из 3 терминалов');
  });
});
