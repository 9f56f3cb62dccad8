/** An i18next instance of its own over the real locale resources, for the legal page tests. */
import i18next, { type i18n as I18n } from 'i18next';
import { namespaces } from '../../../shared/i18n';
import { allResources } from '../../../test/i18n-resources';

export function createTestI18n(language: 'en' | 'ru'): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'ru'],
    resources: allResources,
    ns: namespaces,
    defaultNS: 'legal',
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}
