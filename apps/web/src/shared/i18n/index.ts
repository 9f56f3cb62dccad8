export { i18n, i18nReady, namespaces, resources } from './i18n';
