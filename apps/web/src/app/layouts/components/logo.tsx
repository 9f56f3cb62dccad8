import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import styles from './logo.module.css';

/** The TradeHost mark and name, a link to the start page. */
export function Logo() {
  const { t } = useTranslation('common');
  return (
    <Link to="/" className={styles.logo} aria-label={t('header.home')}>
      <svg className={styles.mark} viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="7" className="logo-mark" />
        <path d="M9 9v14M16 6v20M23 11v12" className="logo-wick" />
        <rect x="7" y="12" width="4" height="8" rx="1" className="logo-body" />
        <rect x="14" y="9" width="4" height="11" rx="1" className="logo-body" />
        <rect x="21" y="14" width="4" height="6" rx="1" className="logo-body" />
      </svg>
      <span className={styles.name}>{t('appName')}</span>
    </Link>
  );
}
