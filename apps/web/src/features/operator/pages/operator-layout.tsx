import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { Loading } from '../components/states';
import styles from './operator-layout.module.css';

const TABS = [
  { to: '/operator', label: 'tabs.queue', end: true },
  { to: '/operator/users', label: 'tabs.users', end: false },
  { to: '/operator/audit', label: 'tabs.audit', end: false },
] as const;

/** Route module (lazy, admins only): the operator heading and its sections. */
export function Component() {
  const { t } = useTranslation('operator');
  return (
    <div className={styles.layout}>
      <div>
        <h1 className={styles.title}>{t('title')}</h1>
        <p className={styles.lead}>{t('lead')}</p>
      </div>
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
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
