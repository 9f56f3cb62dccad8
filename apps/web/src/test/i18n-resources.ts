/** Every language's texts at once, for test i18next instances that switch languages synchronously. */
import i18next, { type i18n as I18n } from 'i18next';
import { namespaces } from '../shared/i18n';
import { resourcesFrom, type Messages } from '../shared/i18n/resources';

export const allResources = resourcesFrom(
  import.meta.glob<Messages>('../locales/*/*.json', { eager: true, import: 'default' }),
);

/** An i18next instance of its own over the real locale resources, for one test. */
export function createTestI18n(language: 'en' | 'ru' = 'en', defaultNS = 'common'): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'ru'],
    resources: allResources,
    ns: namespaces,
    defaultNS,
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}
