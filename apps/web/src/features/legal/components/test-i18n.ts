/** An i18next instance of its own over the real locale resources, for the legal page tests. */
import i18next, { type i18n as I18n } from 'i18next';
import { namespaces, resources } from '../../../shared/i18n';

export function createTestI18n(language: 'en' | 'ru'): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'ru'],
    resources,
    ns: namespaces,
    defaultNS: 'legal',
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  });
  return instance;
}
