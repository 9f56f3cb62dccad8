import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { LogDestination, stdoutLog } from '../src/lib/log-destination.ts';
import {
  signIn,
  signupBody,
  startTestApp,
  useTestApp,
  verifyTokenOf,
  type Json,
  type TestApp,
} from './helpers.ts';

const t = useTestApp();

describe('HTTP basics', () => {
  it('sends helmet’s security headers with a CSP that allows the console', async () => {
    const res = await t.api.get('/api/front/permissions');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests'); // PUBLIC_URL is http
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-powered-by')).toBeNull();
    // features the console never uses are off; passkeys and the clipboard keep their default
    const policy = res.headers.get('permissions-policy') ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
      expect(policy).toContain(`${feature}=()`);
    expect(policy).not.toMatch(/publickey-credentials|clipboard/);
  });

  it('the API docs page sends the docs UI’s own CSP in place of the console’s', async () => {
    const res = await t.api.get('/api/docs/');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("img-src 'self' data: validator.swagger.io");
    expect(csp).not.toContain('connect-src');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 NOT_FOUND JSON for an unknown /api path or method', async () => {
    const notFound = { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
    expect(await t.api.get('/api/nothing/here')).toMatchObject(notFound);
    expect(await t.api.request('DELETE', '/api/user/auth')).toMatchObject(notFound);
    expect(await t.api.get('/no-console-build')).toMatchObject(notFound);
  });

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const res = await t.api.post('/api/user/auth/login', '{"email":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'The request is malformed', code: 'BAD_REQUEST' },
    });
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a JSON body over 64 KB', async () => {
    const res = await t.api.post('/api/user/auth/login', {
      email: 'a@example.com',
      password: 'x'.repeat(70_000),
    });
    expect(res).toMatchObject({
      status: 413,
      body: { message: 'The request is too large', code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await t.api.post('/api/user/auth/login', 'email=a', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('answers 422 VALIDATION for a body that is not an object', async () => {
    const res = await t.api.post('/api/user/auth/login', '[1,2]', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({
      status: 422,
      body: { message: 'The data is invalid', code: 'VALIDATION' },
    });
  });
});

describe('OpenAPI', () => {
  it('lists the auth paths in /api/docs/json', async () => {
    const res = await t.api.get('/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(res.body.paths);
    for (const path of [
      '/api/user/auth/create',
      '/api/user/auth/verify-email',
      '/api/user/auth/login',
      '/api/user/auth/refresh-token',
      '/api/user/auth/logout',
      '/api/user/auth',
      '/api/user/auth/forgot-password-code',
      '/api/user/auth/check-forgot-otp',
      '/api/user/auth/reset-password-with-code',
      '/api/user/change_language',
      '/api/user/alert',
      '/api/front/permissions',
      '/api/clicks/create',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.some((p) => p.startsWith('/api/docs') || p.startsWith('/api/dev'))).toBe(false);
    const login = res.body.paths['/api/user/auth/login'].post;
    // an unknown e-mail is a 401 as a wrong password is: sign-in has no 404
    expect(Object.keys(login.responses).sort()).toEqual(['200', '401', '403', '422', '429']);
    expect(login.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
    // every operator route says who may call it
    const operatorOps = Object.entries(res.body.paths as Record<string, Record<string, Json>>)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([, ops]) => Object.values(ops));
    expect(operatorOps.length).toBeGreaterThan(40);
    for (const op of operatorOps) expect(op.description).toMatch(/^Operator roles: [a-z, ]+\./);
    expect(res.body.paths['/api/admin/adjustments/{id}/approve'].post.description).toBe(
      'Operator roles: billing, admin.',
    );
    expect(res.body.paths['/api/admin/users'].get.description).toBe(
      'Operator roles: support, billing, vps, monitoring, admin.',
    );
    expect(res.body.paths['/api/user/auth/login'].post.description).toBeUndefined();
  });

  it('serves the Swagger UI at /api/docs with its own CSP', async () => {
    const res = await t.api.get('/api/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
  });
});

describe('server errors', () => {
  it('answers a 5xx with only {message, code: INTERNAL}; the details go to the log', async () => {
    const { token } = await signIn(t);
    await t.sql.query('alter table alerts rename to alerts_gone');
    try {
      const res = await t.api.get('/api/user/alert', { token });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
      expect(res.text).not.toMatch(/alerts|relation|select|stack/i);
      const logged = t.logs.filter((line) => line.includes('request failed'));
      expect(logged.some((line) => line.includes('relation \\"alerts\\" does not exist'))).toBe(
        true,
      );
    } finally {
      await t.sql.query('alter table alerts_gone rename to alerts');
    }
  });

  it('keeps query parameters (hashes, e-mails) out of the log', async () => {
    await t.sql.query('alter table email_verifications rename to ev_gone');
    try {
      const body = signupBody();
      const res = await t.api.post('/api/user/auth/create', body);
      expect(res.status).toBe(500);
      const logged = t.logs.filter((line) => line.includes('request failed')).join('\n');
      expect(logged).toContain('email_verifications');
      expect(logged).not.toContain(body.email);
      expect(logged).not.toContain('$argon2id');
    } finally {
      await t.sql.query('alter table ev_gone rename to email_verifications');
    }
  });
});

describe('development mailbox', () => {
  const dev = useTestApp({ env: { SMTP_URL: '' } });

  it('keeps the mails without SMTP and shows them at /api/dev/mailbox with clickable links', async () => {
    const body = signupBody({ name: '<Eve>' });
    expect((await dev.api.post('/api/user/auth/create', body)).status).toBe(201);

    const json = await dev.api.get('/api/dev/mailbox.json');
    expect(json.status).toBe(200);
    const [mail] = json.body.mails;
    expect(mail).toMatchObject({ to: body.email, subject: 'TradeHost: confirm your e-mail' });
    const link = /http:\/\/localhost:5173\/login\?verify=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    const page = await dev.api.get('/api/dev/mailbox');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain(`<a href="${link}">${link}</a>`);
    expect(page.text).toContain('&lt;Eve&gt;');
    expect(page.text).not.toContain('<Eve>');

    const token = verifyTokenOf({ text: mail.text } as never);
    expect((await dev.api.post('/api/user/auth/verify-email', { token })).status).toBe(200);
  });

  it('is absent when SMTP is configured', async () => {
    expect(await t.api.get('/api/dev/mailbox')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect((await t.api.get('/api/dev/mailbox.json')).status).toBe(404);
  });
});

describe('the built console', () => {
  let web: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'th-web-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><div id="root"></div><script src="/assets/app-abc123.js"></script>',
    );
    await writeFile(join(dist, 'assets', 'app-abc123.js'), 'console.log("app")');
    await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    web = await startTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await web?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html at / without caching', async () => {
    const res = await web.api.get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="root">');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves hashed assets as immutable and other files normally', async () => {
    const asset = await web.api.get('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await web.api.get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers any other page path with index.html (SPA fallback)', async () => {
    for (const path of ['/login?verify=abc', '/vps', '/support/42']) {
      const res = await web.api.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('still serves the API and its docs next to the console', async () => {
    expect((await web.api.get('/api/front/permissions')).status).toBe(200);
    expect((await web.api.get('/api/docs/json')).status).toBe(200);
  });

  it('writes its own log to stdout asynchronously (lib/log-destination), so a slow reader never holds up a request', async () => {
    const app = buildApp(web.config);
    try {
      await app.ready();
      const stream = (app.log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
      // the process's one destination for stdout, whose lines wait for a turn of the loop and a
      // write on the thread pool (its own tests hold that with a reader that does not read)
      expect(stream).toBe(stdoutLog());
      expect(stream).toBeInstanceOf(LogDestination);
      expect(stdoutLog().fd).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('logs one line per request, as it is answered: method, path, client, status and time', async () => {
    const linesOf = () =>
      web.logs
        .map((line) => JSON.parse(line) as Json)
        .filter((entry) => entry.req?.url === '/api/front/permissions');
    const before = linesOf().length;
    await web.api.get(`/api/front/permissions?probe=${Date.now()}`);
    // written once the answer has gone: one line for the request
    await expect.poll(() => linesOf().length).toBe(before + 1);
    expect(linesOf().at(-1)).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/front/permissions', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(web.logs.join('\n')).not.toContain('probe=');
    expect(web.logs.some((line) => line.includes('incoming request'))).toBe(false);
  });

  it('keeps the query string (one-time tokens) of page URLs out of the log', async () => {
    await web.api.get('/login?verify=secret-token-123');
    expect(web.logs.some((line) => line.includes('"url":"/login"'))).toBe(true);
    expect(web.logs.join('\n')).not.toContain('secret-token-123');
  });

  it('keeps 404 JSON for unknown /api paths, missing assets and non-GET methods', async () => {
    expect(await web.api.get('/api/unknown')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await web.api.get('/assets/missing.js')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await web.api.post('/vps', {})).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });
});
