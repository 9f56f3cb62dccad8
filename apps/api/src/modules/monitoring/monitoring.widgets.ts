import { createHash } from 'node:crypto';
import { MONITORING_ID_PATTERN } from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client.ts';
import { monitoringRepository as repo, type AccountRow } from './monitoring.repository.ts';
import type { MonitoringReads } from './monitoring.reads.ts';
import { BOLD, GLYPH_UNITS, REGULAR } from './monitoring.widgets.font.ts';

/**
 * The widgets of a public account for other sites: an image (SVG, or PNG rendered from the same
 * SVG) and a card for an <iframe>, each with its name, gain, maximal drawdown, a sparkline of
 * the growth, the balance unless its owner hides money, "Verified by TradeHost" when the mark
 * holds, and the date of the figures. Drawn from what the statistics job stored, never computed
 * per request. A private, deleted or unknown account gets the same picture saying so: a forum's
 * <img> must show something, and nobody learns whether the account exists.
 *
 * The PNG's text is drawn as paths from the outlines in monitoring.widgets.font.ts (DejaVu Sans),
 * so it needs no font on the server; the SVG keeps real text (smaller, selectable, read aloud),
 * laid out with the same font's widths.
 */

export const WIDGET_SIZES = {
  /** The classic forum signature banner. */
  banner: { width: 468, height: 60 },
  /** A sidebar box. */
  box: { width: 300, height: 120 },
} as const;
export type WidgetSize = keyof typeof WIDGET_SIZES;
export const WIDGET_LANGS = ['en', 'ru'] as const;
export type WidgetLang = (typeof WIDGET_LANGS)[number];
export const WIDGET_THEMES = ['light', 'dark'] as const;
export type WidgetTheme = (typeof WIDGET_THEMES)[number];

export interface WidgetOptions {
  size: WidgetSize;
  lang: WidgetLang;
  theme: WidgetTheme;
}

/** The card's options: its theme follows the reader's system unless one is asked for. */
export interface CardOptions {
  lang: WidgetLang;
  theme?: WidgetTheme | undefined;
}

/** The sparkline keeps about this many points (the first, the last, each bucket's low and high). */
export const SPARKLINE_POINTS = 60;

/**
 * Part of every ETag: a change of how the widgets are drawn must not be hidden by a cached copy
 * of the old drawing.
 */
const DRAWING_VERSION = 1;

/** What a widget shows. */
export type WidgetState =
  | { kind: 'unavailable' }
  /** Public, but the statistics job has not stored its figures yet. */
  | { kind: 'pending'; account: AccountRow }
  | {
      kind: 'figures';
      account: AccountRow;
      computedAt: Date;
      gain: number;
      maxDrawdown: number;
      /** Null when the owner hides money (or none is known). */
      balance: number | null;
      currency: string | null;
      verified: boolean;
    };

const TEXTS = {
  en: {
    gain: 'Gain',
    drawdown: 'Max drawdown',
    balance: 'Balance',
    verified: '✓ Verified by TradeHost',
    unavailable: 'This monitoring is private or no longer exists',
    pending: 'The statistics are not ready yet',
    open: 'Open on TradeHost',
    growth: 'Growth',
    figuresOf: 'Figures of',
  },
  ru: {
    gain: 'Прирост',
    drawdown: 'Макс. просадка',
    balance: 'Баланс',
    verified: '✓ Подтверждено TradeHost',
    unavailable: 'Этот мониторинг закрыт или больше не существует',
    pending: 'Статистика ещё не готова',
    open: 'Открыть на TradeHost',
    growth: 'Прирост',
    figuresOf: 'Данные на',
  },
} as const;

const PRODUCT = 'TradeHost';

/** The console's theme tokens (apps/web/src/shared/styles/tokens.css). */
const COLORS = {
  light: {
    surface: '#ffffff',
    border: '#dde2e7',
    text: '#16202a',
    muted: '#52606d',
    primary: '#1a5fb4',
    success: '#1b7340',
    danger: '#b3261e',
  },
  dark: {
    surface: '#151c23',
    border: '#26303a',
    text: '#e4e9ee',
    muted: '#9aa6b2',
    primary: '#6ea8f5',
    success: '#5cc98d',
    danger: '#f28b82',
  },
} as const;
type Colors = (typeof COLORS)[WidgetTheme];

// ---- numbers and dates in the reader's language ---------------------------------------------

const MINUS = '\u2212';
const numberFormats = new Map<string, Intl.NumberFormat>();

/** `value` with `digits` decimals as the language writes it: "−1,234.50", "−1 234,50" (no-break). */
function decimal(value: number, lang: WidgetLang, signed: boolean, digits = 2): string {
  const key = `${lang}${signed}${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang === 'ru' ? 'ru-RU' : 'en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: signed ? 'exceptZero' : 'negative',
    });
    numberFormats.set(key, format);
  }
  let text = '';
  for (const part of format.formatToParts(value))
    text +=
      part.type === 'minusSign'
        ? MINUS
        : part.type === 'group'
          ? part.value.replace(/\s/, '\u00a0')
          : part.value;
  return text;
}

/** A fraction as a percentage: "+12.34%"; in Russian "+12,34 %" (a narrow no-break space). */
export function widgetPercent(fraction: number, lang: WidgetLang, signed = false): string {
  return `${decimal(fraction * 100, lang, signed)}${lang === 'ru' ? '\u202f%' : '%'}`;
}

/**
 * An amount and its currency code: "950.25 USD", "10 250 USD" (whole units from 10,000 on: the
 * cents would not fit a widget's column, and say nothing there).
 */
export function widgetMoney(amount: number, currency: string | null, lang: WidgetLang): string {
  const code = currency && /^[A-Za-z0-9]{1,10}$/.test(currency) ? currency : null;
  const figure = decimal(amount, lang, false, Math.abs(amount) >= 10_000 ? 0 : 2);
  return code ? `${figure}\u00a0${code}` : figure;
}

/** A day: "Mar 5, 2026", "5 мар. 2026 г." (UTC, as the statistics' moments are). */
export function widgetDate(at: Date, lang: WidgetLang): string {
  return new Intl.DateTimeFormat(lang === 'ru' ? 'ru-RU' : 'en-US', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(at);
}

// ---- text ----------------------------------------------------------------------------------

/**
 * A name as user text fit for any document: no control or bidirectional-override characters
 * (XML refuses the first, the second would reorder the picture), no lone surrogate, runs of
 * spaces as one.
 */
export function plainText(text: string): string {
  return text
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/gu, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Text as XML (and HTML) character data or an attribute's value. */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

interface Glyph {
  advance: number;
  /** The outline's first move from the glyph's origin, where the pen ends, and the rest. */
  fx: number;
  fy: number;
  ex: number;
  ey: number;
  path: string;
}

interface Face {
  glyphs: Map<number, Glyph>;
  missing: Glyph;
}

const faces: Partial<Record<'regular' | 'bold', Face>> = {};

/** A face's glyphs, parsed once from the generated rows. */
function face(weight: 'regular' | 'bold'): Face {
  const cached = faces[weight];
  if (cached) return cached;
  const glyphs = new Map<number, Glyph>();
  let missing: Glyph | undefined;
  for (const row of weight === 'bold' ? BOLD : REGULAR) {
    // six fields, then the path (which has spaces of its own)
    const fields = row.split(' ', 6);
    const [code, advance, fx, fy, ex, ey] = fields;
    const path = row.slice(fields.join(' ').length + 1);
    const glyph = {
      advance: Number(advance),
      fx: Number(fx),
      fy: Number(fy),
      ex: Number(ex),
      ey: Number(ey),
      path,
    };
    if (code === '?') missing = glyph;
    else glyphs.set(parseInt(code!, 36), glyph);
  }
  const made = { glyphs, missing: missing! };
  faces[weight] = made;
  return made;
}

const glyphOf = (f: Face, char: string) => f.glyphs.get(char.codePointAt(0)!) ?? f.missing;

/** The width of `text` in px at `size` in DejaVu Sans (no kerning: neither applies it here). */
export function textWidth(text: string, weight: 'regular' | 'bold', size: number): number {
  const f = face(weight);
  let units = 0;
  for (const char of text) units += glyphOf(f, char).advance;
  return (units * size) / GLYPH_UNITS;
}

/** `text`, cut with an ellipsis where it would pass `width` px. */
export function fitText(
  text: string,
  weight: 'regular' | 'bold',
  size: number,
  width: number,
): string {
  if (textWidth(text, weight, size) <= width) return text;
  const chars = [...text];
  while (chars.length > 0 && textWidth(`${chars.join('').trimEnd()}…`, weight, size) > width)
    chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

/** The largest size from `size` down to `min` (steps of 0.5) at which `text` fits `width`. */
function fitSize(
  text: string,
  weight: 'regular' | 'bold',
  size: number,
  min: number,
  width: number,
) {
  let s = size;
  while (s > min && textWidth(text, weight, s) > width) s -= 0.5;
  return s;
}

/** One piece of text of a widget. */
interface TextItem {
  text: string;
  x: number;
  /** The baseline. */
  y: number;
  size: number;
  weight: 'regular' | 'bold';
  fill: string;
  anchor?: 'start' | 'end' | 'middle';
}

const FONT_FAMILY = "'DejaVu Sans', Verdana, 'Segoe UI', Arial, sans-serif";
const round = (v: number) => Math.round(v * 100) / 100;

/** A text as an SVG <text>. */
function textElement(item: TextItem): string {
  const anchor = item.anchor && item.anchor !== 'start' ? ` text-anchor="${item.anchor}"` : '';
  const weight = item.weight === 'bold' ? ' font-weight="bold"' : '';
  return `<text x="${round(item.x)}" y="${round(item.y)}" font-size="${item.size}"${weight} fill="${item.fill}"${anchor}>${escapeXml(item.text)}</text>`;
}

/** A text as one SVG <path> of its glyphs' outlines: the same text with no font needed. */
function pathElement(item: TextItem): string {
  const f = face(item.weight);
  let d = '';
  let x = 0;
  let penX = 0;
  let penY = 0;
  for (const char of item.text) {
    const g = glyphOf(f, char);
    if (g.path !== '') {
      const mx = x + g.fx;
      d += d === '' ? `M${mx} ${g.fy}` : `m${mx - penX} ${g.fy - penY}`;
      d += g.path;
      penX = x + g.ex;
      penY = g.ey;
    }
    x += g.advance;
  }
  if (d === '') return '';
  const scale = item.size / GLYPH_UNITS;
  const width = x * scale;
  const left =
    item.anchor === 'end' ? item.x - width : item.anchor === 'middle' ? item.x - width / 2 : item.x;
  return `<path transform="translate(${round(left)} ${round(item.y)}) scale(${scale})" fill="${item.fill}" d="${d}"/>`;
}

// ---- the sparkline -------------------------------------------------------------------------

/**
 * About SPARKLINE_POINTS of the chart's gains, in order: each of SPARKLINE_POINTS / 2 buckets
 * keeps its lowest and its highest point, so a dip or a peak between samples is not lost; the
 * first and last points stay.
 */
export function thinned(gains: number[], keep = SPARKLINE_POINTS): number[] {
  if (gains.length <= keep) return gains;
  const buckets = Math.floor(keep / 2);
  const size = gains.length / buckets;
  const kept: number[] = [0];
  for (let b = 0; b < buckets; b += 1) {
    const from = Math.floor(b * size);
    const to = Math.min(gains.length, Math.floor((b + 1) * size));
    let low = from;
    let high = from;
    for (let i = from; i < to; i += 1) {
      if (gains[i]! < gains[low]!) low = i;
      if (gains[i]! > gains[high]!) high = i;
    }
    for (const i of low < high ? [low, high] : [high, low]) if (i > kept.at(-1)!) kept.push(i);
  }
  if (kept.at(-1) !== gains.length - 1) kept.push(gains.length - 1);
  return kept.map((i) => gains[i]!);
}

/** The growth line (and the area under it, and the zero line when it is in view) in a box. */
function sparkline(
  gains: number[],
  box: { x: number; y: number; width: number; height: number },
  colors: { line: string; zero: string },
  classes = false,
): string {
  if (gains.length < 2) return '';
  const low = Math.min(0, ...gains);
  const high = Math.max(0, ...gains);
  const span = high - low || 1;
  const xAt = (i: number) => box.x + (i / (gains.length - 1)) * box.width;
  const yAt = (g: number) => box.y + box.height - ((g - low) / span) * box.height;
  const points = gains.map((g, i) => `${round(xAt(i))},${round(yAt(g))}`).join(' ');
  const bottom = round(box.y + box.height);
  const area = `${round(box.x)},${bottom} ${points} ${round(box.x + box.width)},${bottom}`;
  const zero = round(yAt(0));
  const paint = (kind: 'line' | 'zero' | 'area') =>
    classes
      ? ` class="spark-${kind}"`
      : kind === 'line'
        ? ` fill="none" stroke="${colors.line}"`
        : kind === 'area'
          ? ` fill="${colors.line}" fill-opacity="0.12"`
          : ` stroke="${colors.zero}"`;
  return (
    `<polygon points="${area}"${paint('area')}/>` +
    (low < 0
      ? `<line x1="${round(box.x)}" y1="${zero}" x2="${round(box.x + box.width)}" y2="${zero}"${paint('zero')} stroke-width="1" stroke-dasharray="2 2"/>`
      : '') +
    `<polyline points="${points}"${paint('line')} stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/>`
  );
}

// ---- the image -----------------------------------------------------------------------------

/** Where each part of an image goes, per size. */
const LAYOUTS = {
  banner: {
    pad: 10,
    name: { y: 17, size: 12 },
    labels: { y: 30, size: 9 },
    values: { y: 46, size: 14, min: 10 },
    columns: [10, 100, 190],
    columnWidth: 86,
    textRight: 286,
    spark: { x: 296, y: 8, width: 162, height: 36 },
    footer: { y: 55.5, size: 8 },
    message: { size: 11, min: 8 },
  },
  box: {
    pad: 12,
    name: { y: 22, size: 14 },
    labels: { y: 40, size: 10 },
    values: { y: 58, size: 16, min: 10 },
    columns: [12, 108, 204],
    columnWidth: 90,
    textRight: 288,
    spark: { x: 12, y: 68, width: 276, height: 28 },
    footer: { y: 111, size: 9 },
    message: { size: 12, min: 9 },
  },
} as const;

/**
 * The image as SVG: real text (`text: 'text'`, the SVG route) or outlines (`'paths'`, what the
 * PNG is rendered from). `gains` is the thinned growth.
 */
export function widgetSvg(
  state: WidgetState,
  gains: number[],
  options: WidgetOptions,
  text: 'text' | 'paths' = 'text',
): string {
  const { width, height } = WIDGET_SIZES[options.size];
  const layout = LAYOUTS[options.size];
  const colors = COLORS[options.theme];
  const t = TEXTS[options.lang];
  const items: TextItem[] = [];
  let graphics = '';
  let label: string;

  if (state.kind === 'unavailable') {
    label = t.unavailable;
    items.push(...messageLines(t.unavailable, options, colors));
    items.push({
      text: PRODUCT,
      x: width - layout.pad,
      y: layout.footer.y,
      size: layout.footer.size,
      weight: 'bold',
      fill: colors.muted,
      anchor: 'end',
    });
  } else {
    const fullName = plainText(state.account.name);
    const name = fitText(
      fullName,
      'bold',
      layout.name.size,
      (options.size === 'banner' ? layout.textRight : width - layout.pad) - layout.pad,
    );
    items.push({
      text: name,
      x: layout.pad,
      y: layout.name.y,
      size: layout.name.size,
      weight: 'bold',
      fill: colors.text,
    });
    if (state.kind === 'pending') {
      label = `${fullName}: ${t.pending}`;
      items.push({
        text: fitText(t.pending, 'regular', layout.labels.size + 1, layout.textRight - layout.pad),
        x: layout.pad,
        y: layout.values.y - 4,
        size: layout.labels.size + 1,
        weight: 'regular',
        fill: colors.muted,
      });
      items.push({
        text: PRODUCT,
        x: width - layout.pad,
        y: layout.footer.y,
        size: layout.footer.size,
        weight: 'bold',
        fill: colors.muted,
        anchor: 'end',
      });
    } else {
      const figures: Array<[string, string, string]> = [
        [
          t.gain,
          widgetPercent(state.gain, options.lang, true),
          state.gain < 0 ? colors.danger : colors.success,
        ],
        [t.drawdown, widgetPercent(state.maxDrawdown, options.lang), colors.text],
      ];
      if (state.balance !== null)
        figures.push([
          t.balance,
          widgetMoney(state.balance, state.currency, options.lang),
          colors.text,
        ]);
      figures.forEach(([what, value, fill], i) => {
        const x = layout.columns[i]!;
        const room = i === figures.length - 1 ? layout.textRight - x : layout.columnWidth;
        items.push({
          text: fitText(what, 'regular', layout.labels.size, room),
          x,
          y: layout.labels.y,
          size: layout.labels.size,
          weight: 'regular',
          fill: colors.muted,
        });
        const size = fitSize(value, 'bold', layout.values.size, layout.values.min, room);
        items.push({
          text: fitText(value, 'bold', size, room),
          x,
          y: layout.values.y,
          size,
          weight: 'bold',
          fill,
        });
      });
      const date = widgetDate(state.computedAt, options.lang);
      label = `${fullName}: ${figures.map(([what, value]) => `${what} ${value}`).join(', ')}; ${
        state.verified ? `${t.verified.slice(2)}; ` : ''
      }${t.figuresOf} ${date}`;
      let footerRoom = width - 2 * layout.pad;
      if (state.verified) {
        items.push({
          text: t.verified,
          x: layout.pad,
          y: layout.footer.y,
          size: layout.footer.size,
          weight: 'bold',
          fill: colors.success,
        });
        footerRoom -= textWidth(t.verified, 'bold', layout.footer.size) + 8;
      }
      items.push({
        text: fitText(`${PRODUCT} · ${date}`, 'regular', layout.footer.size, footerRoom),
        x: width - layout.pad,
        y: layout.footer.y,
        size: layout.footer.size,
        weight: 'regular',
        fill: colors.muted,
        anchor: 'end',
      });
      graphics = sparkline(gains, layout.spark, { line: colors.primary, zero: colors.muted });
    }
  }

  const drawn = items.map(text === 'text' ? textElement : pathElement).join('');
  const font = text === 'text' ? ` font-family="${escapeXml(FONT_FAMILY)}"` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(label)}"${font}>` +
    `<title>${escapeXml(label)}</title>` +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${colors.surface}" stroke="${colors.border}"/>` +
    graphics +
    drawn +
    `</svg>`
  );
}

/** The unavailable message: one line (smaller where it must be), or two in the box. */
function messageLines(message: string, options: WidgetOptions, colors: Colors): TextItem[] {
  const { width, height } = WIDGET_SIZES[options.size];
  const layout = LAYOUTS[options.size];
  const room = width - 2 * layout.pad;
  const line = (text: string, y: number, size: number): TextItem => ({
    text,
    x: width / 2,
    y,
    size,
    weight: 'regular',
    fill: colors.text,
    anchor: 'middle',
  });
  if (textWidth(message, 'regular', layout.message.size) <= room || options.size === 'banner') {
    const size = fitSize(message, 'regular', layout.message.size, layout.message.min, room);
    return [line(fitText(message, 'regular', size, room), height / 2, size)];
  }
  // the words in two lines of about equal length
  const words = message.split(' ');
  let best = 1;
  for (let i = 1; i < words.length; i += 1) {
    const a = words.slice(0, i).join(' ').length;
    const b = words.slice(i).join(' ').length;
    const bestA = words.slice(0, best).join(' ').length;
    const bestB = words.slice(best).join(' ').length;
    if (Math.max(a, b) < Math.max(bestA, bestB)) best = i;
  }
  const size = layout.message.size;
  return [
    line(fitText(words.slice(0, best).join(' '), 'regular', size, room), height / 2 - 4, size),
    line(fitText(words.slice(best).join(' '), 'regular', size, room), height / 2 + size, size),
  ];
}

/** The image as PNG: the outlines' SVG rendered by sharp (no font needed), its exact size. */
export async function widgetPng(
  state: WidgetState,
  gains: number[],
  options: WidgetOptions,
): Promise<Buffer> {
  const svg = widgetSvg(state, gains, options, 'paths');
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

// ---- the card ------------------------------------------------------------------------------

const cardStyle = (colors: Colors) =>
  `--surface:${colors.surface};--border:${colors.border};--text:${colors.text};--muted:${colors.muted};--primary:${colors.primary};--success:${colors.success};--danger:${colors.danger}`;

/**
 * The card's style sheet: the theme asked for, or light with dark when the reader's system
 * prefers it. Its hash is what the card's CSP allows (no other style, no script).
 */
export function cardCss(theme: WidgetTheme | undefined): string {
  const vars =
    theme === undefined
      ? `:root{color-scheme:light dark;${cardStyle(COLORS.light)}}@media (prefers-color-scheme:dark){:root{${cardStyle(COLORS.dark)}}}`
      : `:root{color-scheme:${theme};${cardStyle(COLORS[theme])}}`;
  return (
    vars +
    `*{box-sizing:border-box;margin:0}` +
    `html,body{height:100%}` +
    `body{font:13px/1.35 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans','Liberation Sans',sans-serif;color:var(--text);background:transparent}` +
    `.card{display:flex;flex-direction:column;gap:6px;height:100%;max-height:200px;padding:12px 14px;background:var(--surface);border:1px solid var(--border);border-radius:8px;overflow:hidden}` +
    `h1{font-size:15px;font-weight:700;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}` +
    `time{font-size:11px}` +
    `dl{display:flex;gap:10px 12px}` +
    `dl>div{flex:0 1 auto;min-width:0}` +
    `dt,dd{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}` +
    `dt{font-size:11px;color:var(--muted)}` +
    `dd{font-size:14px;font-weight:700;font-variant-numeric:tabular-nums}` +
    `.up{color:var(--success)}.down{color:var(--danger)}` +
    `.spark{display:block;width:100%;height:44px;flex:1 1 auto;min-height:24px}` +
    `.spark-line{fill:none;stroke:var(--primary);vector-effect:non-scaling-stroke}.spark-area{fill:var(--primary);fill-opacity:.12}.spark-zero{stroke:var(--muted);vector-effect:non-scaling-stroke}` +
    `footer{display:flex;justify-content:space-between;align-items:baseline;gap:8px;font-size:12px;color:var(--muted)}` +
    `footer>span{min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}` +
    `.verified{font-size:11px;color:var(--success);font-weight:700;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}` +
    `a{flex:none;color:var(--primary);font-weight:700;text-decoration:none;white-space:nowrap}a:hover,a:focus-visible{text-decoration:underline}` +
    `.message{margin:auto;text-align:center;color:var(--text)}`
  );
}

/** The CSP of the card: its own style sheet only, and any site may frame it. */
export function cardCsp(css: string): string {
  const hash = createHash('sha256').update(css).digest('base64');
  return [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/**
 * The card for an <iframe> (about 320×200), as HTML: no script; its link opens the account's
 * public page (`publicPage`) in a new tab.
 */
export function widgetCard(
  state: WidgetState,
  gains: number[],
  options: CardOptions,
  publicPage: string,
): { html: string; css: string } {
  const t = TEXTS[options.lang];
  const css = cardCss(options.theme);
  let title: string;
  let body: string;
  if (state.kind === 'unavailable') {
    title = `${t.unavailable} · ${PRODUCT}`;
    body = `<p class="message">${escapeXml(t.unavailable)}</p><footer><span></span><span>${PRODUCT}</span></footer>`;
  } else {
    const name = plainText(state.account.name);
    title = `${name} · ${PRODUCT}`;
    const link = `<a href="${escapeXml(publicPage)}" target="_blank" rel="noopener">${escapeXml(t.open)}</a>`;
    const header = `<h1 title="${escapeXml(name)}">${escapeXml(name)}</h1>`;
    if (state.kind === 'pending') {
      body =
        header +
        `<p class="message">${escapeXml(t.pending)}</p>` +
        `<footer><span>${PRODUCT}</span>${link}</footer>`;
    } else {
      const date = widgetDate(state.computedAt, options.lang);
      const figure = (what: string, value: string, tone = '') =>
        `<div><dt>${escapeXml(what)}</dt><dd${tone ? ` class="${tone}"` : ''}>${escapeXml(value)}</dd></div>`;
      body =
        header +
        `<dl>` +
        figure(
          t.gain,
          widgetPercent(state.gain, options.lang, true),
          state.gain < 0 ? 'down' : 'up',
        ) +
        figure(t.drawdown, widgetPercent(state.maxDrawdown, options.lang)) +
        (state.balance === null
          ? ''
          : figure(t.balance, widgetMoney(state.balance, state.currency, options.lang))) +
        `</dl>` +
        (state.verified ? `<p class="verified">${escapeXml(t.verified)}</p>` : '') +
        (gains.length >= 2
          ? `<svg class="spark" viewBox="0 0 290 44" preserveAspectRatio="none" role="img" aria-label="${escapeXml(t.growth)}">${sparkline(
              gains,
              { x: 1, y: 2, width: 288, height: 40 },
              { line: '', zero: '' },
              true,
            )}</svg>`
          : '') +
        `<footer><time title="${escapeXml(`${t.figuresOf} ${date}`)}">${escapeXml(date)}</time>${link}</footer>`;
    }
  }
  const html =
    `<!doctype html><html lang="${options.lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex">` +
    `<title>${escapeXml(title)}</title><style>${css}</style></head>` +
    `<body><main class="card">${body}</main></body></html>`;
  return { html, css };
}

// ---- what the widgets read -----------------------------------------------------------------

/**
 * The widgets' reads: the account, and the figures and chart the statistics job stored (through
 * the public page's own reads, so the widget says what the page says). An account without
 * stored figures the reads would serve as they are is `pending`: nothing is computed for a
 * widget.
 */
export function createWidgetReads(db: Db, reads: MonitoringReads) {
  return {
    async state(monitoringId: string): Promise<WidgetState> {
      // checked before the database sees it: a NUL or a lone surrogate would fail the query
      if (!MONITORING_ID_PATTERN.test(monitoringId)) return { kind: 'unavailable' };
      const account = await repo.byMonitoringId(db, monitoringId);
      if (!account || !account.isPublic) return { kind: 'unavailable' };
      const stored = await reads.storedWithVerification(account);
      if (!stored) return { kind: 'pending', account };
      const { figures } = stored;
      const balance = account.hideMoney ? null : (figures.balance ?? null);
      return {
        kind: 'figures',
        account,
        computedAt: stored.computedAt,
        gain: figures.gain,
        maxDrawdown: figures.max_drawdown,
        balance,
        currency: balance === null ? null : (figures.currency ?? account.currency),
        verified: stored.verification.verified,
      };
    },

    /** The stored chart's gains, thinned for a sparkline (only the gains leave the database). */
    async gains(accountId: number): Promise<number[]> {
      const { rows } = await db.execute<{ gains: unknown }>(sql`
        select jsonb_path_query_array(chart, '$[*].gain') as gains
        from monitoring_statistics where account_id = ${accountId}`);
      const gains = rows[0]?.gains;
      if (!Array.isArray(gains)) return [];
      return thinned(gains.filter((g): g is number => typeof g === 'number' && Number.isFinite(g)));
    },
  };
}

export type WidgetReads = ReturnType<typeof createWidgetReads>;

/**
 * The strong ETag of a widget (before its encoding's suffix): what it is drawn from. The figures'
 * computed_at changes whenever the statistics job stores new ones, so a new run of the job
 * makes a new tag; the account's settings the picture shows (name, money shown, public), the
 * mark (which can go between two runs of the job) and the options asked for are in it too.
 */
export function widgetTag(
  what: 'svg' | 'png' | 'card',
  state: WidgetState,
  options: Record<string, string | undefined>,
): string {
  const parts: unknown[] = [DRAWING_VERSION, what, options, state.kind];
  if (state.kind !== 'unavailable')
    parts.push(
      state.account.monitoringId,
      state.account.name,
      state.account.hideMoney,
      state.account.isPublic,
    );
  if (state.kind === 'figures') parts.push(state.computedAt.toISOString(), state.verified);
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27);
}
