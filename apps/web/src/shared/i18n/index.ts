export { i18n, i18nReady, loadTexts, namespaces, resources } from './i18n';
