import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingOpen, pwnedPasswords } from './password-breach.ts';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/** Breached passwords of the fake, with their counts. */
const BREACHED: Record<string, number> = { 'hunter2 hunter2': 17_043, 'Tr0ub4dor&3': 3 };

/**
 * A loopback fake of the Pwned Passwords range API: GET /range/{5 hex}, `SUFFIX:COUNT` lines
 * separated by CRLF, and with `Add-Padding: true` padding lines whose count is 0.
 */
let server: Server;
let base: string;
const asked: { url: string; headers: IncomingHttpHeaders }[] = [];
let mode: 'ok' | 'error' | 'slow' = 'ok';

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push({ url: request.url ?? '', headers: request.headers });
    if (mode === 'error') return void response.writeHead(503).end('Service Unavailable');
    if (mode === 'slow') return void setTimeout(() => response.writeHead(200).end(''), 2000);
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(request.url ?? '')?.[1];
    if (!prefix)
      return void response.writeHead(400).end('The hash prefix was not in a valid format');
    const lines = Object.entries(BREACHED)
      .map(([password, count]) => [sha1(password), count] as const)
      .filter(([hash]) => hash.startsWith(prefix))
      .map(([hash, count]) => `${hash.slice(5)}:${count}`);
    // a few unrelated suffixes, as a real range has hundreds
    lines.push('0018A45C4D1DEF81644B54AB7F969B88D65:1', '00D4F6E8FA6EECAD2A3AA415EEC418D38EC:2');
    if (request.headers['add-padding'] === 'true') {
      // padding: random suffixes with the count 0, one of them the hash of a password nobody used
      lines.push(
        `${sha1('padded but never breached').slice(5)}:0`,
        'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0',
      );
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the Pwned Passwords range API driver', () => {
  it('finds a breached password by the 5-digit prefix of its SHA-1 alone, asking for padding', async () => {
    const check = pwnedPasswords({ url: base });
    const before = asked.length;
    expect(await check('hunter2 hunter2')).toBe(true);
    expect(await check('Tr0ub4dor&3')).toBe(true);
    const [first] = asked.slice(before);
    expect(first?.url).toBe(`/range/${sha1('hunter2 hunter2').slice(0, 5)}`);
    expect(first?.headers['add-padding']).toBe('true');
    // nothing of the password, nor the rest of its hash, leaves the server
    expect(JSON.stringify(asked.slice(before))).not.toContain(sha1('hunter2 hunter2').slice(5));
  });

  it('answers false for a password not in its range, and for a padding line (count 0)', async () => {
    const check = pwnedPasswords({ url: base });
    expect(await check('correct horse 1')).toBe(false);
    expect(await check('padded but never breached')).toBe(false);
  });

  it('throws when the service fails or is too slow; failingOpen turns that into null and a log line', async () => {
    const warnings: string[] = [];
    const log = { warn: (_object: object, message: string) => void warnings.push(message) };
    try {
      mode = 'error';
      await expect(pwnedPasswords({ url: base })('hunter2 hunter2')).rejects.toThrow(/HTTP 503/);
      expect(await failingOpen(pwnedPasswords({ url: base }), log)('hunter2 hunter2')).toBeNull();
      mode = 'slow';
      const slow = failingOpen(pwnedPasswords({ url: base, timeoutMs: 100 }), log);
      expect(await slow('hunter2 hunter2')).toBeNull();
    } finally {
      mode = 'ok';
    }
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/did not answer/);
    // nothing listens there
    const closed = failingOpen(pwnedPasswords({ url: 'http://127.0.0.1:9' }), log);
    expect(await closed('hunter2 hunter2')).toBeNull();
    expect(warnings).toHaveLength(3);
  });
});
