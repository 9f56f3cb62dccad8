import { DEFAULT_PERMISSIONS } from '@tradehost/contracts';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { startSignedInFetches, useGetPermissionsQuery } from '../../features/auth/api/auth-api';
import { useCurrentUser } from '../../features/auth/api/use-current-user';
import { LanguageSwitcher } from '../../features/settings/components/language-switcher';
import {
  supportApi,
  UNREAD_POLL_MS,
  useGetSupportUnreadQuery,
} from '../../features/support/api/support-api';
import { ThemeToggle } from '../../features/settings/components/theme-toggle';
import type { RouteHandle } from '../../shared/lib/route-handle';
import { usePageVisible } from '../../shared/lib/use-page-visible';
import { useLiveConnected } from '../../shared/live/live-state';
import { selectIsDesktop, selectIsMobile } from '../../shared/model/ui-slice';
import { FullScreenSpinner } from '../../shared/ui/spinner/spinner';
import { useAppSelector } from '../hooks';
import { useLiveUpdates } from '../live-updates';
import { BalanceBadge, LogoutButton, ProfileButton } from './components/account-controls';
import { AlertBanner } from './components/alert-banner';
import { Logo } from './components/logo';
import { MainNav } from './components/main-nav';
import { MobileMenu } from './components/mobile-menu';
import { signedInNavItems, type NavItem } from './components/nav-items';
import { SiteFooter } from './components/site-footer';
import { MAIN_CONTENT_ID, SkipLink } from './components/skip-link';
import styles from './layout.module.css';

/** What the layout asks for first: the user, the permissions, the alert and the unread count. */
export const handle: RouteHandle = {
  prefetch: (dispatch) => {
    startSignedInFetches(dispatch, false);
    dispatch(supportApi.util.prefetch('getSupportUnread', undefined, {}));
  },
};

/**
 * The signed-in navigation (nav-items.ts): the permission flags and, for Operator, the role;
 * Support counts the tickets with new replies (live updates bring it; asked every minute while
 * the page shows and the live updates are down).
 */
export function useSignedInNav(): NavItem[] {
  const { data: permissions = DEFAULT_PERMISSIONS } = useGetPermissionsQuery();
  const role = useCurrentUser()?.role;
  const visible = usePageVisible();
  const live = useLiveConnected();
  const { data: unread = 0 } = useGetSupportUnreadQuery(undefined, {
    pollingInterval: visible && !live ? UNREAD_POLL_MS : 0,
  });
  return signedInNavItems(permissions, role).map((item) =>
    item.to === '/support' && unread > 0 ? { ...item, badge: unread } : item,
  );
}

/**
 * Desktop: logo, navigation, balance, theme, language, logout, profile.
 * Tablet: the navigation and logout move into the slide-in menu.
 * Mobile: the theme and language toggles move there too.
 */
export function SignedInLayout() {
  // one live-updates stream per tab while signed in (balance, servers, monitoring, tickets)
  useLiveUpdates();
  const navigation = useNavigation();
  const isDesktop = useAppSelector(selectIsDesktop);
  const isMobile = useAppSelector(selectIsMobile);
  const items = useSignedInNav();
  const user = useCurrentUser();

  return (
    <div className={styles.shell}>
      <SkipLink />
      <header className={styles.header}>
        <div className={styles.bar}>
          {!isDesktop ? (
            <MobileMenu
              items={items}
              extras={
                <>
                  {isMobile ? (
                    <>
                      <ThemeToggle showLabel />
                      <LanguageSwitcher />
                    </>
                  ) : null}
                  <LogoutButton block />
                </>
              }
            />
          ) : null}
          <Logo />
          {isDesktop ? <MainNav items={items} /> : null}
          <div className={styles.tools}>
            <BalanceBadge balance={user?.balance} />
            {!isMobile ? (
              <>
                <ThemeToggle />
                <LanguageSwitcher />
              </>
            ) : null}
            {isDesktop ? <LogoutButton /> : null}
            <ProfileButton user={user} />
          </div>
        </div>
      </header>
      <AlertBanner />
      <main id={MAIN_CONTENT_ID} className={styles.main} tabIndex={-1}>
        <div className={styles.content}>
          <Outlet />
        </div>
      </main>
      <SiteFooter />
      {navigation.state === 'loading' ? <FullScreenSpinner /> : null}
      <ScrollRestoration />
    </div>
  );
}
