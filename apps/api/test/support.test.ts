import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ATTACHMENT_MAX_BYTES,
  departmentsResponseSchema,
  ticketActionResponseSchema,
  ticketOpenConflictSchema,
  ticketResponseSchema,
  ticketsResponseSchema,
  type ErrorCode,
} from '@tradehost/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fieldRefusal, quickUser, refusal, useTestApp, type Json } from './helpers.ts';
import {
  ADMIN_TICKETS,
  departmentId,
  download,
  gifOf,
  HTML_PAGE,
  jpegOf,
  openTicket,
  ownDepartment,
  PDF,
  pngOf,
  postForm,
  rowsOf,
  SCRIPT,
  storedSupportFiles,
  SVG_IMAGE,
  TICKETS,
  type FormFile,
} from './support-fixtures.ts';

/**
 * A user's support tickets through the real HTTP API on a real PostgreSQL: opening one (one open
 * per department, under races too), writing, resuming a closed one, the 1024-character limit
 * counted in characters, the attachments (every refusal changing nothing, downloads and
 * previews that cannot run a script), who may read what, and the unread marker.
 */

const t = useTestApp();

type User = Awaited<ReturnType<typeof quickUser>>;

const strict = <S extends z.ZodMiniObject>(schema: S) => z.strictObject(schema.shape);

const technical = () => departmentId(t, 'technical');
const billing = () => departmentId(t, 'billing');

const write = (user: User, ticketId: number, text: string, files: FormFile[] = []) =>
  postForm(t, `${TICKETS}/${ticketId}/messages`, user.token, { text }, files);

const create = (
  user: User,
  department: number,
  fields: Record<string, string> = {},
  files: FormFile[] = [],
) =>
  postForm(
    t,
    TICKETS,
    user.token,
    { department_id: String(department), title: 'Help', text: 'Please help.', ...fields },
    files,
  );

/** An operator's reply (or note) through the help desk. */
async function staffWrites(
  admin: User,
  ticketId: number,
  text: string,
  internal = false,
  files: FormFile[] = [],
) {
  const res = await postForm(
    t,
    `${ADMIN_TICKETS}/${ticketId}/messages`,
    admin.token,
    { text, internal: String(internal) },
    files,
  );
  expect(res.status, res.text).toBe(201);
  return res;
}

const ticketsOf = (user: User) => rowsOf(t, 'support_tickets', 'user_id = $1', [user.id]);

/** What a refusal must leave: no ticket, message or attachment row of the user, no stored file. */
async function expectNothingWritten(user: User, files: string[]) {
  expect(await ticketsOf(user)).toBe(0);
  expect(await rowsOf(t, 'support_messages', 'author_id = $1', [user.id])).toBe(0);
  expect(storedSupportFiles(t)).toEqual(files);
}

describe('departments', () => {
  it('lists the active departments in order, the seeded four among them, an inactive one not', async () => {
    const user = await quickUser(t);
    const hidden = await ownDepartment(t, 'Hidden desk');
    await t.sql.query('update support_departments set active = false where id = $1', [hidden]);
    const res = await t.api.get('/api/user/support/departments', { token: user.token });
    expect(res.status).toBe(200);
    expect(strict(departmentsResponseSchema).parse(res.body)).toEqual(res.body);
    const codes = res.body.data.map((d: Json) => d.code).filter(Boolean);
    expect(codes.slice(0, 4)).toEqual(['technical', 'billing', 'partnership', 'monitoring']);
    expect(res.body.data.find((d: Json) => d.code === 'technical')).toMatchObject({
      name_en: 'Technical support',
      name_ru: 'Техническая поддержка',
      active: true,
    });
    expect(res.body.data.some((d: Json) => d.id === hidden)).toBe(false);
  });

  it('refuses a ticket in an inactive or unknown department', async () => {
    const user = await quickUser(t);
    const hidden = await ownDepartment(t, 'Closed desk');
    await t.sql.query('update support_departments set active = false where id = $1', [hidden]);
    for (const id of [String(hidden), '999999', '', 'abc']) {
      const res = await create(user, 0, { department_id: id });
      expect({ status: res.status, body: res.body }, id).toEqual({
        status: 422,
        body: fieldRefusal('department_id', 'DEPARTMENT_REQUIRED'),
      });
    }
    expect(await ticketsOf(user)).toBe(0);
  });
});

describe('opening a ticket', () => {
  it('opens a New ticket with its first message, waiting for an answer, and audits it', async () => {
    const user = await quickUser(t);
    const department = await technical();
    const res = await create(user, department, {
      title: '  Server #12 is down  ',
      text: 'It stopped at 10:00.\nPlease look.',
    });
    expect(res.status, res.text).toBe(201);
    expect(strict(ticketActionResponseSchema).parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      code: 'TICKET_CREATED',
      ticket: {
        title: 'Server #12 is down',
        status: 'new',
        department_id: department,
        unread: false,
      },
    });
    const id = res.body.ticket.id as number;
    const { rows } = await t.sql.query(
      'select waiting_since, created_at, staff_updated_at, closed_at from support_tickets where id = $1',
      [id],
    );
    expect(rows[0].waiting_since).toEqual(rows[0].created_at);
    expect(rows[0].staff_updated_at).toBeNull();

    const thread = await t.api.get(`${TICKETS}/${id}`, { token: user.token });
    expect(thread.status).toBe(200);
    expect(strict(ticketResponseSchema).parse(thread.body)).toEqual(thread.body);
    expect(thread.body.messages).toEqual([
      expect.objectContaining({
        kind: 'message',
        author_kind: 'user',
        author_name: user.name,
        body: 'It stopped at 10:00.\nPlease look.',
        attachments: [],
      }),
    ]);
    const audit = await t.sql.query(
      `select actor_id, action, subject_type, subject_id, target_user_id from audit_log where subject_id = $1 and subject_type = 'support_ticket'`,
      [String(id)],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: String(user.id),
        action: 'support.ticket_open',
        subject_type: 'support_ticket',
        subject_id: String(id),
        target_user_id: String(user.id),
      },
    ]);
  });

  it('refuses a missing title or text, each on its field', async () => {
    const user = await quickUser(t);
    const department = await technical();
    const cases: [Record<string, string>, string, ErrorCode][] = [
      [{ title: '' }, 'title', 'TICKET_TITLE_REQUIRED'],
      [{ title: '   ' }, 'title', 'TICKET_TITLE_REQUIRED'],
      [{ title: 'x'.repeat(201) }, 'title', 'TICKET_TITLE_TOO_LONG'],
      [{ text: '' }, 'text', 'TICKET_TEXT_REQUIRED'],
      [{ text: ' \n ' }, 'text', 'TICKET_TEXT_REQUIRED'],
      [{ text: 'a\u0000b' }, 'text', 'TEXT_CHARACTERS_INVALID'],
    ];
    for (const [fields, field, code] of cases) {
      const res = await create(user, department, fields);
      expect({ status: res.status, body: res.body }, JSON.stringify(fields)).toEqual({
        status: 422,
        body: fieldRefusal(field, code),
      });
    }
    // no text field at all
    const res = await postForm(t, TICKETS, user.token, {
      department_id: String(department),
      title: 'x',
    });
    expect(res.body).toEqual(fieldRefusal('text', 'TICKET_TEXT_REQUIRED'));
    expect(await ticketsOf(user)).toBe(0);
  });

  it('takes 1024 characters counted as characters (emoji, Cyrillic) and refuses 1025, writing nothing', async () => {
    const user = await quickUser(t);
    const emoji = '🙂'.repeat(1024);
    expect(emoji.length).toBe(2048); // UTF-16 units: a length check in those would refuse it
    const cyrillic = 'ж'.repeat(1024);
    const files = storedSupportFiles(t);

    for (const text of [`${emoji}🙂`, `${cyrillic}ж`, `${'a'.repeat(1000)}${'🙂'.repeat(25)}`]) {
      const res = await create(user, await technical(), { text });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 422,
        body: fieldRefusal('text', 'TICKET_TEXT_TOO_LONG'),
      });
    }
    // a text far beyond what the parser takes is cut off there and refused the same way
    const huge = await create(user, await technical(), { text: 'я'.repeat(30_000) });
    expect(huge.body).toEqual(fieldRefusal('text', 'TICKET_TEXT_TOO_LONG'));
    await expectNothingWritten(user, files);

    // a form sends line breaks as CR LF: each is still one character, as the console counts it
    const lines = `${'a'.repeat(500)}${'\n'.repeat(24)}${'a'.repeat(500)}`;
    const withLines = await create(user, await billing(), { text: lines });
    expect(withLines.status, withLines.text).toBe(201);

    const opened = await create(user, await technical(), { text: emoji });
    expect(opened.status, opened.text).toBe(201);
    const id = opened.body.ticket.id as number;
    const { rows } = await t.sql.query(
      'select char_length(body) as n, body from support_messages where ticket_id = any($1) order by id',
      [[withLines.body.ticket.id, id]],
    );
    expect(rows).toEqual([
      { n: 1024, body: lines },
      { n: 1024, body: emoji },
    ]);

    // the same limit for a message in the ticket
    const tooLong = await write(user, id, `${cyrillic}ж`);
    expect(tooLong.body).toEqual(fieldRefusal('text', 'TICKET_TEXT_TOO_LONG'));
    expect((await write(user, id, cyrillic)).status).toBe(201);
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [id])).toBe(2);
  });

  it('keeps one open ticket per department: a second is refused with the open one, another department is fine', async () => {
    const user = await quickUser(t);
    const first = await openTicket(t, user.token, await technical());
    const res = await create(user, await technical());
    expect(res.status).toBe(409);
    expect(strict(ticketOpenConflictSchema).parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({ ...refusal('TICKET_OPEN_EXISTS'), ticket_id: first.id });
    // another user, and another department, are not concerned
    expect((await create(await quickUser(t), await technical())).status).toBe(201);
    expect((await create(user, await billing())).status).toBe(201);
    expect(await ticketsOf(user)).toBe(2);
  });

  it('lets exactly one of ten simultaneous openings win; the others get its id and leave no file behind', async () => {
    const user = await quickUser(t);
    const department = await technical();
    const before = storedSupportFiles(t);
    const png = await pngOf();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create(user, department, { title: `Race ${i}` }, [{ bytes: png, name: `shot-${i}.png` }]),
      ),
    );
    const won = answers.filter((a) => a.status === 201);
    const lost = answers.filter((a) => a.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    const id = won[0]!.body.ticket.id as number;
    for (const answer of lost)
      expect(answer.body).toEqual({ ...refusal('TICKET_OPEN_EXISTS'), ticket_id: id });
    expect(await ticketsOf(user)).toBe(1);
    expect(await rowsOf(t, 'support_messages', 'author_id = $1', [user.id])).toBe(1);
    // the winner's file and its preview only: the losers' stored files were deleted
    expect(await rowsOf(t, 'support_attachments', 'ticket_id = $1', [id])).toBe(1);
    expect(storedSupportFiles(t).filter((f) => !before.includes(f))).toHaveLength(2);
  });

  it('answers 413 to a form that says it is larger than five files can be, before reading it', async () => {
    const user = await quickUser(t);
    const files = storedSupportFiles(t);
    const body = Buffer.alloc(5 * ATTACHMENT_MAX_BYTES + 1024 * 1024, 0x41);
    const res = await fetch(`${t.url}${TICKETS}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(refusal('PAYLOAD_TOO_LARGE'));
    await expectNothingWritten(user, files);
  });

  it('answers 415 to a form that is not multipart and 401 without a token', async () => {
    const user = await quickUser(t);
    const json = await t.api.post(
      TICKETS,
      { department_id: await technical(), title: 'x', text: 'y' },
      { token: user.token },
    );
    expect({ status: json.status, body: json.body }).toEqual({
      status: 415,
      body: refusal('UNSUPPORTED_MEDIA_TYPE'),
    });
    const anonymous = await fetch(`${t.url}${TICKETS}`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
    expect(await ticketsOf(user)).toBe(0);
  });
});

describe('writing, closing and resuming', () => {
  it('adds the user’s messages to the thread; a processing ticket stays processing and waits again', async () => {
    const user = await quickUser(t);
    const admin = await quickUser(t, { role: 'admin', name: 'Olga Operator' });
    const ticket = await openTicket(t, user.token, await technical());
    await staffWrites(admin, ticket.id, 'Which server?');
    const { rows: answered } = await t.sql.query(
      'select status, waiting_since from support_tickets where id = $1',
      [ticket.id],
    );
    expect(answered[0]).toEqual({ status: 'processing', waiting_since: null });

    t.clock.advance(60_000);
    const res = await write(user, ticket.id, 'Server #12.');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      code: 'TICKET_MESSAGE_SENT',
      ticket: { status: 'processing' },
    });
    t.clock.advance(60_000);
    await write(user, ticket.id, 'And #13 too.');
    const { rows } = await t.sql.query(
      `select t.status, t.waiting_since, (select min(created_at) from support_messages m
         where m.ticket_id = t.id and m.body = 'Server #12.') as first_unanswered
       from support_tickets t where t.id = $1`,
      [ticket.id],
    );
    // waiting since the oldest unanswered message, not the latest
    expect(rows[0].status).toBe('processing');
    expect(rows[0].waiting_since).toEqual(rows[0].first_unanswered);
    const thread = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(thread.body.messages.map((m: Json) => [m.author_kind, m.author_name, m.body])).toEqual([
      ['user', user.name, 'It stays in Starting for an hour.'],
      ['staff', 'Olga Operator', 'Which server?'],
      ['user', user.name, 'Server #12.'],
      ['user', user.name, 'And #13 too.'],
    ]);
  });

  it('closes a ticket (a second close is refused) and resumes it as New when the user writes', async () => {
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, await technical());
    const closed = await t.api.post(`${TICKETS}/${ticket.id}/close`, undefined, {
      token: user.token,
    });
    expect(closed.status, closed.text).toBe(200);
    expect(strict(ticketActionResponseSchema).parse(closed.body)).toEqual(closed.body);
    expect(closed.body).toMatchObject({ code: 'TICKET_CLOSE_DONE', ticket: { status: 'closed' } });
    const { rows } = await t.sql.query(
      'select closed_at, waiting_since from support_tickets where id = $1',
      [ticket.id],
    );
    expect(rows[0].closed_at).not.toBeNull();
    expect(rows[0].waiting_since).toBeNull();
    const again = await t.api.post(`${TICKETS}/${ticket.id}/close`, undefined, {
      token: user.token,
    });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: refusal('TICKET_CLOSED'),
    });

    const resumed = await write(user, ticket.id, 'It happened again.');
    expect(resumed.status, resumed.text).toBe(201);
    expect(resumed.body).toMatchObject({ code: 'TICKET_RESUMED', ticket: { status: 'new' } });
    const { rows: after } = await t.sql.query(
      'select status, closed_at, waiting_since from support_tickets where id = $1',
      [ticket.id],
    );
    expect(after[0].status).toBe('new');
    expect(after[0].closed_at).toBeNull();
    expect(after[0].waiting_since).not.toBeNull();
    const audit = await t.sql.query(
      `select action from audit_log where subject_type = 'support_ticket' and subject_id = $1 order by id`,
      [String(ticket.id)],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'support.ticket_open',
      'support.ticket_close',
      'support.ticket_resume',
    ]);
    // the thread shows both, as the user's own, to the user and to the help desk
    const thread = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(strict(ticketResponseSchema).parse(thread.body)).toEqual(thread.body);
    const events = (messages: Json[]) =>
      messages.map((m: Json) => [m.kind, m.author_kind, m.author_name, m.body]);
    const expected = [
      ['message', 'user', user.name, expect.any(String)],
      ['event', 'user', user.name, 'closed'],
      ['event', 'user', user.name, 'new'],
      ['message', 'user', user.name, 'It happened again.'],
    ];
    expect(events(thread.body.messages)).toEqual(expected);
    const admin = await quickUser(t, { role: 'admin' });
    const desk = await t.api.get(`${ADMIN_TICKETS}/${ticket.id}`, { token: admin.token });
    expect(desk.status, desk.text).toBe(200);
    expect(events(desk.body.messages)).toEqual(expected);
  });

  it('refuses to resume a closed ticket while another of its department is open, naming that one', async () => {
    const user = await quickUser(t);
    const department = await technical();
    const old = await openTicket(t, user.token, department);
    await t.api.post(`${TICKETS}/${old.id}/close`, undefined, { token: user.token });
    const current = await openTicket(t, user.token, department, { title: 'A new question' });
    const files = storedSupportFiles(t);
    // the opening message and the user's closing
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [old.id])).toBe(2);
    const res = await write(user, old.id, 'Back to the old one', [
      { bytes: await pngOf(), name: 'a.png' },
    ]);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: { ...refusal('TICKET_OPEN_EXISTS'), ticket_id: current.id },
    });
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [old.id])).toBe(2);
    const { rows } = await t.sql.query('select status from support_tickets where id = $1', [
      old.id,
    ]);
    expect(rows[0].status).toBe('closed');
    expect(storedSupportFiles(t)).toEqual(files);
  });

  it('lists the user’s tickets newest activity first, filtered and paged', async () => {
    const user = await quickUser(t);
    const a = await openTicket(t, user.token, await technical(), { title: 'A' });
    t.clock.advance(1000);
    const b = await openTicket(t, user.token, await billing(), { title: 'B' });
    t.clock.advance(1000);
    await write(user, a.id, 'Anything new?');
    t.clock.advance(1000);
    await t.api.post(`${TICKETS}/${b.id}/close`, undefined, { token: user.token });
    t.clock.advance(1000);

    const all = await t.api.get(TICKETS, { token: user.token });
    expect(all.status).toBe(200);
    expect(strict(ticketsResponseSchema).parse(all.body)).toEqual(all.body);
    expect(all.body.data.map((x: Json) => x.title)).toEqual(['B', 'A']);
    expect(all.body.meta).toEqual({ page: 1, per_page: expect.any(Number), total: 2 });
    const open = await t.api.get(`${TICKETS}?status=open`, { token: user.token });
    expect(open.body.data.map((x: Json) => x.id)).toEqual([a.id]);
    const closed = await t.api.get(`${TICKETS}?status=closed`, { token: user.token });
    expect(closed.body.data.map((x: Json) => x.id)).toEqual([b.id]);
    const byDepartment = await t.api.get(`${TICKETS}?department_id=${await billing()}`, {
      token: user.token,
    });
    expect(byDepartment.body.data.map((x: Json) => x.id)).toEqual([b.id]);
    const paged = await t.api.get(`${TICKETS}?per_page=1&page=2`, { token: user.token });
    expect(paged.body.data.map((x: Json) => x.id)).toEqual([a.id]);
    const bad = await t.api.get(`${TICKETS}?status=waiting`, { token: user.token });
    expect(bad.status).toBe(422);
  });
});

describe('who sees what', () => {
  it('answers 404 for another user’s ticket, whatever is asked, and changes nothing', async () => {
    const owner = await quickUser(t);
    const other = await quickUser(t);
    const ticket = await openTicket(t, owner.token, await technical());
    const notFound = { status: 404, body: refusal('TICKET_NOT_FOUND') };
    const read = await t.api.get(`${TICKETS}/${ticket.id}`, { token: other.token });
    expect({ status: read.status, body: read.body }).toEqual(notFound);
    const written = await write(other, ticket.id, 'mine now');
    expect({ status: written.status, body: written.body }).toEqual(notFound);
    const closed = await t.api.post(`${TICKETS}/${ticket.id}/close`, undefined, {
      token: other.token,
    });
    expect({ status: closed.status, body: closed.body }).toEqual(notFound);
    const missing = await t.api.get(`${TICKETS}/999999999`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [ticket.id])).toBe(1);
    const { rows } = await t.sql.query('select status from support_tickets where id = $1', [
      ticket.id,
    ]);
    expect(rows[0].status).toBe('new');
  });

  it('never shows the user the staff’s internal notes nor their files', async () => {
    const user = await quickUser(t);
    const admin = await quickUser(t, { role: 'admin' });
    const ticket = await openTicket(t, user.token, await technical());
    await staffWrites(admin, ticket.id, 'INTERNAL: the user owes us money', true, [
      { bytes: await pngOf(), name: 'internal.png' },
    ]);
    const res = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(res.text).not.toContain('INTERNAL');
    expect(res.body.messages.map((m: Json) => m.kind)).toEqual(['message']);
    expect(res.body.ticket).toMatchObject({ status: 'new', unread: false });
    const { rows } = await t.sql.query('select id from support_attachments where ticket_id = $1', [
      ticket.id,
    ]);
    const file = await download(t, `/api/user/support/attachments/${rows[0].id}`, user.token);
    expect(file.status).toBe(404);
    // the operators see it in the help desk
    const desk = await t.api.get(`${ADMIN_TICKETS}/${ticket.id}`, { token: admin.token });
    expect(desk.body.messages.map((m: Json) => m.kind)).toEqual(['message', 'note']);
  });

  it('marks a ticket unread when the staff answer or change its status, and read when the user opens it', async () => {
    const user = await quickUser(t);
    const admin = await quickUser(t, { role: 'admin' });
    const ticket = await openTicket(t, user.token, await technical());
    const unreadCount = async () =>
      (await t.api.get('/api/user/support/unread', { token: user.token })).body.count;
    const listed = async () =>
      (await t.api.get(TICKETS, { token: user.token })).body.data[0].unread as boolean;
    expect(await unreadCount()).toBe(0);

    await staffWrites(admin, ticket.id, 'A note only', true);
    expect(await unreadCount()).toBe(0);

    t.clock.advance(1000);
    await staffWrites(admin, ticket.id, 'Fixed, please check.');
    expect(await unreadCount()).toBe(1);
    expect(await listed()).toBe(true);

    t.clock.advance(1000);
    const opened = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(opened.body.ticket.unread).toBe(false);
    expect(await unreadCount()).toBe(0);
    expect(await listed()).toBe(false);

    t.clock.advance(1000);
    const status = await t.api.post(
      `${ADMIN_TICKETS}/${ticket.id}/status`,
      { status: 'closed' },
      { token: admin.token },
    );
    expect(status.status, status.text).toBe(200);
    expect(await unreadCount()).toBe(1);
  });
});

describe('attachments', () => {
  const attachmentsOf = async (user: User, ticketId: number) =>
    (await t.api.get(`${TICKETS}/${ticketId}`, { token: user.token })).body.messages.flatMap(
      (m: Json) => m.attachments,
    );

  it('takes a PNG, a JPEG, a GIF and a PDF by their content, stored under generated names', async () => {
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, await technical(), {}, [
      { bytes: await pngOf(400, 300), name: 'screen.png', type: 'image/png' },
      { bytes: await jpegOf(), name: 'photo.JPG', type: 'image/jpeg' },
      { bytes: await gifOf(), name: 'anim.gif', type: 'application/octet-stream' },
      { bytes: PDF, name: 'invoice.pdf', type: 'application/pdf' },
    ]);
    const attachments = await attachmentsOf(user, ticket.id);
    expect(attachments).toEqual([
      expect.objectContaining({
        file_name: 'screen.png',
        content_type: 'image/png',
        has_preview: true,
        width: 400,
        height: 300,
      }),
      expect.objectContaining({
        file_name: 'photo.JPG',
        content_type: 'image/jpeg',
        has_preview: true,
      }),
      expect.objectContaining({
        file_name: 'anim.gif',
        content_type: 'image/gif',
        has_preview: true,
      }),
      expect.objectContaining({
        file_name: 'invoice.pdf',
        content_type: 'application/pdf',
        size_bytes: PDF.length,
        has_preview: false,
        width: null,
        height: null,
      }),
    ]);
    const { rows } = await t.sql.query(
      'select storage_key, preview_key from support_attachments where ticket_id = $1 order by id',
      [ticket.id],
    );
    for (const row of rows) {
      expect(row.storage_key).toMatch(/^support\/[A-Za-z0-9_-]{22}\.(png|jpg|gif|pdf)$/);
      if (row.preview_key) expect(row.preview_key).toMatch(/^support\/[A-Za-z0-9_-]{22}\.webp$/);
    }
    expect(rows[3].preview_key).toBeNull();
  });

  it('serves the original only as a sandboxed download, to its owner and the operators', async () => {
    const user = await quickUser(t);
    const admin = await quickUser(t, { role: 'admin' });
    const png = await pngOf();
    const ticket = await openTicket(t, user.token, await technical(), {}, [
      { bytes: png, name: 'Скриншот "ошибки".png' },
    ]);
    const [attachment] = await attachmentsOf(user, ticket.id);
    const path = `/api/user/support/attachments/${attachment.id}`;
    const res = await download(t, path, user.token);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(png)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="________ ________.png"; filename*=UTF-8''${encodeURIComponent('Скриншот "ошибки".png')}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('cache-control')).toBe('private');

    for (const who of [admin.token]) {
      expect((await download(t, path, who)).status).toBe(200);
      const desk = await download(t, `/api/admin/support/attachments/${attachment.id}`, who);
      expect(desk.status).toBe(200);
      expect(desk.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(desk.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }
    const stranger = await quickUser(t);
    for (const suffix of ['', '/preview']) {
      const other = await download(t, `${path}${suffix}`, stranger.token);
      expect(other.status).toBe(404);
      expect(JSON.parse(other.bytes.toString())).toEqual(refusal('ATTACHMENT_NOT_FOUND'));
      // a user cannot take the operators' route either
      expect(
        (
          await download(
            t,
            `/api/admin/support/attachments/${attachment.id}${suffix}`,
            stranger.token,
          )
        ).status,
      ).toBe(403);
    }
    expect((await fetch(`${t.url}${path}`)).status).toBe(401);
  });

  it('previews an image only as a re-encoded WebP (at most 1280 px, no metadata); a PDF has no preview', async () => {
    const user = await quickUser(t);
    const big = await sharp({
      create: { width: 2000, height: 1000, channels: 3, background: '#123456' },
    })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'exif-secret-42' } })
      .toBuffer();
    const ticket = await openTicket(t, user.token, await technical(), {}, [
      { bytes: big, name: 'wide.jpg' },
      { bytes: PDF, name: 'doc.pdf' },
    ]);
    const [image, pdf] = await attachmentsOf(user, ticket.id);
    const preview = await download(
      t,
      `/api/user/support/attachments/${image.id}/preview`,
      user.token,
    );
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect(preview.headers.get('content-disposition')).toMatch(/^inline; filename="wide\.webp"/);
    expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
    expect(preview.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const meta = await sharp(preview.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1280, height: 640 });
    expect(meta.exif).toBeUndefined();
    expect(preview.bytes.includes('exif-secret-42')).toBe(false);

    const none = await download(t, `/api/user/support/attachments/${pdf.id}/preview`, user.token);
    expect(none.status).toBe(404);
    const pdfFile = await download(t, `/api/user/support/attachments/${pdf.id}`, user.token);
    expect(pdfFile.headers.get('content-type')).toBe('application/pdf');
    expect(pdfFile.headers.get('content-disposition')).toMatch(/^attachment; filename="doc\.pdf"/);
  });

  it('takes a GIF with a script appended, but serves it only as a download; its preview has no script', async () => {
    const user = await quickUser(t);
    const polyglot = Buffer.concat([await gifOf(), Buffer.from(SCRIPT)]);
    const ticket = await openTicket(t, user.token, await technical(), {}, [
      { bytes: polyglot, name: 'cat.gif', type: 'image/gif' },
    ]);
    const [gif] = await attachmentsOf(user, ticket.id);
    expect(gif).toMatchObject({ content_type: 'image/gif', has_preview: true });

    const original = await download(t, `/api/user/support/attachments/${gif.id}`, user.token);
    expect(original.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(original.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');

    const preview = await download(
      t,
      `/api/user/support/attachments/${gif.id}/preview`,
      user.token,
    );
    expect(preview.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(preview.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(preview.bytes.includes('<script')).toBe(false);
    const { rows } = await t.sql.query(
      'select preview_key from support_attachments where id = $1',
      [gif.id],
    );
    const stored = readFileSync(join(t.config.dataDir, 'files', ...rows[0].preview_key.split('/')));
    expect(stored.includes('<script')).toBe(false);
  });

  it('cleans the names shown: no directories, no control characters, at most 120 characters, the content’s extension', async () => {
    const user = await quickUser(t);
    const png = await pngOf();
    const names = [
      '../../../etc/passwd.png',
      '..\\..\\Windows\\win.ini.png',
      'evil\u202Egnp.exe',
      'line\r\nbreak\u0007.png',
      `${'д'.repeat(200)}.png`,
      'page.html',
      '...',
    ];
    const ticket = await openTicket(
      t,
      user.token,
      await technical(),
      {},
      names.slice(0, 5).map((name) => ({ bytes: png, name })),
    );
    const more = await write(
      user,
      ticket.id,
      'two more',
      names.slice(5).map((name) => ({ bytes: png, name })),
    );
    expect(more.status, more.text).toBe(201);
    const shown = (await attachmentsOf(user, ticket.id)).map((a: Json) => a.file_name as string);
    expect(shown).toEqual([
      'passwd.png',
      'win.ini.png',
      'evilgnp.exe.png',
      'line break.png',
      `${'д'.repeat(116)}.png`,
      'page.html.png',
      'file.png',
    ]);
    expect([...shown[4]!].length).toBe(120);
    // the stored keys are the product's own, whatever the names were
    const { rows } = await t.sql.query(
      'select storage_key from support_attachments where ticket_id = $1',
      [ticket.id],
    );
    for (const row of rows) expect(row.storage_key).toMatch(/^support\/[A-Za-z0-9_-]{22}\.png$/);
  });

  it('answers 404 to ids that try to leave the route', async () => {
    const user = await quickUser(t);
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '..', '1%2F..%2F2', '%2e%2e', '1.5', '-1', '0']) {
      const res = await download(t, `/api/user/support/attachments/${id}`, user.token);
      expect([400, 404], id).toContain(res.status);
    }
  });

  describe('refuses, writing and storing nothing', () => {
    async function expectRefused(files: FormFile[], status: number, code: ErrorCode) {
      const user = await quickUser(t);
      const before = storedSupportFiles(t);
      const res = await create(user, await technical(), {}, files);
      expect({ status: res.status, body: res.body }).toEqual({
        status,
        body: fieldRefusal('files', code),
      });
      await expectNothingWritten(user, before);
      // and the same in a message of an existing ticket
      const ticket = await openTicket(t, user.token, await technical());
      const afterOpen = storedSupportFiles(t);
      const message = await write(user, ticket.id, 'with a file', files);
      expect({ status: message.status, body: message.body }).toEqual({
        status,
        body: fieldRefusal('files', code),
      });
      expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [ticket.id])).toBe(1);
      expect(storedSupportFiles(t)).toEqual(afterOpen);
    }

    it('an HTML page named .png', async () => {
      await expectRefused(
        [{ bytes: HTML_PAGE, name: 'shot.png', type: 'image/png' }],
        422,
        'ATTACHMENT_FORMAT',
      );
    });

    it('an SVG image named .png', async () => {
      await expectRefused(
        [{ bytes: SVG_IMAGE, name: 'shot.png', type: 'image/png' }],
        422,
        'ATTACHMENT_FORMAT',
      );
    });

    it('a text file named .pdf', async () => {
      await expectRefused(
        [
          {
            bytes: Buffer.from('Just some text, not a PDF at all.\n'),
            name: 'doc.pdf',
            type: 'application/pdf',
          },
        ],
        422,
        'ATTACHMENT_FORMAT',
      );
    });

    it('a WebP image (an image, but not one of the four kinds)', async () => {
      const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .webp()
        .toBuffer();
      await expectRefused([{ bytes: webp, name: 'shot.png' }], 422, 'ATTACHMENT_FORMAT');
    });

    it('a damaged JPEG (cut in half)', async () => {
      const jpeg = await jpegOf(300, 300);
      await expectRefused(
        [{ bytes: jpeg.subarray(0, jpeg.length >> 1), name: 'half.jpg' }],
        422,
        'ATTACHMENT_UNREADABLE',
      );
    });

    it('an empty file', async () => {
      await expectRefused(
        [{ bytes: Buffer.alloc(0), name: 'empty.png' }],
        422,
        'ATTACHMENT_UNREADABLE',
      );
    });

    it('a 6 MB file: 413 once the parser passes 5 MB, nothing held or stored', async () => {
      const big = Buffer.concat([await pngOf(), Buffer.alloc(6 * 1024 * 1024, 0)]);
      expect(big.length).toBeGreaterThan(ATTACHMENT_MAX_BYTES);
      await expectRefused([{ bytes: big, name: 'big.png' }], 413, 'ATTACHMENT_TOO_LARGE');
    });

    it('six files (five is the most), good ones among them', async () => {
      const png = await pngOf();
      await expectRefused(
        Array.from({ length: 6 }, (_, i) => ({ bytes: png, name: `s${i}.png` })),
        422,
        'ATTACHMENTS_TOO_MANY',
      );
    });

    it('a good file next to a bad one', async () => {
      await expectRefused(
        [
          { bytes: await pngOf(), name: 'good.png' },
          { bytes: HTML_PAGE, name: 'bad.png' },
        ],
        422,
        'ATTACHMENT_FORMAT',
      );
    });
  });
});

describe('notifications where pg-boss never ran (this file runs no jobs)', () => {
  it('mails the operators of a new ticket and the user of the answer after the commit, once each', async () => {
    const admin = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const res = await create(user, await technical(), { title: 'No jobs', text: 'Anyone?' });
    expect(res.status, res.text).toBe(201);
    const id = res.body.ticket.id as number;
    const told = await t.smtp.next(admin.email);
    expect(told.subject).toBe(`TradeHost: new ticket #${id} (Technical support)`);
    expect(told.text).toContain('Anyone?');
    await staffWrites(admin, id, 'Here.');
    const answer = await t.smtp.next(user.email);
    expect(answer.subject).toBe(`TradeHost: a reply to your ticket #${id}`);
    expect(answer.text).toContain('Here.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.smtp.to(admin.email)).toHaveLength(1);
    expect(t.smtp.to(user.email)).toHaveLength(1);
  });
});
