import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { menuDisplayed, selectDisplayMenu } from '../../../shared/model/ui-slice';
import { useAppDispatch, useAppSelector } from '../../hooks';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import type { NavItem } from './nav-items';
import styles from './mobile-menu.module.css';

export const MOBILE_MENU_ID = 'mobile-menu';

// The dialog (Radix) loads when the menu is first wanted, not with the first page.
const loadMenuDialog = () => import('./menu-dialog');
const MenuDialog = lazy(() => loadMenuDialog().then((module) => ({ default: module.MenuDialog })));

export interface MobileMenuProps {
  items: readonly NavItem[];
  /** Below the navigation: logout, and on mobile the theme and language toggles. */
  extras?: ReactNode;
}

/**
 * The menu button of narrow screens and its slide-in menu. The open flag is ui.displayMenu (the
 * app shell locks the page scroll on it); the menu closes on navigation and when it unmounts
 * (the window grew to desktop width).
 */
export function MobileMenu({ items, extras }: MobileMenuProps) {
  const { t } = useTranslation('common');
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectDisplayMenu);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [wanted, setWanted] = useState(false);
  const { pathname } = useLocation();

  useEffect(() => {
    dispatch(menuDisplayed(false));
  }, [pathname, dispatch]);
  useEffect(() => () => void dispatch(menuDisplayed(false)), [dispatch]);

  const preload = () => void loadMenuDialog();
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={`menu-button ${styles.menuButton}`}
        aria-expanded={open}
        aria-controls={MOBILE_MENU_ID}
        aria-haspopup="dialog"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setWanted(true);
          dispatch(menuDisplayed(true));
        }}
      >
        <StrokeIcon size={20} strokeWidth={1.8} d="M4 7h16M4 12h16M4 17h16" />
        <span className="menu-button-label">{t('header.menu')}</span>
      </button>
      {wanted || open ? (
        <Suspense fallback={null}>
          <MenuDialog
            id={MOBILE_MENU_ID}
            open={open}
            onOpenChange={(value) => dispatch(menuDisplayed(value))}
            returnFocusTo={buttonRef}
            items={items}
            extras={extras}
          />
        </Suspense>
      ) : null}
    </>
  );
}
