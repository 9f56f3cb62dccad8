import { Outlet, ScrollRestoration, useMatch, useNavigation } from 'react-router';
import { LanguageSwitcher } from '../../features/settings/components/language-switcher';
import { ThemeToggle } from '../../features/settings/components/theme-toggle';
import { selectIsDesktop, selectIsMobile } from '../../shared/model/ui-slice';
import { FullScreenSpinner } from '../../shared/ui/spinner/spinner';
import { useAppSelector } from '../hooks';
import { Logo } from './components/logo';
import { MainNav } from './components/main-nav';
import { MobileMenu } from './components/mobile-menu';
import type { NavItem } from './components/nav-items';
import { SiteFooter } from './components/site-footer';
import { MAIN_CONTENT_ID, SkipLink } from './components/skip-link';
import styles from './layout.module.css';

/**
 * Header (logo, theme, language; on a public monitoring page also its navigation), main, footer.
 * On mobile the toggles move into the slide-in menu.
 */
export function SignedOutLayout() {
  const navigation = useNavigation();
  const isDesktop = useAppSelector(selectIsDesktop);
  const isMobile = useAppSelector(selectIsMobile);
  const monitoringMatch = useMatch('/online-monitoring/:monitoringId');

  const items: NavItem[] = monitoringMatch
    ? [
        { to: monitoringMatch.pathname, label: 'nav.monitoring' },
        { to: '/login', label: 'nav.login' },
        { to: '/signup', label: 'nav.signup' },
      ]
    : [];
  const withMenu = !isDesktop && (items.length > 0 || isMobile);

  return (
    <div className={styles.shell}>
      <SkipLink />
      <header className={styles.header}>
        <div className={styles.bar}>
          {withMenu ? (
            <MobileMenu
              items={items}
              extras={
                isMobile ? (
                  <>
                    <ThemeToggle showLabel />
                    <LanguageSwitcher />
                  </>
                ) : null
              }
            />
          ) : null}
          <Logo />
          {isDesktop && items.length > 0 ? <MainNav items={items} /> : null}
          {!isMobile ? (
            <div className={styles.tools}>
              <ThemeToggle />
              <LanguageSwitcher />
            </div>
          ) : null}
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      {navigation.state === 'loading' ? <FullScreenSpinner /> : null}
      <ScrollRestoration />
    </div>
  );
}
