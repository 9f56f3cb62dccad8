import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import styles from './route-error.module.css';

/**
 * What shows when a page fails to load or to render (a chunk missing after a deploy, a bug):
 * a way out instead of a blank screen. The details go to the console.
 */
export function RouteError() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className={styles.error} role="alert">
      <h1 className={styles.title}>{t('errorPage.title')}</h1>
      <p className={styles.text}>{t('errorPage.text')}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={() => window.location.reload()}>
          {t('errorPage.reload')}
        </button>
        <Link to="/" className={styles.secondary}>
          {t('errorPage.home')}
        </Link>
      </div>
    </div>
  );
}
