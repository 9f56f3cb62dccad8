export { i18n, namespaces, resources } from './i18n';
