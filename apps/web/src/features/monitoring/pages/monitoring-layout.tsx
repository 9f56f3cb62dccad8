import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import styles from './monitoring.module.css';

const TABS = [
  { to: '/online-monitoring', label: 'tabs.subscription', end: true },
  { to: '/online-monitoring/accounts', label: 'tabs.accounts', end: false },
  { to: '/online-monitoring/guide', label: 'tabs.guide', end: false },
] as const;

/** Route module (lazy): the monitoring heading and its sections (subscription, my accounts, guide). */
export function Component() {
  const { t } = useTranslation('monitoring');
  return (
    <div className={styles.layout}>
      <h1 className={styles.title}>{t('title')}</h1>
      <nav aria-label={t('sectionsLabel')}>
        <ul className={styles.tabs}>
          {TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} end={tab.end} className={styles.tab}>
                {t(tab.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
