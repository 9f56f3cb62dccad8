import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordStats } from '../src/lib/password.ts';
import {
  createVerifiedUser,
  fieldRefusal,
  PASSWORD,
  refusal,
  resetCodeOf,
  signIn,
  signupBody,
  startTestApp,
  uniqueEmail,
  useTestApp,
  type ApiResponse,
  type TestApp,
} from './helpers.ts';

/**
 * Sign-in and recovery against an attacker (issue 41): no answer tells whether an e-mail has an
 * account; sign-in is limited per account (growing delays, then a 15-minute lock with a mail to
 * the owner) whatever the address the tries come from; reset codes are capped at 5 a day; common
 * (and, when asked for, breached) passwords are refused.
 */

// behind a proxy, so that each try can come from an address of its own (X-Forwarded-For)
const t = useTestApp({ env: { TRUST_PROXY: '1' } });

const LOGIN = '/api/user/auth/login';
const FORGOT = '/api/user/auth/forgot-password-code';
const CHECK = '/api/user/auth/check-forgot-otp';
const RESET = '/api/user/auth/reset-password-with-code';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const WRONG = 'not the password 9';

let lastIp = 0;
/** A new address for each try: the attacker rotates them. */
const nextIp = () => {
  lastIp += 1;
  return `203.0.113.${lastIp % 250}`;
};

function tryLogin(email: string, password: string, ip = nextIp()) {
  return t.client().post(LOGIN, { email, password }, { headers: { 'x-forwarded-for': ip } });
}

/** What a refusal shows the caller: status, body, Retry-After and any cookie. */
const shown = (res: ApiResponse) => ({
  status: res.status,
  body: res.body,
  retryAfter: res.headers.get('retry-after'),
  cookies: res.headers.getSetCookie(),
});

/** Runs `body` with the test clock moved, and moves it back. */
async function withClockMoved<T>(ms: number, body: () => Promise<T>): Promise<T> {
  t.clock.advance(ms);
  try {
    return await body();
  } finally {
    t.clock.advance(-ms);
  }
}

async function userIdOf(email: string): Promise<number> {
  const { rows } = await t.sql.query<{ id: string }>('select id from users where email = $1', [
    email,
  ]);
  return Number(rows[0]!.id);
}

async function eventsOf(email: string, kind: string) {
  const { rows } = await t.sql.query<{ ip: string | null; detail: Record<string, unknown> }>(
    'select ip, detail from security_events where user_id = $1 and kind = $2 order by id',
    [await userIdOf(email), kind],
  );
  return rows;
}

/**
 * Fails `count` sign-ins in a row for `email`, each from a new address, waiting (on the test
 * clock, which it moves and returns how far) whatever each refusal's Retry-After asks; returns
 * every answer that was shown.
 */
async function failInARow(email: string, count: number) {
  const answers: ReturnType<typeof shown>[] = [];
  let moved = 0;
  let failures = 0;
  while (failures < count) {
    const res = await tryLogin(email, WRONG);
    answers.push(shown(res));
    if (res.status === 429 && res.body.code === 'LOGIN_THROTTLED') {
      const wait = Number(res.headers.get('retry-after')) * SECOND;
      t.clock.advance(wait);
      moved += wait;
      continue;
    }
    failures += 1;
  }
  return { answers, moved };
}

const LOCKED = refusal('LOGIN_LOCKED');
const NOT_FOUND = refusal('LOGIN_NOT_FOUND');

describe('sign-in does not tell whether an e-mail has an account', () => {
  it('answers an unknown e-mail as a wrong password, after the same argon2 work', async () => {
    const { email } = await createVerifiedUser(t);
    const statsOf = async (address: string) => {
      const before = { ...passwordStats };
      const res = await tryLogin(address, WRONG);
      return {
        shown: shown(res),
        verifies: passwordStats.verifies - before.verifies,
        hashes: passwordStats.hashes - before.hashes,
      };
    };
    const known = await statsOf(email);
    const unknown = await statsOf(uniqueEmail('nobody'));
    expect(known).toEqual({
      shown: { status: 401, body: NOT_FOUND, retryAfter: null, cookies: [] },
      verifies: 1,
      hashes: 0,
    });
    expect(unknown).toEqual(known);
  });

  it('answers both in the same time (medians of 15 interleaved tries within a factor of 2)', async () => {
    const { email } = await createVerifiedUser(t);
    const id = await userIdOf(email);
    const timed = async (address: string) => {
      const started = performance.now();
      const res = await tryLogin(address, WRONG);
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      // the account's own limit would step in after 4: start it over each time
      await t.sql.query('delete from login_throttle where user_id = $1', [id]);
      known.push(await timed(email));
      unknown.push(await timed(uniqueEmail('nobody')));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('throttles and locks an unknown e-mail exactly as an account', async () => {
    const { email } = await createVerifiedUser(t);
    const unknownEmail = uniqueEmail('nobody');
    const known = await failInARow(email, 11);
    t.clock.advance(-known.moved);
    const unknown = await failInARow(unknownEmail, 11);
    t.clock.advance(-unknown.moved);
    expect(unknown.answers).toEqual(known.answers);
    expect(unknown.moved).toBe(known.moved);
    // 4 free failures, then a wait before each try, and the 10th failure locks
    const codes = known.answers.map((a) => `${a.status} ${a.body.code} ${a.retryAfter ?? ''}`);
    expect(codes).toEqual([
      ...Array.from({ length: 4 }, () => '401 LOGIN_NOT_FOUND '),
      '429 LOGIN_THROTTLED 1',
      '401 LOGIN_NOT_FOUND ',
      '429 LOGIN_THROTTLED 2',
      '401 LOGIN_NOT_FOUND ',
      '429 LOGIN_THROTTLED 4',
      '401 LOGIN_NOT_FOUND ',
      '429 LOGIN_THROTTLED 8',
      '401 LOGIN_NOT_FOUND ',
      '429 LOGIN_THROTTLED 16',
      '401 LOGIN_NOT_FOUND ',
      '429 LOGIN_THROTTLED 32',
      '429 LOGIN_LOCKED 900',
      '429 LOGIN_LOCKED 900',
    ]);
  });
});

describe('sign-in limited per account', () => {
  it('lets 4 failures through, then refuses an early try with 429 LOGIN_THROTTLED without checking the password', async () => {
    const { email } = await createVerifiedUser(t);
    for (let i = 0; i < 4; i += 1)
      expect(shown(await tryLogin(email, WRONG))).toMatchObject({ status: 401, body: NOT_FOUND });
    const before = passwordStats.verifies;
    // even the right password: the try is not made at all
    const early = await tryLogin(email, PASSWORD);
    expect(shown(early)).toEqual({
      status: 429,
      body: {
        message: 'Too many failed sign-ins. Wait a few seconds and try again',
        code: 'LOGIN_THROTTLED',
      },
      retryAfter: '1',
      cookies: [],
    });
    expect(passwordStats.verifies).toBe(before);
    // once the second has passed, the owner gets in, and the count starts over
    await withClockMoved(SECOND, async () => {
      expect((await tryLogin(email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < 4; i += 1) expect((await tryLogin(email, WRONG)).status).toBe(401);
    });
  });

  it('logs each failure with its address, and a sign-in with its session', async () => {
    const { email } = await createVerifiedUser(t);
    const ips = ['198.51.100.7', '198.51.100.8'];
    for (const ip of ips) expect((await tryLogin(email, WRONG, ip)).status).toBe(401);
    expect((await eventsOf(email, 'sign_in_failed')).map((e) => [e.ip, e.detail])).toEqual([
      [ips[0], { failures: 1 }],
      [ips[1], { failures: 2 }],
    ]);
    expect((await tryLogin(email, PASSWORD, '198.51.100.9')).status).toBe(200);
    expect((await eventsOf(email, 'sign_in')).map((e) => e.ip)).toEqual(['198.51.100.9']);
    const { rows } = await t.sql.query('select 1 from login_throttle where user_id = $1', [
      await userIdOf(email),
    ]);
    expect(rows).toEqual([]);
  });

  it('locks the account after 10 failures from rotating addresses: even the right password gets the lock answer, and the owner is mailed once', async () => {
    const { email } = await createVerifiedUser(t, { name: 'Locked Owner' });
    const mailsBefore = t.smtp.to(email).length;
    const { answers, moved } = await failInARow(email, 10);
    try {
      expect(answers.at(-1)).toEqual({
        status: 429,
        body: LOCKED,
        retryAfter: '900',
        cookies: [],
      });
      expect(LOCKED.message).toBe(
        'Too many failed sign-ins. Try again later or reset your password',
      );
      const before = passwordStats.verifies;
      for (let i = 0; i < 3; i += 1) {
        const res = await tryLogin(email, PASSWORD);
        expect(shown(res)).toMatchObject({ status: 429, body: LOCKED, cookies: [] });
      }
      expect(passwordStats.verifies).toBe(before);

      const mail = await t.smtp.next(email, mailsBefore);
      const lastIp = (await eventsOf(email, 'sign_in_failed')).at(-1)!.ip!;
      expect(mail.subject).toBe('TradeHost: sign-in to your account is locked for a while');
      expect(mail.text).toContain('Hello Locked Owner');
      expect(mail.text).toContain(`from the address ${lastIp}`);
      expect(mail.text).toMatch(/locked sign-in until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(mail.text).toContain('Reset the password: http://localhost:5173/forgot-password');
      expect(await eventsOf(email, 'sign_in_failed')).toHaveLength(10);
      expect(await eventsOf(email, 'sign_in_locked')).toHaveLength(1);
      expect(t.smtp.to(email)).toHaveLength(mailsBefore + 1);

      // the owner gets in once the lock has ended
      await withClockMoved(15 * MINUTE, async () => {
        expect((await tryLogin(email, PASSWORD)).status).toBe(200);
      });
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('writes the lock mail in the owner’s language', async () => {
    const { email } = await createVerifiedUser(t, { name: 'Ольга', language: 'ru' });
    const mailsBefore = t.smtp.to(email).length;
    const { moved } = await failInARow(email, 10);
    t.clock.advance(-moved);
    const mail = await t.smtp.next(email, mailsBefore);
    expect(mail.subject).toBe('TradeHost: вход в аккаунт временно заблокирован');
    expect(mail.text).toContain('Сбросить пароль: http://localhost:5173/forgot-password');
  });

  it('mails at most 3 lock notices a day: a 4th lock is logged but mails nothing', async () => {
    const { email } = await createVerifiedUser(t);
    const lockMails = () =>
      t.smtp
        .to(email)
        .filter((m) => m.subject === 'TradeHost: sign-in to your account is locked for a while');
    const mailedOfLocks = async () =>
      (await eventsOf(email, 'sign_in_locked')).map((e) => e.detail.mailed);
    let moved = 0;
    const advance = (ms: number) => {
      t.clock.advance(ms);
      moved += ms;
    };
    try {
      const first = await failInARow(email, 10);
      moved += first.moved;
      expect(first.answers.at(-1)).toMatchObject({ status: 429, body: LOCKED });
      await vi.waitFor(() => expect(lockMails()).toHaveLength(1));
      // once a lock is over, one more failure locks again at once: locks 2, 3 and 4
      for (const lock of [2, 3, 4]) {
        advance(15 * MINUTE);
        expect(shown(await tryLogin(email, WRONG))).toMatchObject({
          status: 429,
          body: LOCKED,
          retryAfter: '900',
        });
        if (lock <= 3) await vi.waitFor(() => expect(lockMails()).toHaveLength(lock));
      }
      // every lock is logged; the 4th says it was not mailed (decided before it was answered)
      expect(await mailedOfLocks()).toEqual([true, true, true, false]);
      // a mail sent after the 4th lock arrives, and still no 4th lock mail came before it
      const before = t.smtp.to(email).length;
      expect((await t.api.post(FORGOT, { email })).status).toBe(200);
      expect((await t.smtp.next(email, before)).subject).toContain('reset code');
      expect(lockMails()).toHaveLength(3);

      // a day after those locks, a new lock is mailed again
      advance(24 * 60 * MINUTE);
      const later = await failInARow(email, 10);
      moved += later.moved;
      expect(later.answers.at(-1)).toMatchObject({ status: 429, body: LOCKED });
      await vi.waitFor(() => expect(lockMails()).toHaveLength(4));
      expect(await mailedOfLocks()).toEqual([true, true, true, false, true]);
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('counts concurrent tries one by one: a burst checks at most the free tries', async () => {
    const { email } = await createVerifiedUser(t);
    const before = passwordStats.verifies;
    const answers = await Promise.all(Array.from({ length: 16 }, () => tryLogin(email, WRONG)));
    const checked = passwordStats.verifies - before;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(checked);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(await eventsOf(email, 'sign_in_failed')).toHaveLength(checked);
  });

  it('ends the lock with a completed password reset, which mails a notice', async () => {
    const { email } = await createVerifiedUser(t);
    const { moved } = await failInARow(email, 10);
    try {
      expect((await tryLogin(email, PASSWORD)).body).toEqual(LOCKED);
      const before = t.smtp.to(email).length;
      expect((await t.api.post(FORGOT, { email })).status).toBe(200);
      // the lock mail and the code may arrive in either order
      await vi.waitFor(() => expect(t.smtp.to(email).length).toBeGreaterThanOrEqual(before + 1));
      const codeMail = await vi.waitFor(() => {
        const found = t.smtp.to(email).find((m) => m.subject.includes('reset code'));
        if (!found) throw new Error('no code yet');
        return found;
      });
      const newPassword = 'a fresh passphrase 7';
      const reset = await t.api.post(
        RESET,
        {
          email,
          code: resetCodeOf(codeMail),
          password: newPassword,
          password_confirmation: newPassword,
        },
        { headers: { 'x-forwarded-for': '192.0.2.44' } },
      );
      expect(reset.status).toBe(200);
      expect((await tryLogin(email, newPassword)).status).toBe(200);

      const notice = await vi.waitFor(() => {
        const found = t.smtp.to(email).find((m) => m.subject.endsWith('your password was reset'));
        if (!found) throw new Error('no notice yet');
        return found;
      });
      expect(notice.subject).toBe('TradeHost: your password was reset');
      expect(notice.text).toContain('from the address 192.0.2.44');
      expect(notice.text).toContain('Reset the password: http://localhost:5173/forgot-password');
      expect((await eventsOf(email, 'password_reset')).map((e) => e.ip)).toEqual(['192.0.2.44']);
    } finally {
      t.clock.advance(-moved);
    }
  });
});

describe('reset codes: at most 5 a day per account', () => {
  it('mails 5 codes; the 6th request answers the same success but sends and changes nothing', async () => {
    const { email } = await createVerifiedUser(t);
    let code = '';
    for (let i = 0; i < 5; i += 1) {
      const before = t.smtp.to(email).length;
      const res = await t.api.post(FORGOT, { email });
      expect(res.body).toEqual({
        message: 'A 6-digit code has been sent to your e-mail',
        code: 'RESET_CODE_SENT',
      });
      code = resetCodeOf(await t.smtp.next(email, before));
    }
    expect(await eventsOf(email, 'password_reset_requested')).toHaveLength(5);

    const capped = await t.api.post(FORGOT, { email });
    expect(capped.status).toBe(200);
    expect(capped.body).toEqual({
      message: 'A 6-digit code has been sent to your e-mail',
      code: 'RESET_CODE_SENT',
    });
    // the 5th code still works: no new one replaced it
    expect((await t.api.post(CHECK, { email, code })).status).toBe(200);
    expect(await eventsOf(email, 'password_reset_requested')).toHaveLength(5);
    expect(t.smtp.to(email).filter((m) => m.subject.includes('reset code'))).toHaveLength(5);

    // a day later, codes come again
    await withClockMoved(24 * 60 * MINUTE + SECOND, async () => {
      const before = t.smtp.to(email).length;
      expect((await t.api.post(FORGOT, { email })).status).toBe(200);
      expect(resetCodeOf(await t.smtp.next(email, before))).toMatch(/^\d{6}$/);
    });
  });
});

describe('sign-up: a taken e-mail', () => {
  it('is told (SPEC), but only after the same password hashing as a new one', async () => {
    const { email } = await createVerifiedUser(t);
    const hashes = async (body: Record<string, unknown>) => {
      const before = passwordStats.hashes;
      const res = await t.api.post('/api/user/auth/create', body);
      return { status: res.status, hashes: passwordStats.hashes - before, body: res.body };
    };
    expect(await hashes(signupBody({ email }))).toEqual({
      status: 422,
      hashes: 1,
      body: fieldRefusal('email', 'EMAIL_TAKEN'),
    });
    expect(await hashes(signupBody())).toMatchObject({ status: 201, hashes: 1 });
  });
});

describe('common passwords', () => {
  const TOO_COMMON = fieldRefusal('password', 'PASSWORD_TOO_COMMON');

  it('are refused at sign-up with a clear message on the password, creating nothing', async () => {
    expect(TOO_COMMON.message).toBe('This password is too common. Choose another one');
    for (const password of ['password', '12345678', 'Password1', 'qwerty123']) {
      const body = signupBody({ password, password_confirmation: password });
      const res = await t.api.post('/api/user/auth/create', body);
      expect(res.status, password).toBe(422);
      expect(res.body, password).toEqual(TOO_COMMON);
      const { rows } = await t.sql.query('select 1 from users where email = $1', [body.email]);
      expect(rows).toEqual([]);
    }
    // the suite's own password is not common
    expect((await t.api.post('/api/user/auth/create', signupBody())).status).toBe(201);
  });

  it('are refused at a reset, before the code is tried (it stays usable)', async () => {
    const { email } = await createVerifiedUser(t);
    const before = t.smtp.to(email).length;
    await t.api.post(FORGOT, { email });
    const code = resetCodeOf(await t.smtp.next(email, before));
    for (let i = 0; i < 6; i += 1) {
      const res = await t.api.post(RESET, {
        email,
        code,
        password: 'iloveyou2',
        password_confirmation: 'iloveyou2',
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(TOO_COMMON);
    }
    expect((await t.api.post(CHECK, { email, code })).status).toBe(200);
  });

  it('are refused at a change in the profile; the old password stays', async () => {
    const me = await signIn(t);
    const res = await me.browser.post(
      '/api/user/change_password',
      { current_password: me.password, password: 'football1', password_confirmation: 'football1' },
      { token: me.token },
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual(TOO_COMMON);
    expect((await tryLogin(me.email, me.password)).status).toBe(200);
  });
});

describe('breached passwords (PASSWORD_BREACH_CHECK=hibp)', () => {
  const BREACHED = 'my very own secret 42';
  const sha1 = createHash('sha1').update(BREACHED, 'utf8').digest('hex').toUpperCase();
  let fake: Server;
  let down = false;
  let hibp: TestApp;

  beforeAll(async () => {
    // the range API: SUFFIX:COUNT lines for the prefix, padded with count-0 lines
    fake = createServer((request, response) => {
      if (down) return void response.writeHead(503).end();
      const prefix = request.url?.slice('/range/'.length) ?? '';
      const lines = ['00000000000000000000000000000000001:0'];
      if (sha1.startsWith(prefix)) lines.push(`${sha1.slice(5)}:12`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    hibp = await startTestApp({
      env: { PASSWORD_BREACH_CHECK: 'hibp', PWNED_PASSWORDS_URL: `http://127.0.0.1:${port}` },
    });
  });
  afterAll(async () => {
    await hibp?.close();
    await new Promise<void>((resolve) => fake?.close(() => resolve()));
  });

  it('refuses a password the service knows from a breach, and fails open when it is down', async () => {
    const breached = signupBody({ password: BREACHED, password_confirmation: BREACHED });
    const res = await hibp.api.post('/api/user/auth/create', breached);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(fieldRefusal('password', 'PASSWORD_BREACHED'));
    expect((await hibp.api.post('/api/user/auth/create', signupBody())).status).toBe(201);

    down = true;
    try {
      expect((await hibp.api.post('/api/user/auth/create', breached)).status).toBe(201);
      expect(
        hibp.logs.some((line) => line.includes('the password breach check did not answer')),
      ).toBe(true);
    } finally {
      down = false;
    }
  });
});
