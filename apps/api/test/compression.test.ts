import { request, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../web/build/precompress.ts';
import { API_COMPRESS_THRESHOLD, apiCompressionPlugin } from '../src/plugins/compression.ts';
import { quickUser, startTestApp, type TestApp } from './helpers.ts';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire (not decoded). */
  body: Buffer;
}

/** One HTTP request with exactly these headers (fetch would add and decode Accept-Encoding). */
function raw(
  base: string,
  path: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const BR = { 'accept-encoding': 'gzip, deflate, br' };
const GZIP = { 'accept-encoding': 'gzip, deflate' };
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Text like a bundle's: repetitive, so it compresses well. */
const script = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const value${i} = compute("item-${i}");\n`).join(
    '',
  );
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>TradeHost</title>${Array.from(
  { length: 30 },
  (_, i) => `<meta name="x-${i}" content="a console for traders, line ${i}">`,
).join('')}<script type="module" src="/assets/app-abc123.js"></script></head>
<body><div id="root"></div></body></html>`;
const APP_JS = script(500);
const SMALL_JS = 'export const small = 1;';

describe('the built console, compressed at build time', () => {
  let web: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'th-web-compressed-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), INDEX_HTML);
    await writeFile(join(dist, 'assets', 'app-abc123.js'), APP_JS);
    await writeFile(join(dist, 'assets', 'small-abc123.js'), SMALL_JS);
    expect(await precompressDir(dist)).toEqual([join('assets', 'app-abc123.js'), 'index.html']);
    web = await startTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await web?.close();
    await rm(dist, { recursive: true, force: true });
  });
  const file = (name: string) => readFile(join(dist, name));

  it('sends the brotli file to a browser that accepts br', async () => {
    const res = await raw(web.url, '/assets/app-abc123.js', { headers: BR });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    // the type of the file itself, not of its .br
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    const br = await file('assets/app-abc123.js.br');
    expect(res.body.equals(br)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(br.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(APP_JS);
    expect(br.length).toBeLessThan(APP_JS.length / 4);
  });

  it('sends the gzip file to one that accepts gzip only', async () => {
    const res = await raw(web.url, '/assets/app-abc123.js', { headers: GZIP });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.equals(await file('assets/app-abc123.js.gz'))).toBe(true);
    expect(gunzipSync(res.body).toString()).toBe(APP_JS);
  });

  it('sends the file itself when no encoding is accepted, still saying it varies', async () => {
    const none: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'zstd' },
    ];
    for (const headers of none) {
      const res = await raw(web.url, '/assets/app-abc123.js', { headers });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.body.toString()).toBe(APP_JS);
    }
  });

  it('prefers what the browser weighs higher', async () => {
    const res = await raw(web.url, '/assets/app-abc123.js', {
      headers: { 'accept-encoding': 'br;q=0.5, gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('sends a file the build left uncompressed (too small) as it is', async () => {
    const res = await raw(web.url, '/assets/small-abc123.js', { headers: BR });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.toString()).toBe(SMALL_JS);
  });

  it('answers HEAD with the headers of the compressed file and no body', async () => {
    const br = await file('assets/app-abc123.js.br');
    const res = await raw(web.url, '/assets/app-abc123.js', { method: 'HEAD', headers: BR });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(br.length);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.length).toBe(0);
    const page = await raw(web.url, '/vps', { method: 'HEAD', headers: BR });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body.length).toBe(0);
  });

  it('compresses index.html, at / and as the SPA fallback, never cached without revalidation', async () => {
    for (const path of ['/', '/login?verify=abc', '/support/42']) {
      const br = await raw(web.url, path, { headers: BR });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.body).toString()).toBe(INDEX_HTML);
      const gz = await raw(web.url, path, { headers: GZIP });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(INDEX_HTML);
      const plain = await raw(web.url, path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.body.toString()).toBe(INDEX_HTML);
    }
  });

  it('revalidates index.html with 304, each encoding under its own ETag', async () => {
    const first = await raw(web.url, '/', { headers: BR });
    const etag = first.headers.etag!;
    const modified = first.headers['last-modified']!;
    expect(etag).toBeTruthy();
    expect(modified).toBeTruthy();
    for (const path of ['/', '/vps']) {
      const again = await raw(web.url, path, { headers: { ...BR, 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.vary).toBe('Accept-Encoding');
      const since = await raw(web.url, path, { headers: { ...BR, 'if-modified-since': modified } });
      expect(since.status).toBe(304);
    }
    // the gzip and identity forms are other representations: the brotli ETag does not match them
    const gz = await raw(web.url, '/', { headers: { ...GZIP, 'if-none-match': etag } });
    expect(gz.status).toBe(200);
    expect(gz.headers.etag).not.toBe(etag);
    expect((await raw(web.url, '/', { headers: { 'if-none-match': etag } })).status).toBe(200);
  });

  it('keeps a missing hashed asset a plain 404 JSON, whatever is accepted', async () => {
    for (const headers of [BR, GZIP, {}]) {
      const res = await raw(web.url, '/assets/missing-abc123.js', { headers });
      expect(res.status).toBe(404);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toContain('application/json');
      expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('compresses an API answer above the threshold per request, and not a small one', async () => {
    const user = await quickUser(web);
    const auth = { authorization: `Bearer ${user.token}` };
    const plain = await raw(web.url, '/api/user/faq', { headers: auth });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(API_COMPRESS_THRESHOLD);
    const faq: unknown = JSON.parse(plain.body.toString());

    const br = await raw(web.url, '/api/user/faq', { headers: { ...auth, ...BR } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('application/json');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(faq);

    const gz = await raw(web.url, '/api/user/faq', { headers: { ...auth, ...GZIP } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(faq);

    const small = await raw(web.url, '/api/front/permissions', { headers: BR });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(API_COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toBeTypeOf('object');
  });
});

describe('the API compression plugin', () => {
  let app: FastifyInstance;
  let url: string;
  let events: PassThrough;
  // compressible bytes, so only the content type can keep them from being compressed
  const bytes = Buffer.alloc(8 * 1024, 'abcdefgh');
  beforeAll(async () => {
    app = Fastify();
    await app.register(apiCompressionPlugin);
    for (const type of ['image/png', 'image/webp', 'application/pdf', 'application/zip']) {
      app.get(`/file/${type.split('/')[1]}`, (_request, reply) => reply.type(type).send(bytes));
    }
    app.get('/text', (_request, reply) => reply.type('text/csv').send(bytes));
    app.get('/events', (_request, reply) => {
      events = new PassThrough();
      events.write('data: {"balance":1}\n\n');
      return reply.type('text/event-stream').header('cache-control', 'no-store').send(events);
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    events?.end();
    await app?.close();
  });

  it('leaves already-compressed types (images, PDFs, archives) alone', async () => {
    for (const name of ['png', 'webp', 'pdf', 'zip']) {
      const res = await raw(url, `/file/${name}`, { headers: BR });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.equals(bytes)).toBe(true);
    }
    // the same bytes as text are compressed
    expect((await raw(url, '/text', { headers: BR })).headers['content-encoding']).toBe('br');
  });

  it('sends server-sent events as they are written, uncompressed', async () => {
    const received: string[] = [];
    const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = request(new URL('/events', url), { headers: BR }, (res) => {
        res.on('data', (chunk: Buffer) => {
          received.push(chunk.toString());
          // the first event came while the stream is open: send the next one
          if (received.length === 1) events.write('data: {"balance":2}\n\n');
          else {
            resolve(res.headers);
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-type']).toBe('text/event-stream');
    expect(headers['content-encoding']).toBeUndefined();
    expect(received).toEqual(['data: {"balance":1}\n\n', 'data: {"balance":2}\n\n']);
  });
});
