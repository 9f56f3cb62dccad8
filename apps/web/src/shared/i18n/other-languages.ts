import { resourcesFrom, type Messages } from './resources';

/**
 * The texts of every language but English (the default, bundled with the app), in a chunk of
 * their own that i18n.ts loads when a reader first wants one of them.
 */
export const otherLanguages = resourcesFrom(
  import.meta.glob<Messages>(['../../locales/*/*.json', '!../../locales/en/*.json'], {
    eager: true,
    import: 'default',
  }),
);
