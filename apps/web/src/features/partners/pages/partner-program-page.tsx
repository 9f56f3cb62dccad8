import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import { NetworkSection } from '../components/network-section';
import { PromocodesSection } from '../components/promocodes-section';
import { StatisticsSection } from '../components/statistics-section';
import { WithdrawalSection } from '../components/withdrawal-section';

export const PARTNER_TABS = ['statistics', 'network', 'promocodes', 'withdrawal'] as const;
export type PartnerTab = (typeof PARTNER_TABS)[number];

const SECTIONS: Record<PartnerTab, () => React.JSX.Element> = {
  statistics: StatisticsSection,
  network: NetworkSection,
  promocodes: PromocodesSection,
  withdrawal: WithdrawalSection,
};

/**
 * Route module (lazy): the partner programme (SPEC 2: statistics, network, promocodes,
 * withdrawal), one tab each; the address keeps the tab (?tab=…), so a reload or Back shows it.
 */
export function Component() {
  const { t } = useTranslation('partners');
  useDocumentTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const panelRef = useRef<HTMLDivElement>(null);
  const requested = params.get('tab') as PartnerTab | null;
  const tab = requested && PARTNER_TABS.includes(requested) ? requested : 'statistics';
  const Section = SECTIONS[tab];

  return (
    <Page title={t('title')} lead={t('description')}>
      <Tabs
        label={t('tabs.label')}
        items={PARTNER_TABS.map((value) => ({ value, label: t(`tabs.${value}`) }))}
        value={tab}
        onChange={(next) => setParams({ tab: next })}
        panelRef={panelRef}
      >
        <Section />
      </Tabs>
    </Page>
  );
}
