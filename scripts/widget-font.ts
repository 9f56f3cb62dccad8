/**
 * Writes apps/api/src/modules/monitoring/monitoring.widgets.font.ts: the outlines of the
 * characters the monitoring widgets draw (Latin, Cyrillic, digits, the figures' signs), in
 * DejaVu Sans and DejaVu Sans Bold, as SVG path data. The PNG widget is the SVG rendered by
 * sharp, and a server may have no fonts at all (fontconfig then draws nothing): drawn as paths,
 * its text needs none. Run once when the character set changes, on a machine with the fonts
 * (Debian's fonts-dejavu-core):
 *
 *   node scripts/widget-font.ts [/usr/share/fonts/truetype/dejavu]
 *
 * A small TrueType reader of its own (cmap format 4, loca, glyf with composite glyphs, hmtx):
 * nothing else is needed for these outlines, so the project takes no font library for them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib.ts';

const FONT_DIR = process.argv[2] ?? '/usr/share/fonts/truetype/dejavu';
const OUT = join(repoRoot, 'apps/api/src/modules/monitoring/monitoring.widgets.font.ts');
/** The outlines' units per em in the output. */
const UNITS = 1000;

/** The characters drawn: ASCII, Latin-1 and Latin Extended-A, Cyrillic, and a few signs. */
const CHARACTERS = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0x17f),
  ...range(0x400, 0x45f),
  0x490,
  0x491,
  ...[0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2022, 0x2026],
  ...[0x2030, 0x2039, 0x203a, 0x20ac, 0x20bd, 0x2116, 0x2122, 0x2212, 0x2713, 0x202f, 0x2009],
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

interface Point {
  x: number;
  y: number;
  on: boolean;
}

class Font {
  private readonly data: DataView;
  private readonly tables = new Map<string, number>();
  readonly unitsPerEm: number;
  private readonly longLoca: boolean;
  private readonly hMetrics: number;
  private readonly cmap: (code: number) => number;

  constructor(file: string) {
    const bytes = readFileSync(file);
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = this.u16(4);
    for (let i = 0; i < count; i += 1) {
      const at = 12 + i * 16;
      const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
      this.tables.set(tag, this.u32(at + 8));
    }
    const head = this.table('head');
    this.unitsPerEm = this.u16(head + 18);
    this.longLoca = this.i16(head + 50) === 1;
    this.hMetrics = this.u16(this.table('hhea') + 34);
    this.cmap = this.readCmap();
  }

  private u16 = (at: number) => this.data.getUint16(at);
  private i16 = (at: number) => this.data.getInt16(at);
  private u32 = (at: number) => this.data.getUint32(at);

  private table(tag: string): number {
    const at = this.tables.get(tag);
    if (at === undefined) throw new Error(`no ${tag} table`);
    return at;
  }

  /** The Unicode BMP subtable (platform 3 encoding 1, or platform 0), format 4. */
  private readCmap(): (code: number) => number {
    const cmap = this.table('cmap');
    const count = this.u16(cmap + 2);
    let sub = -1;
    for (let i = 0; i < count; i += 1) {
      const platform = this.u16(cmap + 4 + i * 8);
      const encoding = this.u16(cmap + 6 + i * 8);
      const at = cmap + this.u32(cmap + 8 + i * 8);
      if (this.u16(at) === 4 && ((platform === 3 && encoding === 1) || platform === 0)) sub = at;
    }
    if (sub < 0) throw new Error('no format 4 cmap');
    const segments = this.u16(sub + 6) / 2;
    const ends = sub + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const offsets = deltas + segments * 2;
    return (code) => {
      for (let i = 0; i < segments; i += 1) {
        if (this.u16(ends + i * 2) < code) continue;
        const start = this.u16(starts + i * 2);
        if (start > code) return 0;
        const delta = this.i16(deltas + i * 2);
        const offset = this.u16(offsets + i * 2);
        if (offset === 0) return (code + delta) & 0xffff;
        const glyph = this.u16(offsets + i * 2 + offset + (code - start) * 2);
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      }
      return 0;
    };
  }

  glyphOf(code: number): number {
    return this.cmap(code);
  }

  advance(glyph: number): number {
    const hmtx = this.table('hmtx');
    return this.u16(hmtx + Math.min(glyph, this.hMetrics - 1) * 4);
  }

  /** The glyph's contours in font units (y up), composites resolved. */
  contours(glyph: number): Point[][] {
    const loca = this.table('loca');
    const [from, to] = this.longLoca
      ? [this.u32(loca + glyph * 4), this.u32(loca + glyph * 4 + 4)]
      : [this.u16(loca + glyph * 2) * 2, this.u16(loca + glyph * 2 + 2) * 2];
    if (from === to) return [];
    const at = this.table('glyf') + from;
    const contours = this.i16(at);
    return contours >= 0 ? this.simple(at, contours) : this.composite(at);
  }

  private simple(at: number, count: number): Point[][] {
    const ends: number[] = [];
    for (let i = 0; i < count; i += 1) ends.push(this.u16(at + 10 + i * 2));
    const points = count === 0 ? 0 : ends[count - 1]! + 1;
    let p = at + 10 + count * 2;
    p += 2 + this.u16(p); // the instructions
    const flags: number[] = [];
    while (flags.length < points) {
      const flag = this.data.getUint8(p++);
      flags.push(flag);
      if (flag & 8) {
        const repeat = this.data.getUint8(p++);
        for (let r = 0; r < repeat; r += 1) flags.push(flag);
      }
    }
    const read = (short: number, same: number) => {
      const values: number[] = [];
      let value = 0;
      for (const flag of flags) {
        if (flag & short) {
          const byte = this.data.getUint8(p++);
          value += flag & same ? byte : -byte;
        } else if (!(flag & same)) {
          value += this.i16(p);
          p += 2;
        }
        values.push(value);
      }
      return values;
    };
    const xs = read(2, 16);
    const ys = read(4, 32);
    const result: Point[][] = [];
    let first = 0;
    for (const end of ends) {
      const contour: Point[] = [];
      for (let i = first; i <= end; i += 1)
        contour.push({ x: xs[i]!, y: ys[i]!, on: (flags[i]! & 1) === 1 });
      result.push(contour);
      first = end + 1;
    }
    return result;
  }

  private composite(at: number): Point[][] {
    const result: Point[][] = [];
    let p = at + 10;
    for (;;) {
      const flags = this.u16(p);
      const glyph = this.u16(p + 2);
      p += 4;
      let dx: number;
      let dy: number;
      if (flags & 1) {
        dx = this.i16(p);
        dy = this.i16(p + 2);
        p += 4;
      } else {
        dx = this.data.getInt8(p);
        dy = this.data.getInt8(p + 1);
        p += 2;
      }
      // point-matched components (not x/y offsets) are not used by these glyphs
      if (!(flags & 2)) dx = dy = 0;
      const f2dot14 = (q: number) => this.i16(q) / 16384;
      let [a, b, c, d] = [1, 0, 0, 1];
      if (flags & 8) {
        a = d = f2dot14(p);
        p += 2;
      } else if (flags & 0x40) {
        a = f2dot14(p);
        d = f2dot14(p + 2);
        p += 4;
      } else if (flags & 0x80) {
        [a, b, c, d] = [f2dot14(p), f2dot14(p + 2), f2dot14(p + 4), f2dot14(p + 6)];
        p += 8;
      }
      for (const contour of this.contours(glyph))
        result.push(
          contour.map((q) => ({ x: a * q.x + c * q.y + dx, y: b * q.x + d * q.y + dy, on: q.on })),
        );
      if (!(flags & 0x20)) return result;
    }
  }
}

/** A contour as absolute commands (move, line, quadratic), in output units, y down. */
type Command = ['M' | 'L', number, number] | ['Q', number, number, number, number];

function commandsOf(contour: Point[], scale: number): Command[] {
  const pts = contour.map((p) => ({ x: p.x * scale, y: -p.y * scale, on: p.on }));
  const n = pts.length;
  if (n === 0) return [];
  // start on an on-curve point, or between two off-curve ones
  const onIndex = pts.findIndex((p) => p.on);
  let start: { x: number; y: number };
  let order: typeof pts;
  if (onIndex >= 0) {
    start = pts[onIndex]!;
    order = [...pts.slice(onIndex + 1), ...pts.slice(0, onIndex)];
  } else {
    start = { x: (pts[n - 1]!.x + pts[0]!.x) / 2, y: (pts[n - 1]!.y + pts[0]!.y) / 2 };
    order = pts;
  }
  const commands: Command[] = [['M', start.x, start.y]];
  let off: { x: number; y: number } | null = null;
  for (const p of order) {
    if (p.on) {
      commands.push(off ? ['Q', off.x, off.y, p.x, p.y] : ['L', p.x, p.y]);
      off = null;
    } else {
      if (off) {
        const mid = { x: (off.x + p.x) / 2, y: (off.y + p.y) / 2 };
        commands.push(['Q', off.x, off.y, mid.x, mid.y]);
      }
      off = p;
    }
  }
  if (off) commands.push(['Q', off.x, off.y, start.x, start.y]);
  return commands;
}

/**
 * A glyph as relative path data after its first move: [first move x, y, end x, y, the rest]. The
 * end is where the pen is once the path is drawn (the last contour's start, after its `z`).
 */
function glyphPath(contours: Point[][], scale: number): [number, number, number, number, string] {
  let text = '';
  let pen = { x: 0, y: 0 };
  let first: { x: number; y: number } | null = null;
  let contourStart = { x: 0, y: 0 };
  const num = (v: number) => String(v);
  for (const contour of contours) {
    const commands = commandsOf(contour, scale).map(
      (c) => c.map((v) => (typeof v === 'number' ? Math.round(v) : v)) as Command,
    );
    for (const c of commands) {
      if (c[0] === 'M') {
        const [, x, y] = c;
        if (first === null) first = { x, y };
        else text += `m${num(x - pen.x)} ${num(y - pen.y)}`;
        pen = { x, y };
        contourStart = pen;
      } else if (c[0] === 'L') {
        const [, x, y] = c;
        if (x === pen.x && y === pen.y) continue;
        if (y === pen.y) text += `h${num(x - pen.x)}`;
        else if (x === pen.x) text += `v${num(y - pen.y)}`;
        else text += `l${num(x - pen.x)} ${num(y - pen.y)}`;
        pen = { x, y };
      } else {
        const [, cx, cy, x, y] = c as Extract<Command, ['Q', ...number[]]>;
        text += `q${num(cx - pen.x)} ${num(cy - pen.y)} ${num(x - pen.x)} ${num(y - pen.y)}`;
        pen = { x, y };
      }
    }
    text += 'z';
    pen = contourStart;
  }
  // "-" needs no separator before it
  text = text.replace(/ -/g, '-');
  return first === null ? [0, 0, 0, 0, ''] : [first.x, first.y, pen.x, pen.y, text];
}

function glyphTable(file: string): string[] {
  const font = new Font(join(FONT_DIR, file));
  const scale = UNITS / font.unitsPerEm;
  const rows: string[] = [];
  for (const code of CHARACTERS) {
    const glyph = font.glyphOf(code);
    if (glyph === 0) {
      console.warn(`${file}: no glyph for U+${code.toString(16).padStart(4, '0')}`);
      continue;
    }
    const [fx, fy, ex, ey, path] = glyphPath(font.contours(glyph), scale);
    const advance = Math.round(font.advance(glyph) * scale);
    rows.push(`${code.toString(36)} ${advance} ${fx} ${fy} ${ex} ${ey} ${path}`.trimEnd());
  }
  const missing = font.contours(0);
  const [fx, fy, ex, ey, path] = glyphPath(missing, scale);
  rows.push(`? ${Math.round(font.advance(0) * scale)} ${fx} ${fy} ${ex} ${ey} ${path}`);
  return rows;
}

const LICENSE = readFileSync('/usr/share/doc/fonts-dejavu-core/copyright', 'utf8');
const notice = LICENSE.slice(
  LICENSE.indexOf('Copyright (c) 2003'),
  LICENSE.indexOf('Files: debian'),
)
  .replace(/^License: bitstream-vera\n/m, '')
  .split('\n')
  .map((line) => line.replace(/^ \.?/, '').trimEnd())
  .join('\n')
  .trim();

const table = (rows: string[]) => rows.map((row) => `  '${row}',`).join('\n');
writeFileSync(
  OUT,
  `/**
 * Generated by scripts/widget-font.ts: do not edit. The outlines of the characters the
 * monitoring widgets draw, from DejaVu Sans and DejaVu Sans Bold (a subset, as SVG path data in
 * ${UNITS} units per em, y down from the baseline), so the PNG widget's text needs no font on the
 * server. One row a character: its code point (base 36; "?" the missing glyph), advance, first
 * move (x y), the pen's end (x y), then the relative path after that move.
 *
 * The fonts' notice:
 *
${notice
  .split('\n')
  .map((line) => ` * ${line}`.trimEnd())
  .join('\n')}
 */

export const GLYPH_UNITS = ${UNITS};

export const REGULAR: readonly string[] = [
${table(glyphTable('DejaVuSans.ttf'))}
];

export const BOLD: readonly string[] = [
${table(glyphTable('DejaVuSans-Bold.ttf'))}
];
`,
);
console.info(`wrote ${OUT}`);
