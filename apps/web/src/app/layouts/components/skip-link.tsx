import { useTranslation } from 'react-i18next';
import styles from './skip-link.module.css';

export const MAIN_CONTENT_ID = 'main-content';

/** The first focusable element: jumps past the header to <main>. */
export function SkipLink() {
  const { t } = useTranslation('common');
  return (
    <a
      className={styles.skipLink}
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        // focus <main> without a hash change (the router would take it for a navigation)
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      {t('skipToContent')}
    </a>
  );
}
