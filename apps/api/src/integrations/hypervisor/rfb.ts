/**
 * The pieces of RFB 3.8 (the VNC protocol, RFC 6143) the web console needs, on each of its ends:
 * - `rfbClientHandshake`: the client's version and security handshake, with VNC authentication
 *   (security type 2), as the Proxmox driver speaks it to the node's VNC proxy;
 * - `acceptRfbClient`: the server's handshake with security None, as the API's relay speaks it to
 *   the browser's noVNC (the browser never sees the hypervisor's ticket);
 * - `serveScreen`: a whole, small server drawing a Windows-like sign-in screen, the screen of the
 *   simulated driver's machines and of the Proxmox fake's VMs (test/proxmox-fake.ts), so that a
 *   picture known in advance can be looked for at the far end (a test, the browser's canvas);
 * - `vncAuthResponse`: VNC authentication's DES;
 * - `ByteChannel`, `bytePipe`, `socketStream`, `WireReader`: the byte streams under them.
 *
 * Every message is read from whatever the wire delivers: a message split across chunks, or
 * several in one chunk, are both the normal case.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { HypervisorError, type ConsoleStream } from './port.ts';

export const RFB_VERSION = 'RFB 003.008\n';
const SECURITY_NONE = 1;
const SECURITY_VNC = 2;
/** The longest text (a failure reason, a desktop name, a clipboard) taken from the far side. */
const TEXT_MAX = 1024 * 1024;

// ---- byte streams ---------------------------------------------------------------------------

/**
 * A ConsoleStream whose far side is a function: `write` sends through `send`, `close` calls
 * `stop`; its owner feeds it the far side's bytes (`deliver`) and end (`end`).
 */
export class ByteChannel implements ConsoleStream {
  private readonly send: (bytes: Buffer) => void;
  private readonly stop: () => void;
  private readonly queued: Buffer[] = [];
  private readonly dataListeners: ((bytes: Buffer) => void)[] = [];
  private readonly closeListeners: (() => void)[] = [];
  private ended = false;

  constructor(send: (bytes: Buffer) => void, stop: () => void) {
    this.send = send;
    this.stop = stop;
  }

  get closed(): boolean {
    return this.ended;
  }

  write(bytes: Uint8Array): void {
    if (!this.ended) this.send(Buffer.from(bytes));
  }

  onData(listener: (bytes: Buffer) => void): void {
    this.dataListeners.push(listener);
    for (const bytes of this.queued.splice(0)) listener(bytes);
  }

  onClose(listener: () => void): void {
    if (this.ended) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  close(): void {
    if (this.ended) return;
    this.stop();
    this.end();
  }

  /** The far side's bytes: to the listeners, or kept until there is one. */
  deliver(bytes: Buffer): void {
    if (this.ended || bytes.length === 0) return;
    if (this.dataListeners.length === 0) this.queued.push(bytes);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** The far side has ended (or this side closed): the close listeners run once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

/**
 * Two streams joined in-process (the simulated driver's machine and its viewer): what one writes
 * the other receives, in order and on a later turn of the event loop, as from a socket.
 */
export function bytePipe(): [ConsoleStream, ConsoleStream] {
  const ends: ByteChannel[] = [];
  const make = (other: () => ByteChannel) =>
    new ByteChannel(
      (bytes) => setImmediate(() => other().deliver(bytes)),
      () => setImmediate(() => other().end()),
    );
  ends.push(
    make(() => ends[1]!),
    make(() => ends[0]!),
  );
  return [ends[0]!, ends[1]!];
}

const bufferOf = (data: RawData): Buffer =>
  Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.isBuffer(data)
      ? data
      : Buffer.from(data as ArrayBuffer);

/** An open WebSocket as a ConsoleStream: binary messages carry the bytes, in any framing. */
export function socketStream(socket: WebSocket): ConsoleStream {
  const channel = new ByteChannel(
    (bytes) => {
      if (socket.readyState === socket.OPEN) socket.send(bytes, { binary: true });
    },
    () => socket.close(1000),
  );
  socket.binaryType = 'nodebuffer';
  socket.on('message', (data) => channel.deliver(bufferOf(data)));
  socket.on('close', () => channel.end());
  // an error (a reset connection) is followed by 'close'; without a listener it would throw
  socket.on('error', () => channel.end());
  return channel;
}

/**
 * Reads a stream by exact sizes, for the handshakes, then hands the rest of it on (`release`):
 * the bytes it has read ahead first, then everything that follows.
 */
export class WireReader {
  private readonly wire: ConsoleStream;
  /** What arrived and was not read yet, as it arrived (joined only as far as a read needs). */
  private readonly chunks: Buffer[] = [];
  private available = 0;
  private waiting: { size: number; resolve: (bytes: Buffer) => void; reject: () => void } | null =
    null;
  private ended = false;
  private next: ByteChannel | null = null;

  constructor(wire: ConsoleStream) {
    this.wire = wire;
    wire.onData((bytes) => {
      if (this.next) return this.next.deliver(bytes);
      this.chunks.push(bytes);
      this.available += bytes.length;
      this.settle();
    });
    wire.onClose(() => {
      this.ended = true;
      this.next?.end();
      this.settle();
    });
  }

  /** The next `size` bytes; rejects (with no reason: the caller knows the step) once ended. */
  read(size: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.waiting = { size, resolve, reject };
      this.settle();
    });
  }

  async readU32(): Promise<number> {
    return (await this.read(4)).readUInt32BE(0);
  }

  /** A u32 length, then that many bytes of text (Latin-1, as RFB's reasons and names are). */
  async readText(): Promise<string> {
    const length = await this.readU32();
    if (length > TEXT_MAX) throw new Error(`a text of ${length} bytes`);
    return (await this.read(length)).toString('latin1');
  }

  write(bytes: Uint8Array): void {
    this.wire.write(bytes);
  }

  /** The stream from here on: what was read ahead, then the wire's further bytes. */
  release(): ConsoleStream {
    const next = new ByteChannel(
      (bytes) => this.wire.write(bytes),
      () => this.wire.close(),
    );
    this.next = next;
    for (const bytes of this.chunks.splice(0)) next.deliver(bytes);
    this.available = 0;
    if (this.ended) next.end();
    return next;
  }

  private take(size: number): Buffer {
    const parts: Buffer[] = [];
    for (let left = size; left > 0;) {
      const first = this.chunks[0]!;
      if (first.length <= left) {
        parts.push(this.chunks.shift()!);
        left -= first.length;
      } else {
        parts.push(first.subarray(0, left));
        this.chunks[0] = first.subarray(left);
        left = 0;
      }
    }
    this.available -= size;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  private settle(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    if (this.available >= waiting.size) {
      this.waiting = null;
      waiting.resolve(this.take(waiting.size));
    } else if (this.ended) {
      this.waiting = null;
      waiting.reject();
    }
  }
}

// ---- VNC authentication ---------------------------------------------------------------------

/** A byte with its bits in reverse order: VNC's DES key quirk. */
function reverseBits(byte: number): number {
  let out = 0;
  for (let bit = 0; bit < 8; bit++) out |= ((byte >> bit) & 1) << (7 - bit);
  return out;
}

/**
 * VNC authentication's answer to a 16-byte challenge (RFC 6143 7.2.2): the challenge encrypted
 * with DES in ECB mode, keyed by the password's first 8 bytes (zero-padded), each byte's bits
 * reversed (the original VNC's d3des takes the key bit order the other way round). Node's OpenSSL
 * 3 has single DES only in its legacy provider, so this is triple DES with the key three times:
 * K|K|K encrypts, decrypts and encrypts again with K, which is DES with K.
 */
export function vncAuthResponse(challenge: Uint8Array, password: string | Uint8Array): Buffer {
  const bytes = typeof password === 'string' ? Buffer.from(password, 'latin1') : password;
  const key = Buffer.alloc(8);
  for (let i = 0; i < 8 && i < bytes.length; i++) key[i] = reverseBits(bytes[i]!);
  const cipher = createCipheriv('des-ede3-ecb', Buffer.concat([key, key, key]), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(challenge), cipher.final()]);
}

// ---- the handshakes -------------------------------------------------------------------------

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const text = (value: string) =>
  Buffer.concat([u32(Buffer.byteLength(value, 'latin1')), Buffer.from(value, 'latin1')]);

/**
 * The client's side of the handshake (RFC 6143 7.1 and 7.2) up to, not including, ClientInit:
 * RFB 3.8, then VNC authentication with `password` when the server offers it (else None, if
 * offered). Refusals are 'failed' with the server's reason; a wire that ends first is 'failed'
 * too (Proxmox closes the socket when it cannot reach the VM). Answers the stream positioned
 * before ClientInit.
 */
export async function rfbClientHandshake(
  wire: ConsoleStream,
  password: string | undefined,
): Promise<ConsoleStream> {
  const reader = new WireReader(wire);
  let step = 'the version';
  const refused = (why: string) => new HypervisorError('failed', `the VNC server refused: ${why}`);
  try {
    const version = (await reader.read(12)).toString('latin1');
    const match = /^RFB (\d{3})\.(\d{3})\n$/.exec(version);
    if (!match || Number(match[1]) < 3 || (Number(match[1]) === 3 && Number(match[2]) < 8))
      throw refused(`it speaks ${JSON.stringify(version)}, not RFB 3.8`);
    reader.write(Buffer.from(RFB_VERSION, 'latin1'));
    step = 'the security types';
    const count = (await reader.read(1))[0]!;
    if (count === 0) throw refused(await reader.readText());
    const offered = [...(await reader.read(count))];
    const type =
      password !== undefined && offered.includes(SECURITY_VNC)
        ? SECURITY_VNC
        : offered.includes(SECURITY_NONE)
          ? SECURITY_NONE
          : undefined;
    if (type === undefined) throw refused(`no security type it offers is known (${offered})`);
    reader.write(Uint8Array.of(type));
    if (type === SECURITY_VNC) {
      step = 'the VNC authentication';
      const challenge = await reader.read(16);
      reader.write(vncAuthResponse(challenge, password!));
    }
    step = 'the security result';
    if ((await reader.readU32()) !== 0) throw refused(await reader.readText());
  } catch (error) {
    if (error instanceof HypervisorError) throw error;
    wire.close();
    const why = error instanceof Error ? `: ${error.message}` : '';
    throw new HypervisorError('failed', `the console closed during ${step}${why}`);
  }
  return reader.release();
}

/**
 * The server's side of the handshake toward a viewer, with security None, up to and including
 * the viewer's ClientInit, which is answered with it (the relay forwards it to the machine, whose
 * ServerInit follows). Throws when the viewer speaks another version or ends first.
 */
export async function acceptRfbClient(
  wire: ConsoleStream,
): Promise<{ clientInit: Buffer; stream: ConsoleStream }> {
  const reader = new WireReader(wire);
  reader.write(Buffer.from(RFB_VERSION, 'latin1'));
  try {
    const version = (await reader.read(12)).toString('latin1');
    if (version !== RFB_VERSION) {
      reader.write(Buffer.concat([Uint8Array.of(0), text('RFB 3.8 only')]));
      throw new Error(`the viewer speaks ${JSON.stringify(version)}`);
    }
    reader.write(Uint8Array.of(1, SECURITY_NONE));
    const chosen = (await reader.read(1))[0];
    if (chosen !== SECURITY_NONE) {
      reader.write(Buffer.concat([u32(1), text('security type None only')]));
      throw new Error(`the viewer chose security type ${chosen}`);
    }
    reader.write(u32(0));
    const clientInit = await reader.read(1);
    return { clientInit, stream: reader.release() };
  } catch (error) {
    wire.close();
    throw error instanceof Error ? error : new Error('the viewer left during the handshake');
  }
}

// ---- the screen -----------------------------------------------------------------------------

export const SCREEN_WIDTH = 800;
export const SCREEN_HEIGHT = 600;

type Rgb = readonly [number, number, number];
export type ScreenView = 'sign_in' | 'security';

/**
 * The screen's colours, for whoever looks at the picture: the sign-in screen (a blue background,
 * a light box in the middle with a white password field, a dark dot in it per character typed)
 * and the security screen Ctrl+Alt+Del brings up (purple, another light box).
 */
export const SCREEN_COLOURS = {
  sign_in: { background: [16, 82, 140], box: [232, 238, 244] },
  security: { background: [52, 30, 92], box: [240, 236, 248] },
  field: [255, 255, 255],
  dot: [32, 32, 32],
} as const satisfies Record<ScreenView, { background: Rgb; box: Rgb }> & {
  field: Rgb;
  dot: Rgb;
};

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where things are drawn: the box, the password field in it, and the dots' places. */
export const SCREEN_LAYOUT = {
  box: { x: 220, y: 200, w: 360, h: 200 },
  field: { x: 260, y: 320, w: 280, h: 32 },
  /** The first dot's top-left corner, each next one `dotStep` to the right; at most `dotsMax`. */
  dot: { x: 272, y: 331, size: 10 },
  dotStep: 18,
  dotsMax: 14,
} as const;

const SCREEN: Rect = { x: 0, y: 0, w: SCREEN_WIDTH, h: SCREEN_HEIGHT };

/** The screen in a view with `typed` characters in the password field, as RGB bytes. */
export function paintScreen(view: ScreenView, typed: number): Uint8Array {
  const pixels = new Uint8Array(SCREEN_WIDTH * SCREEN_HEIGHT * 3);
  const fill = ({ x, y, w, h }: Rect, [r, g, b]: Rgb) => {
    for (let row = y; row < y + h; row++)
      for (let column = x; column < x + w; column++) {
        const at = (row * SCREEN_WIDTH + column) * 3;
        pixels[at] = r;
        pixels[at + 1] = g;
        pixels[at + 2] = b;
      }
  };
  const colours = SCREEN_COLOURS[view];
  fill(SCREEN, colours.background);
  fill(SCREEN_LAYOUT.box, colours.box);
  if (view === 'sign_in') {
    fill(SCREEN_LAYOUT.field, SCREEN_COLOURS.field);
    const { dot, dotStep, dotsMax } = SCREEN_LAYOUT;
    for (let i = 0; i < Math.min(typed, dotsMax); i++)
      fill({ x: dot.x + i * dotStep, y: dot.y, w: dot.size, h: dot.size }, SCREEN_COLOURS.dot);
  }
  return pixels;
}

/** A client's pixel format (RFC 6143 7.4), true colour only. */
export interface PixelFormat {
  bitsPerPixel: number;
  depth: number;
  bigEndian: boolean;
  trueColour: boolean;
  redMax: number;
  greenMax: number;
  blueMax: number;
  redShift: number;
  greenShift: number;
  blueShift: number;
}

/** What the server announces: 32 bits a pixel, 8 per colour, little-endian xRGB. */
export const DEFAULT_PIXEL_FORMAT: PixelFormat = {
  bitsPerPixel: 32,
  depth: 24,
  bigEndian: false,
  trueColour: true,
  redMax: 255,
  greenMax: 255,
  blueMax: 255,
  redShift: 16,
  greenShift: 8,
  blueShift: 0,
};

export function encodePixelFormat(format: PixelFormat): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeUInt8(format.bitsPerPixel, 0);
  bytes.writeUInt8(format.depth, 1);
  bytes.writeUInt8(format.bigEndian ? 1 : 0, 2);
  bytes.writeUInt8(format.trueColour ? 1 : 0, 3);
  bytes.writeUInt16BE(format.redMax, 4);
  bytes.writeUInt16BE(format.greenMax, 6);
  bytes.writeUInt16BE(format.blueMax, 8);
  bytes.writeUInt8(format.redShift, 10);
  bytes.writeUInt8(format.greenShift, 11);
  bytes.writeUInt8(format.blueShift, 12);
  return bytes;
}

export function decodePixelFormat(bytes: Buffer): PixelFormat {
  return {
    bitsPerPixel: bytes[0]!,
    depth: bytes[1]!,
    bigEndian: bytes[2] !== 0,
    trueColour: bytes[3] !== 0,
    redMax: bytes.readUInt16BE(4),
    greenMax: bytes.readUInt16BE(6),
    blueMax: bytes.readUInt16BE(8),
    redShift: bytes[10]!,
    greenShift: bytes[11]!,
    blueShift: bytes[12]!,
  };
}

/** One pixel's value in a format (a colour scaled to each channel's maximum). */
export function pixelValue(format: PixelFormat, [r, g, b]: Rgb): number {
  const scale = (value: number, max: number) => Math.round((value * max) / 255);
  return (
    ((scale(r, format.redMax) << format.redShift) |
      (scale(g, format.greenMax) << format.greenShift) |
      (scale(b, format.blueMax) << format.blueShift)) >>>
    0
  );
}

/** A rectangle of RGB pixels as Raw encoding's bytes in the client's format. */
function rawPixels(pixels: Uint8Array, format: PixelFormat, { x, y, w, h }: Rect): Buffer {
  const size = format.bitsPerPixel / 8;
  const out = Buffer.alloc(w * h * size);
  let at = 0;
  for (let row = y; row < y + h; row++)
    for (let column = x; column < x + w; column++) {
      const from = (row * SCREEN_WIDTH + column) * 3;
      const value = pixelValue(format, [pixels[from]!, pixels[from + 1]!, pixels[from + 2]!]);
      if (size === 4) {
        if (format.bigEndian) out.writeUInt32BE(value, at);
        else out.writeUInt32LE(value, at);
      } else if (size === 2) {
        if (format.bigEndian) out.writeUInt16BE(value, at);
        else out.writeUInt16LE(value, at);
      } else out.writeUInt8(value & 0xff, at);
      at += size;
    }
  return out;
}

const intersect = (a: Rect, b: Rect): Rect | undefined => {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : undefined;
};
const union = (a: Rect | undefined, b: Rect): Rect => {
  if (!a) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    w: Math.max(a.x + a.w, b.x + b.w) - x,
    h: Math.max(a.y + a.h, b.y + b.h) - y,
  };
};

/** X keysyms the screen reacts to. */
export const KEYSYM = {
  backspace: 0xff08,
  return: 0xff0d,
  escape: 0xff1b,
  delete: 0xffff,
  keypadDelete: 0xff9f,
  shiftLeft: 0xffe1,
  controlLeft: 0xffe3,
  controlRight: 0xffe4,
  altLeft: 0xffe9,
  altRight: 0xffea,
} as const;

/** The character a keysym types, if it types one (Latin-1's, or a Unicode keysym's). */
export function keysymCharacter(keysym: number): string | undefined {
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff))
    return String.fromCharCode(keysym);
  if (keysym >= 0x01000100 && keysym <= 0x0110ffff)
    return String.fromCodePoint(keysym - 0x01000000);
  return undefined;
}

export interface ScreenOptions {
  /** The desktop name ServerInit announces (the VM's name). */
  name: string;
  /** VNC authentication with this password, as Proxmox's proxy asks; none: security None. */
  password?: string;
}

/** What a viewer did to the screen, for tests to assert: key events and clipboard texts. */
export interface ScreenSession {
  readonly keys: { keysym: number; down: boolean }[];
  readonly cutTexts: string[];
  /** The characters typed into the password field (Backspace removes the last). */
  readonly typed: string;
  readonly view: ScreenView;
  /** Whether the viewer passed the handshake (and the password, if one is asked). */
  readonly authenticated: boolean;
  close(): void;
}

/**
 * A minimal RFB 3.8 server on the wire, drawing the sign-in screen (paintScreen) in Raw encoding
 * in the pixel format the viewer sets (true colour, 8, 16 or 32 bits), and reacting as a trader
 * would notice: characters typed on the sign-in screen are dots in its password field, and
 * Ctrl+Alt+Del (Delete pressed while Control and Alt are held) brings up the security screen,
 * which Escape leaves. Full update requests are answered at once, incremental ones when something
 * changed (held until then, as RFC 6143 allows). A message it does not know, a colour-map pixel
 * format or a wrong password ends the connection, as a real server's would.
 */
export function serveScreen(wire: ConsoleStream, options: ScreenOptions): ScreenSession {
  type Phase = 'version' | 'security' | 'auth' | 'init' | 'messages' | 'closed';
  let phase: Phase = 'version';
  let buffer: Buffer = Buffer.alloc(0);
  let format = DEFAULT_PIXEL_FORMAT;
  let view: ScreenView = 'sign_in';
  let typed = '';
  let pixels = paintScreen(view, 0);
  let dirty: Rect | undefined;
  let wanted: Rect | undefined;
  let authenticated = false;
  const challenge = randomBytes(16);
  const held = new Set<number>();
  const keys: ScreenSession['keys'] = [];
  const cutTexts: string[] = [];
  const security = options.password === undefined ? SECURITY_NONE : SECURITY_VNC;

  const end = () => {
    phase = 'closed';
    wire.close();
  };
  const fail = (reason: string) => {
    wire.write(Buffer.concat([u32(1), text(reason)]));
    end();
  };

  function sendUpdate(rect: Rect): void {
    const header = Buffer.alloc(4 + 12);
    header.writeUInt8(0, 0);
    header.writeUInt16BE(1, 2);
    header.writeUInt16BE(rect.x, 4);
    header.writeUInt16BE(rect.y, 6);
    header.writeUInt16BE(rect.w, 8);
    header.writeUInt16BE(rect.h, 10);
    header.writeInt32BE(0, 12); // Raw
    wire.write(Buffer.concat([header, rawPixels(pixels, format, rect)]));
  }

  /** Sends what changed within the held incremental request, if anything did. */
  function flush(): void {
    if (!wanted || !dirty) return;
    const rect = intersect(wanted, dirty);
    if (!rect) return;
    wanted = undefined;
    dirty = undefined;
    sendUpdate(rect);
  }

  function redraw(rect: Rect): void {
    pixels = paintScreen(view, typed.length);
    dirty = union(dirty, rect);
    flush();
  }

  function key(down: boolean, keysym: number): void {
    keys.push({ keysym, down });
    if (!down) {
      held.delete(keysym);
      return;
    }
    held.add(keysym);
    const control = held.has(KEYSYM.controlLeft) || held.has(KEYSYM.controlRight);
    const alt = held.has(KEYSYM.altLeft) || held.has(KEYSYM.altRight);
    const character = keysymCharacter(keysym);
    if ((keysym === KEYSYM.delete || keysym === KEYSYM.keypadDelete) && control && alt) {
      view = 'security';
      redraw(SCREEN);
    } else if (view === 'security' && keysym === KEYSYM.escape) {
      view = 'sign_in';
      redraw(SCREEN);
    } else if (view === 'sign_in' && character !== undefined && !control && !alt) {
      typed += character;
      redraw(SCREEN_LAYOUT.field);
    } else if (view === 'sign_in' && keysym === KEYSYM.backspace && typed) {
      typed = [...typed].slice(0, -1).join('');
      redraw(SCREEN_LAYOUT.field);
    }
  }

  /** One client message at the start of `buffer`: its length, or 0 until it is all there. */
  function message(): number {
    const type = buffer[0]!;
    switch (type) {
      case 0: {
        // SetPixelFormat: 3 padding bytes, then the format
        if (buffer.length < 20) return 0;
        const next = decodePixelFormat(buffer.subarray(4, 20));
        if (!next.trueColour || ![8, 16, 32].includes(next.bitsPerPixel)) {
          end();
          return 0;
        }
        format = next;
        return 20;
      }
      case 2: {
        // SetEncodings: Raw is always there to fall back on, so the list changes nothing
        if (buffer.length < 4) return 0;
        const length = 4 + 4 * buffer.readUInt16BE(2);
        return buffer.length < length ? 0 : length;
      }
      case 3: {
        if (buffer.length < 10) return 0;
        const rect = intersect(SCREEN, {
          x: buffer.readUInt16BE(2),
          y: buffer.readUInt16BE(4),
          w: buffer.readUInt16BE(6),
          h: buffer.readUInt16BE(8),
        });
        if (rect && buffer[1] === 0) sendUpdate(rect);
        else if (rect) {
          wanted = rect;
          flush();
        }
        return 10;
      }
      case 4:
        if (buffer.length < 8) return 0;
        key(buffer[1] !== 0, buffer.readUInt32BE(4));
        return 8;
      case 5:
        // PointerEvent: the sign-in screen has nothing to click
        return buffer.length < 6 ? 0 : 6;
      case 6: {
        if (buffer.length < 8) return 0;
        const length = buffer.readUInt32BE(4);
        if (length > TEXT_MAX) {
          end();
          return 0;
        }
        if (buffer.length < 8 + length) return 0;
        cutTexts.push(buffer.subarray(8, 8 + length).toString('latin1'));
        return 8 + length;
      }
      default:
        // an unknown message's length is unknown too: nothing after it can be read
        end();
        return 0;
    }
  }

  /** The step the phase is at: the bytes it used, or 0 until they are all there. */
  function step(): number {
    switch (phase) {
      case 'version': {
        if (buffer.length < 12) return 0;
        if (buffer.subarray(0, 12).toString('latin1') !== RFB_VERSION) {
          end();
          return 0;
        }
        wire.write(Uint8Array.of(1, security));
        phase = 'security';
        return 12;
      }
      case 'security': {
        if (buffer[0] !== security) {
          fail('unsupported security type');
          return 0;
        }
        if (security === SECURITY_VNC) {
          wire.write(challenge);
          phase = 'auth';
        } else {
          wire.write(u32(0));
          authenticated = true;
          phase = 'init';
        }
        return 1;
      }
      case 'auth': {
        if (buffer.length < 16) return 0;
        if (!vncAuthResponse(challenge, options.password!).equals(buffer.subarray(0, 16))) {
          fail('Authentication failed');
          return 0;
        }
        wire.write(u32(0));
        authenticated = true;
        phase = 'init';
        return 16;
      }
      case 'init': {
        const init = Buffer.alloc(4);
        init.writeUInt16BE(SCREEN_WIDTH, 0);
        init.writeUInt16BE(SCREEN_HEIGHT, 2);
        wire.write(Buffer.concat([init, encodePixelFormat(format), text(options.name)]));
        phase = 'messages';
        return 1;
      }
      case 'messages':
        return message();
      case 'closed':
        return 0;
    }
  }

  wire.onData((bytes) => {
    buffer = buffer.length === 0 ? bytes : Buffer.concat([buffer, bytes]);
    for (let used = 1; used > 0 && buffer.length > 0;) {
      used = step();
      buffer = buffer.subarray(used);
    }
  });
  wire.onClose(() => {
    phase = 'closed';
  });
  wire.write(Buffer.from(RFB_VERSION, 'latin1'));

  return {
    keys,
    cutTexts,
    get typed() {
      return typed;
    },
    get view() {
      return view;
    },
    get authenticated() {
      return authenticated;
    },
    close: end,
  };
}
