import type { PaidResponse } from '@tradehost/contracts';
import { useDeferredValue, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { LoadingState } from '../../../shared/ui/states/states';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import type { RouteHandle } from '../../../shared/lib/route-handle';
import { FIRST_SERVERS_PAGE, useGetVpsServersQuery, vpsApi } from '../api/vps-api';
import { RatesSection } from '../components/rates-section';
import type { Notice } from '../components/notice';
import { ServersSection } from '../components/servers-section';
import { useVpsFormat } from '../lib/use-vps-format';

export const VPS_TABS = ['servers', 'rates'] as const;
export type VpsTab = (typeof VPS_TABS)[number];

function tabOf(value: string | null): VpsTab | null {
  return VPS_TABS.includes(value as VpsTab) ? (value as VpsTab) : null;
}

/** The first page of the servers, which the page opens on (unless the address asks for the rates). */
export const handle: RouteHandle = {
  prefetch: (dispatch, url) => {
    if (tabOf(url.searchParams.get('tab')) === 'rates') return;
    dispatch(vpsApi.util.prefetch('getVpsServers', FIRST_SERVERS_PAGE, {}));
  },
};

function orderedNotice(result: PaidResponse): Notice {
  return {
    render: ({ t, money }) =>
      t('ordered', {
        id: result.server.id,
        charged: money(result.charged),
        balance: money(result.balance),
      }),
  };
}

/**
 * Route module (lazy): the VPS page, the signed-in home (SPEC 2: VPS rates and the servers
 * list). The address keeps the section (?tab=servers|rates); without one the page opens My
 * servers when the reader has any, else the rates. The address is left as it is until the
 * reader chooses, so /vps stays /vps.
 */
export function Component() {
  const { t } = useVpsFormat();
  useDocumentTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const panelRef = useRef<HTMLDivElement>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const requested = tabOf(params.get('tab'));
  // the same first page the list asks for: one call serves both
  const first = useGetVpsServersQuery(FIRST_SERVERS_PAGE, { skip: requested !== null });
  const decided: VpsTab | null = first.data
    ? first.data.meta.total > 0
      ? 'servers'
      : 'rates'
    : first.error
      ? 'servers'
      : null;
  // the default holds once found: a later change of the list does not move the reader
  const [fallback, setFallback] = useState<VpsTab | null>(null);
  if (fallback === null && decided !== null) setFallback(decided);
  const tab = requested ?? fallback ?? decided;
  // The section comes in a render that yields to the browser every few milliseconds: once the
  // first answer is in, the list's first render is the page's longest piece of work, and on a
  // phone it would hold the page (an answer's update renders at once, in one task).
  const shownTab = useDeferredValue(tab);

  const selectTab = (next: VpsTab) => {
    setNotice(null);
    setParams((previous) => {
      const nextParams = new URLSearchParams(previous);
      nextParams.set('tab', next);
      return nextParams;
    });
  };

  return (
    <Page title={t('title')} lead={t('description')}>
      {shownTab === null ? (
        <LoadingState>{t('servers.loading')}</LoadingState>
      ) : (
        <Tabs
          label={t('tabs.label')}
          items={VPS_TABS.map((value) => ({ value, label: t(`tabs.${value}`) }))}
          value={shownTab}
          onChange={selectTab}
          panelRef={panelRef}
        >
          {shownTab === 'servers' ? (
            <ServersSection
              notice={notice}
              onNotice={setNotice}
              onOrder={() => selectTab('rates')}
              firstPageFailed={first.isError}
            />
          ) : (
            <RatesSection
              onOrdered={(result) => {
                selectTab('servers');
                setNotice(orderedNotice(result));
              }}
              onOpenServers={() => selectTab('servers')}
            />
          )}
        </Tabs>
      )}
    </Page>
  );
}
