import { WebSocket } from 'ws';
import {
  DEFAULT_PIXEL_FORMAT,
  encodePixelFormat,
  KEYSYM,
  paintScreen,
  rfbClientHandshake,
  socketStream,
  SCREEN_HEIGHT,
  SCREEN_WIDTH,
  WireReader,
  type PixelFormat,
  type ScreenView,
} from '../src/integrations/hypervisor/rfb.ts';
import type { ConsoleStream } from '../src/integrations/hypervisor/port.ts';

/**
 * A VNC viewer for the tests, on a stream positioned before ClientInit (a driver's openConsole,
 * or the relay's socket after rfbClientHandshake): it reads ServerInit, asks for the pixel format
 * noVNC asks for (32 bits, red in the lowest byte: not the server's own, so the conversion is
 * exercised), takes Raw framebuffer updates into an RGB copy of the screen, and sends keys and
 * clipboard text. `shows` compares that copy with the picture rfb.ts draws.
 */

/** noVNC's pixel format: 32 bits, little-endian, red at bit 0, green 8, blue 16. */
const NOVNC_FORMAT: PixelFormat = { ...DEFAULT_PIXEL_FORMAT, redShift: 0, blueShift: 16 };

export class RfbViewer {
  width = 0;
  height = 0;
  name = '';
  /** The screen as received so far, RGB. */
  pixels = new Uint8Array(0);
  private readonly stream: ConsoleStream;
  private readonly reader: WireReader;
  private ended = false;

  private constructor(stream: ConsoleStream) {
    this.stream = stream;
    this.reader = new WireReader(stream);
    stream.onClose(() => {
      this.ended = true;
    });
  }

  /** ClientInit (shared), ServerInit, then the pixel format and Raw as the only encoding. */
  static async open(stream: ConsoleStream): Promise<RfbViewer> {
    const viewer = new RfbViewer(stream);
    const { reader } = viewer;
    reader.write(Uint8Array.of(1));
    const init = await reader.read(20);
    viewer.width = init.readUInt16BE(0);
    viewer.height = init.readUInt16BE(2);
    viewer.name = await reader.readText();
    viewer.pixels = new Uint8Array(viewer.width * viewer.height * 3);
    reader.write(Buffer.concat([Buffer.alloc(4), encodePixelFormat(NOVNC_FORMAT)]));
    reader.write(Uint8Array.of(2, 0, 0, 1, 0, 0, 0, 0));
    return viewer;
  }

  /** Whether the server has ended the stream. */
  get closed(): boolean {
    return this.ended;
  }

  /** Resolves once the stream has ended (from either side). */
  whenClosed(): Promise<void> {
    return new Promise((resolve) => this.stream.onClose(resolve));
  }

  /**
   * Asks for the whole screen (`incremental`: only what changed, answered when something has)
   * and applies the update that answers.
   */
  async update(incremental = false): Promise<void> {
    const request = Buffer.alloc(10);
    request.writeUInt8(3, 0);
    request.writeUInt8(incremental ? 1 : 0, 1);
    request.writeUInt16BE(this.width, 6);
    request.writeUInt16BE(this.height, 8);
    this.reader.write(request);
    const header = await this.reader.read(4);
    if (header[0] !== 0) throw new Error(`expected a FramebufferUpdate, got message ${header[0]}`);
    for (let rects = header.readUInt16BE(2); rects > 0; rects--) {
      const rect = await this.reader.read(12);
      const [x, y, w, h] = [0, 2, 4, 6].map((at) => rect.readUInt16BE(at)) as [
        number,
        number,
        number,
        number,
      ];
      if (rect.readInt32BE(8) !== 0) throw new Error(`encoding ${rect.readInt32BE(8)}, not Raw`);
      const data = await this.reader.read(w * h * 4);
      for (let row = 0; row < h; row++)
        for (let column = 0; column < w; column++) {
          const value = data.readUInt32LE((row * w + column) * 4);
          const at = ((y + row) * this.width + x + column) * 3;
          this.pixels[at] = value & 0xff;
          this.pixels[at + 1] = (value >> 8) & 0xff;
          this.pixels[at + 2] = (value >> 16) & 0xff;
        }
    }
  }

  key(keysym: number, down: boolean): void {
    const event = Buffer.alloc(8);
    event.writeUInt8(4, 0);
    event.writeUInt8(down ? 1 : 0, 1);
    event.writeUInt32BE(keysym, 4);
    this.reader.write(event);
  }

  /** Each character pressed and released (its Latin-1 keysym). */
  type(text: string): void {
    for (const character of text) {
      this.key(character.charCodeAt(0), true);
      this.key(character.charCodeAt(0), false);
    }
  }

  /** What noVNC's sendCtrlAltDel sends. */
  ctrlAltDel(): void {
    for (const keysym of [KEYSYM.controlLeft, KEYSYM.altLeft, KEYSYM.delete])
      this.key(keysym, true);
    for (const keysym of [KEYSYM.delete, KEYSYM.altLeft, KEYSYM.controlLeft])
      this.key(keysym, false);
  }

  cutText(text: string): void {
    const bytes = Buffer.from(text, 'latin1');
    const header = Buffer.alloc(8);
    header.writeUInt8(6, 0);
    header.writeUInt32BE(bytes.length, 4);
    this.reader.write(Buffer.concat([header, bytes]));
  }

  /** Whether the screen received is exactly rfb.ts's picture of this view and typing. */
  shows(view: ScreenView, typed: number): boolean {
    if (this.width !== SCREEN_WIDTH || this.height !== SCREEN_HEIGHT) return false;
    return Buffer.from(this.pixels).equals(Buffer.from(paintScreen(view, typed)));
  }

  close(): void {
    this.stream.close();
  }
}

/** The relay's socket URL of a server, for a ticket. */
export const consoleSocketUrl = (baseUrl: string, serverId: number, ticket: string) =>
  `${baseUrl.replace(/^http/, 'ws')}/api/user/vps/servers/${serverId}/console/socket?ticket=${encodeURIComponent(ticket)}`;

/**
 * What a browser's WebSocket to `url` meets: upgraded (the socket, as a stream already listened
 * to: the relay's first bytes come at once), or refused with an HTTP answer (its status and JSON).
 */
export function dialConsole(
  url: string,
): Promise<
  | { upgraded: true; socket: WebSocket; stream: ConsoleStream }
  | { upgraded: false; status: number; body: { code?: string; message?: string } }
> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const stream = socketStream(socket);
    socket.once('open', () => resolve({ upgraded: true, socket, stream }));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ upgraded: false, status: response.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    socket.on('error', reject);
  });
}

/** The relay's console: a socket upgraded, the handshake with security None, ServerInit read. */
export async function openRelayedConsole(url: string): Promise<RfbViewer> {
  const dialled = await dialConsole(url);
  if (!dialled.upgraded)
    throw new Error(`the console was refused: ${dialled.status} ${JSON.stringify(dialled.body)}`);
  return RfbViewer.open(await rfbClientHandshake(dialled.stream, undefined));
}
