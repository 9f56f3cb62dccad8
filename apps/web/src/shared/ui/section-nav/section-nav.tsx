import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import styles from './section-nav.module.css';

export interface SectionNavItem {
  to: string;
  label: ReactNode;
  /** Current only on this very address, not on the addresses under it (the section's index). */
  end?: boolean;
}

/**
 * The links to a section's pages as a row of tabs under its heading: a named navigation landmark,
 * the current page marked by the router (aria-current="page") with a bar under it.
 */
export function SectionNav({ label, items }: { label: string; items: readonly SectionNavItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className={styles.tabs}>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} className={styles.tab}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
