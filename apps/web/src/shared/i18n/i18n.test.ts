import { describe, expect, it } from 'vitest';
import { i18n, loadTexts, namespaces, resources } from './i18n';

describe('i18n', () => {
  it('bundles the English texts only, every namespace of them', () => {
    expect(Object.keys(resources)).toEqual(['en']);
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'errors', 'auth']));
    expect(i18n.hasResourceBundle('ru', 'common')).toBe(false);
  });

  it('loads Russian when it is first wanted, then switches to it', async () => {
    expect(i18n.t('common:requestFailed')).toBe('The request failed');
    const switching = i18n.changeLanguage('ru');
    // still English while the Russian texts load: never a half-translated screen
    expect(i18n.language).toBe('en');
    await switching;
    expect(i18n.language).toBe('ru');
    expect(i18n.t('common:requestFailed')).toBe('Запрос не выполнен');
    for (const namespace of namespaces) expect(i18n.hasResourceBundle('ru', namespace)).toBe(true);
    await i18n.changeLanguage('en');
    expect(i18n.t('common:requestFailed')).toBe('The request failed');
  });

  it('leaves the balance, VPS and operator texts out of the first view and loads them with their pages', async () => {
    expect(namespaces).not.toContain('balance');
    expect(namespaces).not.toContain('vps');
    expect(namespaces).not.toContain('operator');
    expect(i18n.hasResourceBundle('en', 'vps')).toBe(false);
    await loadTexts('vps');
    expect(i18n.t('vps:tabs.rates')).toBe('Order a server');
    expect(i18n.hasResourceBundle('en', 'operator')).toBe(false);
    await loadTexts('operator');
    expect(i18n.hasResourceBundle('en', 'operator')).toBe(true);
    expect(i18n.t('operator:tabs.queue')).toBe('Review queue');
    await i18n.changeLanguage('ru');
    // a switch brings the loaded sections along
    expect(i18n.hasResourceBundle('ru', 'operator')).toBe(true);
    await i18n.changeLanguage('en');
  });
});
