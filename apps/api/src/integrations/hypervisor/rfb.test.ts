import { describe, expect, it } from 'vitest';
import { RfbViewer } from '../../../test/rfb-viewer.ts';
import type { ConsoleStream } from './port.ts';
import { HypervisorError } from './port.ts';
import {
  acceptRfbClient,
  bytePipe,
  ByteChannel,
  KEYSYM,
  rfbClientHandshake,
  serveScreen,
  vncAuthResponse,
} from './rfb.ts';

/** The rejection of `promise`. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A write cut as a network may cut it: its first byte alone, then pieces of 997 bytes. */
function pieces(bytes: Uint8Array): Buffer[] {
  const all = Buffer.from(bytes);
  const cut = [all.subarray(0, 1)];
  for (let at = 1; at < all.length; at += 997) cut.push(all.subarray(at, at + 997));
  return cut;
}

/**
 * A wire that hands each write over in pieces, each on a turn of its own: every message then
 * arrives split (and a piece may end inside the next one), the case a reader must handle.
 */
function trickle(inner: ConsoleStream): ConsoleStream {
  const outer = new ByteChannel(
    (bytes) => {
      for (const piece of pieces(bytes)) setImmediate(() => inner.write(piece));
    },
    () => setImmediate(() => inner.close()),
  );
  inner.onData((bytes) => {
    for (const piece of pieces(bytes)) setImmediate(() => outer.deliver(piece));
  });
  inner.onClose(() => setImmediate(() => outer.end()));
  return outer;
}

describe('VNC authentication', () => {
  it("is DES with the password's bits reversed: the textbook vector", () => {
    // J. Orlin Grabbe's worked example of DES (The DES Algorithm Illustrated): key
    // 13 34 57 79 9B BC DF F1 encrypts 01 23 45 67 89 AB CD EF to 85 E8 13 54 0F 0A B4 05. VNC
    // reverses each password byte's bits to make the key, so the password whose reversed bytes
    // are that key is C8 2C EA 9E D9 3D FB 8F (0x13 = 00010011 reversed is 11001000 = 0xC8, ...)
    const password = Buffer.from('C82CEA9ED93DFB8F', 'hex');
    const challenge = Buffer.from('0123456789ABCDEF0123456789ABCDEF', 'hex');
    expect(vncAuthResponse(challenge, password).toString('hex')).toBe(
      '85e813540f0ab40585e813540f0ab405',
    );
  });

  it('uses the first 8 bytes of the password only, zero-padded', () => {
    const challenge = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    expect(vncAuthResponse(challenge, 'PVEVNC:0123::signature')).toEqual(
      vncAuthResponse(challenge, 'PVEVNC:0'),
    );
    expect(vncAuthResponse(challenge, 'abc')).toEqual(
      vncAuthResponse(challenge, Buffer.from('abc\0\0\0\0\0', 'latin1')),
    );
    expect(vncAuthResponse(challenge, 'abc')).not.toEqual(vncAuthResponse(challenge, 'abd'));
  });
});

describe('the RFB handshakes and the screen', () => {
  it('a client with the password opens the screen, every message arriving split', async () => {
    const [client, server] = bytePipe();
    const screen = serveScreen(server, { name: 'vps-12', password: 'PVEVNC:1234' });
    const viewer = await RfbViewer.open(
      await rfbClientHandshake(trickle(client), 'PVEVNC:1234::x'),
    );
    expect([viewer.name, screen.authenticated]).toEqual(['vps-12', true]);
    await viewer.update();
    expect(viewer.shows('sign_in', 0)).toBe(true);
    viewer.type('ab');
    viewer.key(KEYSYM.backspace, true);
    viewer.key(KEYSYM.backspace, false);
    viewer.cutText('Pässword');
    await viewer.update(true);
    expect(viewer.shows('sign_in', 1)).toBe(true);
    expect([screen.typed, screen.cutTexts]).toEqual(['a', ['Pässword']]);
    viewer.ctrlAltDel();
    await viewer.update(true);
    expect([screen.view, viewer.shows('security', 1)]).toEqual(['security', true]);
    // Escape leaves the security screen
    viewer.key(KEYSYM.escape, true);
    await viewer.update(true);
    expect(viewer.shows('sign_in', 1)).toBe(true);
    viewer.close();
  });

  it('a wrong password is refused with the reason, and the screen ends', async () => {
    const [client, server] = bytePipe();
    const screen = serveScreen(server, { name: 'vps-12', password: 'PVEVNC:1234' });
    const error = await rejection(rfbClientHandshake(client, 'PVEVNC:9999'));
    expect(error).toBeInstanceOf(HypervisorError);
    expect(error).toMatchObject({
      kind: 'failed',
      message: 'the VNC server refused: Authentication failed',
    });
    expect(screen.authenticated).toBe(false);
  });

  it('an incremental request waits for a change; Ctrl alone with Delete is no Ctrl+Alt+Del', async () => {
    const [client, server] = bytePipe();
    const screen = serveScreen(server, { name: 'idle' });
    const viewer = await RfbViewer.open(await rfbClientHandshake(client, undefined));
    await viewer.update();
    let answered = false;
    const waiting = viewer.update(true).then(() => {
      answered = true;
    });
    viewer.key(KEYSYM.controlLeft, true);
    viewer.key(KEYSYM.delete, true);
    // the server has read the request and the keys behind it; an answer written then would be
    // delivered on the pipe's next turn and read on the same one
    await expect.poll(() => screen.keys.length).toBe(2);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect([answered, screen.view]).toEqual([false, 'sign_in']);
    viewer.key(KEYSYM.altLeft, true);
    viewer.key(KEYSYM.delete, true);
    await waiting;
    expect(viewer.shows('security', 0)).toBe(true);
    viewer.close();
  });

  it("the relay side: a viewer's handshake with security None, up to its ClientInit", async () => {
    const [browser, relay] = bytePipe();
    const accepted = acceptRfbClient(relay);
    const stream = await rfbClientHandshake(trickle(browser), undefined);
    stream.write(Uint8Array.of(1));
    const { clientInit, stream: fromBrowser } = await accepted;
    expect([...clientInit]).toEqual([1]);
    // what follows is the browser's, in order
    const received: number[] = [];
    fromBrowser.onData((bytes) => received.push(...bytes));
    stream.write(Uint8Array.of(3, 0, 0, 0));
    await expect.poll(() => received).toEqual([3, 0, 0, 0]);
  });

  it('the relay side refuses another version, and a viewer asking for VNC authentication', async () => {
    const [browser, relay] = bytePipe();
    const accepted = rejection(acceptRfbClient(relay));
    browser.write(Buffer.from('RFB 003.003\n', 'latin1'));
    expect(String(await accepted)).toMatch(/RFB 003\.003/);

    const [other, otherRelay] = bytePipe();
    const refused = rejection(acceptRfbClient(otherRelay));
    other.write(Buffer.from('RFB 003.008\n', 'latin1'));
    other.write(Uint8Array.of(2));
    expect(String(await refused)).toMatch(/security type 2/);
  });
});
