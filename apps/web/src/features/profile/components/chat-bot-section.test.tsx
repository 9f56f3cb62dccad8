import type { TelegramChatStatus, TelegramStatusResponse } from '@tradehost/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../test/fetch-stub';
import { renderSignedInPage, type RenderPageOptions } from '../../../test/render';
import { ChatBotSection } from './chat-bot-section';

const UNLINKED: TelegramChatStatus = {
  linked: false,
  title: null,
  linked_at: null,
  bot_link: null,
};
const LINKED: TelegramChatStatus = {
  linked: true,
  title: '@anna_fx',
  linked_at: '2026-11-20T08:00:00.000Z',
  bot_link: 'https://t.me/tradehost_bot',
};
const DEEP_LINK = 'https://t.me/tradehost_bot?start=one-time-token';

function status(fields: Partial<TelegramStatusResponse> = {}): TelegramStatusResponse {
  return { enabled: true, account: UNLINKED, monitoring: UNLINKED, ...fields };
}

/** The section alone, its status answered by `current` (a test changes it as the server would). */
function renderSection(options: RenderPageOptions = {}) {
  return renderSignedInPage(
    [{ path: '/profile', Component: () => <ChatBotSection pollMs={50} /> }],
    '/profile',
    'chat-bot-test-token',
    options,
  );
}

const row = (name: string) => screen.getByRole('listitem', { name });

let open: ReturnType<typeof vi.fn>;
beforeEach(() => {
  open = vi.fn();
  vi.stubGlobal('open', open);
});
afterEach(() => vi.unstubAllGlobals());

describe('the chat-bot section', () => {
  it('says the chat-bot is off when no bot is configured, and offers nothing to link', async () => {
    stubFetch({ 'GET /user/telegram': { body: status({ enabled: false }) } });
    renderSection();
    expect(
      await screen.findByText('The chat-bot is off: Telegram is not connected to the service yet.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Link Telegram/ })).toBeNull();
  });

  it('links a purpose: opens the one-time deep link and waits until the chat shows up', async () => {
    let current = status();
    const api = stubFetch({
      'GET /user/telegram': () => ({ body: current }),
      'POST /user/telegram/link': {
        body: { link: DEEP_LINK, expires_at: new Date(Date.now() + 15 * 60_000).toISOString() },
      },
    });
    const { user } = renderSection();
    await screen.findByRole('heading', { name: 'Monitoring' });
    expect(within(row('Account notifications')).getByText('Not linked')).toBeInTheDocument();
    await user.click(
      within(row('Monitoring')).getByRole('button', { name: 'Link Telegram for monitoring' }),
    );
    expect(api.callsTo('POST', '/user/telegram/link').map((c) => c.body)).toEqual([
      { purpose: 'monitoring' },
    ]);
    expect(open).toHaveBeenCalledWith(DEEP_LINK, '_blank', 'noopener,noreferrer');
    const again = within(row('Monitoring')).getByRole('link', { name: 'Open the link again' });
    expect(again).toHaveAttribute('href', DEEP_LINK);
    expect(row('Monitoring')).toHaveTextContent(/press Start there to finish/);

    // the user presses Start in Telegram: the next status shows the chat
    current = status({ monitoring: LINKED });
    expect(await screen.findByText('Telegram is linked: @anna_fx.')).toBeInTheDocument();
    expect(within(row('Monitoring')).getByText('Linked')).toBeInTheDocument();
    expect(within(row('Monitoring')).getByText(/Chat: @anna_fx/)).toBeInTheDocument();
    expect(
      within(row('Monitoring')).queryByRole('link', { name: 'Open the link again' }),
    ).toBeNull();
    const polls = api.callsTo('GET', '/user/telegram').length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.callsTo('GET', '/user/telegram').length).toBe(polls);
  });

  it('unlinks after a confirmation, and Cancel changes nothing', async () => {
    let current = status({ account: LINKED });
    const api = stubFetch({
      'GET /user/telegram': () => ({ body: current }),
      'GET /user/auth': { body: {} },
      'DELETE /user/telegram/link/account': () => {
        current = status();
        return { body: { message: 'ok', code: 'TELEGRAM_UNLINKED' } };
      },
    });
    const { user } = renderSection();
    const account = await screen.findByRole('listitem', { name: 'Account notifications' });
    expect(
      within(account).getByRole('link', { name: 'Open the chat for account notifications' }),
    ).toHaveAttribute('href', 'https://t.me/tradehost_bot');
    expect(within(account).getByText(/since Nov 20, 2026/)).toBeInTheDocument();

    await user.click(
      within(account).getByRole('button', { name: 'Unlink the chat for account notifications' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Unlink Account notifications?' });
    expect(dialog).toHaveAccessibleDescription(/The chat @anna_fx stops receiving these messages/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', '/user/telegram/link/account')).toEqual([]);

    await user.click(
      within(account).getByRole('button', { name: 'Unlink the chat for account notifications' }),
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('The chat is unlinked.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/user/telegram/link/account')).toHaveLength(1);
    await waitFor(() =>
      expect(within(row('Account notifications')).getByText('Not linked')).toBeInTheDocument(),
    );
  });

  it('says so when Telegram cannot be reached, and opens nothing', async () => {
    stubFetch({
      'GET /user/telegram': { body: status() },
      'POST /user/telegram/link': {
        status: 503,
        body: { message: 'unreachable', code: 'TELEGRAM_UNAVAILABLE' },
      },
    });
    const { user } = renderSection();
    await user.click(
      within(await screen.findByRole('listitem', { name: 'Account notifications' })).getByRole(
        'button',
        { name: 'Link Telegram for account notifications' },
      ),
    );
    expect(
      await screen.findByText('Telegram cannot be reached right now. Please try again later'),
    ).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('offers to try again when the status cannot be loaded', async () => {
    let fail = true;
    stubFetch({
      'GET /user/telegram': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: status() },
    });
    const { user } = renderSection();
    expect(await screen.findByText('The chat-bot could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Monitoring' })).toBeInTheDocument();
  });

  it('names each purpose’s buttons and chat link after it, so that a list of controls tells them apart', async () => {
    let current = status();
    stubFetch({ 'GET /user/telegram': () => ({ body: current }) });
    const { unmount } = renderSection();
    await screen.findByRole('heading', { name: 'Monitoring' });
    // one button of each name (getByRole finds exactly one)
    expect(
      within(row('Account notifications')).getByRole('button', {
        name: 'Link Telegram for account notifications',
      }),
    ).toBeEnabled();
    expect(
      within(row('Monitoring')).getByRole('button', { name: 'Link Telegram for monitoring' }),
    ).toBeEnabled();
    expect(screen.getAllByRole('button')).toHaveLength(2);
    unmount();

    current = status({ account: LINKED, monitoring: LINKED });
    renderSection();
    const account = await screen.findByRole('listitem', { name: 'Account notifications' });
    for (const [name, purpose] of [
      ['Account notifications', 'account notifications'],
      ['Monitoring', 'monitoring'],
    ] as const) {
      const item = row(name);
      expect(within(item).getAllByRole('button')).toHaveLength(2);
      expect(
        within(item).getByRole('button', { name: `Link another chat for ${purpose}` }),
      ).toBeEnabled();
      expect(
        within(item).getByRole('button', { name: `Unlink the chat for ${purpose}` }),
      ).toBeEnabled();
      expect(
        within(item).getByRole('link', { name: `Open the chat for ${purpose}` }),
      ).toBeVisible();
    }
    // the name begins with the words on the button, as speech input says them
    expect(
      within(account).getByRole('button', { name: 'Unlink the chat for account notifications' }),
    ).toHaveTextContent(/^Unlink$/);
  });

  it('speaks Russian', async () => {
    stubFetch({ 'GET /user/telegram': { body: status({ account: LINKED }) } });
    renderSection({ language: 'ru' });
    const account = await screen.findByRole('listitem', { name: 'Уведомления аккаунта' });
    expect(within(account).getByText('Привязан')).toBeInTheDocument();
    expect(
      within(row('Мониторинг')).getByRole('button', { name: 'Привязать Telegram для мониторинга' }),
    ).toBeEnabled();
    expect(
      within(account).getByRole('button', { name: 'Отвязать чат для уведомлений аккаунта' }),
    ).toHaveTextContent(/^Отвязать$/);
    expect(
      within(account).getByRole('button', {
        name: 'Привязать другой чат для уведомлений аккаунта',
      }),
    ).toBeEnabled();
    expect(
      within(account).getByRole('link', { name: 'Открыть чат для уведомлений аккаунта' }),
    ).toBeVisible();
  });
});
