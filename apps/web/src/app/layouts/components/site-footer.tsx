import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import styles from './site-footer.module.css';

/** The page's foot: the years of the service (up to this one, by the reader's clock), the legal pages. */
export function SiteFooter() {
  const { t } = useTranslation('common');
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <p className={styles.copyright}>
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </p>
        <nav aria-label={t('footer.label')}>
          <ul className={styles.links}>
            <li>
              <Link to="/public-offer">{t('footer.offer')}</Link>
            </li>
            <li>
              <Link to="/privacy-policy">{t('footer.policy')}</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
