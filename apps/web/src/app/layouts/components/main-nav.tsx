import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { NavItem } from './nav-items';
import styles from './main-nav.module.css';

export interface MainNavProps {
  items: readonly NavItem[];
  /** `row` in the header, `column` in the slide-in menu. */
  layout?: 'row' | 'column';
  onNavigate?: () => void;
}

/** The main navigation; NavLink marks the current section with aria-current="page". */
export function MainNav({ items, layout = 'row', onNavigate }: MainNavProps) {
  const { t } = useTranslation('common');
  return (
    <nav aria-label={t('nav.label')} className={layout === 'row' ? styles.row : styles.column}>
      <ul className={styles.list}>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              className={styles.link}
              onClick={onNavigate}
              // the count in words (a hidden text in the link would read with a space before its comma)
              aria-label={
                item.badge ? `${t(item.label)}${t('nav.unread', { count: item.badge })}` : undefined
              }
            >
              {t(item.label)}
              {item.badge ? (
                <span className={styles.badge} aria-hidden="true">
                  {item.badge > 99 ? '99+' : item.badge}
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
