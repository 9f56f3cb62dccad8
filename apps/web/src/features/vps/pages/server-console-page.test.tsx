import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { stubServerPage, TOKEN } from '../test-utils';
import { Component as ServerConsolePage } from './server-console-page';
import { Component as ServerPage } from './server-page';

/**
 * The web console's page with noVNC's RFB class replaced by a fake that records what the page
 * asks of it (the socket's URL, the options, the keys) and lets the test say when the relay
 * connects or closes, as noVNC's events would.
 */
const rfbs = vi.hoisted(() => {
  class FakeRfb extends EventTarget {
    readonly target: HTMLElement;
    readonly url: string;
    scaleViewport = false;
    resizeSession = true;
    focusOnClick = true;
    background = '';
    ctrlAltDels = 0;
    disconnected = false;
    readonly keys: [number, string | null, boolean | undefined][] = [];

    constructor(target: HTMLElement, url: string) {
      super();
      this.target = target;
      this.url = url;
      instances.push(this);
    }

    sendCtrlAltDel() {
      this.ctrlAltDels += 1;
    }

    sendKey(keysym: number, code: string | null, down?: boolean) {
      this.keys.push([keysym, code, down]);
    }

    focus() {}

    disconnect() {
      this.disconnected = true;
      this.close(true);
    }

    /** The relay answered and the RFB handshake is done. */
    open() {
      this.dispatchEvent(new Event('connect'));
    }

    close(clean: boolean) {
      this.dispatchEvent(new CustomEvent('disconnect', { detail: { clean } }));
    }
  }
  const instances: FakeRfb[] = [];
  return { FakeRfb, instances };
});

vi.mock('@novnc/novnc', () => ({ default: rfbs.FakeRfb }));

const TICKET_PATH = '/user/vps/servers/12/console';
const ticket = (value: string) => ({
  status: 201,
  body: { ticket: value, expires_at: '2026-11-10T12:00:30.000Z' },
});

/** An IntersectionObserver that sees nothing: the server page's charts stay undrawn (as renderVps). */
class FarAway {
  observe() {}
  unobserve() {}
  disconnect() {}
}

function renderConsole(path = '/vps/servers/12/console') {
  if (typeof IntersectionObserver === 'undefined') vi.stubGlobal('IntersectionObserver', FarAway);
  return renderSignedInPage(
    [
      { path: '/vps/servers/:serverId', Component: ServerPage },
      { path: '/vps/servers/:serverId/console', Component: ServerConsolePage },
    ],
    path,
    TOKEN,
  );
}

/** The RFB the page made last, once it has made one. */
async function lastRfb() {
  await vi.waitFor(() => expect(rfbs.instances.length).toBeGreaterThan(0));
  return rfbs.instances.at(-1)!;
}

const status = () => screen.getAllByRole('status')[0]!;

describe('the web console', () => {
  beforeEach(() => {
    rfbs.instances.length = 0;
  });

  it('opens the relay with a ticket, says how it stands and sends Ctrl+Alt+Del', async () => {
    stubServerPage({}, { [`POST ${TICKET_PATH}`]: ticket('t1-ticket') });
    const { user } = renderConsole();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Console of server #12' }),
    ).toBeInTheDocument();
    const rfb = await lastRfb();
    expect(rfb.url).toMatch(
      /^ws:\/\/[^/]+\/api\/user\/vps\/servers\/12\/console\/socket\?ticket=t1-ticket$/,
    );
    expect([rfb.scaleViewport, rfb.resizeSession]).toEqual([true, false]);
    expect(rfb.target).toBe(screen.getByRole('application', { name: 'Screen of server #12' }));
    expect(status()).toHaveTextContent('Connecting…');
    const ctrlAltDel = screen.getByRole('button', { name: 'Send Ctrl+Alt+Del' });
    expect(ctrlAltDel).toBeDisabled();

    act(() => rfb.open());
    expect(status()).toHaveTextContent('Connected. Click the screen to type on the server.');
    await user.click(ctrlAltDel);
    expect(rfb.ctrlAltDels).toBe(1);
  });

  it('types the text key by key, Shift held around capitals and shifted symbols', async () => {
    stubServerPage({}, { [`POST ${TICKET_PATH}`]: ticket('t2-ticket') });
    const { user } = renderConsole();
    const rfb = await lastRfb();
    act(() => rfb.open());
    const field = screen.getByRole('textbox', { name: 'Text to type on the server' });
    expect(field).toHaveAccessibleDescription(
      "Typed key by key, as on the server's own keyboard: the console shares no clipboard with the server. Use it to enter your Windows password at the sign-in screen.",
    );
    await user.type(field, 'Ab1!é');
    await user.click(screen.getByRole('button', { name: 'Type' }));
    const shift = 0xffe1;
    expect(rfb.keys).toEqual([
      [shift, 'ShiftLeft', true],
      [0x41, null, undefined],
      [shift, 'ShiftLeft', false],
      [0x62, null, undefined],
      [0x31, null, undefined],
      [shift, 'ShiftLeft', true],
      [0x21, null, undefined],
      [shift, 'ShiftLeft', false],
      [0xe9, null, undefined],
    ]);
    expect(field).toHaveValue('');
    expect(screen.getByText('The text was typed on the server.')).toBeInTheDocument();
  });

  it('once closed, says so and reconnects with a new ticket', async () => {
    let issued = 0;
    const api = stubServerPage(
      {},
      { [`POST ${TICKET_PATH}`]: () => ticket(`ticket-${(issued += 1)}`) },
    );
    const { user } = renderConsole();
    const first = await lastRfb();
    act(() => first.open());
    act(() => first.close(true));
    expect(status()).toHaveTextContent('The console was closed.');
    expect(screen.getByRole('button', { name: 'Send Ctrl+Alt+Del' })).toBeDisabled();
    const before = api.callsTo('POST', TICKET_PATH).length;
    await user.click(screen.getByRole('button', { name: 'Reconnect' }));
    await vi.waitFor(() => expect(rfbs.instances.at(-1)).not.toBe(first));
    expect(api.callsTo('POST', TICKET_PATH)).toHaveLength(before + 1);
    expect(rfbs.instances.at(-1)!.url).toMatch(new RegExp(`ticket=ticket-${issued}$`));
    expect(status()).toHaveTextContent('Connecting…');
    expect(screen.queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
  });

  it('a connection that fails, or a ticket refused, is an error with the way to retry', async () => {
    stubServerPage(
      {},
      {
        [`POST ${TICKET_PATH}`]: {
          status: 409,
          body: { code: 'SERVER_NOT_RUNNING', message: 'The server is shut down: start it first' },
        },
      },
    );
    renderConsole();
    expect(await screen.findByText('The server is shut down: start it first')).toBeInTheDocument();
    expect(status()).toHaveTextContent('The console could not connect to the server.');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeEnabled();
    expect(rfbs.instances).toEqual([]);
  });

  it('leaves the relay when the page is left', async () => {
    stubServerPage({}, { [`POST ${TICKET_PATH}`]: ticket('t3-ticket') });
    const { router } = renderConsole();
    const rfb = await lastRfb();
    act(() => rfb.open());
    await act(() => router.navigate('/vps/servers/12'));
    expect(rfb.disconnected).toBe(true);
  });

  it('is not offered for a shut-down server, saying why, and asks for no ticket', async () => {
    const api = stubServerPage({ power: 'stopped' });
    renderConsole();
    const reason = 'Start the server first: the console shows the screen of a running server';
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'The console is unavailable' })).toBeInTheDocument();
    // the way back, above the heading and under the reason
    for (const link of screen.getAllByRole('link', { name: 'Server #12' }))
      expect(link).toHaveAttribute('href', '/vps/servers/12');
    expect(api.callsTo('POST', TICKET_PATH)).toEqual([]);
    expect(rfbs.instances).toEqual([]);
  });
});

describe("the server page's web console card", () => {
  const card = async () => within(await screen.findByRole('region', { name: 'Web console' }));

  it('leads to the console of a running server', async () => {
    stubServerPage();
    renderConsole('/vps/servers/12');
    expect((await card()).getByRole('link', { name: 'Open the console' })).toHaveAttribute(
      'href',
      '/vps/servers/12/console',
    );
  });

  it('is off for a shut-down or blocked server, the reason under the button', async () => {
    stubServerPage({ power: 'stopped' });
    const { unmount } = renderConsole('/vps/servers/12');
    const button = (await card()).getByRole('button', { name: 'Open the console' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      'Start the server first: the console shows the screen of a running server',
    );
    unmount();
    stubServerPage({ status: 'blocked' });
    renderConsole('/vps/servers/12');
    expect(
      (await card()).getByRole('button', { name: 'Open the console' }),
    ).toHaveAccessibleDescription('The server is blocked for non-payment: renew it first');
  });
});
