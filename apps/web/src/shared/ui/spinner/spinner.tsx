import { useTranslation } from 'react-i18next';
import styles from './spinner.module.css';

/**
 * The full-screen loader (SPEC: 100x100) shown while a page loads, while the session is
 * restored and while the global loader flag is set. It fades in after a short delay so that a
 * quick load does not flash it.
 */
export function FullScreenSpinner() {
  const { t } = useTranslation('common');
  return (
    <div
      className={styles.backdrop}
      role="status"
      aria-live="polite"
      data-testid="full-screen-spinner"
    >
      <svg
        className={styles.spinner}
        width="100"
        height="100"
        viewBox="0 0 100 100"
        aria-hidden="true"
      >
        <circle className={styles.track} cx="50" cy="50" r="42" />
        <circle className={styles.arc} cx="50" cy="50" r="42" />
      </svg>
      <span className="visually-hidden">{t('spinner.loading')}</span>
    </div>
  );
}
