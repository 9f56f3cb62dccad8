import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { nameSchema, signupRequestSchema } from './auth.ts';
import { faqItemRequestSchema } from './faq.ts';
import {
  isMultiLineText,
  isSingleLineText,
  looksLikeWebAddress,
  multiLine,
  reasonField,
  singleLine,
} from './input.ts';
import { addAccountRequestSchema, updateAccountRequestSchema } from './monitoring.ts';
import { createWithdrawalSchema, payWithdrawalSchema } from './partner.ts';
import { changeNameRequestSchema } from './profile.ts';
import {
  cannedReplyRequestSchema,
  createTicketFieldsSchema,
  departmentRequestSchema,
  staffMessageFieldsSchema,
  ticketMessageFieldsSchema,
} from './support.ts';
import { commentRequestSchema, rateInputSchema, testServerRequestSchema } from './vps.ts';

/** Every control character (C0, DEL, C1) and both Unicode separators. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)),
  ...Array.from({ length: 0x21 }, (_, c) => String.fromCharCode(0x7f + c)),
  '\u2028',
  '\u2029',
];

/**
 * The bidirectional controls (embeddings, overrides, isolates, LRM, RLM, ALM) and the invisible
 * spaces and joiners a single line refuses.
 */
const BIDI_AND_INVISIBLE = [
  ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'],
  ...['\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'],
  ...['\u200b', '\u2060', '\ufeff'],
];

/** Text of scripts that need what looks invisible: Persian's ZWNJ, a Devanagari ZWJ, emoji. */
const JOINED = ['می‌خواهم', 'क्‍ष', '👩‍💻 desk', '🏳️‍🌈', 'محمد علی', 'שלום', 'สมชาย', 'Анна-Мария'];

const codesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('isSingleLineText and isMultiLineText', () => {
  it('take text of any script, emoji and punctuation', () => {
    for (const text of ['', 'Ann', 'Анна-Мария', 'J. R. R. Tolkien', '🙂 ok', 'A/B "test", 50%'])
      expect([isSingleLineText(text), isMultiLineText(text)], text).toEqual([true, true]);
  });

  it('a single line refuses every control character, tab, line break and separator', () => {
    for (const c of CONTROLS)
      expect(isSingleLineText(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe(false);
  });

  it('a single line refuses bidirectional controls and invisible spaces: an override shows "moc.evil" for "live.com"', () => {
    for (const c of BIDI_AND_INVISIBLE)
      expect(isSingleLineText(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe(false);
    expect(isSingleLineText('Support \u202emoc.evil')).toBe(false);
  });

  it('a single line keeps the joiners Persian, Indic scripts and emoji need, and every script', () => {
    for (const text of JOINED) expect(isSingleLineText(text), text).toBe(true);
  });

  it('several lines take tab, LF, CR and the separators, and refuse every other control', () => {
    for (const c of CONTROLS)
      expect(isMultiLineText(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe(
        ['\t', '\n', '\r', '\u2028', '\u2029'].includes(c),
      );
  });
});

describe('looksLikeWebAddress', () => {
  it('finds a scheme, www. and a domain with a path', () => {
    for (const text of [
      'Unlock at https://evil.example',
      'see hxxp://x',
      'WWW.EVIL.COM',
      'go to evil.com/unlock',
      'пример.рф/вход',
      // as it shows: joiners and soft hyphens hide nothing
      'ww\u200dw.evil.com',
      'https:\u200c//evil.example',
      'evil\u00ad.com/unlock',
    ])
      expect(looksLikeWebAddress(text), text).toBe(true);
  });

  it('leaves names with dots, slashes and colons alone', () => {
    for (const text of ['J. R. R. Tolkien', 'Dr.Who', 'A/B test', 'Ann: trader', 'v1.2/3', 'Mr. X'])
      expect(looksLikeWebAddress(text), text).toBe(false);
  });
});

describe('the shared rules in a schema', () => {
  it('refuse with their code after the field trims, the other checks of the field still run', () => {
    const field = z.string({ error: 'REQUIRED' }).check(z.trim(), z.maxLength(3), singleLine());
    expect(field.parse('  ab\n')).toBe('ab');
    // a BOM around a pasted text is trimmed, one inside refused
    expect(field.parse('\ufeffab')).toBe('ab');
    expect(codesOf(field.safeParse('a\ufeffb'))).toEqual([': TEXT_NOT_SINGLE_LINE']);
    expect(codesOf(field.safeParse('a\nb'))).toEqual([': TEXT_NOT_SINGLE_LINE']);
    expect(codesOf(field.safeParse(5))).toEqual([': REQUIRED']);
    const lines = z.string().check(multiLine());
    expect(lines.parse('a\r\nb\tc')).toBe('a\r\nb\tc');
    expect(codesOf(lines.safeParse('a\u0007b'))).toEqual([': TEXT_CHARACTERS_INVALID']);
  });
});

describe('every single-line request field takes the rule', () => {
  const rate = {
    name: 'Pro',
    cpu_cores: 2,
    ram_gb: 4,
    disk_gb: 60,
    location: 'LD4',
    monthly_price: '10',
    template_id: 'w',
  };
  const cases: [string, z.ZodMiniType, Record<string, unknown>, string][] = [
    [
      'sign-up name',
      signupRequestSchema,
      {
        name: 'Ann',
        email: 'ann@example.com',
        password: 'secret123',
        password_confirmation: 'secret123',
        consent: true,
      },
      'name',
    ],
    ['profile name', changeNameRequestSchema, { name: 'Ann' }, 'name'],
    ['VPS label', commentRequestSchema, { comment: 'Main' }, 'comment'],
    [
      'VPS test source',
      testServerRequestSchema,
      { source: 'other', source_other: 'Blog' },
      'source_other',
    ],
    ['rate name', rateInputSchema, rate, 'name'],
    ['rate location', rateInputSchema, rate, 'location'],
    [
      'monitoring name',
      addAccountRequestSchema,
      { subscription_id: 1, login: 5, platform: 'MT5', name: 'Main', email: 'a@b.co' },
      'name',
    ],
    ['monitoring rename', updateAccountRequestSchema, { name: 'Main' }, 'name'],
    [
      'ticket subject',
      createTicketFieldsSchema,
      { department_id: '1', title: 'Help', text: 'Hi' },
      'title',
    ],
    [
      'canned reply title',
      cannedReplyRequestSchema,
      { title: 'T', body_en: 'a', body_ru: 'б' },
      'title',
    ],
    [
      'department name',
      departmentRequestSchema,
      { name_en: 'Billing', name_ru: 'Оплата' },
      'name_en',
    ],
    [
      'partner wallet',
      createWithdrawalSchema,
      { method: 'USDT-TRC20', wallet: 'TWallet', amount: '10' },
      'wallet',
    ],
    ['payout reference', payWithdrawalSchema, { reference: 'R-1' }, 'reference'],
  ];

  it.each(cases)('%s: one line', (_, schema, valid, field) => {
    expect(codesOf(schema.safeParse(valid))).toEqual([]);
    for (const good of ['Мой счёт', 'می‌خواهم'])
      expect(codesOf(schema.safeParse({ ...valid, [field]: good })), good).toEqual([]);
    for (const bad of [
      'a\nb',
      'a\tb',
      'a\u0000b',
      'a\u001bb',
      'a\u0085b',
      'a\u2028b',
      'a\u202eb',
      'a\u2066b\u2069',
      'a\u200bb',
    ])
      expect(codesOf(schema.safeParse({ ...valid, [field]: bad })), JSON.stringify(bad)).toEqual([
        `${field}: TEXT_NOT_SINGLE_LINE`,
      ]);
  });

  it('names refuse web addresses too', () => {
    expect(nameSchema.parse('  Dr. J. R. R. Tolkien ')).toBe('Dr. J. R. R. Tolkien');
    for (const schema of [changeNameRequestSchema, updateAccountRequestSchema])
      for (const name of ['YOUR ACCOUNT IS LOCKED. Unlock at https://evil.example', 'www.evil.com'])
        expect(codesOf(schema.safeParse({ name }))).toEqual(['name: NAME_HAS_WEB_ADDRESS']);
  });

  it('texts of several lines keep their lines and refuse other controls', () => {
    const cases: [z.ZodMiniType, Record<string, unknown>, string][] = [
      [ticketMessageFieldsSchema, { text: 'a' }, 'text'],
      [staffMessageFieldsSchema, { text: 'a' }, 'text'],
      [cannedReplyRequestSchema, { title: 'T', body_en: 'a', body_ru: 'б' }, 'body_ru'],
      [
        faqItemRequestSchema,
        {
          group: 'support',
          slug: 'a',
          question_en: 'Q',
          answer_en: 'A',
          question_ru: 'В',
          answer_ru: 'О',
        },
        'answer_en',
      ],
      [z.object({ reason: reasonField() }), { reason: 'r' }, 'reason'],
    ];
    for (const [schema, valid, field] of cases) {
      expect(codesOf(schema.safeParse({ ...valid, [field]: 'line 1\r\nline\t2' }))).toEqual([]);
      expect(codesOf(schema.safeParse({ ...valid, [field]: 'a\u0007b' }))).toEqual([
        `${field}: TEXT_CHARACTERS_INVALID`,
      ]);
    }
  });
});
