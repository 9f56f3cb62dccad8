import { describe, expect, it } from 'vitest';
import enAuth from '../../../locales/en/auth.json';
import ruAuth from '../../../locales/ru/auth.json';
import enLegal from '../../../locales/en/legal.json';
import ruLegal from '../../../locales/ru/legal.json';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keysOf(child, prefix ? `${prefix}.${key}` : key),
  );
}

// Key parity and non-empty texts are checked for every namespace by src/locales/locales.test.ts;
// this adds the <tags> that <Trans> turns into elements.
describe('account screen texts', () => {
  it('keeps the same interpolations and <Trans> tags in both languages', () => {
    const markers = (text: string) => (text.match(/{{\w+}}|<\/?\w+>/g) ?? []).sort();
    const get = (tree: unknown, path: string) =>
      path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], tree);
    for (const [en, ru] of [
      [enAuth, ruAuth],
      [enLegal, ruLegal],
    ] as const) {
      for (const key of keysOf(en)) {
        expect(markers(String(get(ru, key))), key).toEqual(markers(String(get(en, key))));
      }
    }
  });
});
