import type { ErrorCode } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { fieldRefusal, quickUser, signupBody, uniqueEmail, useTestApp } from './helpers.ts';
import { publisherOf } from './monitoring-fixtures.ts';
import { departmentId, postForm, rowsOf, TICKETS } from './support-fixtures.ts';
import { DAY, seedServer } from './vps-fixtures.ts';

/**
 * Names and other single-line texts refuse control characters and line breaks (the contracts'
 * singleLine rule), names refuse web addresses too, texts of several lines keep their lines but
 * no other control character: each with its code and English text, and nothing changes.
 */

const t = useTestApp();

/**
 * What a single line may not hold: a line break, a separator, an escape, a C1 control, a tab, a
 * right-to-left override (it shows "Ann live.com" as "Ann moc.evil") and a zero-width space.
 */
const NOT_ONE_LINE = [
  'Ann\nSmith',
  'Ann\r\nSmith',
  'Ann\u2028Smith',
  'Ann\u001b[31mSmith',
  'Ann\u0085Smith',
  'Ann\tSmith',
  'Ann \u202emoc.evil',
  'Ann\u200bSmith',
];
const PHISHING = [
  'YOUR ACCOUNT IS LOCKED. Unlock at https://evil.example',
  'Support www.evil-example.com',
  'Unlock: evil-example.com/unlock',
];

describe('single-line texts', () => {
  it('sign-up refuses a name of several lines or with a web address, and makes no account', async () => {
    const cases: [string, ErrorCode][] = [
      ...NOT_ONE_LINE.map((name): [string, ErrorCode] => [name, 'TEXT_NOT_SINGLE_LINE']),
      ...PHISHING.map((name): [string, ErrorCode] => [name, 'NAME_HAS_WEB_ADDRESS']),
    ];
    for (const [name, code] of cases) {
      const email = uniqueEmail('refused');
      const res = await t.api.post('/api/user/auth/create', signupBody({ name, email }));
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 422,
        body: fieldRefusal('name', code),
      });
      expect(await rowsOf(t, 'users', 'email = $1', [email])).toBe(0);
      expect(t.smtp.to(email)).toEqual([]);
    }
  });

  it('change_name refuses them too and keeps the name; a dotted name is a name', async () => {
    const user = await quickUser(t, { name: 'Kept Name' });
    for (const name of [...NOT_ONE_LINE, ...PHISHING]) {
      const res = await t.api.post('/api/user/change_name', { name }, { token: user.token });
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect(res.body.errors.name).toHaveLength(1);
    }
    expect((await t.api.get('/api/user/auth', { token: user.token })).body.name).toBe('Kept Name');
    const dotted = await t.api.post(
      '/api/user/change_name',
      { name: 'Dr. J. R. R. Tolkien' },
      { token: user.token },
    );
    expect(dotted.status).toBe(200);
    expect(dotted.body.name).toBe('Dr. J. R. R. Tolkien');
  });

  it("a VPS label is one line: the server's label stays", async () => {
    const user = await quickUser(t);
    const { id } = await seedServer(t, { userId: user.id, paidUntil: new Date(Date.now() + DAY) });
    const path = `/api/user/vps/servers/${id}`;
    await t.api.request('PATCH', path, { body: { comment: 'Scalper' }, token: user.token });
    for (const comment of NOT_ONE_LINE) {
      const res = await t.api.request('PATCH', path, { body: { comment }, token: user.token });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(fieldRefusal('comment', 'TEXT_NOT_SINGLE_LINE'));
    }
    expect((await t.api.get(path, { token: user.token })).body.server.comment).toBe('Scalper');
  });

  it("a monitoring account's name is a name: one line, no web address", async () => {
    const { user, account, subscription } = await publisherOf(t, 6_100_001);
    const path = `/api/user/monitoring/accounts/${account.id}`;
    for (const [name, code] of [
      ['Main\nAccount', 'TEXT_NOT_SINGLE_LINE'],
      ['Main https://evil.example', 'NAME_HAS_WEB_ADDRESS'],
    ] as const) {
      const res = await t.api.request('PATCH', path, { body: { name }, token: user.token });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(fieldRefusal('name', code));
    }
    const account2 = { subscription_id: subscription, login: 6_100_002, platform: 'MT5' };
    const added = await t.api.post(
      '/api/user/monitoring/accounts',
      { ...account2, name: 'A\u0007B', email: 'r@example.com' },
      { token: user.token },
    );
    expect(added.status).toBe(422);
    expect(added.body.errors.name).toEqual([
      'The text must be one line without control characters',
    ]);
    expect(
      (
        await t.sql.query('select name from monitoring_accounts where user_id = $1', [user.id])
      ).rows.map((a) => a.name),
    ).toEqual(['Main']);
  });

  it("a ticket's subject is one line, its text keeps its lines but no other control", async () => {
    const user = await quickUser(t);
    const department = String(await departmentId(t, 'technical'));
    const open = (title: string, text: string) =>
      postForm(t, TICKETS, user.token, { department_id: department, title, text });
    const subject = await open('Help\nURGENT: reset your password', 'Hello');
    expect(subject.status).toBe(422);
    expect(subject.body).toEqual(fieldRefusal('title', 'TEXT_NOT_SINGLE_LINE'));
    const text = await open('Help', 'Hello\u0007');
    expect(text.status).toBe(422);
    expect(text.body).toEqual(fieldRefusal('text', 'TEXT_CHARACTERS_INVALID'));
    expect(await rowsOf(t, 'support_tickets', 'user_id = $1', [user.id])).toBe(0);
    const lines = await open('Help', 'Line one\r\nLine\ttwo');
    expect(lines.status).toBe(201);
  });
});
