import {
  SUCCESS_MESSAGES,
  type FaqItem,
  type FaqItemActionResponse,
  type FaqResponse,
  type faqItemRequestSchema,
} from '@tradehost/contracts';
import type * as z from 'zod/mini';
import type { FaqItemRow } from '../../db/schema/index.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import type { ServiceDeps } from '../deps.ts';
import { faqRepository, type FaqItemValues } from './faq.repository.ts';

/** A question as the operator's form sends it, defaults applied and texts trimmed. */
export type FaqItemInput = z.output<typeof faqItemRequestSchema>;

export const toFaqItem = (row: FaqItemRow): FaqItem => ({
  id: row.id,
  group: row.group,
  slug: row.slug,
  position: row.position,
  question_en: row.questionEn,
  answer_en: row.answerEn,
  question_ru: row.questionRu,
  answer_ru: row.answerRu,
  published: row.published,
  updated_at: row.updatedAt.toISOString(),
});

/** What the audit log keeps of a question: where it is and what it asks, not the whole answer. */
const summary = (row: FaqItemRow) => ({
  group: row.group,
  slug: row.slug,
  position: row.position,
  published: row.published,
  question_en: row.questionEn,
});

/**
 * The FAQ: its published questions for users (the console searches them itself) and the
 * operator's editing, each change audited in its own transaction. A slug is the question's link
 * (/faq#slug), unique across the groups.
 */
export function createFaqService({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  const values = (input: FaqItemInput): FaqItemValues => ({
    group: input.group,
    slug: input.slug,
    position: input.position,
    questionEn: input.question_en,
    answerEn: input.answer_en,
    questionRu: input.question_ru,
    answerRu: input.answer_ru,
    published: input.published,
    updatedAt: now(),
  });

  /** The unique slug's refusal in place of PostgreSQL's (another question has it). */
  async function slugChecked<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'faq_items_slug_key'))
        throw fieldError(409, 'slug', 'FAQ_SLUG_TAKEN');
      throw error;
    }
  }

  return {
    async published(): Promise<FaqResponse> {
      return { data: (await faqRepository.list(db, true)).map(toFaqItem) };
    },

    async all(): Promise<FaqResponse> {
      return { data: (await faqRepository.list(db, false)).map(toFaqItem) };
    },

    async create(adminId: number, input: FaqItemInput): Promise<FaqItemActionResponse> {
      return inTransaction(db, async (tx) => {
        const row = await slugChecked(() => faqRepository.insert(tx, values(input)));
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'faq.create',
          subjectType: 'faq_item',
          subjectId: String(row.id),
          targetUserId: null,
          details: summary(row),
        });
        return {
          item: toFaqItem(row),
          message: SUCCESS_MESSAGES.FAQ_CREATED,
          code: 'FAQ_CREATED',
        };
      });
    },

    /** Replaces the question's every field; audited with what it was and what it is. */
    async update(adminId: number, id: number, input: FaqItemInput): Promise<FaqItemActionResponse> {
      return inTransaction(db, async (tx) => {
        const before = await faqRepository.lock(tx, id);
        if (!before) throw new AppError(404, 'FAQ_NOT_FOUND');
        const row = await slugChecked(() => faqRepository.update(tx, id, values(input)));
        if (!row) throw new AppError(404, 'FAQ_NOT_FOUND');
        const changed = (
          [
            ['group', 'group'],
            ['slug', 'slug'],
            ['position', 'position'],
            ['published', 'published'],
            ['question_en', 'questionEn'],
            ['answer_en', 'answerEn'],
            ['question_ru', 'questionRu'],
            ['answer_ru', 'answerRu'],
          ] as const
        )
          .filter(([, column]) => before[column] !== row[column])
          .map(([field]) => field);
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'faq.update',
          subjectType: 'faq_item',
          subjectId: String(row.id),
          targetUserId: null,
          details: { before: summary(before), after: summary(row), changed },
        });
        return {
          item: toFaqItem(row),
          message: SUCCESS_MESSAGES.FAQ_UPDATED,
          code: 'FAQ_UPDATED',
        };
      });
    },

    async remove(adminId: number, id: number) {
      return inTransaction(db, async (tx) => {
        const row = await faqRepository.remove(tx, id);
        if (!row) throw new AppError(404, 'FAQ_NOT_FOUND');
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'faq.delete',
          subjectType: 'faq_item',
          subjectId: String(row.id),
          targetUserId: null,
          // the whole question: a deletion is the one change that leaves no row behind
          details: {
            ...summary(row),
            answer_en: row.answerEn,
            question_ru: row.questionRu,
            answer_ru: row.answerRu,
          },
        });
        return { message: SUCCESS_MESSAGES.FAQ_DELETED, code: 'FAQ_DELETED' };
      });
    },
  };
}

export type FaqService = ReturnType<typeof createFaqService>;
