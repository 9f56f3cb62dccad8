import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.ts';

/**
 * Serves the built console (WEB_DIST) at /: hashed files under /assets/ are
 * cached for a year, index.html never. Each file goes as its `.br` or `.gz`
 * sibling when the request accepts that encoding and the build made one
 * (apps/web/build/precompress.ts), so nothing is compressed per request; every
 * answer says `Vary: Accept-Encoding`. Returns the SPA fallback for the
 * not-found handler, or undefined when there is no build.
 */
export function registerWebConsole(
  app: FastifyInstance,
  webDist: string,
): ((request: FastifyRequest, reply: FastifyReply) => unknown) | undefined {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.info({ webDist }, 'no console build found; serving the API only');
    return undefined;
  }
  app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    cacheControl: false,
    // brotli, then gzip, then the file itself (also for the fallback's sendFile)
    preCompressed: true,
    setHeaders(res, path) {
      // `path` is the file sent: `assets/x-hash.js.br` is still a hashed asset
      if (/[\\/]assets[\\/]/.test(path))
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return (request, reply) => {
    // other methods, and a missing hashed asset, are plain 404s: only page paths get index.html
    if (
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      request.url.startsWith('/assets/')
    ) {
      return reply.code(404).send(errorBody('NOT_FOUND'));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
}
