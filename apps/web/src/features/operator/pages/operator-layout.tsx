import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Page } from '../../../shared/ui/page/page';
import { SectionNav } from '../../../shared/ui/section-nav/section-nav';
import { Loading } from '../components/states';

const TABS = [
  { to: '/operator', label: 'tabs.queue', end: true },
  { to: '/operator/users', label: 'tabs.users', end: false },
  { to: '/operator/vps/test-servers', label: 'tabs.testServers', end: false },
  { to: '/operator/vps/servers', label: 'tabs.servers', end: false },
  { to: '/operator/vps/operations', label: 'tabs.operations', end: false },
  { to: '/operator/vps/rates', label: 'tabs.rates', end: false },
  { to: '/operator/vps/promocodes', label: 'tabs.promocodes', end: false },
  { to: '/operator/monitoring/subscriptions', label: 'tabs.monitoringSubscriptions', end: false },
  { to: '/operator/monitoring/accounts', label: 'tabs.monitoringAccounts', end: false },
  { to: '/operator/monitoring/prices', label: 'tabs.monitoringPrices', end: false },
  { to: '/operator/partner/withdrawals', label: 'tabs.partnerWithdrawals', end: false },
  { to: '/operator/partner/settings', label: 'tabs.partnerSettings', end: false },
  { to: '/operator/support', label: 'tabs.support', end: false },
  { to: '/operator/faq', label: 'tabs.faq', end: false },
  { to: '/operator/audit', label: 'tabs.audit', end: false },
] as const;

/** Route module (lazy, admins only): the operator heading and its sections. */
export function Component() {
  const { t } = useTranslation('operator');
  return (
    <Page title={t('title')} lead={t('lead')}>
      <SectionNav
        label={t('sectionsLabel')}
        items={TABS.map((tab) => ({ to: tab.to, end: tab.end, label: t(tab.label) }))}
      />
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </Page>
  );
}
