import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as russianStemmer } from '@orama/stemmers/russian';
import MiniSearch, { type SearchOptions } from 'minisearch';
import type { FaqEntry } from './faq-entries';

/**
 * The FAQ's search: one MiniSearch index per language over that language's questions and
 * answers. Words are lower-cased, ё is folded into е, common words are dropped and the rest are
 * stemmed (Russian words by the Russian stemmer, Latin ones by the English stemmer, whatever the
 * language: a Russian answer names MetaTrader and USDT too), so "выводить" finds "вывод" and
 * "вывода", and "withdrawals" finds "withdraw". A query word also matches as a prefix ("попол")
 * and with a small typo ("withdrawl"). The question weighs more than the answer.
 *
 * This module carries minisearch and the stemmers: only the FAQ page imports it, and only once a
 * search is asked for (see use-faq-search.ts).
 */

/** A question found, best first. */
export interface FaqHit {
  entry: FaqEntry;
  score: number;
  /** The processed (stemmed) words of the question and answer that matched the query. */
  matched: ReadonlySet<string>;
}

export interface FaqIndex {
  search(query: string): FaqHit[];
}

/** A word: letters and digits (anything else separates words, as in the highlighting below). */
const WORD = /[\p{L}\p{N}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const DIGITS = /^\p{N}+$/u;

// Words too common to mean anything in a question (written with е for ё, lower case).
const ENGLISH_STOP_WORDS = new Set(
  `a about am an and any are as at be been but by can could did do does doing for from had has
  have how i if in into is it its me my no not of on or our so than that the their them then there
  these they this those to too us was we were what when where which who whom why will with would
  you your`.split(/\s+/),
);
const RUSSIAN_STOP_WORDS = new Set(
  `а без бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до
  его ее если есть еще же за и из или им их к как какая какие какой когда кто ли либо мне меня
  мной мы на над не нет ни но ну о об он она они оно от по под при про с сам со та так также там
  те тем то того тоже той только том ту ты у уже хотя чего чей чем что чтобы эта эти это этот я`.split(
    /\s+/,
  ),
);

/** A noun made of a verb: пополнение, пополнения, ожиданием, сообщениях. */
const VERBAL_NOUN = /[еая]ни(?:е|я|ю|и|й|ем|ям|ях|ями)$/;

/**
 * The stemmer leaves a noun made of a verb with its suffix ("пополнение" → "пополнен", while
 * "пополнить" → "пополн"); cutting -ен/-ан/-ян off such a noun's stem gives both one form
 * ("сообщение"/"сообщить", "изменение"/"изменить", "подключение"/"подключить").
 */
function russianStem(word: string): string {
  const stem = russianStemmer(word).replace(/ё/g, 'е');
  return VERBAL_NOUN.test(word) && stem.length >= 5 && /[еая]н$/.test(stem)
    ? stem.slice(0, -2)
    : stem;
}

/**
 * A word as the index keeps it: lower case, ё as е, stemmed; null for a word too common or too
 * short to search by (a single letter).
 */
export function processTerm(word: string): string | null {
  const term = word.toLowerCase().replace(/ё/g, 'е');
  if (term.length < 2 && !DIGITS.test(term)) return null;
  if (CYRILLIC.test(term)) {
    if (RUSSIAN_STOP_WORDS.has(term)) return null;
    return russianStem(term);
  }
  if (ENGLISH_STOP_WORDS.has(term)) return null;
  return englishStemmer(term);
}

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

export const SEARCH_OPTIONS: SearchOptions = {
  boost: { question: 2 },
  prefix: true,
  // a typo of one letter in a word of 4 to 7 letters, two in a longer one; short words exactly
  fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
  combineWith: 'OR',
};

/** The index of one language's questions. */
export function createFaqIndex(entries: readonly FaqEntry[]): FaqIndex {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const index = new MiniSearch<FaqEntry>({
    idField: 'id',
    fields: ['question', 'answer'],
    tokenize,
    processTerm,
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(entries);
  return {
    search(query) {
      if (!query.trim()) return [];
      return index.search(query).flatMap((result) => {
        const entry = byId.get(result.id as number);
        if (!entry) return [];
        const matched = new Set([...result.terms, ...result.queryTerms]);
        return [{ entry, score: result.score, matched }];
      });
    },
  };
}

/** The processed terms of a query (what the highlighting compares with, beside a hit's matches). */
export function queryTerms(query: string): string[] {
  return tokenize(query).flatMap((word) => processTerm(word) ?? []);
}

/** A piece of text, marked when it is a word that matched. */
export interface Segment {
  text: string;
  mark: boolean;
}

/** Whether a word of the text is one the search matched: its processed form is a matched term. */
function matches(word: string, terms: ReadonlySet<string>): boolean {
  const term = processTerm(word);
  return term !== null && terms.has(term);
}

/**
 * The text cut into plain and marked pieces: a word is marked when its processed (stemmed) form
 * is one of `terms`, so the query "выводить" marks "вывод" and "вывода". Joined, the pieces are
 * the text itself.
 */
export function highlight(text: string, terms: ReadonlySet<string>): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  const push = (piece: string, mark: boolean) => {
    if (!piece) return;
    const previous = segments.at(-1);
    if (previous && previous.mark === mark && !mark) previous.text += piece;
    else segments.push({ text: piece, mark });
  };
  for (const found of text.matchAll(WORD)) {
    if (!matches(found[0], terms)) continue;
    push(text.slice(last, found.index), false);
    push(found[0], true);
    last = found.index + found[0].length;
  }
  push(text.slice(last), false);
  return segments;
}

/**
 * A part of the answer around its first matched word (about `length` characters, cut at word
 * boundaries, "…" where it was cut), highlighted; the answer's start when no word of it matched.
 */
export function excerpt(text: string, terms: ReadonlySet<string>, length = 180): Segment[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return highlight(flat, terms);
  let first = 0;
  for (const found of flat.matchAll(WORD)) {
    if (matches(found[0], terms)) {
      first = found.index;
      break;
    }
  }
  // some context before the match, a third of the excerpt at most
  let start = Math.max(0, first - Math.floor(length / 3));
  if (start > 0) {
    const space = flat.lastIndexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + length);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    end = space > first ? space : end;
  }
  const segments = highlight(flat.slice(start, end).replace(/[\s,.;:]+$/u, ''), terms);
  if (start > 0) segments.unshift({ text: '…', mark: false });
  if (end < flat.length) segments.push({ text: '…', mark: false });
  return segments;
}
