import { describe, expect, it } from 'vitest';
import { FAQ_ITEMS } from '../test-fixtures';
import { entriesFor, type FaqEntry } from './faq-entries';
import {
  createFaqIndex,
  excerpt,
  highlight,
  processTerm,
  queryTerms,
  type Segment,
} from './faq-search';

const english = createFaqIndex(entriesFor(FAQ_ITEMS, 'en'));
const russian = createFaqIndex(entriesFor(FAQ_ITEMS, 'ru'));

const slugs = (index: typeof english, query: string) =>
  index.search(query).map((hit) => hit.entry.slug);
const marked = (segments: Segment[]) => segments.filter((s) => s.mark).map((s) => s.text);
const joined = (segments: Segment[]) => segments.map((s) => s.text).join('');

function entry(fields: Partial<FaqEntry> & Pick<FaqEntry, 'id' | 'question' | 'answer'>): FaqEntry {
  return { slug: `q-${fields.id}`, group: 'support', ...fields };
}

describe('processTerm', () => {
  it('lower-cases, folds ё into е and stems Russian words to one form', () => {
    expect(processTerm('Вывод')).toBe(processTerm('выводить'));
    expect(processTerm('выводе')).toBe(processTerm('вывода'));
    expect(processTerm('Партнёр')).toBe(processTerm('партнер'));
    expect(processTerm('ЁЛКА')).not.toMatch(/ё/);
  });

  it('gives a noun made of a verb the verb’s form (пополнение, пополнить)', () => {
    expect(processTerm('пополнение')).toBe(processTerm('пополнить'));
    expect(processTerm('Пополнения')).toBe(processTerm('пополню'));
    expect(processTerm('сообщениях')).toBe(processTerm('сообщить'));
    expect(processTerm('изменение')).toBe(processTerm('изменить'));
    // other words ending so keep their stem
    expect(processTerm('план')).toBe('план');
    expect(processTerm('тикет')).toBe('тикет');
  });

  it('stems English words', () => {
    expect(processTerm('Withdrawals')).toBe(processTerm('withdraw'));
    expect(processTerm('servers')).toBe(processTerm('server'));
  });

  it('drops common words and single letters but keeps numbers', () => {
    expect(processTerm('the')).toBeNull();
    expect(processTerm('как')).toBeNull();
    expect(processTerm('и')).toBeNull();
    expect(processTerm('x')).toBeNull();
    expect(processTerm('5')).toBe('5');
  });

  it('stems Latin words of a Russian text the English way (MetaTrader, servers)', () => {
    expect(queryTerms('Как вывести на USDT servers?')).toEqual(['вывест', 'usdt', 'server']);
  });
});

describe('the FAQ index', () => {
  it('finds the Russian questions by other forms of their words', () => {
    // "вывод" in the answer, "вывести" in the question
    expect(slugs(russian, 'вывод')).toEqual(['partner-withdrawal']);
    expect(slugs(russian, 'выводить')).toEqual(['partner-withdrawal']);
    expect(slugs(russian, 'выводе')).toEqual(['partner-withdrawal']);
    // the question says "пополнить", the answer "пополнение"
    expect(slugs(russian, 'пополнение')[0]).toBe('balance-top-up');
    expect(slugs(russian, 'пополнить')[0]).toBe('balance-top-up');
    expect(slugs(russian, 'сервера')[0]).toBe('vps-reboot');
  });

  it('finds the English questions by other forms of their words', () => {
    expect(slugs(english, 'withdrawals')).toEqual(['partner-withdrawal']);
    expect(slugs(english, 'withdraw')).toEqual(['partner-withdrawal']);
    expect(slugs(english, 'rebooting')[0]).toBe('vps-reboot');
  });

  it('forgives a small typo', () => {
    expect(slugs(english, 'withdrawl')).toEqual(['partner-withdrawal']);
    expect(slugs(english, 'monitorng')[0]).toBe('monitoring-what');
    expect(slugs(russian, 'пополнене')[0]).toBe('balance-top-up');
    expect(slugs(russian, 'сервре')[0]).toBe('vps-reboot');
  });

  it('matches a word by its beginning', () => {
    expect(slugs(english, 'withd')).toEqual(['partner-withdrawal']);
    expect(slugs(russian, 'попол')[0]).toBe('balance-top-up');
    expect(slugs(russian, 'публик')).toEqual(['publisher-install']);
  });

  it('searches the questions of its own language only', () => {
    expect(slugs(english, 'вывод')).toEqual([]);
    expect(slugs(russian, 'reward')).toEqual([]);
  });

  it('finds nothing for an empty query, common words only, or words it does not have', () => {
    expect(russian.search('   ')).toEqual([]);
    expect(english.search('how do I')).toEqual([]);
    expect(english.search('quantum entanglement')).toEqual([]);
  });

  it('ranks a question that says it above an answer that mentions it, across groups', () => {
    const index = createFaqIndex([
      entry({
        id: 1,
        group: 'monitoring',
        question: 'What are alerts?',
        answer: 'See the drawdown.',
      }),
      entry({
        id: 2,
        group: 'partners',
        question: 'Where is my reward?',
        answer: 'It reaches the drawdown page.',
      }),
      entry({
        id: 3,
        group: 'support',
        question: 'What is the drawdown?',
        answer: 'How far equity fell.',
      }),
    ]);
    expect(index.search('drawdown').map((hit) => hit.entry.id)[0]).toBe(3);
    expect(index.search('drawdown')).toHaveLength(3);
  });

  it('tells which words of a question matched, in their processed form', () => {
    const [hit] = russian.search('выводить');
    expect(hit?.matched.has('вывод')).toBe(true);
  });
});

describe('highlight', () => {
  it('marks the words whose stem matched: "выводить" marks "вывод" and "вывода"', () => {
    const terms = new Set(queryTerms('выводить'));
    const text = 'Вывод средств: сумма вывода не меньше минимальной. Выводы делают по средам.';
    const segments = highlight(text, terms);
    expect(marked(segments)).toEqual(['Вывод', 'вывода', 'Выводы']);
    expect(joined(segments)).toBe(text);
  });

  it('marks English word forms, whatever their case', () => {
    const terms = new Set(queryTerms('withdrawals'));
    expect(marked(highlight('Withdraw once; withdrawing again waits.', terms))).toEqual([
      'Withdraw',
      'withdrawing',
    ]);
  });

  it('marks what a prefix or a typo matched, as the index reports it', () => {
    const [prefixHit] = russian.search('попол');
    expect(
      marked(highlight('Как пополнить баланс? Пополнение картой.', prefixHit!.matched)),
    ).toEqual(['пополнить', 'Пополнение']);
    const [typoHit] = english.search('withdrawl');
    expect(marked(highlight(typoHit!.entry.question, typoHit!.matched))).toEqual(['withdraw']);
  });

  it('marks nothing for common words and leaves the text whole', () => {
    const text = 'How do I withdraw?';
    expect(highlight(text, new Set(queryTerms('how do I')))).toEqual([{ text, mark: false }]);
  });

  it('keeps markup as text (the page renders the pieces as text, never as HTML)', () => {
    const segments = highlight('<b>reward</b> & rewards', new Set(queryTerms('reward')));
    expect(joined(segments)).toBe('<b>reward</b> & rewards');
    expect(marked(segments)).toEqual(['reward', 'rewards']);
  });
});

describe('excerpt', () => {
  const long =
    'Servers are billed monthly. ' +
    'The balance pays for every renewal and the invoice is sent by e-mail. '.repeat(3) +
    'Partners withdraw their reward to a wallet of their choice. ' +
    'Anything else goes to support. '.repeat(3);

  it('shows the part around the first matched word, cut at words, with ellipses', () => {
    const segments = excerpt(long, new Set(queryTerms('withdrawals')), 120);
    const text = joined(segments);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(122);
    expect(marked(segments)).toEqual(['withdraw']);
    expect(text).toMatch(/… ?\w/);
  });

  it('starts at the beginning when nothing in the answer matched', () => {
    const text = joined(excerpt(long, new Set(['nothing']), 60));
    expect(text.startsWith('Servers are billed monthly.')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });

  it('keeps a short answer whole, its line breaks as spaces', () => {
    expect(joined(excerpt('One.\n\nTwo.', new Set()))).toBe('One. Two.');
  });
});
