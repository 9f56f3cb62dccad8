/** Every language's texts at once, for test i18next instances that switch languages synchronously. */
import { resourcesFrom, type Messages } from '../shared/i18n/resources';

export const allResources = resourcesFrom(
  import.meta.glob<Messages>('../locales/*/*.json', { eager: true, import: 'default' }),
);
