import {
  ERROR_MESSAGES,
  FAQ_GROUPS,
  SUCCESS_MESSAGES,
  faqItemRequestSchema,
  faqResponseSchema,
  type FaqItem,
} from '@tradehost/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { fieldRefusal, quickUser, refusal, useTestApp, type ApiResponse } from './helpers.ts';

const t = useTestApp();

type Who = { token: string };

const userFaq = (who?: Who) => t.api.get('/api/user/faq', who ? { token: who.token } : {});
const adminFaq = (who?: Who) => t.api.get('/api/admin/faq', who ? { token: who.token } : {});
const createItem = (body: unknown, who?: Who) =>
  t.api.post('/api/admin/faq', body, who ? { token: who.token } : {});
const updateItem = (id: number | string, body: unknown, who?: Who) =>
  t.api.request('PUT', `/api/admin/faq/${id}`, { body, ...(who ? { token: who.token } : {}) });
const deleteItem = (id: number | string, who?: Who) =>
  t.api.request('DELETE', `/api/admin/faq/${id}`, who ? { token: who.token } : {});

const expectStatus = (res: ApiResponse, status: number) =>
  expect(res.status, res.text).toBe(status);

let made = 0;
/** A valid question with a slug of its own. */
function question(overrides: Record<string, unknown> = {}) {
  made += 1;
  return {
    group: 'support',
    slug: `test-question-${made}`,
    position: 5,
    question_en: `How do I test question ${made}?`,
    answer_en: 'Like this.\n\nAnd then like that.',
    question_ru: `Как проверить вопрос ${made}?`,
    answer_ru: 'Вот так.\n\nА потом вот так.',
    published: true,
    ...overrides,
  };
}

/** Everything a refused change must leave as it was: the questions and the audit log. */
async function state() {
  const items = await t.sql.query('select * from faq_items order by id');
  const audit = await t.sql.query<{ n: string }>('select count(*) as n from audit_log');
  return { items: items.rows, audit: Number(audit.rows[0]!.n) };
}

async function auditOf(id: number) {
  const { rows } = await t.sql.query<{
    actor_id: string;
    action: string;
    subject_type: string;
    target_user_id: string | null;
    details: Record<string, unknown>;
  }>(
    `select actor_id, action, subject_type, target_user_id, details from audit_log
     where subject_type = 'faq_item' and subject_id = $1 order by id`,
    [String(id)],
  );
  return rows.map((row) => ({ ...row, actor_id: Number(row.actor_id) }));
}

const groupIndex = (item: FaqItem) => FAQ_GROUPS.indexOf(item.group);

/** In SPEC's group order, each group by position (then id). */
function expectFaqOrder(items: FaqItem[]) {
  const sorted = [...items].sort(
    (a, b) => groupIndex(a) - groupIndex(b) || a.position - b.position || a.id - b.id,
  );
  expect(items.map((item) => item.id)).toEqual(sorted.map((item) => item.id));
}

describe('the seeded FAQ', () => {
  it('has at least eight published questions in each group, in both languages, as the operator form accepts them', async () => {
    const user = await quickUser(t);
    const res = await userFaq(user);
    expectStatus(res, 200);
    expect(faqResponseSchema.safeParse(res.body).success).toBe(true);
    const items: FaqItem[] = res.body.data;

    for (const group of FAQ_GROUPS) {
      const inGroup = items.filter((item) => item.group === group);
      expect(inGroup.length, group).toBeGreaterThanOrEqual(8);
      // positions leave no tie to break by chance
      expect(new Set(inGroup.map((item) => item.position)).size, group).toBe(inGroup.length);
    }
    expect(new Set(items.map((item) => item.slug)).size).toBe(items.length);

    for (const item of items) {
      expect(item.published, item.slug).toBe(true);
      // what an operator opens can be saved back unchanged: every rule of the form holds
      const parsed = faqItemRequestSchema.safeParse(item);
      expect(parsed.success, `${item.slug}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(parsed.data).toMatchObject({
        slug: item.slug,
        question_en: item.question_en,
        answer_en: item.answer_en,
        question_ru: item.question_ru,
        answer_ru: item.answer_ru,
      });
      // each language in its own: Russian in the Russian texts, none in the English ones
      for (const text of [item.question_en, item.answer_en])
        expect(text, item.slug).not.toMatch(/[а-яё]/i);
      for (const text of [item.question_ru, item.answer_ru])
        expect(text, item.slug).toMatch(/[а-яё]{3}/i);
      // plain text with paragraphs: the console renders text, never markup
      for (const text of [item.answer_en, item.answer_ru]) {
        expect(text, item.slug).not.toMatch(/<\/?[a-z][^>]*>/i);
        expect(text, item.slug).not.toMatch(/\n{3}|[ \t]\n/);
      }
      for (const text of [item.question_en, item.question_ru])
        expect(text, item.slug).not.toContain('\n');
    }
  });

  it('states the figures the product works by', async () => {
    const user = await quickUser(t);
    const items: FaqItem[] = (await userFaq(user)).body.data;
    const text = (slug: string) => {
      const item = items.find((i) => i.slug === slug);
      expect(item, slug).toBeDefined();
      return `${item!.answer_en}\n${item!.answer_ru}`;
    };
    const levels = await t.sql.query<{ percent_bp: number }>(
      'select percent_bp from partner_reward_levels order by level',
    );
    for (const { percent_bp } of levels.rows)
      expect(text('partner-reward-levels')).toContain(`${percent_bp / 100} %`);
    expect(text('partner-reward-hold-14-days')).toContain(`${t.config.partner.holdDays} days`);
    const withdrawals = text('partner-withdrawal-methods-minimums');
    for (const method of t.config.partner.withdrawalMethods)
      expect(withdrawals).toContain(`$${method.minimumCents / 100}`);
    const periods = await t.sql.query<{ months: number; discount_percent: number }>(
      'select months, discount_percent from vps_period_discounts where discount_percent > 0',
    );
    for (const { discount_percent } of periods.rows)
      expect(text('vps-prices-rental-periods')).toContain(`${discount_percent} %`);
    expect(text('vps-test-server')).toContain(`${t.config.vps.trialDays} days`);
    expect(text('vps-renewal-auto-renewal-blocking')).toContain(`${t.config.vps.graceDays} days`);
    const price = await t.sql.query<{ value: unknown }>(
      `select value from settings where key = 'monitoring_account_month_cents'`,
    );
    expect(text('monitoring-subscription-prices')).toContain(
      `$${Number(price.rows[0]!.value) / 100} `,
    );
    expect(text('monitoring-extend-add-accounts')).toContain(
      `${t.config.monitoring.retentionDays} days`,
    );
    for (const [method, dollars] of Object.entries(t.config.payments.minimumCents))
      expect(text('balance-top-up-methods'), method).toContain(`$${dollars / 100})`);
  });
});

describe("migration 0014: the seeded FAQ says 'partner programme'", () => {
  const migration = readFileSync(
    join(MIGRATIONS_DIR, '0014_faq_partner_programme.sql'),
    'utf8',
  ).split('--> statement-breakpoint');

  it('leaves no US spelling in the seeded English texts', async () => {
    const { rows } = await t.sql.query<{ slug: string }>(
      `select slug from faq_items where question_en ~* '\\mpartner program\\M' or answer_en ~* '\\mpartner program\\M'`,
    );
    expect(rows).toEqual([]);
    const { rows: fixed } = await t.sql.query<{ question_en: string }>(
      `select question_en from faq_items where slug = 'partner-program-how-it-works'`,
    );
    expect(fixed).toEqual([{ question_en: 'How does the partner programme work?' }]);
  });

  it("changes a text that still holds the seed's and keeps one an operator edited", async () => {
    const client = await t.sql.connect();
    try {
      await client.query('begin');
      await client.query(
        `update faq_items set question_en = 'Our partner program, explained' where slug = 'partner-program-how-it-works'`,
      );
      await client.query(
        `update faq_items set answer_en = replace(answer_en, 'partner programme,', 'partner program,') where slug = 'support-departments'`,
      );
      for (const statement of migration) await client.query(statement);
      const { rows } = await client.query<{ slug: string; question_en: string; answer_en: string }>(
        `select slug, question_en, answer_en from faq_items
         where slug in ('partner-program-how-it-works', 'support-departments') order by slug`,
      );
      expect(rows.map((r) => r.slug)).toEqual([
        'partner-program-how-it-works',
        'support-departments',
      ]);
      expect(rows[0]!.question_en).toBe('Our partner program, explained');
      expect(rows[1]!.answer_en).toContain('Partnership: the partner programme, rewards');
      expect(rows[1]!.answer_en).not.toMatch(/partner program\b/);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('GET /api/user/faq', () => {
  it('needs a signed-in user', async () => {
    const res = await userFaq();
    expectStatus(res, 401);
    expect(res.body).toEqual(refusal('UNAUTHORIZED'));
  });

  it('lists the published questions only, by group in SPEC order and then by position', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const hidden = await createItem(question({ group: 'partners', published: false }), operator);
    expectStatus(hidden, 201);
    const first = await createItem(
      question({ group: 'monitoring_guide', position: 0, question_en: 'First of the guide?' }),
      operator,
    );
    expectStatus(first, 201);

    const res = await userFaq(user);
    expectStatus(res, 200);
    const items: FaqItem[] = res.body.data;
    expect(items.some((item) => item.id === hidden.body.item.id)).toBe(false);
    expect(items.every((item) => item.published)).toBe(true);
    expectFaqOrder(items);
    const guide = items.filter((item) => item.group === 'monitoring_guide');
    expect(guide[0]).toEqual(first.body.item);

    // the same as the table's published rows, every field
    const { rows } = await t.sql.query<{ id: number }>(
      'select id from faq_items where published order by id',
    );
    expect(items.map((item) => item.id).sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));

    // the operator's list has the hidden one too, in the same order
    const all = await adminFaq(operator);
    expectStatus(all, 200);
    expect(faqResponseSchema.safeParse(all.body).success).toBe(true);
    expectFaqOrder(all.body.data);
    expect(all.body.data).toContainEqual(hidden.body.item);
    expect(hidden.body.item.published).toBe(false);
    expect(all.body.data).toHaveLength(items.length + 1);
  });
});

describe('/api/admin/faq is for operators only', () => {
  it('answers 401 without a token and 403 to a user, before reading the body, and writes nothing', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const existing = await createItem(question(), operator);
    expectStatus(existing, 201);
    const id = existing.body.item.id as number;
    const before = await state();

    const calls = (who?: Who) => [
      adminFaq(who),
      createItem(question(), who),
      createItem({ slug: 'NOT VALID' }, who),
      updateItem(id, question(), who),
      updateItem(id, { group: 'nope' }, who),
      updateItem(999_999, question(), who),
      deleteItem(id, who),
      deleteItem(999_999, who),
    ];
    for (const res of await Promise.all(calls())) {
      expectStatus(res, 401);
      expect(res.body).toEqual(refusal('UNAUTHORIZED'));
    }
    for (const res of await Promise.all(calls(user))) {
      expectStatus(res, 403);
      expect(res.body).toEqual(refusal('FORBIDDEN'));
    }
    expect(await state()).toEqual(before);
  });
});

describe('POST /api/admin/faq', () => {
  it('adds a question, trimmed, with defaults, audited', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const body = question({
      group: 'monitoring',
      slug: '  publisher-on-mac  ',
      question_en: '  Does the publisher run on a Mac?  ',
      answer_en: 'Yes, in MetaTrader for macOS.\n\nThe steps are the same.',
      question_ru: 'Работает ли публикатор на Mac?',
      answer_ru: 'Да, в MetaTrader для macOS.\n\nШаги те же.',
    });
    delete (body as Partial<typeof body>).position;
    delete (body as Partial<typeof body>).published;

    const res = await createItem(body, operator);
    expectStatus(res, 201);
    expect(res.body).toEqual({
      item: {
        id: expect.any(Number),
        group: 'monitoring',
        slug: 'publisher-on-mac',
        position: 0,
        question_en: 'Does the publisher run on a Mac?',
        answer_en: 'Yes, in MetaTrader for macOS.\n\nThe steps are the same.',
        question_ru: 'Работает ли публикатор на Mac?',
        answer_ru: 'Да, в MetaTrader для macOS.\n\nШаги те же.',
        published: true,
        updated_at: expect.any(String),
      },
      message: SUCCESS_MESSAGES.FAQ_CREATED,
      code: 'FAQ_CREATED',
    });
    const { item } = res.body;
    expect(Math.abs(Date.parse(item.updated_at) - t.clock.now().getTime())).toBeLessThan(60_000);

    // users see it at once
    expect((await userFaq(user)).body.data).toContainEqual(item);
    expect(await auditOf(item.id)).toEqual([
      {
        actor_id: operator.id,
        action: 'faq.create',
        subject_type: 'faq_item',
        target_user_id: null,
        details: {
          group: 'monitoring',
          slug: 'publisher-on-mac',
          position: 0,
          published: true,
          question_en: 'Does the publisher run on a Mac?',
        },
      },
    ]);
  });

  it('takes texts at their limits in characters, Russian and emoji included', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const res = await createItem(
      question({
        question_en: 'q'.repeat(300),
        question_ru: 'ё'.repeat(299) + '🙂',
        answer_en: 'a'.repeat(5000),
        answer_ru: 'я'.repeat(5000),
        slug: 'a'.repeat(80),
        position: 10_000,
      }),
      operator,
    );
    expectStatus(res, 201);
    const { rows } = await t.sql.query<{ q: number; a: number }>(
      'select char_length(question_ru) as q, char_length(answer_ru) as a from faq_items where id = $1',
      [res.body.item.id],
    );
    expect(rows[0]).toEqual({ q: 300, a: 5000 });
  });

  it('refuses every bad question with its reason and writes nothing', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const taken = await createItem(question({ slug: 'already-here' }), operator);
    expectStatus(taken, 201);
    const before = await state();

    const slugInvalid = fieldRefusal('slug', 'FAQ_SLUG_INVALID');
    const cases: [string, unknown, number, unknown][] = [
      ['a slug with a space', question({ slug: 'two words' }), 422, slugInvalid],
      ['an upper-case slug', question({ slug: 'Upper-Case' }), 422, slugInvalid],
      ['a slug with a double dash', question({ slug: 'a--b' }), 422, slugInvalid],
      ['a slug starting with a dash', question({ slug: '-a' }), 422, slugInvalid],
      ['a slug ending with a dash', question({ slug: 'a-' }), 422, slugInvalid],
      ['a Cyrillic slug', question({ slug: 'вопрос' }), 422, slugInvalid],
      ['a slug with a slash', question({ slug: 'a/b' }), 422, slugInvalid],
      ['an empty slug', question({ slug: '' }), 422, slugInvalid],
      ['a slug of 81 characters', question({ slug: 'a'.repeat(81) }), 422, slugInvalid],
      ['no slug', question({ slug: undefined }), 422, slugInvalid],
      ['a number as the slug', question({ slug: 12 }), 422, slugInvalid],
      [
        'a taken slug',
        question({ slug: 'already-here' }),
        409,
        fieldRefusal('slug', 'FAQ_SLUG_TAKEN'),
      ],
      [
        'a seeded slug',
        question({ slug: 'partner-reward-levels' }),
        409,
        fieldRefusal('slug', 'FAQ_SLUG_TAKEN'),
      ],
      [
        'no Russian question',
        question({ question_ru: undefined }),
        422,
        fieldRefusal('question_ru', 'FAQ_TEXT_REQUIRED'),
      ],
      [
        'a blank English answer',
        question({ answer_en: ' \n\n ' }),
        422,
        fieldRefusal('answer_en', 'FAQ_TEXT_REQUIRED'),
      ],
      [
        'an empty Russian answer',
        question({ answer_ru: '' }),
        422,
        fieldRefusal('answer_ru', 'FAQ_TEXT_REQUIRED'),
      ],
      [
        'a question of 301 characters',
        question({ question_en: 'q'.repeat(301) }),
        422,
        fieldRefusal('question_en', 'FAQ_TEXT_TOO_LONG'),
      ],
      [
        'a Russian question of 301 characters',
        question({ question_ru: 'ж'.repeat(301) }),
        422,
        fieldRefusal('question_ru', 'FAQ_TEXT_TOO_LONG'),
      ],
      [
        'an answer of 5001 characters',
        question({ answer_ru: 'я'.repeat(5001) }),
        422,
        fieldRefusal('answer_ru', 'FAQ_TEXT_TOO_LONG'),
      ],
      [
        'an unknown group',
        question({ group: 'vps' }),
        422,
        fieldRefusal('group', 'FAQ_GROUP_INVALID'),
      ],
      ['no group', question({ group: undefined }), 422, fieldRefusal('group', 'FAQ_GROUP_INVALID')],
      [
        'a text with NUL',
        question({ answer_en: 'a\u0000b' }),
        422,
        fieldRefusal('answer_en', 'TEXT_CHARACTERS_INVALID'),
      ],
      [
        'a negative position',
        question({ position: -1 }),
        422,
        fieldRefusal('position', 'VALIDATION'),
      ],
      [
        'a fractional position',
        question({ position: 1.5 }),
        422,
        fieldRefusal('position', 'VALIDATION'),
      ],
      [
        'a position past the limit',
        question({ position: 10_001 }),
        422,
        fieldRefusal('position', 'VALIDATION'),
      ],
      [
        'published as a string',
        question({ published: 'yes' }),
        422,
        fieldRefusal('published', 'VALIDATION'),
      ],
    ];
    for (const [name, body, status, expected] of cases) {
      const res = await createItem(body, operator);
      expect(res.status, `${name}: ${res.text}`).toBe(status);
      expect(res.body, name).toEqual(expected);
    }
    // several faults at once: each field named, the first one the message
    const many = await createItem(
      question({ group: 'x', slug: 'X', question_en: '', answer_ru: 'я'.repeat(5001) }),
      operator,
    );
    expectStatus(many, 422);
    expect(many.body).toEqual({
      code: 'FAQ_GROUP_INVALID',
      message: ERROR_MESSAGES.FAQ_GROUP_INVALID,
      errors: {
        group: [ERROR_MESSAGES.FAQ_GROUP_INVALID],
        slug: [ERROR_MESSAGES.FAQ_SLUG_INVALID],
        question_en: [ERROR_MESSAGES.FAQ_TEXT_REQUIRED],
        answer_ru: [ERROR_MESSAGES.FAQ_TEXT_TOO_LONG],
      },
    });
    for (const body of ['not json', '[]', 'null']) {
      const res = await t.api.post('/api/admin/faq', body, { token: operator.token });
      expect([400, 422], `${body}: ${res.text}`).toContain(res.status);
    }
    expect(await state()).toEqual(before);
  });

  it('gives one of two racing creations of a slug the 409', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const before = await state();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => createItem(question({ slug: 'raced-slug' }), operator)),
    );
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409))
      expect(res.body).toEqual(fieldRefusal('slug', 'FAQ_SLUG_TAKEN'));
    const after = await state();
    expect(after.items).toHaveLength(before.items.length + 1);
    expect(after.audit).toBe(before.audit + 1);
  });
});

describe('PUT /api/admin/faq/:id', () => {
  it('replaces a question, audited with what changed', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const created = await createItem(question({ slug: 'to-be-changed' }), operator);
    expectStatus(created, 201);
    const { item } = created.body;
    t.clock.advance(60_000);

    const next = {
      group: 'partners',
      slug: 'changed-slug',
      position: 7,
      question_en: item.question_en,
      answer_en: 'A better answer.',
      question_ru: item.question_ru,
      answer_ru: 'Ответ получше.',
      published: true,
    };
    const res = await updateItem(item.id, next, operator);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      item: { ...next, id: item.id, updated_at: expect.any(String) },
      message: SUCCESS_MESSAGES.FAQ_UPDATED,
      code: 'FAQ_UPDATED',
    });
    expect(Date.parse(res.body.item.updated_at)).toBeGreaterThan(Date.parse(item.updated_at));
    expect((await userFaq(user)).body.data).toContainEqual(res.body.item);

    const audit = await auditOf(item.id);
    expect(audit).toHaveLength(2);
    expect(audit[1]).toEqual({
      actor_id: operator.id,
      action: 'faq.update',
      subject_type: 'faq_item',
      target_user_id: null,
      details: {
        before: {
          group: 'support',
          slug: 'to-be-changed',
          position: 5,
          published: true,
          question_en: item.question_en,
        },
        after: {
          group: 'partners',
          slug: 'changed-slug',
          position: 7,
          published: true,
          question_en: item.question_en,
        },
        changed: ['group', 'slug', 'position', 'answer_en', 'answer_ru'],
      },
    });

    // saved again unchanged: its own slug is no conflict
    const again = await updateItem(item.id, next, operator);
    expectStatus(again, 200);
    expect((await auditOf(item.id))[2]?.details.changed).toEqual([]);
  });

  it('hides an unpublished question from users and shows it again when published', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const created = await createItem(question(), operator);
    const { item } = created.body;
    const ids = async () => (await userFaq(user)).body.data.map((i: FaqItem) => i.id);
    expect(await ids()).toContain(item.id);

    const hidden = await updateItem(item.id, { ...question(), published: false }, operator);
    expectStatus(hidden, 200);
    expect(await ids()).not.toContain(item.id);
    const listed = (await adminFaq(operator)).body.data.find((i: FaqItem) => i.id === item.id);
    expect(listed).toMatchObject({ published: false });

    const shown = await updateItem(item.id, { ...question(), published: true }, operator);
    expectStatus(shown, 200);
    expect(await ids()).toContain(item.id);
    expect((await auditOf(item.id)).map((a) => a.details.changed)).toEqual([
      undefined,
      expect.arrayContaining(['published']),
      expect.arrayContaining(['published']),
    ]);
  });

  it('refuses an unknown question, a taken slug and every bad field, changing nothing', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const mine = (await createItem(question({ slug: 'mine-to-edit' }), operator)).body.item;
    await createItem(question({ slug: 'someone-elses' }), operator);
    const before = await state();

    for (const id of [999_999, 2_147_483_647]) {
      const res = await updateItem(id, question(), operator);
      expectStatus(res, 404);
      expect(res.body).toEqual(refusal('FAQ_NOT_FOUND'));
    }
    for (const id of ['abc', '0', '-1', '1.5', '2147483648']) {
      const res = await updateItem(id, question(), operator);
      expectStatus(res, 404);
      expect(res.body).toEqual(refusal('NOT_FOUND'));
    }
    const taken = await updateItem(mine.id, question({ slug: 'someone-elses' }), operator);
    expectStatus(taken, 409);
    expect(taken.body).toEqual(fieldRefusal('slug', 'FAQ_SLUG_TAKEN'));

    const bad: [Record<string, unknown>, string, string][] = [
      [{ slug: 'Bad Slug' }, 'slug', 'FAQ_SLUG_INVALID'],
      [{ group: 'billing' }, 'group', 'FAQ_GROUP_INVALID'],
      [{ question_en: '   ' }, 'question_en', 'FAQ_TEXT_REQUIRED'],
      [{ answer_ru: undefined }, 'answer_ru', 'FAQ_TEXT_REQUIRED'],
      [{ answer_en: 'x'.repeat(5001) }, 'answer_en', 'FAQ_TEXT_TOO_LONG'],
      [{ question_ru: 'в'.repeat(301) }, 'question_ru', 'FAQ_TEXT_TOO_LONG'],
    ];
    for (const [overrides, field, code] of bad) {
      const res = await updateItem(mine.id, question(overrides), operator);
      expect(res.status, res.text).toBe(422);
      expect(res.body).toEqual(fieldRefusal(field, code as 'FAQ_SLUG_INVALID'));
    }
    expect(await state()).toEqual(before);
  });
});

describe('DELETE /api/admin/faq/:id', () => {
  it('deletes a question, audited with all it said; a second delete is 404', async () => {
    const operator = await quickUser(t, { role: 'admin' });
    const user = await quickUser(t);
    const { item } = (await createItem(question({ slug: 'short-lived' }), operator)).body;

    const res = await deleteItem(item.id, operator);
    expectStatus(res, 200);
    expect(res.body).toEqual({ message: SUCCESS_MESSAGES.FAQ_DELETED, code: 'FAQ_DELETED' });
    expect((await userFaq(user)).body.data.some((i: FaqItem) => i.id === item.id)).toBe(false);
    expect((await adminFaq(operator)).body.data.some((i: FaqItem) => i.id === item.id)).toBe(false);
    const audit = await auditOf(item.id);
    expect(audit.map((a) => a.action)).toEqual(['faq.create', 'faq.delete']);
    expect(audit[1]).toMatchObject({ actor_id: operator.id, target_user_id: null });
    expect(audit[1]!.details).toEqual({
      group: item.group,
      slug: 'short-lived',
      position: item.position,
      published: true,
      question_en: item.question_en,
      answer_en: item.answer_en,
      question_ru: item.question_ru,
      answer_ru: item.answer_ru,
    });

    // the slug is free again
    expectStatus(await createItem(question({ slug: 'short-lived' }), operator), 201);

    const before = await state();
    const again = await deleteItem(item.id, operator);
    expectStatus(again, 404);
    expect(again.body).toEqual(refusal('FAQ_NOT_FOUND'));
    for (const id of ['abc', '0', '2147483648']) {
      const bad = await deleteItem(id, operator);
      expectStatus(bad, 404);
      expect(bad.body).toEqual(refusal('NOT_FOUND'));
    }
    expect(await state()).toEqual(before);
  });
});
