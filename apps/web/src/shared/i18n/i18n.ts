import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, readLanguage, UI_LANGUAGES } from '../lib/preferences';

type Messages = Record<string, unknown>;

/**
 * Every src/locales/<language>/<namespace>.json, bundled (they are small). A feature adds its
 * namespace by adding the two files; nothing to register.
 */
const files = import.meta.glob<Messages>('../../locales/*/*.json', {
  eager: true,
  import: 'default',
});

export function resourcesFrom(modules: Record<string, Messages>): Resource {
  const resources: Resource = {};
  for (const [path, messages] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language = '', namespace = ''] = match;
    (resources[language] ??= {})[namespace] = messages;
  }
  return resources;
}

export const resources = resourcesFrom(files);
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: readLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...UI_LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});
