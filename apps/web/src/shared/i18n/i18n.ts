import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, readLanguage, UI_LANGUAGES } from '../lib/preferences';
import { resourcesFrom, type Messages } from './resources';

/**
 * Every src/locales/en/<namespace>.json, bundled (they are small), but for the namespaces of
 * the larger signed-in sections below. A feature adds its namespace by adding its files.
 */
const files = import.meta.glob<Messages>(
  [
    '../../locales/en/*.json',
    '!../../locales/en/balance.json',
    '!../../locales/en/faq.json',
    '!../../locales/en/monitoring.json',
    '!../../locales/en/operator.json',
    '!../../locales/en/partners.json',
    '!../../locales/en/profile.json',
    '!../../locales/en/support.json',
    '!../../locales/en/vps.json',
  ],
  { eager: true, import: 'default' },
);

/**
 * The English texts of sections whose pages load on demand: each loads with its page (see
 * `loadTexts` and router.tsx), not with the first view.
 */
const pageTexts = import.meta.glob<Messages>(
  [
    '../../locales/en/balance.json',
    '../../locales/en/faq.json',
    '../../locales/en/monitoring.json',
    '../../locales/en/operator.json',
    '../../locales/en/partners.json',
    '../../locales/en/profile.json',
    '../../locales/en/support.json',
    '../../locales/en/vps.json',
  ],
  { import: 'default' },
);

/** The bundled texts: English, the default and the fallback of every other language. */
export const resources = resourcesFrom(files);
export const namespaces = Object.keys(resources[DEFAULT_LANGUAGE] ?? {});

/**
 * The other languages' texts come from a chunk of their own, loaded the first time one is wanted
 * (at start-up for a reader who chose it before, or on a switch): the English reader does not
 * download them. i18next switches the language once its texts are in, so a switch never shows a
 * half-translated screen; if the chunk cannot be loaded the screen stays in English.
 */
const otherLanguagesBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const english = pageTexts[`../../locales/en/${namespace}.json`];
    const texts: Promise<Messages> =
      language === DEFAULT_LANGUAGE
        ? (english?.() ?? Promise.resolve({}))
        : import('./other-languages').then(
            ({ otherLanguages }) => (otherLanguages[language]?.[namespace] ?? {}) as Messages,
          );
    texts.then(
      (messages) => callback(null, messages),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

export const i18n = i18next.createInstance();

/** Settles once the start-up language's texts are in (at once for English); render after it. */
export const i18nReady: Promise<unknown> = i18n
  .use(otherLanguagesBackend)
  .use(initReactI18next)
  .init({
    resources,
    // the languages missing from `resources` come from the backend above
    partialBundledLanguages: true,
    lng: readLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...UI_LANGUAGES],
    ns: namespaces,
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    // i18next's own separators, set: left unset, each `t` call first tests whether its key
    // reads like a sentence (a regular expression built per call), the largest part of `t`'s
    // time in a page's render
    keySeparator: '.',
    nsSeparator: ':',
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });

/**
 * Loads a page section's texts (in the current language and English) before its page renders;
 * router.tsx calls it beside the page's own import.
 */
export function loadTexts(namespace: string): Promise<void> {
  return i18n.loadNamespaces(namespace).then(() => undefined);
}
