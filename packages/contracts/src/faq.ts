import * as z from 'zod/mini';
import { multiLine } from './input.ts';

/**
 * The FAQ (SPEC: four groups: partners, support, monitoring, monitoring guide), both languages,
 * kept in the database and edited in the operator area; the console searches it itself.
 */

export const FAQ_GROUPS = ['partners', 'support', 'monitoring', 'monitoring_guide'] as const;
export type FaqGroup = (typeof FAQ_GROUPS)[number];

/** The department "Didn't find an answer? Write to support" opens a ticket in, by its code. */
export const FAQ_GROUP_DEPARTMENT: Record<FaqGroup, string> = {
  partners: 'partnership',
  support: 'technical',
  monitoring: 'monitoring',
  monitoring_guide: 'monitoring',
};

export const faqItemSchema = z.object({
  id: z.int(),
  group: z.enum(FAQ_GROUPS),
  /** The question's link: /faq#<slug>. */
  slug: z.string(),
  position: z.int(),
  question_en: z.string(),
  answer_en: z.string(),
  question_ru: z.string(),
  answer_ru: z.string(),
  published: z.boolean(),
  updated_at: z.iso.datetime(),
});
export type FaqItem = z.infer<typeof faqItemSchema>;

/** GET /api/user/faq: the published questions by group and position; the operator's list has all. */
export const faqResponseSchema = z.object({ data: z.array(faqItemSchema) });
export type FaqResponse = z.infer<typeof faqResponseSchema>;

const faqTextField = (max: number) =>
  z
    .string({ error: 'FAQ_TEXT_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'FAQ_TEXT_REQUIRED' }),
      z.maxLength(max, { error: 'FAQ_TEXT_TOO_LONG' }),
      multiLine(),
    );

/** POST /api/admin/faq and PUT /api/admin/faq/:id. */
export const faqItemRequestSchema = z.object({
  group: z.enum(FAQ_GROUPS, { error: 'FAQ_GROUP_INVALID' }),
  slug: z
    .string({ error: 'FAQ_SLUG_INVALID' })
    .check(
      z.trim(),
      z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: 'FAQ_SLUG_INVALID' }),
      z.maxLength(80, { error: 'FAQ_SLUG_INVALID' }),
    ),
  position: z._default(z.int().check(z.minimum(0), z.maximum(10_000)), 0),
  question_en: faqTextField(300),
  answer_en: faqTextField(5000),
  question_ru: faqTextField(300),
  answer_ru: faqTextField(5000),
  published: z._default(z.boolean(), true),
});
export type FaqItemRequest = z.input<typeof faqItemRequestSchema>;

/** POST /api/admin/faq (201) and PUT /api/admin/faq/:id; DELETE answers `{ message, code }`. */
export const faqItemActionResponseSchema = z.object({
  item: faqItemSchema,
  message: z.string(),
  code: z.optional(z.string()),
});
export type FaqItemActionResponse = z.infer<typeof faqItemActionResponseSchema>;
