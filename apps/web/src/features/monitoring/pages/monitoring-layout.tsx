import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Page } from '../../../shared/ui/page/page';
import { SectionNav } from '../../../shared/ui/section-nav/section-nav';

const TABS = [
  { to: '/online-monitoring', label: 'tabs.subscription', end: true },
  { to: '/online-monitoring/accounts', label: 'tabs.accounts', end: false },
  { to: '/online-monitoring/portfolios', label: 'portfolio.tab', end: false },
  { to: '/online-monitoring/guide', label: 'tabs.guide', end: false },
] as const;

/**
 * Route module (lazy): the monitoring heading and its sections (subscription, my accounts,
 * portfolios, guide).
 */
export function Component() {
  const { t } = useTranslation('monitoring');
  return (
    <Page title={t('title')}>
      <SectionNav
        label={t('sectionsLabel')}
        items={TABS.map((tab) => ({ to: tab.to, end: tab.end, label: t(tab.label) }))}
      />
      <Outlet />
    </Page>
  );
}
