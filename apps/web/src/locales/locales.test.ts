import { ERROR_MESSAGES, type ErrorCode } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_CODE } from '../shared/lib/api-error';

type Messages = Record<string, unknown>;
const files = import.meta.glob<Messages>('./*/*.json', { eager: true, import: 'default' });

/** language -> namespace -> messages */
const locales: Record<string, Record<string, Messages>> = {};
for (const [path, messages] of Object.entries(files)) {
  const [, language = '', namespace = ''] = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  (locales[language] ??= {})[namespace] = messages;
}
const en = locales.en ?? {};
const ru = locales.ru ?? {};

/** Every leaf as "a.b.c" with its text. */
function leaves(messages: unknown, prefix = ''): Map<string, unknown> {
  const result = new Map<string, unknown>();
  if (typeof messages !== 'object' || messages === null || Array.isArray(messages)) {
    result.set(prefix, messages);
    return result;
  }
  for (const [key, value] of Object.entries(messages)) {
    for (const [path, leaf] of leaves(value, prefix ? `${prefix}.${key}` : key))
      result.set(path, leaf);
  }
  return result;
}

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/{{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('locales', () => {
  it('has English and Russian only, with the same namespaces', () => {
    expect(Object.keys(locales).sort()).toEqual(['en', 'ru']);
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(en)).toEqual(expect.arrayContaining(['common', 'errors']));
  });

  describe.each(Object.keys(en).sort())('namespace %s', (namespace) => {
    const enLeaves = leaves(en[namespace]);
    const ruLeaves = leaves(ru[namespace]);

    it('has the same keys in Russian as in English', () => {
      expect([...ruLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
    });

    it('has a non-empty text for every key', () => {
      for (const [key, text] of [...enLeaves, ...ruLeaves]) {
        expect(typeof text === 'string' && text.trim() !== '', `${namespace}:${key}`).toBe(true);
      }
    });

    it('uses the same interpolation variables in both languages', () => {
      for (const [key, text] of enLeaves) {
        expect(placeholders(ruLeaves.get(key)), `${namespace}:${key}`).toEqual(placeholders(text));
      }
    });
  });

  it('translates every error code of the contracts, and NETWORK, in both languages', () => {
    const codes = [...(Object.keys(ERROR_MESSAGES) as ErrorCode[]), NETWORK_ERROR_CODE];
    for (const code of codes) {
      expect(en.errors?.[code], `en errors:${code}`).toEqual(expect.any(String));
      expect(ru.errors?.[code], `ru errors:${code}`).toEqual(expect.any(String));
    }
  });

  it("spells the partner programme one way in English (British 'programme', as the legal texts)", () => {
    for (const [namespace, messages] of Object.entries(en))
      for (const [key, text] of leaves(messages))
        expect(String(text), `${namespace}:${key}`).not.toMatch(/\bpartner program\b/i);
  });

  it('puts a no-break space after the numero sign in Russian (№\u00a04), never a space or nothing', () => {
    for (const [namespace, messages] of Object.entries(ru))
      for (const [key, text] of leaves(messages))
        expect(String(text), `${namespace}:${key}`).not.toMatch(/№(?!\u00a0)/);
  });

  it('writes a decimal with a comma in Russian (12,50), as the console formats numbers and its fields take them', () => {
    // a version is no decimal: "версия 1.2" keeps its point, as MetaTrader writes it
    const decimalPoint = /(?<!верси[яюией] \d*)\d\.\d/i;
    expect('12.50').toMatch(decimalPoint);
    expect('версии 1.2, а не 1.5').toMatch(decimalPoint);
    expect('Версия 1.2').not.toMatch(decimalPoint);
    for (const [namespace, messages] of Object.entries(ru))
      for (const [key, text] of leaves(messages)) {
        expect(String(text), `${namespace}:${key}`).not.toMatch(decimalPoint);
        expect(String(text), `${namespace}:${key}`).not.toMatch(/после точки/);
      }
  });

  it('keeps the English error texts of the spec', () => {
    for (const [code, text] of Object.entries(ERROR_MESSAGES)) expect(en.errors?.[code]).toBe(text);
  });
});
