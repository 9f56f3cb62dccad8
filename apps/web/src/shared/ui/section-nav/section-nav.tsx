import { useRef, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useBringIntoRow } from '../tabs/bring-into-row';
import styles from './section-nav.module.css';

export interface SectionNavItem {
  to: string;
  label: ReactNode;
  /** Current only on this very address, not on the addresses under it (the section's index). */
  end?: boolean;
}

/**
 * The links to a section's pages as a row of tabs under its heading: a named navigation landmark,
 * the current page marked by the router (aria-current="page") with a bar under it. Where the
 * row is wider than the screen (a phone), it stays one row that scrolls sideways, with the
 * current tab brought into view, rather than wrapping into rows above the page.
 */
export function SectionNav({ label, items }: { label: string; items: readonly SectionNavItem[] }) {
  const list = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  useBringIntoRow(
    list,
    (row) => row.querySelector('[aria-current="page"]')?.parentElement,
    pathname,
  );
  return (
    <nav aria-label={label}>
      <ul ref={list} className={styles.tabs}>
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
