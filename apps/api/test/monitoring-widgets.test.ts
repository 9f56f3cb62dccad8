import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { storeStatistics } from '../src/modules/monitoring/monitoring.statistics.ts';
import {
  thinned,
  widgetSvg,
  type WidgetState,
} from '../src/modules/monitoring/monitoring.widgets.ts';
import { WIDGET_CACHE } from '../src/modules/monitoring/monitoring.widgets.routes.ts';
import { useTestApp, type Json } from './helpers.ts';
import {
  at,
  DEALS,
  handComputedHistory,
  hello,
  HELLO,
  publisherOf,
  send,
  snapshot,
  SNAPSHOT,
} from './monitoring-fixtures.ts';

const t = useTestApp();
const ACCOUNT = (id: number) => `/api/user/monitoring/accounts/${id}`;
const PUBLIC = (monitoringId: string) => `/api/monitoring/${monitoringId}`;
const UNAVAILABLE_EN = 'This monitoring is private or no longer exists';
const UNAVAILABLE_RU = 'Этот мониторинг закрыт или больше не существует';
const VERIFIED = 'Verified by TradeHost';

/** A fetch of a widget: status, headers, and the body as bytes (images are not JSON). */
async function fetchWidget(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, { headers: { 'accept-encoding': '', ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

/**
 * A public account that has sent the hand-computed history and a snapshot whose balance the
 * deals add up to (1,050), with its figures stored by the statistics job's own function.
 */
async function publicAccount(login: number, settings: Record<string, unknown> = {}) {
  const publisher = await publisherOf(t, login);
  await send(t, HELLO, publisher.key, hello({ login }));
  await send(t, DEALS, publisher.key, { login, deals: handComputedHistory() });
  await send(
    t,
    SNAPSHOT,
    publisher.key,
    snapshot({ login, time: at(6), balance: 1050, equity: 1050, equity_low: 1050 }),
  );
  const patched = await t.api.request('PATCH', ACCOUNT(publisher.account.id), {
    body: { is_public: true, ...settings },
    token: publisher.user.token,
  });
  expect(patched.status, patched.text).toBe(200);
  expect(await storeStatistics(t.app.db, publisher.account.id, t.clock.now())).toBe(true);
  const id = publisher.account.monitoring_id as string;
  return { ...publisher, id };
}

/** The figures of the public page, as the widget must show them. */
async function pageFigures(id: string): Promise<Json> {
  const page = await t.api.get(PUBLIC(id));
  expect(page.status, page.text).toBe(200);
  return page.body.statistics;
}

/** A percentage written by hand: "+7.27%", "+7,27 %" (a narrow no-break space) in Russian. */
function percent(fraction: number, lang: 'en' | 'ru', signed = false) {
  const digits = Math.abs(fraction * 100).toFixed(2);
  const sign = fraction < 0 ? '\u2212' : signed && Number(digits) !== 0 ? '+' : '';
  return lang === 'ru' ? `${sign}${digits.replace('.', ',')}\u202f%` : `${sign}${digits}%`;
}

describe('the widget image (SVG)', () => {
  it('draws the name, the gain and drawdown as the language writes them, the balance and the date', async () => {
    const { id } = await publicAccount(30_001);
    const figures = await pageFigures(id);
    expect(figures.gain).toBeCloseTo(1.093 * 0.9 * 1.05 - 1, 6);

    const en = await fetchWidget(`${PUBLIC(id)}/widget.svg`);
    expect(en.status).toBe(200);
    expect(en.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(
      en.text.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="468" height="60"'),
    ).toBe(true);
    expect(en.text).toContain('>Main</text>');
    expect(en.text).toContain(`>${percent(figures.gain, 'en', true)}</text>`);
    expect(en.text).toContain('>+3.29%</text>');
    expect(en.text).toContain(`>${percent(figures.max_drawdown, 'en')}</text>`);
    expect(figures.balance).toBe(1050);
    expect(en.text).toContain('>1,050.00\u00a0USD</text>');
    expect(en.text).toContain('>Gain</text>');
    expect(en.text).toContain('>Max drawdown</text>');
    expect(en.text).toContain('TradeHost · ');
    // the growth's sparkline
    expect(en.text).toMatch(/<polyline points="[\d.,\s]+"/);

    const ru = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=ru&theme=dark&size=box`);
    expect(ru.status).toBe(200);
    expect(ru.text).toContain('width="300" height="120"');
    expect(ru.text).toContain('>+3,29\u202f%</text>');
    expect(ru.text).toContain(`>${percent(figures.max_drawdown, 'ru')}</text>`);
    expect(ru.text).toContain('>1\u00a0050,00\u00a0USD</text>');
    expect(ru.text).toContain('>Прирост</text>');
    expect(ru.text).toContain('fill="#151c23"'); // the dark theme's surface
    expect(ru.text).not.toContain('fill="#ffffff"');
    // a mistyped option falls back to its default: still a picture
    const typo = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=de&size=huge&theme=pink`);
    expect(typo.status).toBe(200);
    expect(typo.text).toContain('>Gain</text>');
    expect(typo.text).toContain('width="468" height="60"');
  });

  it('never draws a hidden balance', async () => {
    const hidden = await publicAccount(30_002, { hide_money: true });
    for (const lang of ['en', 'ru'])
      for (const format of ['svg', 'png'] as const) {
        const res = await fetchWidget(`${PUBLIC(hidden.id)}/widget.${format}?lang=${lang}`);
        expect(res.status).toBe(200);
        if (format === 'svg') {
          expect(res.text).toContain(lang === 'en' ? '>+3.29%</text>' : '>+3,29\u202f%</text>');
          expect(res.text).not.toMatch(/Balance|Баланс|USD|1[,\u00a0]?050/);
        }
      }
    const card = await fetchWidget(`${PUBLIC(hidden.id)}/card`);
    expect(card.text).toContain('+3.29%');
    expect(card.text).not.toMatch(/Balance|USD|1,050/);

    // shown once the owner shows money
    await t.api.request('PATCH', ACCOUNT(hidden.account.id), {
      body: { hide_money: false },
      token: hidden.user.token,
    });
    const shown = await fetchWidget(`${PUBLIC(hidden.id)}/widget.svg`);
    expect(shown.text).toContain('>Balance</text>');
    expect(shown.text).toContain('>1,050.00\u00a0USD</text>');
  });

  it('says "Verified by TradeHost" only when the statistics say the account is verified', async () => {
    const { id, account } = await publicAccount(30_003);
    // not hosted: no mark
    expect((await pageFigures(id)).verification?.verified).not.toBe(true);
    const plain = await fetchWidget(`${PUBLIC(id)}/widget.svg`);
    expect(plain.text).not.toContain(VERIFIED);
    expect((await fetchWidget(`${PUBLIC(id)}/card`)).text).not.toContain(VERIFIED);

    // the run the statistics job follows: on our servers since before the first equity point, to now
    const now = t.clock.now();
    await t.sql.query(
      `insert into monitoring_verification
         (account_id, run_started_at, last_hosted_at, checked_until, updated_at)
       values ($1, $2, $3, $3, $3)
       on conflict (account_id) do update set run_started_at = $2, last_hosted_at = $3,
         checked_until = $3, broken_reason = null, broken_from = null, broken_to = null,
         updated_at = $3`,
      [account.id, new Date('2026-01-01T00:00:00Z'), now],
    );
    const figures = await pageFigures(id);
    expect(figures.verification).toMatchObject({ verified: true });
    const verified = await fetchWidget(`${PUBLIC(id)}/widget.svg`);
    expect(verified.text).toContain(`>✓ ${VERIFIED}</text>`);
    expect(verified.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    const ru = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=ru`);
    expect(ru.text).toContain('>✓ Подтверждено TradeHost</text>');
    expect((await fetchWidget(`${PUBLIC(id)}/card`)).text).toContain(`✓ ${VERIFIED}`);
  });

  it("escapes the owner's name and cuts a long one with an ellipsis", async () => {
    const name = `<script>alert("x")</script> & 'quoted' ${'W'.repeat(20)}`;
    expect(name.length).toBeLessThanOrEqual(60);
    const { id } = await publicAccount(30_004, { name });
    const svg = (await fetchWidget(`${PUBLIC(id)}/widget.svg`)).text;
    expect(svg).not.toContain('<script');
    expect(svg).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;',
    );
    // the drawn name is cut to fit the banner (the label keeps it whole)
    expect(svg).toMatch(/font-weight="bold" fill="#16202a">&lt;script&gt;[^<]*…<\/text>/);
    expect(svg).toContain(
      `<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; ${'W'.repeat(20)}: Gain`,
    );
    // well-formed: sharp's SVG parser takes it
    const { width } = await sharp(Buffer.from(svg)).metadata();
    expect(width).toBe(468);
    const card = (await fetchWidget(`${PUBLIC(id)}/card`)).text;
    expect(card).not.toContain('<script');
    expect(card).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;',
    );
  });

  it('answers 200 with a picture saying so for a private, deleted, unknown or malformed account, never its name', async () => {
    const { id, account, user } = await publicAccount(30_005, { name: 'Secret Name' });
    await t.api.request('PATCH', ACCOUNT(account.id), {
      body: { is_public: false },
      token: user.token,
    });
    const missing = 'AAAAAAAAAAAAAAAA';
    // (a NUL or a lone surrogate in the path, or one over 100 characters, never reaches a route:
    // the input guard's 404, Fastify's 414, as everywhere)
    const paths = [id, missing, 'abc', 'x'.repeat(100), '..%2F..%2Fetc', '%F0%9F%99%82', '1e308'];
    for (const monitoringId of paths) {
      const svg = await fetchWidget(`${PUBLIC(monitoringId)}/widget.svg`);
      expect(svg.status, monitoringId).toBe(200);
      expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(svg.text).toContain(`>${UNAVAILABLE_EN}</text>`);
      expect(svg.text).not.toContain('Secret');
      expect(svg.headers.get('cache-control')).toBe('public, max-age=60');
      const png = await fetchWidget(`${PUBLIC(monitoringId)}/widget.png?size=box`);
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      const { width, height } = await sharp(png.bytes).metadata();
      expect([width, height]).toEqual([300, 120]);
    }
    const ru = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=ru`);
    expect(ru.text).toContain(`>${UNAVAILABLE_RU}</text>`);
    // the box breaks it into two lines
    const box = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=ru&size=box`);
    expect(box.text).toContain('>Этот мониторинг закрыт</text>');
    expect(box.text).toContain('>или больше не существует</text>');
    // a private and an unknown account: the same picture, the same tag
    expect((await fetchWidget(`${PUBLIC(id)}/widget.svg`)).headers.get('etag')).toBe(
      (await fetchWidget(`${PUBLIC(missing)}/widget.svg`)).headers.get('etag'),
    );

    // deleted
    const other = await publicAccount(30_006);
    expect((await fetchWidget(`${PUBLIC(other.id)}/widget.svg`)).text).toContain('>Main</text>');
    const removed = await t.api.request('DELETE', ACCOUNT(other.account.id), {
      token: other.user.token,
    });
    expect(removed.status, removed.text).toBeLessThan(300);
    const gone = await fetchWidget(`${PUBLIC(other.id)}/widget.svg`);
    expect(gone.status).toBe(200);
    expect(gone.text).toContain(UNAVAILABLE_EN);
    const card = await fetchWidget(`${PUBLIC(other.id)}/card?lang=ru`);
    expect(card.status).toBe(200);
    expect(card.text).toContain(UNAVAILABLE_RU);
    expect(card.text).not.toContain('online-monitoring');
  });

  it('a public account whose figures the job has not stored yet: its name and "not ready", nothing computed', async () => {
    const publisher = await publisherOf(t, 30_007);
    await t.api.request('PATCH', ACCOUNT(publisher.account.id), {
      body: { is_public: true, name: 'Fresh' },
      token: publisher.user.token,
    });
    const svg = await fetchWidget(`${PUBLIC(publisher.account.monitoring_id)}/widget.svg`);
    expect(svg.status).toBe(200);
    expect(svg.text).toContain('>Fresh</text>');
    expect(svg.text).toContain('>The statistics are not ready yet</text>');
    expect(svg.headers.get('cache-control')).toBe('public, max-age=60');
    const { rows } = await t.sql.query(
      'select 1 from monitoring_statistics where account_id = $1',
      [publisher.account.id],
    );
    expect(rows).toEqual([]);
  });
});

describe('caching', () => {
  it('public with a strong ETag: 304 when current, a new tag when the job stores new figures or the name changes', async () => {
    const { id, account, user } = await publicAccount(30_010);
    const first = await fetchWidget(`${PUBLIC(id)}/widget.svg`);
    expect(first.headers.get('cache-control')).toBe(WIDGET_CACHE);
    expect(WIDGET_CACHE).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(first.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);

    const again = await fetchWidget(`${PUBLIC(id)}/widget.svg`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(WIDGET_CACHE);
    // each query its own picture, its own tag
    const ru = await fetchWidget(`${PUBLIC(id)}/widget.svg?lang=ru`, { 'if-none-match': etag });
    expect(ru.status).toBe(200);
    expect(ru.headers.get('etag')).not.toBe(etag);
    const png = await fetchWidget(`${PUBLIC(id)}/widget.png`);
    expect(png.headers.get('etag')).not.toBe(etag);
    expect(png.headers.get('cache-control')).toBe(WIDGET_CACHE);
    expect(
      (await fetchWidget(`${PUBLIC(id)}/widget.png`, { 'if-none-match': png.headers.get('etag')! }))
        .status,
    ).toBe(304);

    // the statistics job stores new figures: a new tag
    t.clock.advance(60_000);
    try {
      expect(await storeStatistics(t.app.db, account.id, t.clock.now())).toBe(true);
    } finally {
      t.clock.advance(-60_000);
    }
    const refreshed = await fetchWidget(`${PUBLIC(id)}/widget.svg`, { 'if-none-match': etag });
    expect(refreshed.status).toBe(200);
    const etag2 = refreshed.headers.get('etag')!;
    expect(etag2).not.toBe(etag);

    // the owner renames it: a new tag
    await t.api.request('PATCH', ACCOUNT(account.id), {
      body: { name: 'Renamed' },
      token: user.token,
    });
    const renamed = await fetchWidget(`${PUBLIC(id)}/widget.svg`, { 'if-none-match': etag2 });
    expect(renamed.status).toBe(200);
    expect(renamed.text).toContain('>Renamed</text>');
  });

  it('compresses the SVG and the card per Accept-Encoding, each encoding with its own strong tag', async () => {
    const { id } = await publicAccount(30_011);
    const plain = await fetchWidget(`${PUBLIC(id)}/widget.svg`);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const res = await fetch(`${t.url}${PUBLIC(id)}/widget.svg`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBe('br');
    const br = res.headers.get('etag')!;
    expect(br).toBe(plain.headers.get('etag')!.replace(/"$/, '-br"'));
    // undici decodes brotli: the text is the same picture
    expect(await res.text()).toBe(plain.text);
    expect(
      (
        await fetchWidget(`${PUBLIC(id)}/widget.svg`, {
          'accept-encoding': 'br',
          'if-none-match': br,
        })
      ).status,
    ).toBe(304);
    // the identity's tag does not validate the brotli copy
    expect(
      (
        await fetchWidget(`${PUBLIC(id)}/widget.svg`, {
          'accept-encoding': 'br',
          'if-none-match': plain.headers.get('etag')!,
        })
      ).status,
    ).toBe(200);
    const gz = await fetch(`${t.url}${PUBLIC(id)}/card`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toMatch(/-gz"$/);
    expect(await gz.text()).toContain('<!doctype html>');
    // the PNG is not compressed again
    const png = await fetch(`${t.url}${PUBLIC(id)}/widget.png`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(png.headers.get('content-encoding')).toBeNull();
  });
});

describe('the widget image (PNG)', () => {
  /** Pixels in a box of a light image darker than `limit` (text; the background is white). */
  async function darkPixels(
    png: Buffer,
    box: { left: number; top: number; width: number; height: number },
    limit = 128,
  ) {
    const { data, info } = await sharp(png)
      .extract(box)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let dark = 0;
    for (let i = 0; i < info.width * info.height; i += 1) if (data[i]! < limit) dark += 1;
    return dark;
  }

  it('is a PNG of the size asked for, its text drawn where the text is, with no font needed', async () => {
    const { id } = await publicAccount(30_020, { name: 'Scalper EURUSD' });
    const banner = await fetchWidget(`${PUBLIC(id)}/widget.png`);
    expect(banner.status).toBe(200);
    expect(banner.headers.get('content-type')).toBe('image/png');
    expect([...banner.bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const meta = await sharp(banner.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 468, 60]);
    // the name's line (bold 12px at x 10, baseline 17) and the gain's value (14px, baseline 46)
    const name = await darkPixels(banner.bytes, { left: 10, top: 6, width: 100, height: 13 });
    expect(name).toBeGreaterThan(100);
    const gain = await darkPixels(
      banner.bytes,
      { left: 10, top: 34, width: 70, height: 14 },
      200, // the gain is green
    );
    expect(gain).toBeGreaterThan(60);
    // the empty band between the name and the sparkline stays empty
    expect(await darkPixels(banner.bytes, { left: 200, top: 2, width: 80, height: 18 })).toBe(0);

    // the same picture with its text taken out has none of those pixels: the text is what drew them
    const state: WidgetState = {
      kind: 'figures',
      account: { name: '', monitoringId: id, hideMoney: false, isPublic: true } as never,
      computedAt: new Date(),
      gain: 0.1,
      maxDrawdown: 0.1,
      balance: null,
      currency: null,
      verified: false,
    };
    const paths = widgetSvg(state, [], { size: 'banner', lang: 'en', theme: 'light' }, 'paths');
    expect(paths).not.toContain('<text');
    const textless = await sharp(
      Buffer.from(paths.replace(/<path transform="translate[^>]*>/g, '')),
    )
      .png()
      .toBuffer();
    expect(await darkPixels(textless, { left: 10, top: 6, width: 100, height: 13 })).toBe(0);

    const box = await fetchWidget(`${PUBLIC(id)}/widget.png?size=box&theme=dark&lang=ru`);
    const boxMeta = await sharp(box.bytes).metadata();
    expect([boxMeta.width, boxMeta.height]).toEqual([300, 120]);
    // light text on the dark surface where the name is
    const { data } = await sharp(box.bytes)
      .extract({ left: 12, top: 10, width: 120, height: 14 })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([...data].filter((v) => v > 150).length).toBeGreaterThan(100);
  });
});

/**
 * Renders each SVG with sharp in a process whose fontconfig knows no font (FONTCONFIG_FILE: an
 * empty configuration), as on a bare server: its pixels (greyscale), one base64 line each.
 */
async function renderWithoutFonts(svgs: string[]): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'no-fonts-'));
  try {
    await writeFile(
      join(dir, 'fonts.conf'),
      `<?xml version="1.0"?><fontconfig><cachedir>${dir}/cache</cachedir></fontconfig>`,
    );
    const files = await Promise.all(
      svgs.map(async (svg, i) => {
        const file = join(dir, `${i}.svg`);
        await writeFile(file, svg);
        return file;
      }),
    );
    const script = `import sharp from 'sharp';
      for (const file of process.argv.slice(1))
        console.log((await sharp(file).greyscale().raw().toBuffer()).toString('base64'));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, ...files],
      // from the API's folder, where sharp resolves
      {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
      },
    );
    return stdout
      .trim()
      .split('\n')
      .map((line) => Buffer.from(line, 'base64'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the PNG without fonts', () => {
  it('draws the same pixels on a machine with no font: its text is outlines', async () => {
    const state: WidgetState = {
      kind: 'figures',
      account: {
        name: 'Счёт «Main» № 1',
        monitoringId: 'x',
        hideMoney: false,
        isPublic: true,
      } as never,
      computedAt: new Date('2026-03-05T10:00:00Z'),
      gain: 0.4123,
      maxDrawdown: 0.1234,
      balance: 12_345.67,
      currency: 'USD',
      verified: true,
    };
    const gains = [0, 0.1, -0.05, 0.2, 0.4123];
    const options = { size: 'box', lang: 'ru', theme: 'light' } as const;
    const paths = widgetSvg(state, gains, options, 'paths');
    const text = widgetSvg(state, gains, options, 'text');
    const here = async (svg: string) => sharp(Buffer.from(svg)).greyscale().raw().toBuffer();
    const [bareOutlines, bareText] = await renderWithoutFonts([paths, text]);
    // the outlines come out the same without fonts
    expect(bareOutlines!.equals(await here(paths))).toBe(true);
    // while real text does not (no font: missing-glyph boxes): the bare machine is real
    expect(bareText!.equals(await here(text))).toBe(false);
  });
});

describe('the card for an <iframe>', () => {
  it('may be framed by any site, with a strict CSP and no script; the rest of the API still refuses frames', async () => {
    const { id } = await publicAccount(30_030, { name: 'Card Account' });
    const card = await fetchWidget(`${PUBLIC(id)}/card`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(card.headers.get('x-frame-options')).toBeNull();
    const csp = card.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline|'self'/);
    // its one style sheet, allowed by its hash
    const css = /<style>([^<]*)<\/style>/.exec(card.text)![1]!;
    expect(csp).toContain(
      `style-src 'sha256-${createHash('sha256').update(css).digest('base64')}'`,
    );
    expect(card.text).not.toMatch(/<script|\son\w+=|\sstyle="/i);
    expect(card.headers.get('cache-control')).toBe(WIDGET_CACHE);
    expect(card.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(card.headers.get('x-content-type-options')).toBe('nosniff');

    // the figures, the sparkline, the link to the public page
    expect(card.text).toContain('<h1 title="Card Account">Card Account</h1>');
    expect(card.text).toContain('+3.29%');
    expect(card.text).toContain('1,050.00\u00a0USD');
    expect(card.text).toContain('<svg class="spark"');
    expect(card.text).toContain(
      `<a href="${t.config.publicUrl}/online-monitoring/${id}" target="_blank" rel="noopener">Open on TradeHost</a>`,
    );
    // the reader's system theme unless one is asked for
    expect(css).toContain('prefers-color-scheme:dark');
    const dark = await fetchWidget(`${PUBLIC(id)}/card?theme=dark&lang=ru`);
    expect(dark.text).toContain('<html lang="ru">');
    expect(dark.text).toContain('Открыть на TradeHost');
    expect(dark.text).toContain('+3,29\u202f%');
    expect(dark.text).toContain('--surface:#151c23');
    expect(dark.text).not.toContain('prefers-color-scheme');
    const darkCss = /<style>([^<]*)<\/style>/.exec(dark.text)![1]!;
    expect(dark.headers.get('content-security-policy')).toContain(
      createHash('sha256').update(darkCss).digest('base64'),
    );
    expect(
      (await fetchWidget(`${PUBLIC(id)}/card`, { 'if-none-match': card.headers.get('etag')! }))
        .status,
    ).toBe(304);

    // the images and every other route keep the product's refusal
    for (const path of [PUBLIC(id), `${PUBLIC(id)}/widget.svg`, '/api/front/permissions']) {
      const res = await fetchWidget(path);
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'self'");
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the three routes and their options', async () => {
    const doc = await t.api.get('/api/docs/json');
    const paths = doc.body.paths as Json;
    for (const route of ['widget.svg', 'widget.png', 'card']) {
      const operation = paths[`/api/monitoring/{monitoringId}/${route}`]?.get;
      expect(operation, route).toBeDefined();
      expect(operation.summary).toMatch(/\?lang=en\|ru/);
      const names = (operation.parameters as Json[]).map((p) => `${p.in} ${p.name}`);
      expect(names).toEqual(
        expect.arrayContaining(['path monitoringId', 'query lang', 'query theme']),
      );
    }
    const size = (paths['/api/monitoring/{monitoringId}/widget.png'].get.parameters as Json[]).find(
      (p) => p.name === 'size',
    );
    expect(size.schema.enum).toEqual(['banner', 'box']);
  });
});

describe('the sparkline', () => {
  it('keeps about 60 points, the first, the last and each bucket’s low and high', () => {
    const gains = Array.from({ length: 1500 }, (_, i) => i / 1000);
    gains[700] = -0.5; // a dip between samples
    const kept = thinned(gains);
    expect(kept.length).toBeLessThanOrEqual(61);
    expect(kept.length).toBeGreaterThan(30);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(1.499);
    expect(kept).toContain(-0.5);
    expect(thinned([0.1, 0.2])).toEqual([0.1, 0.2]);
  });
});
