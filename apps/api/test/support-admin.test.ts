import {
  adminDepartmentsResponseSchema,
  adminTicketActionResponseSchema,
  adminTicketResponseSchema,
  adminTicketsResponseSchema,
  supportQueuesResponseSchema,
} from '@tradehost/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { fieldRefusal, quickUser, refusal, type Json, type TestApp } from './helpers.ts';
import {
  ADMIN_TICKETS,
  departmentId,
  openTicket,
  pngOf,
  postForm,
  rowsOf,
  TICKETS,
} from './support-fixtures.ts';
import { linkChat, startAppWithBot, type TelegramTestApp } from './telegram-app.ts';
import type { EmulatedChat, TelegramEmulator } from './telegram-emulator.ts';

/**
 * The help desk through the real HTTP API: queues and the tickets list (waiting longest first),
 * replies and internal notes, assignment, statuses, canned replies and departments, every action
 * audited; and the notifications: the user by mail in their language and in the linked Telegram
 * chat (a Bot API emulator on loopback), the department's operators by mail, no channel's
 * failure holding back another or the request. The notifications are pg-boss jobs (the apps run
 * their workers): each test waits for the mail or the chat message they send.
 */

const TOKEN = '3000:support-test-token';
const BOT = { token: TOKEN, username: 'tradehost_support_bot', secret: 'support-webhook-secret' };

let bot: TelegramTestApp;
let t: TestApp;
let emulator: TelegramEmulator;
let nextChatId = 9000;

beforeAll(async () => {
  bot = await startAppWithBot(BOT, { JOBS_ENABLED: 'true' });
  ({ t, emulator } = bot);
});

afterAll(async () => {
  await bot?.close();
});

type User = Awaited<ReturnType<typeof quickUser>>;

const strict = <S extends z.ZodMiniObject>(schema: S) => z.strictObject(schema.shape);

const admin = (name = 'Olga Operator', language: 'en' | 'ru' = 'en') =>
  userIn(language, { role: 'admin', name });

async function userIn(
  language: 'en' | 'ru',
  fields: { role?: 'user' | 'admin'; name?: string } = {},
): Promise<User> {
  const user = await quickUser(t, fields);
  if (language === 'ru')
    await t.sql.query(`update users set language = 'ru' where id = $1`, [user.id]);
  return user;
}

/** A department of the test's own, made through the help desk (with its operators). */
async function department(operator: User, body: Record<string, unknown> = {}): Promise<number> {
  const res = await t.api.post(
    '/api/admin/support/departments',
    { name_en: 'Servers', name_ru: 'Серверы', position: 10, ...body },
    { token: operator.token },
  );
  expect(res.status, res.text).toBe(201);
  return res.body.department.id as number;
}

const reply = (operator: User, ticketId: number, text: string, internal = false) =>
  postForm(t, `${ADMIN_TICKETS}/${ticketId}/messages`, operator.token, {
    text,
    internal: String(internal),
  });

const setStatus = (operator: User, ticketId: number, status: string) =>
  t.api.post(`${ADMIN_TICKETS}/${ticketId}/status`, { status }, { token: operator.token });

const ticketRow = async (id: number) =>
  (await t.sql.query('select * from support_tickets where id = $1', [id])).rows[0];

/** The audit rows of a subject, oldest first. */
const auditOf = async (subjectType: string, subjectId: number) =>
  (
    await t.sql.query(
      `select actor_id, action, target_user_id, details from audit_log
       where subject_type = $1 and subject_id = $2 order by id`,
      [subjectType, String(subjectId)],
    )
  ).rows;

/** A user whose account notices go to a private chat of their own, linked as a person does. */
async function withChat(user: User) {
  nextChatId += 1;
  const chat: EmulatedChat = { id: nextChatId, type: 'private', first_name: user.name };
  await linkChat(bot, user, chat);
  return { chat, welcomed: emulator.sent(chat.id).length };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The states of the mail jobs (queue support-notice) of a ticket to one recipient. */
async function mailJobStates(ticketId: number, recipientId: number): Promise<string[]> {
  const { rows } = await t.sql.query<{ state: string }>(
    `select state from pgboss.job where name = 'support-notice' and data->>'channel' = 'email'
       and data->>'ticketId' = $1 and data->>'recipientId' = $2`,
    [String(ticketId), String(recipientId)],
  );
  return rows.map((row) => row.state);
}

/** Waits until the one mail job of a ticket to a recipient is in `state`. */
async function mailJobIn(ticketId: number, recipientId: number, state: 'retry' | 'completed') {
  await vi.waitFor(
    async () => expect(await mailJobStates(ticketId, recipientId)).toEqual([state]),
    {
      timeout: 10_000,
      interval: 50,
    },
  );
}

/** The retry a failed mail job waits for (30 s at first) starts now instead. */
async function retryNow(ticketId: number, recipientId: number) {
  await t.sql.query(
    `update pgboss.job set start_after = now() where name = 'support-notice' and state = 'retry'
       and data->>'ticketId' = $1 and data->>'recipientId' = $2`,
    [String(ticketId), String(recipientId)],
  );
}

describe('authorisation', () => {
  it('answers 403 to a user on every help desk route and 401 without a token, changing nothing', async () => {
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, await departmentId(t, 'technical'));
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/support/queues'],
      ['GET', ADMIN_TICKETS],
      ['GET', `${ADMIN_TICKETS}/${ticket.id}`],
      ['POST', `${ADMIN_TICKETS}/${ticket.id}/assign`, { assignee: 'me' }],
      ['POST', `${ADMIN_TICKETS}/${ticket.id}/status`, { status: 'closed' }],
      ['GET', '/api/admin/support/canned'],
      ['POST', '/api/admin/support/canned', { title: 'x', body_en: 'x', body_ru: 'x' }],
      ['GET', '/api/admin/support/departments'],
      ['POST', '/api/admin/support/departments', { name_en: 'x', name_ru: 'x' }],
      ['PUT', '/api/admin/support/departments/1', { name_en: 'x', name_ru: 'x' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.api.request(method, path, { body, token: user.token });
      expect({ status: res.status, body: res.body }, `${method} ${path}`).toEqual({
        status: 403,
        body: refusal('FORBIDDEN'),
      });
      expect((await t.api.request(method, path, { body })).status).toBe(401);
    }
    const form = await reply(user, ticket.id, 'I am staff now');
    expect({ status: form.status, body: form.body }).toEqual({
      status: 403,
      body: refusal('FORBIDDEN'),
    });
    // even a malformed upload learns nothing from the route before the role
    const json = await t.api.post(
      `${ADMIN_TICKETS}/${ticket.id}/messages`,
      { text: 'x' },
      {
        token: user.token,
      },
    );
    expect(json.status).toBe(403);
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [ticket.id])).toBe(1);
    expect((await ticketRow(ticket.id)).status).toBe('new');
    expect(await rowsOf(t, 'support_departments', `name_en = 'x'`)).toBe(0);
  });
});

describe('queues and the tickets list', () => {
  it('counts each department’s open tickets and the oldest wait', async () => {
    const operator = await admin();
    const desk = await department(operator, { name_en: 'Queue desk', name_ru: 'Очередь' });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => quickUser(t)));
    const first = await openTicket(t, a!.token, desk);
    const oldest = (await ticketRow(first.id)).waiting_since as Date;
    t.clock.advance(60_000);
    const second = await openTicket(t, b!.token, desk);
    const third = await openTicket(t, c!.token, desk);
    const closed = await openTicket(t, d!.token, desk);
    expect((await reply(operator, second.id, 'On it')).status).toBe(201);
    expect((await setStatus(operator, closed.id, 'closed')).status).toBe(200);

    const res = await t.api.get('/api/admin/support/queues', { token: operator.token });
    expect(res.status).toBe(200);
    expect(strict(supportQueuesResponseSchema).parse(res.body)).toEqual(res.body);
    expect(res.body.data.find((q: Json) => q.department.id === desk)).toEqual({
      department: expect.objectContaining({ id: desk, name_en: 'Queue desk', active: true }),
      new_count: 2,
      processing_count: 1,
      waiting_count: 2,
      oldest_waiting_since: oldest.toISOString(),
    });
    expect(third.status).toBe('new');
    // every department has its queue, in order, the seeded ones first
    expect(res.body.data.slice(0, 4).map((q: Json) => q.department.code)).toEqual([
      'technical',
      'billing',
      'partnership',
      'monitoring',
    ]);
  });

  it('lists tickets waiting longest first, then the oldest activity; filters, searches and pages', async () => {
    const operator = await admin();
    const desk = await department(operator, { name_en: 'List desk', name_ru: 'Список' });
    const users = await Promise.all([1, 2, 3, 4].map(() => quickUser(t)));
    const step = () => t.clock.advance(60_000);
    const answeredEarly = await openTicket(t, users[0]!.token, desk, { title: 'Answered early' });
    step();
    const waitsLongest = await openTicket(t, users[1]!.token, desk, { title: 'Waits longest' });
    step();
    const answeredLate = await openTicket(t, users[2]!.token, desk, { title: 'Answered late' });
    step();
    const waitsLess = await openTicket(t, users[3]!.token, desk, { title: 'Waits less' });
    step();
    await reply(operator, answeredEarly.id, 'Done');
    step();
    await reply(operator, answeredLate.id, 'Done too');

    const list = async (query: string, who = operator) => {
      const res = await t.api.get(`${ADMIN_TICKETS}?${query}`, { token: who.token });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const page = await list(`department_id=${desk}`);
    expect(strict(adminTicketsResponseSchema).parse(page)).toEqual(page);
    expect(page.data.map((x: Json) => x.title)).toEqual([
      'Waits longest',
      'Waits less',
      'Answered early',
      'Answered late',
    ]);
    expect(page.meta).toEqual({ page: 1, per_page: expect.any(Number), total: 4 });
    expect(page.data[0]).toMatchObject({
      id: waitsLongest.id,
      user: { id: users[1]!.id, email: users[1]!.email, name: users[1]!.name },
      assignee: null,
      user_language: 'en',
      status: 'new',
      waiting_since: expect.any(String),
    });
    expect(page.data[2].waiting_since).toBeNull();

    const second = await list(`department_id=${desk}&per_page=1&page=2`);
    expect(second.data.map((x: Json) => x.id)).toEqual([waitsLess.id]);
    expect(second.meta.total).toBe(4);
    expect(
      (await list(`department_id=${desk}&status=processing`)).data.map((x: Json) => x.id),
    ).toEqual([answeredEarly.id, answeredLate.id]);

    // search: the number (#12: only that one), part of the title, part of the e-mail
    expect((await list(`search=${waitsLess.id}`)).data.map((x: Json) => x.id)).toContain(
      waitsLess.id,
    );
    expect((await list(`search=%23${waitsLess.id}`)).data.map((x: Json) => x.id)).toEqual([
      waitsLess.id,
    ]);
    expect(
      (await list(`department_id=${desk}&search=LONGEST`)).data.map((x: Json) => x.id),
    ).toEqual([waitsLongest.id]);
    const emailPart = users[2]!.email.split('@')[0]!;
    expect(
      (await list(`search=${encodeURIComponent(emailPart)}`)).data.map((x: Json) => x.id),
    ).toEqual([answeredLate.id]);
    expect((await list(`search=${encodeURIComponent('100%_')}`)).data).toEqual([]);

    // assigned to me, or to nobody
    const take = await t.api.post(
      `${ADMIN_TICKETS}/${waitsLess.id}/assign`,
      { assignee: 'me' },
      { token: operator.token },
    );
    expect(take.status).toBe(200);
    expect((await list(`department_id=${desk}&assignee=me`)).data.map((x: Json) => x.id)).toEqual([
      waitsLess.id,
    ]);
    expect((await list(`department_id=${desk}&assignee=none`)).meta.total).toBe(3);
    const colleague = await admin('Ivan Operator');
    expect((await list(`department_id=${desk}&assignee=me`, colleague)).data).toEqual([]);
    const bad = await t.api.get(`${ADMIN_TICKETS}?assignee=someone`, { token: operator.token });
    expect(bad.status).toBe(422);
  });
});

describe('working a ticket', () => {
  it('shows the whole thread with notes; a reply sets Processing, ends the wait, is audited and mailed in the user’s language', async () => {
    const operator = await admin('Olga Operator');
    const user = await userIn('ru', { name: 'Пётр' });
    const ticket = await openTicket(t, user.token, await departmentId(t, 'billing'), {
      title: 'Не пришёл платёж',
    });
    const note = await reply(operator, ticket.id, 'Check the gateway first', true);
    expect(note.status, note.text).toBe(201);
    expect(strict(adminTicketActionResponseSchema).parse(note.body)).toEqual(note.body);
    const afterNote = await ticketRow(ticket.id);
    expect(afterNote).toMatchObject({ status: 'new', staff_updated_at: null });
    expect(afterNote.updated_at).toEqual(afterNote.created_at);
    expect(afterNote.waiting_since).not.toBeNull();

    t.clock.advance(1000);
    const mails = t.smtp.to(user.email).length;
    const res = await postForm(
      t,
      `${ADMIN_TICKETS}/${ticket.id}/messages`,
      operator.token,
      { text: 'Платёж найден,\nбаланс пополнен.' },
      [{ bytes: await pngOf(), name: 'receipt.png' }],
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.ticket).toMatchObject({ status: 'processing', waiting_since: null });
    const row = await ticketRow(ticket.id);
    expect(row.staff_updated_at).toEqual(row.updated_at);

    const mail = await t.smtp.next(user.email, mails);
    expect(mail.subject).toBe(`TradeHost: ответ по обращению №\u00a0${ticket.id}`);
    expect(mail.text).toContain('Здравствуйте, Пётр!');
    expect(mail.text).toContain('Платёж найден,\nбаланс пополнен.');
    expect(mail.text).toContain(`${t.config.publicUrl}/support/${ticket.id}`);
    expect(mail.html).toContain('white-space:pre-wrap');
    // one mail: the note told nobody
    expect(t.smtp.to(user.email).length).toBe(mails + 1);

    const desk = await t.api.get(`${ADMIN_TICKETS}/${ticket.id}`, { token: operator.token });
    expect(desk.status).toBe(200);
    expect(strict(adminTicketResponseSchema).parse(desk.body)).toEqual(desk.body);
    expect(desk.body.ticket.user_language).toBe('ru');
    expect(desk.body.messages.map((m: Json) => [m.kind, m.author_kind, m.author_name])).toEqual([
      ['message', 'user', 'Пётр'],
      ['note', 'staff', 'Olga Operator'],
      ['message', 'staff', 'Olga Operator'],
    ]);
    expect(desk.body.messages[2].attachments).toEqual([
      expect.objectContaining({ file_name: 'receipt.png', content_type: 'image/png' }),
    ]);
    // the user sees the reply and its file, not the note
    const mine = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(mine.body.messages.map((m: Json) => m.kind)).toEqual(['message', 'message']);

    const audit = await auditOf('support_ticket', ticket.id);
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['support.ticket_open', String(user.id)],
      ['support.note', String(operator.id)],
      ['support.reply', String(operator.id)],
    ]);
    expect(audit[2].details).toMatchObject({ files: 1, from: 'new', to: 'processing' });
  });

  it('refuses an empty or too long staff text and a ticket that does not exist', async () => {
    const operator = await admin();
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, await departmentId(t, 'technical'));
    const empty = await reply(operator, ticket.id, '  ');
    expect(empty.body).toEqual(fieldRefusal('text', 'TICKET_TEXT_REQUIRED'));
    const long = await reply(operator, ticket.id, 'x'.repeat(8001));
    expect(long.body).toEqual(fieldRefusal('text', 'TICKET_TEXT_TOO_LONG'));
    // staff replies may be longer than the user's 1024
    expect((await reply(operator, ticket.id, 'ж'.repeat(8000))).status).toBe(201);
    const bad = await postForm(t, `${ADMIN_TICKETS}/${ticket.id}/messages`, operator.token, {
      text: 'x',
      internal: 'maybe',
    });
    expect(bad.status).toBe(422);
    const missing = await reply(operator, 999_999_999, 'Hello');
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: refusal('TICKET_NOT_FOUND'),
    });
    expect(await rowsOf(t, 'support_messages', 'ticket_id = $1', [ticket.id])).toBe(2);
  });

  it('assigns to oneself and back, audited', async () => {
    const operator = await admin('Anna Operator');
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, await departmentId(t, 'technical'));
    const path = `${ADMIN_TICKETS}/${ticket.id}/assign`;
    const taken = await t.api.post(path, { assignee: 'me' }, { token: operator.token });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body.ticket.assignee).toEqual({
      id: operator.id,
      email: operator.email,
      name: 'Anna Operator',
    });
    // taking it again changes nothing
    await t.api.post(path, { assignee: 'me' }, { token: operator.token });
    const given = await t.api.post(path, { assignee: null }, { token: operator.token });
    expect(given.body.ticket.assignee).toBeNull();
    const wrong = await t.api.post(path, { assignee: 'someone' }, { token: operator.token });
    expect(wrong.status).toBe(422);
    const missing = await t.api.post(
      `${ADMIN_TICKETS}/999999999/assign`,
      { assignee: 'me' },
      { token: operator.token },
    );
    expect(missing.status).toBe(404);
    const audit = await auditOf('support_ticket', ticket.id);
    expect(audit.map((a) => a.action)).toEqual([
      'support.ticket_open',
      'support.assign',
      'support.unassign',
    ]);
    expect(audit[1].details).toMatchObject({ from: null, to: operator.id });
  });

  it('changes the status with an event in the thread and a mail; closing sets closed_at; the same status changes nothing', async () => {
    const operator = await admin();
    const user = await quickUser(t, { name: 'Jane' });
    const ticket = await openTicket(t, user.token, await departmentId(t, 'technical'), {
      title: 'Slow server',
    });
    const mails = t.smtp.to(user.email).length;
    const closed = await setStatus(operator, ticket.id, 'closed');
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.ticket).toMatchObject({ status: 'closed', waiting_since: null });
    expect((await ticketRow(ticket.id)).closed_at).not.toBeNull();
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.subject).toBe(`TradeHost: ticket #${ticket.id} status: Closed`);
    expect(mail.text).toContain('Hello Jane,');
    expect(mail.text).toContain('just write in the ticket and it opens again');

    const same = await setStatus(operator, ticket.id, 'closed');
    expect(same.status).toBe(200);
    expect(same.body.message).toBe('The status is unchanged');

    const reopened = await setStatus(operator, ticket.id, 'processing');
    expect(reopened.body.ticket.status).toBe('processing');
    expect((await ticketRow(ticket.id)).closed_at).toBeNull();

    const thread = await t.api.get(`${TICKETS}/${ticket.id}`, { token: user.token });
    expect(thread.body.messages.map((m: Json) => [m.kind, m.body])).toEqual([
      ['message', 'It stays in Starting for an hour.'],
      ['event', 'closed'],
      ['event', 'processing'],
    ]);
    const audit = await auditOf('support_ticket', ticket.id);
    expect(audit.slice(1).map((a) => [a.action, a.details.from, a.details.to])).toEqual([
      ['support.status', 'new', 'closed'],
      ['support.status', 'closed', 'processing'],
    ]);
    expect((await t.smtp.next(user.email, mails + 1)).subject).toBe(
      `TradeHost: ticket #${ticket.id} status: Processing`,
    );
    await sleep(100);
    expect(t.smtp.to(user.email).length).toBe(mails + 2);

    const invalid = await setStatus(operator, ticket.id, 'waiting');
    expect({ status: invalid.status, body: invalid.body }).toEqual({
      status: 422,
      body: fieldRefusal('status', 'TICKET_STATUS_INVALID'),
    });
  });

  it('keeps one open ticket per department when reopening or replying to a closed one', async () => {
    const operator = await admin();
    const user = await quickUser(t);
    const technical = await departmentId(t, 'technical');
    const old = await openTicket(t, user.token, technical);
    await setStatus(operator, old.id, 'closed');
    const current = await openTicket(t, user.token, technical, { title: 'Another one' });
    const conflict = { ...refusal('TICKET_OPEN_EXISTS'), ticket_id: current.id };

    const reopen = await setStatus(operator, old.id, 'new');
    expect({ status: reopen.status, body: reopen.body }).toEqual({ status: 409, body: conflict });
    const answered = await reply(operator, old.id, 'Following up');
    expect({ status: answered.status, body: answered.body }).toEqual({
      status: 409,
      body: conflict,
    });
    // a note on a closed ticket opens nothing
    expect((await reply(operator, old.id, 'Duplicate of the new one', true)).status).toBe(201);
    expect((await ticketRow(old.id)).status).toBe('closed');

    await setStatus(operator, current.id, 'closed');
    const replied = await reply(operator, old.id, 'Following up');
    expect(replied.status, replied.text).toBe(201);
    expect(replied.body.ticket.status).toBe('processing');
    expect((await ticketRow(old.id)).closed_at).toBeNull();
  });
});

describe('notifications', () => {
  it('mails a department’s listed operators (in their language) of a new ticket and of each message', async () => {
    const lead = await admin('Lead');
    const listed = await admin('Мария', 'ru');
    const other = await admin('Not listed');
    const desk = await department(lead, {
      name_en: 'Hardware',
      name_ru: 'Оборудование',
      operator_ids: [listed.id],
    });
    const user = await quickUser(t, { name: 'Sam', email: `sam-${Date.now()}@example.com` });
    const before = t.smtp.to(other.email).length;
    const ticket = await openTicket(
      t,
      user.token,
      desk,
      { title: 'Disk full', text: 'The disk is full.' },
      [{ bytes: await pngOf(), name: 'disk.png' }],
    );
    const mail = await t.smtp.next(listed.email);
    expect(mail.subject).toBe(`TradeHost: новое обращение №\u00a0${ticket.id} (Оборудование)`);
    expect(mail.text).toContain('Здравствуйте, Мария!');
    expect(mail.text).toContain(`от Sam (${user.email})`);
    expect(mail.text).toContain('The disk is full.');
    expect(mail.text).toContain('Приложено файлов: 1.');
    expect(mail.text).toContain(`${t.config.publicUrl}/operator/support/${ticket.id}`);

    const write = await postForm(t, `${TICKETS}/${ticket.id}/messages`, user.token, {
      text: 'Any news?',
    });
    expect(write.status).toBe(201);
    const second = await t.smtp.next(listed.email, 1);
    expect(second.subject).toBe(`TradeHost: новое сообщение в обращении №\u00a0${ticket.id}`);
    expect(second.text).toContain('Any news?');
    await sleep(100);
    expect(t.smtp.to(other.email).length).toBe(before);
  });

  it('mails every operator when a department lists none', async () => {
    const first = await admin('First');
    const second = await admin('Second');
    const desk = await department(first, { name_en: 'Anyone', name_ru: 'Все' });
    const user = await quickUser(t);
    const ticket = await openTicket(t, user.token, desk);
    for (const operator of [first, second]) {
      const mail = await t.smtp.next(operator.email);
      expect(mail.subject).toBe(`TradeHost: new ticket #${ticket.id} (Anyone)`);
    }
  });

  it('tells the user of an answer in the linked Telegram chat too, and not of a note', async () => {
    const operator = await admin();
    const user = await userIn('ru', { name: 'Вера' });
    const { chat, welcomed } = await withChat(user);
    const ticket = await openTicket(t, user.token, await departmentId(t, 'monitoring'));
    expect((await reply(operator, ticket.id, 'Internal only', true)).status).toBe(201);
    expect((await reply(operator, ticket.id, 'Советник переподключён.')).status).toBe(201);
    const notice = await emulator.waitFor(() => emulator.sent(chat.id)[welcomed]);
    expect(notice.text).toContain(`ответ по обращению №\u00a0${ticket.id}`);
    expect(notice.text).toContain('Советник переподключён.');
    await sleep(100);
    expect(emulator.sent(chat.id)).toHaveLength(welcomed + 1);
    expect(emulator.sent(chat.id).some((m) => m.text.includes('Internal only'))).toBe(false);

    // a long answer: whole in the mail, its beginning in the chat (a message holds 4096 characters)
    const long = `${'ж'.repeat(5000)}КОНЕЦ`;
    const mails = t.smtp.to(user.email).length;
    expect((await reply(operator, ticket.id, long)).status).toBe(201);
    const longNotice = await emulator.waitFor(() => emulator.sent(chat.id)[welcomed + 1]);
    expect(longNotice.text.length).toBeLessThan(4096);
    expect(longNotice.text).toContain(`${'ж'.repeat(3000)}…`);
    expect(longNotice.text).not.toContain('КОНЕЦ');
    expect((await t.smtp.next(user.email, mails)).text).toContain(long);
  });

  it('still mails the user when the Telegram chat fails, and answers the operator', async () => {
    const operator = await admin();
    const user = await quickUser(t);
    const { chat } = await withChat(user);
    emulator.block(chat.id);
    const ticket = await openTicket(t, user.token, await departmentId(t, 'partnership'));
    const mails = t.smtp.to(user.email).length;
    const res = await reply(operator, ticket.id, 'Your code works now.');
    expect(res.status).toBe(201);
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.text).toContain('Your code works now.');
  });

  it('answers while the mail server refuses the mail, and mails the answer once it takes mail again', async () => {
    const operator = await admin();
    const user = await quickUser(t, { name: 'Ada' });
    const ticket = await openTicket(t, user.token, await departmentId(t, 'technical'));
    const mails = t.smtp.to(user.email).length;
    t.smtp.refuse(user.email);
    try {
      const res = await reply(operator, ticket.id, 'Fixed on our side.');
      expect(res.status, res.text).toBe(201);
      // the job was committed with the answer, before the request was answered
      expect(await mailJobStates(ticket.id, user.id)).toHaveLength(1);
      await mailJobIn(ticket.id, user.id, 'retry');
      expect(t.smtp.to(user.email)).toHaveLength(mails);
    } finally {
      t.smtp.accept();
    }
    await retryNow(ticket.id, user.id);
    const mail = await t.smtp.next(user.email, mails);
    expect(mail.subject).toBe(`TradeHost: a reply to your ticket #${ticket.id}`);
    expect(mail.text).toContain('Fixed on our side.');
    await mailJobIn(ticket.id, user.id, 'completed');
    await sleep(100);
    expect(t.smtp.to(user.email)).toHaveLength(mails + 1);
  });

  it('retries a mail refused to one operator for that operator only: each is mailed once', async () => {
    const lead = await admin('Lead');
    const first = await admin('First');
    const second = await admin('Second');
    const desk = await department(lead, {
      name_en: 'Retries',
      name_ru: 'Повторы',
      operator_ids: [first.id, second.id],
    });
    const user = await quickUser(t);
    t.smtp.refuse(first.email);
    let ticketId: number;
    try {
      ticketId = (await openTicket(t, user.token, desk)).id as number;
      const subject = `TradeHost: new ticket #${ticketId} (Retries)`;
      expect((await t.smtp.next(second.email)).subject).toBe(subject);
      await mailJobIn(ticketId, first.id, 'retry');
      expect(t.smtp.to(first.email)).toHaveLength(0);
    } finally {
      t.smtp.accept();
    }
    await retryNow(ticketId, first.id);
    expect((await t.smtp.next(first.email)).subject).toBe(
      `TradeHost: new ticket #${ticketId} (Retries)`,
    );
    await mailJobIn(ticketId, first.id, 'completed');
    await mailJobIn(ticketId, second.id, 'completed');
    await sleep(100);
    expect(t.smtp.to(first.email)).toHaveLength(1);
    expect(t.smtp.to(second.email)).toHaveLength(1);
  });
});

describe('notifications with the mail server down', () => {
  let down: TelegramTestApp;
  beforeAll(async () => {
    // nothing listens on port 9 of loopback: every mail fails at once
    down = await startAppWithBot(
      { ...BOT, token: '3001:support-down-token', username: 'tradehost_down_bot' },
      { SMTP_URL: 'smtp://127.0.0.1:9', JOBS_ENABLED: 'true' },
    );
  });
  afterAll(async () => {
    await down?.close();
  });

  it('opens the ticket and answers it anyway, and the Telegram chat still hears of the answer', async () => {
    const app = down.t;
    const operator = await quickUser(app, { role: 'admin' });
    const user = await quickUser(app);
    nextChatId += 1;
    const chat: EmulatedChat = { id: nextChatId, type: 'private', first_name: 'Down' };
    await linkChat(down, user, chat);
    const welcomed = down.emulator.sent(chat.id).length;
    const opened = await postForm(app, TICKETS, user.token, {
      department_id: String(await departmentId(app, 'technical')),
      title: 'Mail is down',
      text: 'Still works?',
    });
    expect(opened.status, opened.text).toBe(201);
    const res = await postForm(
      app,
      `${ADMIN_TICKETS}/${opened.body.ticket.id}/messages`,
      operator.token,
      { text: 'Yes, it does.' },
    );
    expect(res.status, res.text).toBe(201);
    const notice = await down.emulator.waitFor(() => down.emulator.sent(chat.id)[welcomed]);
    expect(notice.text).toContain('Yes, it does.');
    await vi.waitFor(
      () => expect(app.logs.some((line) => line.includes('a mail could not be sent'))).toBe(true),
      { timeout: 10_000 },
    );
  });
});

describe('canned replies', () => {
  it('adds, lists, changes and deletes canned replies, each audited; unknown ones are 404', async () => {
    const operator = await admin();
    const body = {
      title: 'Restart',
      body_en: 'Please restart the server.',
      body_ru: 'Перезапустите сервер.',
    };
    const created = await t.api.post('/api/admin/support/canned', body, { token: operator.token });
    expect(created.status, created.text).toBe(201);
    const id = created.body.reply.id as number;
    expect(created.body.reply).toMatchObject(body);

    const list = await t.api.get('/api/admin/support/canned', { token: operator.token });
    expect(list.body.data).toContainEqual(expect.objectContaining({ id, ...body }));

    const changed = await t.api.request('PUT', `/api/admin/support/canned/${id}`, {
      body: { ...body, title: 'Restart it' },
      token: operator.token,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.reply.title).toBe('Restart it');

    const invalid = await t.api.post(
      '/api/admin/support/canned',
      { ...body, body_ru: '' },
      { token: operator.token },
    );
    expect(invalid.body).toEqual(fieldRefusal('body_ru', 'TICKET_TEXT_REQUIRED'));

    const deleted = await t.api.request('DELETE', `/api/admin/support/canned/${id}`, {
      token: operator.token,
    });
    expect(deleted.status).toBe(200);
    for (const method of ['PUT', 'DELETE']) {
      const again = await t.api.request(method, `/api/admin/support/canned/${id}`, {
        body: method === 'PUT' ? body : undefined,
        token: operator.token,
      });
      expect({ status: again.status, body: again.body }).toEqual({
        status: 404,
        body: refusal('CANNED_REPLY_NOT_FOUND'),
      });
    }
    const audit = await auditOf('support_canned_reply', id);
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['support.canned_create', String(operator.id)],
      ['support.canned_update', String(operator.id)],
      ['support.canned_delete', String(operator.id)],
    ]);
  });
});

describe('departments', () => {
  it('adds and changes departments with their operators, audited; an inactive one takes no new tickets', async () => {
    const operator = await admin('Desk Lead');
    const user = await quickUser(t);
    const created = await t.api.post(
      '/api/admin/support/departments',
      { name_en: 'Licences', name_ru: 'Лицензии', position: 7, operator_ids: [operator.id] },
      { token: operator.token },
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.department.id as number;
    expect(created.body.department).toEqual({
      id,
      code: null,
      name_en: 'Licences',
      name_ru: 'Лицензии',
      position: 7,
      active: true,
      operators: [{ id: operator.id, email: operator.email, name: 'Desk Lead' }],
    });
    const notOperator = await t.api.post(
      '/api/admin/support/departments',
      { name_en: 'X', name_ru: 'X', operator_ids: [user.id] },
      { token: operator.token },
    );
    expect(notOperator.body).toEqual(fieldRefusal('operator_ids', 'VALIDATION'));
    const noName = await t.api.post(
      '/api/admin/support/departments',
      { name_en: 'X', name_ru: ' ' },
      { token: operator.token },
    );
    expect(noName.body).toEqual(fieldRefusal('name_ru', 'DEPARTMENT_NAME_REQUIRED'));

    const changed = await t.api.request('PUT', `/api/admin/support/departments/${id}`, {
      body: {
        name_en: 'Licenses',
        name_ru: 'Лицензии',
        position: 8,
        active: false,
        operator_ids: [],
      },
      token: operator.token,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.department).toMatchObject({
      name_en: 'Licenses',
      active: false,
      operators: [],
    });

    const all = await t.api.get('/api/admin/support/departments', { token: operator.token });
    expect(strict(adminDepartmentsResponseSchema).parse(all.body)).toEqual(all.body);
    expect(all.body.data).toContainEqual(expect.objectContaining({ id, active: false }));
    const offered = await t.api.get('/api/user/support/departments', { token: user.token });
    expect(offered.body.data.some((d: Json) => d.id === id)).toBe(false);
    const refused = await postForm(t, TICKETS, user.token, {
      department_id: String(id),
      title: 'x',
      text: 'y',
    });
    expect(refused.body).toEqual(fieldRefusal('department_id', 'DEPARTMENT_REQUIRED'));

    const missing = await t.api.request('PUT', '/api/admin/support/departments/99999', {
      body: { name_en: 'x', name_ru: 'x' },
      token: operator.token,
    });
    expect(missing.status).toBe(404);
    const audit = await auditOf('support_department', id);
    expect(audit.map((a) => a.action)).toEqual([
      'support.department_create',
      'support.department_update',
    ]);
    expect(audit[0].details).toMatchObject({ operator_ids: [operator.id] });
  });

  it('names a ticket’s department in its audit entries, as it was named then, beside its id', async () => {
    const operator = await admin('Desk Namer');
    const user = await quickUser(t);
    const desk = await department(operator, { name_en: 'Licences', name_ru: 'Лицензии' });
    const ticket = await openTicket(t, user.token, desk, { title: 'Licence key' });
    const renamed = await t.api.request('PUT', `/api/admin/support/departments/${desk}`, {
      body: { name_en: 'Licenses', name_ru: 'Лицензии и ключи', position: 10 },
      token: operator.token,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await reply(operator, ticket.id, 'Here is a new key.')).status).toBe(201);

    const audit = await auditOf('support_ticket', ticket.id);
    expect(audit.map((a) => [a.action, a.details])).toEqual([
      [
        'support.ticket_open',
        expect.objectContaining({
          department: { id: desk, name_en: 'Licences', name_ru: 'Лицензии' },
        }),
      ],
      [
        'support.reply',
        expect.objectContaining({
          department: { id: desk, name_en: 'Licenses', name_ru: 'Лицензии и ключи' },
        }),
      ],
    ]);
  });
});

describe('the API documentation', () => {
  it('lists the support routes', async () => {
    const res = await t.api.get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const path of [
      '/api/user/support/departments',
      '/api/user/support/tickets',
      '/api/user/support/unread',
      '/api/user/support/tickets/{id}',
      '/api/user/support/tickets/{id}/messages',
      '/api/user/support/tickets/{id}/close',
      '/api/user/support/attachments/{id}',
      '/api/user/support/attachments/{id}/preview',
      '/api/admin/support/queues',
      '/api/admin/support/tickets',
      '/api/admin/support/tickets/{id}',
      '/api/admin/support/tickets/{id}/messages',
      '/api/admin/support/tickets/{id}/assign',
      '/api/admin/support/tickets/{id}/status',
      '/api/admin/support/canned',
      '/api/admin/support/canned/{id}',
      '/api/admin/support/departments',
      '/api/admin/support/departments/{id}',
      '/api/admin/support/attachments/{id}',
      '/api/admin/support/attachments/{id}/preview',
    ])
      expect(paths, path).toContain(path);
  });
});
