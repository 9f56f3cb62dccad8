import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import {
  ERROR_MESSAGES,
  SESSIONS_PER_PAGE,
  userSchema,
  userSessionsResponseSchema,
  type ErrorCode,
} from '@tradehost/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { passwordStats } from '../src/lib/password.ts';
import {
  fieldRefusal,
  quickUser,
  refusal,
  signIn,
  useTestApp,
  XHR,
  type ApiClient,
  type ApiResponse,
  type Json,
  type TestApp,
} from './helpers.ts';

/**
 * The profile page's API: the avatar (its bad inputs above all), the name, the password change
 * and the sessions.
 */

const t = useTestApp();
/** Where the app stores its files (a directory of the test app's own). */
const filesDir = () => join(t.config.dataDir, 'files');

const AVATAR = '/api/user/avatar';
const ME = '/api/user/auth';
const REFRESH = '/api/user/auth/refresh-token';
const LOGIN = '/api/user/auth/login';
const CHANGE_PASSWORD = '/api/user/change_password';
const SESSIONS = '/api/user/sessions';
const SIGN_OUT_OTHERS = '/api/user/sessions/sign_out_others';
const NEW_PASSWORD = 'battery staple 22';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX =
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

// ---- images ------------------------------------------------------------------------------------

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2a6fd6' } });
const pngOf = (width = 400, height = 200) => solid(width, height).png().toBuffer();

/** A JPEG carrying EXIF text that must not survive. */
const jpegWithExif = () =>
  solid(300, 500)
    .jpeg()
    .withExif({ IFD0: { Copyright: 'exif-secret-42', Artist: 'exif-secret-42' } })
    .toBuffer();

/** One PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A real, valid 20000×20000 black-and-white PNG of about 50 KB (rows of zeros compress well):
 * decoding it would take 400 million pixels.
 */
function hugePng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const HTML_PAGE = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
const SVG_IMAGE = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>',
);
const SCRIPT = '<script>alert(document.cookie)</script>';

// ---- calls -------------------------------------------------------------------------------------

interface UploadFile {
  bytes: Buffer | Uint8Array;
  name?: string;
  type?: string;
}

async function answer(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('application/json');
  return {
    status: response.status,
    body: json ? (JSON.parse(text) as Json) : text,
    text,
    headers: response.headers,
  };
}

/** POST /api/user/avatar as a browser's form does: multipart/form-data with the file. */
async function upload(token: string, file: UploadFile): Promise<ApiResponse> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([file.bytes], { type: file.type ?? 'image/png' }),
    file.name ?? 'avatar.png',
  );
  return answer(
    await fetch(`${t.url}${AVATAR}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }),
  );
}

/** POST /api/user/avatar with a body of our own making. */
async function postRaw(
  token: string | undefined,
  body: RequestInit['body'],
  headers: Record<string, string> = {},
  init: Record<string, unknown> = {},
): Promise<ApiResponse> {
  return answer(
    await fetch(`${t.url}${AVATAR}`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body,
      ...init,
    }),
  );
}

const photoPathOf = async (token: string): Promise<string | null> =>
  (await t.api.get(ME, { token })).body.photo_path;
const storedAvatars = () => {
  const dir = join(filesDir(), 'avatars');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const fileOf = (photoPath: string) => join(filesDir(), 'avatars', photoPath.split('/').pop()!);

async function withAvatar() {
  const user = await quickUser(t);
  const res = await upload(user.token, { bytes: await pngOf() });
  expect(res.status).toBe(200);
  return { ...user, photoPath: res.body.photo_path as string };
}

/** A second browser of the same account, signed in with `userAgent`. */
async function secondBrowser(email: string, password: string, userAgent = FIREFOX_LINUX) {
  const browser = t.client();
  const login = await browser.post(
    LOGIN,
    { email, password },
    { headers: { 'user-agent': userAgent } },
  );
  expect(login.status).toBe(200);
  return { browser, token: login.body.token as string };
}

const refreshOf = (browser: ApiClient) => browser.post(REFRESH, undefined, { headers: XHR });

// ---- avatar ------------------------------------------------------------------------------------

describe('POST /api/user/avatar', () => {
  it('stores the image as a 256×256 WebP without its metadata, under a new random name, and the user shows it', async () => {
    const user = await quickUser(t);
    const res = await upload(user.token, {
      bytes: await jpegWithExif(),
      name: 'me.jpg',
      type: 'image/jpeg',
    });
    expect(res.status).toBe(200);
    expect(z.strictObject(userSchema.shape).parse(res.body)).toEqual(res.body);
    expect(res.body.photo_path).toMatch(/^\/api\/user\/avatar\/[A-Za-z0-9_-]{22}\.webp$/);
    expect(await photoPathOf(user.token)).toBe(res.body.photo_path);

    const stored = readFileSync(fileOf(res.body.photo_path));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.includes('exif-secret-42')).toBe(false);
  });

  it('serves the avatar without a token as image/webp, nosniff, cached for a year', async () => {
    const { photoPath } = await withAvatar();
    const res = await fetch(`${t.url}${photoPath}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(fileOf(photoPath)))).toBe(true);
  });

  it.each([
    ['JPEG', () => solid(120, 90).jpeg().toBuffer(), 'image/jpeg'],
    ['PNG', () => pngOf(90, 120), 'image/png'],
    ['GIF', () => solid(64, 64).gif().toBuffer(), 'image/gif'],
    ['WebP', () => solid(300, 300).webp().toBuffer(), 'image/webp'],
  ])('takes a %s', async (_format, make, type) => {
    const user = await quickUser(t);
    const res = await upload(user.token, { bytes: await make(), type, name: 'x' });
    expect(res.status).toBe(200);
    expect(await sharp(readFileSync(fileOf(res.body.photo_path))).metadata()).toMatchObject({
      format: 'webp',
      width: 256,
      height: 256,
    });
  });

  it('replaces the avatar under a new name and deletes the old file', async () => {
    const { token, photoPath: first } = await withAvatar();
    const res = await upload(token, { bytes: await pngOf(50, 50) });
    expect(res.status).toBe(200);
    expect(res.body.photo_path).not.toBe(first);
    expect(existsSync(fileOf(first))).toBe(false);
    expect(existsSync(fileOf(res.body.photo_path))).toBe(true);
    expect((await fetch(`${t.url}${first}`)).status).toBe(404);
  });

  it('re-encodes a polyglot GIF (a valid GIF with a script appended): the script is gone', async () => {
    const user = await quickUser(t);
    const polyglot = Buffer.concat([await solid(32, 32).gif().toBuffer(), Buffer.from(SCRIPT)]);
    const res = await upload(user.token, { bytes: polyglot, name: 'cat.gif', type: 'image/gif' });
    expect(res.status).toBe(200);
    const served = Buffer.from(await (await fetch(`${t.url}${res.body.photo_path}`)).arrayBuffer());
    expect(served.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(served.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(served.includes('<script')).toBe(false);
  });

  describe('refuses, changing nothing (the avatar and the stored files stay)', () => {
    async function expectRefused(
      call: (token: string) => Promise<ApiResponse>,
      status: number,
      body: unknown,
    ) {
      const { token, photoPath } = await withAvatar();
      const files = storedAvatars();
      const res = await call(token);
      expect({ status: res.status, body: res.body }).toEqual({ status, body });
      expect(await photoPathOf(token)).toBe(photoPath);
      expect(storedAvatars()).toEqual(files);
    }

    it('an HTML page named .png', async () => {
      await expectRefused(
        (token) => upload(token, { bytes: HTML_PAGE, name: 'avatar.png', type: 'image/png' }),
        422,
        refusal('AVATAR_FORMAT'),
      );
    });

    it('an SVG image named .png (an image, but one that can carry scripts)', async () => {
      await expectRefused(
        (token) => upload(token, { bytes: SVG_IMAGE, name: 'avatar.png', type: 'image/png' }),
        422,
        refusal('AVATAR_FORMAT'),
      );
    });

    it('another kind of file (a PDF) whatever its name says', async () => {
      const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      await expectRefused(
        (token) => upload(token, { bytes: pdf, name: 'avatar.jpg', type: 'image/jpeg' }),
        422,
        refusal('AVATAR_FORMAT'),
      );
    });

    it('a damaged image (a JPEG cut short)', async () => {
      const jpeg = await solid(200, 200).jpeg().toBuffer();
      await expectRefused(
        (token) => upload(token, { bytes: jpeg.subarray(0, jpeg.length >> 1), type: 'image/jpeg' }),
        422,
        refusal('AVATAR_UNREADABLE'),
      );
    });

    it('a 20000×20000 image, from its header, before any pixel is decoded', async () => {
      const png = hugePng();
      expect(png.length).toBeLessThan(100_000);
      await expectRefused(
        (token) => upload(token, { bytes: png }),
        422,
        refusal('AVATAR_DIMENSIONS'),
      );
    });

    it('a 10 MB upload that says its length: 413 before the body is read', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024, 0x41);
      await expectRefused(
        (token) => upload(token, { bytes: big }),
        413,
        refusal('AVATAR_TOO_LARGE'),
      );
    });

    it('a 10 MB upload sent in chunks without a length: 413 once the parser passes 1 MB', async () => {
      const boundary = 'th-boundary-7f3a';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 0x42);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent >= 10 * 1024 * 1024) {
            controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
            controller.close();
            return;
          }
          controller.enqueue(chunk);
          sent += chunk.length;
        },
      });
      await expectRefused(
        (token) =>
          postRaw(
            token,
            stream,
            { 'content-type': `multipart/form-data; boundary=${boundary}` },
            { duplex: 'half' },
          ),
        413,
        refusal('AVATAR_TOO_LARGE'),
      );
    });

    it('a file just over 1 MB (the length within the slack for the form around it)', async () => {
      const justOver = Buffer.concat([await pngOf(), Buffer.alloc(1024 * 1024, 0)]);
      await expectRefused(
        (token) => upload(token, { bytes: justOver }),
        413,
        refusal('AVATAR_TOO_LARGE'),
      );
    });

    it('an empty file', async () => {
      await expectRefused(
        (token) => upload(token, { bytes: Buffer.alloc(0) }),
        422,
        refusal('AVATAR_REQUIRED'),
      );
    });

    it('a form without a file', async () => {
      const form = new FormData();
      form.append('note', 'no file here');
      await expectRefused((token) => postRaw(token, form), 422, refusal('AVATAR_REQUIRED'));
    });

    it('a JSON body, and no body at all: 415', async () => {
      await expectRefused(
        (token) =>
          postRaw(token, JSON.stringify({ file: 'iVBORw0KGgo=' }), {
            'content-type': 'application/json',
          }),
        415,
        refusal('UNSUPPORTED_MEDIA_TYPE'),
      );
      await expectRefused(
        (token) => postRaw(token, undefined),
        415,
        refusal('UNSUPPORTED_MEDIA_TYPE'),
      );
    });

    it('a form with two files', async () => {
      const png = await pngOf();
      const form = new FormData();
      form.append('file', new Blob([png], { type: 'image/png' }), 'a.png');
      form.append('file', new Blob([png], { type: 'image/png' }), 'b.png');
      await expectRefused((token) => postRaw(token, form), 413, refusal('PAYLOAD_TOO_LARGE'));
    });
  });

  it('answers 401 without a token, before reading the upload', async () => {
    const files = storedAvatars();
    const res = await postRaw(undefined, Buffer.alloc(10 * 1024 * 1024), {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(res).toMatchObject({ status: 401, body: refusal('UNAUTHORIZED') });
    expect(storedAvatars()).toEqual(files);
  });
});

describe('DELETE /api/user/avatar', () => {
  it('clears photo_path and deletes the file; a second removal changes nothing', async () => {
    const { token, photoPath } = await withAvatar();
    const res = await t.api.request('DELETE', AVATAR, { token });
    expect(res.status).toBe(200);
    expect(res.body.photo_path).toBeNull();
    expect(await photoPathOf(token)).toBeNull();
    expect(existsSync(fileOf(photoPath))).toBe(false);
    expect((await fetch(`${t.url}${photoPath}`)).status).toBe(404);
    expect((await t.api.request('DELETE', AVATAR, { token })).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect(await t.api.request('DELETE', AVATAR)).toMatchObject({
      status: 401,
      body: refusal('UNAUTHORIZED'),
    });
  });
});

describe('GET /api/user/avatar/:file', () => {
  it('answers 404 for a name that was never stored and for anything that is no avatar name', async () => {
    for (const path of [
      `${AVATAR}/AAAAAAAAAAAAAAAAAAAAAA.webp`,
      `${AVATAR}/..%2F..%2Fjwt-secret`,
      `${AVATAR}/x.webp`,
      `${AVATAR}/AAAAAAAAAAAAAAAAAAAAAA.png`,
    ]) {
      const res = await t.api.get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: refusal('NOT_FOUND'),
      });
    }
  });
});

// ---- name --------------------------------------------------------------------------------------

describe('POST /api/user/change_name', () => {
  it('sets the trimmed name and returns the user', async () => {
    const user = await quickUser(t, { name: 'Old Name' });
    const res = await t.api.post('/api/user/change_name', { name: '  Нина Трейдер ' }, user);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, name: 'Нина Трейдер' });
    expect((await t.api.get(ME, user)).body.name).toBe('Нина Трейдер');
  });

  it('refuses an empty, a blank and a too long name with the sign-up rules, changing nothing', async () => {
    const user = await quickUser(t, { name: 'Kept Name' });
    const cases: [unknown, ErrorCode][] = [
      [{ name: '' }, 'NAME_REQUIRED'],
      [{ name: '   ' }, 'NAME_REQUIRED'],
      [{}, 'NAME_REQUIRED'],
      [{ name: 'x'.repeat(101) }, 'NAME_TOO_LONG'],
    ];
    for (const [body, code] of cases) {
      const res = await t.api.post('/api/user/change_name', body, user);
      expect({ body, status: res.status, answer: res.body }).toEqual({
        body,
        status: 422,
        answer: fieldRefusal('name', code),
      });
    }
    expect((await t.api.get(ME, user)).body.name).toBe('Kept Name');
  });

  it('answers 401 without a token', async () => {
    expect((await t.api.post('/api/user/change_name', { name: 'X' })).status).toBe(401);
  });
});

// ---- password ----------------------------------------------------------------------------------

const passwordBody = (current: string, next = NEW_PASSWORD, repeat = next) => ({
  current_password: current,
  password: next,
  password_confirmation: repeat,
});

describe('POST /api/user/change_password', () => {
  it('refuses a wrong current password on its field; the password and the sessions stay, no mail', async () => {
    const me = await signIn(t);
    const other = await secondBrowser(me.email, me.password);
    const mails = t.smtp.to(me.email).length;
    const res = await me.browser.post(CHANGE_PASSWORD, passwordBody('not my password'), me);
    expect(res).toMatchObject({
      status: 422,
      body: fieldRefusal('current_password', 'CURRENT_PASSWORD_WRONG'),
    });
    expect((await t.client().post(LOGIN, { email: me.email, password: me.password })).status).toBe(
      200,
    );
    expect((await refreshOf(other.browser)).status).toBe(200);
    expect(t.smtp.to(me.email).length).toBe(mails);
  });

  it('refuses a missing current password, a short new one and two that differ, field by field', async () => {
    const me = await quickUser(t);
    const cases: [unknown, string, ErrorCode][] = [
      [passwordBody(''), 'current_password', 'CURRENT_PASSWORD_REQUIRED'],
      [
        { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        'current_password',
        'CURRENT_PASSWORD_REQUIRED',
      ],
      [passwordBody('whatever1', 'short7!', 'short7!'), 'password', 'PASSWORD_TOO_SHORT'],
      [
        passwordBody('whatever1', NEW_PASSWORD, `${NEW_PASSWORD}x`),
        'password_confirmation',
        'PASSWORDS_DIFFER',
      ],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.api.post(CHANGE_PASSWORD, body, me);
      expect({ body, status: res.status, answer: res.body }).toEqual({
        body,
        status: 422,
        answer: fieldRefusal(field, code),
      });
    }
  });

  it('changes the password, signs out the other sessions, keeps this one and mails the owner in their language', async () => {
    const me = await signIn(t, { language: 'ru', name: 'Пётр' });
    const other = await secondBrowser(me.email, me.password);
    const before = t.smtp.to(me.email).length;

    const res = await me.browser.post(CHANGE_PASSWORD, passwordBody(me.password), me);
    expect(res).toMatchObject({
      status: 200,
      body: {
        code: 'PASSWORD_CHANGED',
        message: 'Your password has been changed. Your other sessions are signed out.',
      },
    });

    // the other browser's refresh token is dead; this one's still rotates
    expect(await refreshOf(other.browser)).toMatchObject({
      status: 401,
      body: refusal('SESSION_EXPIRED'),
    });
    expect((await refreshOf(me.browser)).status).toBe(200);
    // the new password signs in, the old one does not
    expect((await t.client().post(LOGIN, { email: me.email, password: me.password })).status).toBe(
      401,
    );
    expect((await t.client().post(LOGIN, { email: me.email, password: NEW_PASSWORD })).status).toBe(
      200,
    );

    const mail = await t.smtp.next(me.email, before);
    expect(mail.subject).toBe('TradeHost: пароль изменён');
    expect(mail.text).toContain('Здравствуйте, Пётр!');
    expect(mail.text).toContain('Все остальные сеансы завершены');
    expect(mail.text).toContain(`${t.config.publicUrl}/forgot-password`);
    expect(mail.html).toContain('lang="ru"');
    expect(mail.text).not.toContain(NEW_PASSWORD);
  });

  it('writes the mail in English for an English account', async () => {
    const me = await signIn(t);
    const before = t.smtp.to(me.email).length;
    expect((await me.browser.post(CHANGE_PASSWORD, passwordBody(me.password), me)).status).toBe(
      200,
    );
    const mail = await t.smtp.next(me.email, before);
    expect(mail.subject).toBe('TradeHost: your password was changed');
    expect(mail.text).toContain('There were no other sessions to sign out.');
  });

  it('answers 401 without a token', async () => {
    expect((await t.api.post(CHANGE_PASSWORD, passwordBody('x'))).status).toBe(401);
  });
});

describe('POST /api/user/change_password: the rate limit', () => {
  const limited = useTestApp({ env: { RATE_LIMIT_AUTH_MAX: '3' } });

  it('answers 429 like the auth routes once an IP passes the limit, before checking the password', async () => {
    const me = await quickUser(limited);
    for (let i = 0; i < 3; i += 1) {
      const res = await limited.api.post(CHANGE_PASSWORD, passwordBody(`guess-${i}-guess`), me);
      expect(res.status).toBe(422);
    }
    const before = { ...passwordStats };
    const res = await limited.api.post(CHANGE_PASSWORD, passwordBody('guess-4-guess'), me);
    expect(res).toMatchObject({ status: 429, body: refusal('TOO_MANY_REQUESTS') });
    expect(passwordStats).toEqual(before);
  });
});

// ---- sessions ----------------------------------------------------------------------------------

const sessionsPage = async (who: { token: string }, query = '', app: TestApp = t) => {
  const res = await app.api.get(`${SESSIONS}${query}`, who);
  expect(res.status).toBe(200);
  return userSessionsResponseSchema.parse(res.body);
};
const sessionsOf = async (who: { token: string }, app: TestApp = t) =>
  (await sessionsPage(who, '', app)).data;

describe('GET /api/user/sessions', () => {
  it('lists each sign-in with its browser and system, created and last use, this one marked and first', async () => {
    try {
      await listsEachSignIn();
    } finally {
      t.clock.advance(-6 * 60_000);
    }
  });

  async function listsEachSignIn() {
    const me = await signIn(t);
    // the helper's sign-in came from Node's fetch: sign in again as Chrome on Windows
    const here = await secondBrowser(me.email, me.password, CHROME_WINDOWS);
    t.clock.advance(60_000);
    const there = await secondBrowser(me.email, me.password, FIREFOX_LINUX);

    const sessions = await sessionsPage(here);
    expect(sessions.meta).toEqual({ page: 1, per_page: SESSIONS_PER_PAGE, total: 3 });
    expect(sessions.others).toBe(2);
    // this one first, then the others newest use first
    const [middle, newest, oldest] = sessions.data;
    expect(middle).toMatchObject({ browser: 'Chrome', os: 'Windows', current: true });
    expect(newest).toMatchObject({ browser: 'Firefox', os: 'Linux', current: false });
    expect(oldest).toMatchObject({ browser: null, os: null, current: false });
    expect(middle!.created_at).toBe(middle!.last_used_at);
    expect(Date.parse(newest!.last_used_at)).toBeGreaterThan(Date.parse(oldest!.last_used_at));

    // a refresh is a use: last use moves, the sign-in time and the browser stay
    t.clock.advance(5 * 60_000);
    const refreshed = await refreshOf(here.browser);
    expect(refreshed.status).toBe(200);
    const after = await sessionsOf({ token: refreshed.body.token });
    expect(after[0]).toMatchObject({
      id: middle!.id,
      browser: 'Chrome',
      os: 'Windows',
      current: true,
      created_at: middle!.created_at,
    });
    expect(Date.parse(after[0]!.last_used_at) - Date.parse(middle!.created_at)).toBeGreaterThan(
      5 * 60_000 - 1000,
    );
    // the other browsers see the same list with their own row marked and first
    expect((await sessionsOf(there)).map((s) => [s.browser, s.current])).toEqual([
      ['Firefox', true],
      ['Chrome', false],
      [null, false],
    ]);
  }

  it('gives a page at a time, this sign-in on the first, and counts them all on every page', async () => {
    const me = await signIn(t);
    const others = [];
    for (let i = 0; i < SESSIONS_PER_PAGE + 2; i += 1) {
      t.clock.advance(1000);
      others.push(await secondBrowser(me.email, me.password));
    }
    try {
      const first = await sessionsPage(me);
      expect(first.meta).toEqual({ page: 1, per_page: SESSIONS_PER_PAGE, total: 13 });
      expect(first.others).toBe(12);
      expect(first.data).toHaveLength(SESSIONS_PER_PAGE);
      // the oldest sign-in, but the one asking: first
      expect(first.data.map((s) => s.current)).toEqual([true, ...Array(9).fill(false)]);

      const second = await sessionsPage(me, '?page=2');
      expect(second.meta).toEqual({ page: 2, per_page: SESSIONS_PER_PAGE, total: 13 });
      expect(second.others).toBe(12);
      expect(second.data).toHaveLength(3);
      expect(second.data.some((s) => s.current)).toBe(false);
      // every sign-in once across the pages, newest use first after this one
      const ids = [...first.data, ...second.data].map((s) => s.id);
      expect(new Set(ids).size).toBe(13);
      const lastUses = [...first.data.slice(1), ...second.data].map((s) =>
        Date.parse(s.last_used_at),
      );
      expect(lastUses).toEqual([...lastUses].sort((a, b) => b - a));

      const smaller = await sessionsPage(me, '?page=3&per_page=5');
      expect(smaller.data).toHaveLength(3);
      // a page past the end: no rows, the counts still told
      const beyond = await sessionsPage(me, '?page=4');
      expect(beyond).toEqual({
        data: [],
        meta: { page: 4, per_page: SESSIONS_PER_PAGE, total: 13 },
        others: 12,
      });
      // another sign-in sees the same count of others, itself among them no more
      expect((await sessionsPage({ token: others[0]!.token })).others).toBe(12);
    } finally {
      t.clock.advance(-(SESSIONS_PER_PAGE + 2) * 1000);
    }
  });

  it('refuses a page that is not one with the validation error (the console words it), lists nothing', async () => {
    const me = await signIn(t);
    for (const query of ['?page=0', '?page=abc', '?per_page=0', '?per_page=101', '?page=1.5']) {
      const res = await t.api.get(`${SESSIONS}${query}`, me);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toEqual({
        code: 'VALIDATION',
        message: ERROR_MESSAGES.VALIDATION,
        errors: { [query.slice(1, query.indexOf('='))]: [ERROR_MESSAGES.VALIDATION] },
      });
    }
  });

  it('leaves out signed-out, expired and other users’ sessions', async () => {
    const me = await signIn(t);
    const gone = await secondBrowser(me.email, me.password);
    await gone.browser.post('/api/user/auth/logout', undefined, {
      token: gone.token,
      headers: XHR,
    });
    const expired = await secondBrowser(me.email, me.password, CHROME_WINDOWS);
    await t.sql.query(
      `update refresh_tokens set expires_at = now() - interval '1 second'
       where id = (select max(id) from refresh_tokens where user_id = (select id from users where email = $1))`,
      [me.email],
    );
    expect((await refreshOf(expired.browser)).status).toBe(401);
    await signIn(t); // someone else
    expect(await sessionsOf(me)).toEqual([expect.objectContaining({ current: true })]);
    expect(await sessionsPage(await quickUser(t))).toEqual({
      data: [],
      meta: { page: 1, per_page: SESSIONS_PER_PAGE, total: 0 },
      others: 0,
    });
  });

  it('answers 401 without a token', async () => {
    expect((await t.api.get(SESSIONS)).status).toBe(401);
  });
});

describe('POST /api/user/sessions/sign_out_others', () => {
  it('signs out every other session and keeps this one', async () => {
    const me = await signIn(t);
    const second = await secondBrowser(me.email, me.password);
    const third = await secondBrowser(me.email, me.password, CHROME_WINDOWS);

    const res = await me.browser.post(SIGN_OUT_OTHERS, undefined, me);
    expect(res).toMatchObject({
      status: 200,
      body: {
        code: 'SESSIONS_REVOKED',
        message: 'You have signed out everywhere else',
        revoked: 2,
      },
    });
    for (const other of [second, third])
      expect(await refreshOf(other.browser)).toMatchObject({
        status: 401,
        body: refusal('SESSION_EXPIRED'),
      });
    expect((await refreshOf(me.browser)).status).toBe(200);
    expect((await sessionsOf(me)).map((s) => s.current)).toEqual([true]);

    // nothing else to sign out now
    expect((await me.browser.post(SIGN_OUT_OTHERS, undefined, me)).body.revoked).toBe(0);
  });

  it('never touches another user’s sessions', async () => {
    const me = await signIn(t);
    const stranger = await signIn(t);
    await me.browser.post(SIGN_OUT_OTHERS, undefined, me);
    expect((await refreshOf(stranger.browser)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await t.api.post(SIGN_OUT_OTHERS)).status).toBe(401);
  });
});
