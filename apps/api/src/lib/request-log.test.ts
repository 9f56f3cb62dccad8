import { Writable } from 'node:stream';
import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogging } from './request-log.ts';

/** A Fastify logging at `level` to an array of lines, whose routes answer what they are asked. */
async function loggedApp(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = Fastify(requestLogging(level, stream));
  app.all('/*', async (request, reply) => {
    const status = Number(request.headers['x-status'] ?? 200);
    return reply.code(status).send({ url: request.url });
  });
  app.get('/fails', async (_request, reply) => {
    // an answer whose stream breaks while it goes out
    reply.raw.destroy(new Error('the client left'));
    return reply;
  });
  await app.ready();
  return { app, lines };
}

/** `line` with its time and duration (which differ from one line to the next) set to 0. */
const timeless = (line: string) =>
  line.replace(/"time":\d+/, '"time":0').replace(/"responseTime":[\d.e+-]+/, '"responseTime":0');

describe('the request log', () => {
  it('writes one line per request, the very line pino writes for those fields', async () => {
    const { app, lines } = await loggedApp();
    const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH');
    const status = fc.constantFrom(200, 201, 202, 301, 400, 404, 429, 500);
    // a client address as a proxy may say it: any text, quotes, controls and emoji included
    const client = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.webPath(),
        fc.webQueryParameters(),
        methods,
        status,
        client,
        async (path, query, method, code, remoteAddress) => {
          lines.length = 0;
          const url = `/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;
          const res = await app.inject({
            method,
            url,
            remoteAddress,
            headers: { 'x-status': String(code) },
          });
          await expect.poll(() => lines.length).toBe(1);
          const written = lines[0]!;
          const entry = JSON.parse(written) as {
            reqId: string;
            req: { url: string };
            responseTime: number;
          };
          // the path as the server read it, without its query
          const received = (res.json() as { url: string }).url;
          expect(entry.req.url).toBe(received.split('?')[0]);
          expect(entry.responseTime).toBeGreaterThanOrEqual(0);
          // what pino itself writes for the same request, through the same request logger
          app.log.child({ reqId: entry.reqId }).info(
            {
              req: { method, url: received, ip: remoteAddress },
              res: { statusCode: res.statusCode },
              responseTime: entry.responseTime,
            },
            'request completed',
          );
          await expect.poll(() => lines.length).toBe(2);
          expect(timeless(written)).toBe(timeless(lines[1]!));
        },
      ),
      { numRuns: 60 },
    );
    await app.close();
  });

  it('writes nothing for a request below its level, and an errored answer through pino with its error', async () => {
    const quiet = await loggedApp('warn');
    await quiet.app.inject('/anything');
    expect(quiet.lines).toEqual([]);
    await quiet.app.close();

    const { app, lines } = await loggedApp();
    await app.inject('/fails').catch(() => undefined);
    await expect.poll(() => lines.some((line) => line.includes('request errored'))).toBe(true);
    const errored = JSON.parse(lines.find((line) => line.includes('request errored'))!);
    expect(errored).toMatchObject({
      level: 50,
      req: { method: 'GET', url: '/fails' },
      err: { message: 'the client left' },
    });
    await app.close();
  });
});
