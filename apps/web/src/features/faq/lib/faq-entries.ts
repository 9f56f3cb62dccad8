import { FAQ_GROUP_DEPARTMENT, type FaqGroup, type FaqItem } from '@tradehost/contracts';

export type FaqLanguage = 'en' | 'ru';

/** A question in the reader's language, as the page shows it and the search indexes it. */
export interface FaqEntry {
  id: number;
  slug: string;
  group: FaqGroup;
  question: string;
  answer: string;
}

export function faqLanguage(language: string | undefined): FaqLanguage {
  return language?.startsWith('ru') ? 'ru' : 'en';
}

/** The questions in one language, in the API's order (group, then position). */
export function entriesFor(items: readonly FaqItem[], language: FaqLanguage): FaqEntry[] {
  return items.map((item) => ({
    id: item.id,
    slug: item.slug,
    group: item.group,
    question: language === 'ru' ? item.question_ru : item.question_en,
    answer: language === 'ru' ? item.answer_ru : item.answer_en,
  }));
}

/** An answer's paragraphs: separated by blank lines (single line breaks stay inside one). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** The support department a new ticket from the FAQ goes to: the group's, or technical support. */
export function departmentFor(group: FaqGroup | null | undefined): string {
  return group ? FAQ_GROUP_DEPARTMENT[group] : 'technical';
}

/** Where "Write to support" leads: a new ticket in the department (the support page reads ?new=). */
export function supportLink(group: FaqGroup | null | undefined): string {
  return `/support?new=${encodeURIComponent(departmentFor(group))}`;
}
