import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.ts';

/**
 * Serves the built console (WEB_DIST) at / from memory: every file, with the `.br` and `.gz`
 * siblings the build made (apps/web/build/precompress.ts), is read once at start-up, so a
 * request costs no file-system call and nothing is compressed per request. Hashed files under
 * /assets/ are cached for a year, everything else (index.html) revalidated: each encoding of a
 * file has its own ETag, and If-None-Match / If-Modified-Since answer 304. Every answer says
 * `Vary: Accept-Encoding`. Returns the SPA fallback for the not-found handler (index.html for a
 * page path), or undefined when there is no build. A new build needs a restart, as it did for
 * its new file names.
 */
export function registerWebConsole(
  app: FastifyInstance,
  webDist: string,
): ((request: FastifyRequest, reply: FastifyReply) => unknown) | undefined {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.info({ webDist }, 'no console build found; serving the API only');
    return undefined;
  }
  const files = loadConsole(webDist);
  const index = files.get('/index.html')!;
  const serve =
    (file: ConsoleFile) =>
    (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
      sendFile(request, reply, file);

  app.get('/', serve(index));
  for (const [path, file] of files) if (!path.startsWith('/assets/')) app.get(path, serve(file));
  app.get('/assets/*', (request, reply) => {
    const file = files.get(request.url.split('?')[0]!);
    // a missing hashed asset is a plain 404: never index.html in a script's place
    return file ? sendFile(request, reply, file) : reply.code(404).send(errorBody('NOT_FOUND'));
  });
  app.log.info({ webDist, files: files.size }, 'console build loaded');

  return (request, reply) => {
    // other methods are plain 404s: only page paths get index.html
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply.code(404).send(errorBody('NOT_FOUND'));
    return sendFile(request, reply, index);
  };
}

/** One encoding of a file: its bytes and their ETag. */
interface Variant {
  body: Buffer;
  etag: string;
}

interface ConsoleFile {
  type: string;
  cacheControl: string;
  lastModified: string;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
  /** The encodings it has, brotli first (preferred at equal weight). */
  encodings: ('br' | 'gzip')[];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
};

const variant = (body: Buffer): Variant => ({
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
});

/** Every file of the build by its URL path, each with its precompressed siblings. */
function loadConsole(webDist: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const names = readdirSync(webDist, { recursive: true, encoding: 'utf8' });
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const full = join(webDist, name);
    const stat = statSync(full);
    if (!stat.isFile()) continue;
    const path = `/${relative(webDist, full).split(sep).join('/')}`;
    const sibling = (suffix: string) =>
      existsSync(full + suffix) ? variant(readFileSync(full + suffix)) : undefined;
    const br = sibling('.br');
    const gzip = sibling('.gz');
    files.set(path, {
      type: TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: path.startsWith('/assets/') ? IMMUTABLE : 'no-cache',
      lastModified: stat.mtime.toUTCString(),
      identity: variant(readFileSync(full)),
      br,
      gzip,
      encodings: [...(br ? (['br'] as const) : []), ...(gzip ? (['gzip'] as const) : [])],
    });
  }
  return files;
}

/** Whether the client's copy is current: its ETag (If-None-Match first), else its date. */
function fresh(request: FastifyRequest, file: ConsoleFile, sent: Variant): boolean {
  const match = request.headers['if-none-match'];
  if (match !== undefined)
    return match
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === sent.etag || tag === '*');
  const since = request.headers['if-modified-since'];
  if (since === undefined) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Date.parse(file.lastModified) <= time;
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile): FastifyReply {
  // the one the request weighs highest of those the file has (q=0 refuses); none: identity
  const accept = request.headers['accept-encoding'];
  const encoding = accept ? negotiate(accept, file.encodings) : null;
  const sent = (encoding && file[encoding]) || file.identity;
  reply.header('cache-control', file.cacheControl);
  reply.header('vary', 'Accept-Encoding');
  reply.header('etag', sent.etag);
  reply.header('last-modified', file.lastModified);
  if (fresh(request, file, sent)) return reply.code(304).send();
  if (encoding) reply.header('content-encoding', encoding);
  reply.header('content-type', file.type);
  return reply.code(200).send(sent.body);
}
